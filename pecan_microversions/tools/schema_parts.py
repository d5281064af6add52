"""Building blocks of the JSON schemas: WSME's single-value datatypes,
values as JSON, nullability, the rules of an RFC 6902 operation,
``x-openstack`` ranges.

:mod:`pecan_microversions.tools.schemas` assembles them into the schemas
of WSME types per version.

A ``decimal.Decimal`` is written by WSME as a string (``str(value)``) and
read from a string or a number (:func:`decimal_schema`).  A value listed
in an ``enum`` is written as WSME writes it (:func:`json_value`); a decimal
value is a string and, where a request may send it as a number, the number
that reads back as exactly that value (a JSON number is read as a binary
float: ``1.5`` can be sent as a number, ``0.1`` cannot).
"""

from __future__ import annotations

import copy
import datetime
import decimal
from collections.abc import Iterable
from typing import Any, Optional, Union

from wsme import types as wtypes

from pecan_microversions.core.checking import OPERATIONS
from pecan_microversions.core.version import Version

__all__ = ['DECIMAL_PATTERN', 'PATCH_RULES', 'clip', 'decimal_schema',
           'enum_schema', 'extension', 'is_decimal', 'json_value', 'nullable',
           'patch_rules', 'scalar_schema']

_Range = tuple[Optional[Version], Optional[Version]]
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {'type': 'string'},
    bytes: {'type': 'string'},
    int: {'type': 'integer'},
    float: {'type': 'number'},
    bool: {'type': 'boolean'},
    datetime.datetime: {'type': 'string', 'format': 'date-time'},
    datetime.date: {'type': 'string', 'format': 'date'},
    datetime.time: {'type': 'string', 'format': 'time'},
}
#: The strings ``decimal.Decimal`` writes (``str(value)``): ``"1.50"``,
#: ``"1E+3"``, ``"-Infinity"``, ``"NaN"``.  WSME also reads a few other
#: spellings (``" 1.5"``, ``"1_000"``, ``"inf"``); text that is no number
#: (``"abc"``) it refuses.
DECIMAL_PATTERN = (r'^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$'
                   r'|^[+-]?(Infinity|s?NaN[0-9]*)$')
#: What RFC 6902 requires of an operation beyond ``op`` and ``path`` (the
#: ``allOf`` of a JSON-patch operation schema).  Shared: use
#: :func:`patch_rules` for a copy to put in a document.
PATCH_RULES: tuple[dict[str, Any], ...] = (
    {'if': {'required': ['op'], 'properties': {'op': {'enum': [
        op for op in OPERATIONS if op in ('add', 'replace', 'test')]}}},
     'then': {'required': ['value']}},
    {'if': {'required': ['op'], 'properties': {'op': {'enum': [
        op for op in OPERATIONS if op in ('copy', 'move')]}}},
     'then': {'required': ['from'],
              'properties': {'from': {'type': 'string'}}}},
)


def patch_rules() -> list[dict[str, Any]]:
    """A fresh (deep) copy of :data:`PATCH_RULES`, for a document its
    caller may change."""
    return copy.deepcopy(list(PATCH_RULES))


def clip(low: Optional[Version], high: Optional[Version],
         served: tuple[Version, Version]) -> Optional[_Range]:
    """The part of the range ``low`` to ``high`` within ``served``, each
    bound ``None`` where it reaches the served range's end; ``None`` when
    no served version is in the range."""
    first, last = served
    if (low is not None and low > last) or (high is not None
                                            and high < first):
        return None
    return (None if low is None or low <= first else low,
            None if high is None or high >= last else high)


def extension(low: Optional[Version], high: Optional[Version]
              ) -> dict[str, Any]:
    """``{'x-openstack': {'min-ver': ..., 'max-ver': ...}}`` for a bounded
    range, ``{}`` for an unbounded one."""
    bounds = {}
    if low is not None:
        bounds['min-ver'] = str(low)
    if high is not None:
        bounds['max-ver'] = str(high)
    return {'x-openstack': bounds} if bounds else {}


def scalar_schema(datatype: Any, *, request: bool = False) -> dict[str, Any]:
    """The schema of a single-value WSME datatype (``wtypes.text``, an
    ``Enum``, a ``StringType``...); ``{}`` (any JSON) for one it does not
    know.

    :param request: for request bodies only (see :func:`decimal_schema`).
    """
    if getattr(datatype, 'basetype', datatype) is decimal.Decimal:
        values = (datatype.values if isinstance(datatype, wtypes.Enum)
                  else None)  # WSME's Enum reads any string equal to one
        return decimal_schema(values, request=request)
    if isinstance(datatype, wtypes.Enum):
        return enum_schema(dict(_SCALARS.get(datatype.basetype, {})),
                           datatype.values)
    if isinstance(datatype, wtypes.StringType):
        pattern = datatype.pattern
        return _bounded({'type': 'string'}, minLength=datatype.min_length,
                        maxLength=datatype.max_length,
                        pattern=None if pattern is None else pattern.pattern)
    if isinstance(datatype, wtypes.IntegerType):
        return _bounded({'type': 'integer'}, minimum=datatype.minimum,
                        maximum=datatype.maximum)
    formats = {wtypes.UuidType: 'uuid', wtypes.IPv4AddressType: 'ipv4',
               wtypes.IPv6AddressType: 'ipv6'}
    for kind, name in formats.items():
        if isinstance(datatype, kind):
            return {'type': 'string', 'format': name}
    if isinstance(datatype, wtypes.BinaryType):
        return {'type': 'string', 'contentEncoding': 'base64'}
    if isinstance(datatype, wtypes.UserType):
        if getattr(datatype, 'name', None) == 'json':
            return {}  # any JSON value
        return dict(_SCALARS.get(datatype.basetype, {}))
    return dict(_SCALARS.get(datatype, {}))


def _bounded(schema: dict[str, Any], **keywords: Any) -> dict[str, Any]:
    """``schema`` with each keyword whose value is set (a datatype's
    bounds)."""
    schema.update((k, v) for k, v in keywords.items() if v is not None)
    return schema


def json_value(value: Any) -> Any:
    """A declared value as WSME writes it in JSON: a decimal as
    ``str(value)``, a date, time or datetime in ISO 8601, bytes as ASCII
    text."""
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode('ascii')
    return value


def _decimal_number(value: decimal.Decimal) -> Union[int, float, None]:
    """The JSON number read back as exactly ``value`` (an integer as
    itself, a fraction only if a binary float holds it), else ``None``."""
    if not value.is_finite():
        return None
    if value == value.to_integral_value():
        return int(value)
    number = float(value)
    return number if decimal.Decimal(number) == value else None


def decimal_schema(values: Optional[Iterable[decimal.Decimal]] = None, *,
                   strings: bool = True, request: bool = False
                   ) -> dict[str, Any]:
    """The schema of a ``decimal.Decimal``, written as a JSON string and
    read from a string or a number.

    :param values: the values allowed (``None``: any decimal).
    :param strings: whether a request may send a value as a string (WSME
        and the library's ``values=`` checks read one).
    :param request: a request body's schema: only what a request may
        send.  Otherwise (responses, the OpenAPI documents' shared
        schemas) the string is what responses carry, marked ``readOnly``
        when requests may not send it, and the number is ``writeOnly``.
    """
    text: dict[str, Any] = {'type': 'string', 'format': 'decimal'}
    number: dict[str, Any] = {'type': 'number'}
    if values is None:
        text['pattern'] = DECIMAL_PATTERN
    else:
        listed = sorted(set(values), key=str)
        text['enum'] = [str(v) for v in listed]
        numbers = (_decimal_number(v) for v in listed)
        number['enum'] = [n for n in numbers if n is not None]
    branches = []
    if strings or not request:
        branches.append(text if strings else {**text, 'readOnly': True})
    if number.get('enum', True):  # a number can be sent
        branches.append(number if request else {**number, 'writeOnly': True})
    if not branches:  # nothing a request can send equals a value
        return {'not': {}}
    return branches[0] if len(branches) == 1 else {'anyOf': branches}


def is_decimal(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` is one :func:`decimal_schema` wrote."""
    return schema.get('format') == 'decimal' or any(
        b.get('format') == 'decimal' for b in schema.get('anyOf', ()))


def enum_schema(schema: dict[str, Any], values: Iterable[Any], *,
                strings: bool = True, request: bool = False
                ) -> dict[str, Any]:
    """``schema`` (a new dict) allowing only ``values``, written as WSME
    writes them; a decimal's as :func:`decimal_schema` says (``strings``
    and ``request`` are its)."""
    if is_decimal(schema):
        return decimal_schema(values, strings=strings, request=request)
    result = {k: v for k, v in schema.items() if k != 'enum'}
    result['enum'] = [json_value(v) for v in sorted(values, key=str)]
    return result


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` also allowing ``null`` (changed in place where it can
    be)."""
    if 'enum' in schema and None not in schema['enum']:
        schema['enum'] = [*schema['enum'], None]  # beside a type or anyOf
    kind = schema.get('type')
    if isinstance(kind, str):
        schema['type'] = [kind, 'null']
        return schema
    if '$ref' in schema:
        return {'anyOf': [{'$ref': schema.pop('$ref')}, {'type': 'null'}],
                **schema}
    if 'anyOf' in schema:
        schema['anyOf'] = [*schema['anyOf'], {'type': 'null'}]
    if schema.get('not') == {}:  # nothing else is allowed
        return {**{k: v for k, v in schema.items() if k != 'not'},
                'type': 'null'}
    return schema  # else already allows anything
