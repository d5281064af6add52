"""Building blocks of the JSON schemas: WSME's single-value datatypes,
nullability, the rules of an RFC 6902 operation, ``x-openstack`` ranges.

:mod:`pecan_microversions.tools.schemas` assembles them into the schemas
of WSME types per version.
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any, Optional

from wsme import types as wtypes

from pecan_microversions.core.checking import OPERATIONS
from pecan_microversions.core.version import Version

__all__ = ['PATCH_RULES', 'clip', 'extension', 'nullable', 'scalar_schema']

_Range = tuple[Optional[Version], Optional[Version]]
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {'type': 'string'},
    bytes: {'type': 'string'},
    int: {'type': 'integer'},
    float: {'type': 'number'},
    bool: {'type': 'boolean'},
    decimal.Decimal: {'type': 'string', 'format': 'decimal'},
    datetime.datetime: {'type': 'string', 'format': 'date-time'},
    datetime.date: {'type': 'string', 'format': 'date'},
    datetime.time: {'type': 'string', 'format': 'time'},
}
#: What RFC 6902 requires of an operation beyond ``op`` and ``path`` (the
#: ``allOf`` of a JSON-patch operation schema).
PATCH_RULES: tuple[dict[str, Any], ...] = (
    {'if': {'required': ['op'], 'properties': {'op': {'enum': [
        op for op in OPERATIONS if op in ('add', 'replace', 'test')]}}},
     'then': {'required': ['value']}},
    {'if': {'required': ['op'], 'properties': {'op': {'enum': [
        op for op in OPERATIONS if op in ('copy', 'move')]}}},
     'then': {'required': ['from'],
              'properties': {'from': {'type': 'string'}}}},
)


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


def scalar_schema(datatype: Any) -> dict[str, Any]:
    """The schema of a single-value WSME datatype (``wtypes.text``, an
    ``Enum``, a ``StringType``...); ``{}`` (any JSON) for one it does not
    know."""
    if isinstance(datatype, wtypes.Enum):
        schema = dict(_SCALARS.get(datatype.basetype, {}))
        schema['enum'] = sorted(datatype.values, key=str)
        return schema
    if isinstance(datatype, wtypes.StringType):
        schema = {'type': 'string'}
        if datatype.min_length is not None:
            schema['minLength'] = datatype.min_length
        if datatype.max_length is not None:
            schema['maxLength'] = datatype.max_length
        if datatype.pattern is not None:
            schema['pattern'] = datatype.pattern.pattern
        return schema
    if isinstance(datatype, wtypes.IntegerType):
        schema = {'type': 'integer'}
        if datatype.minimum is not None:
            schema['minimum'] = datatype.minimum
        if datatype.maximum is not None:
            schema['maximum'] = datatype.maximum
        return schema
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


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` also allowing ``null`` (changed in place where it can
    be)."""
    kind = schema.get('type')
    if isinstance(kind, str):
        schema['type'] = [kind, 'null']
        if 'enum' in schema:
            schema['enum'] = [*schema['enum'], None]
        return schema
    if '$ref' in schema:
        return {'anyOf': [{'$ref': schema.pop('$ref')}, {'type': 'null'}],
                **schema}
    if 'anyOf' in schema:
        schema['anyOf'] = [*schema['anyOf'], {'type': 'null'}]
    return schema  # else already allows anything
