"""JSON Schema (draft 2020-12) of WSME types, per version, from the declarations.

::

    from pecan_microversions.tools.schemas import body_schema, validate_body

    schema = body_schema(Node, '1.4')       # what a 1.4 request body may hold
    validate_body(Node, data, '1.4')        # raises APIError (400) if not

A type's schema at a version has exactly the fields that exist there, the
field values allowed there (``enum``), the WSME constraints (string lengths
and patterns, integer bounds, formats of dates and UUIDs), ``required`` for
mandatory fields and ``additionalProperties: false``.  A request body schema
leaves out read-only fields, which a request may not send; the OpenAPI
documents (:mod:`pecan_microversions.tools.openapi`) use the same schemas with
``readOnly`` marks.  Without a version (``None``) a schema holds every field
and value of every version, each bounded one marked with an ``x-openstack``
extension: ``{"min-ver": "1.1", "max-ver": "1.5"}``.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Mapping
from typing import Any, NamedTuple, Optional

import jsonschema
from wsme import types as wtypes

from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike, as_version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.wsme.fields import binding_of

__all__ = ['DIALECT', 'FieldRanges', 'SchemaSet', 'body_schema', 'extension',
           'field_ranges', 'validate_body']

#: The JSON Schema dialect of every schema here (OpenAPI 3.1's default).
DIALECT = 'https://json-schema.org/draft/2020-12/schema'

_Range = tuple[Optional[Version], Optional[Version]]
_SCALARS: dict[Any, dict[str, Any]] = {
    str: {'type': 'string'},
    bytes: {'type': 'string'},
    int: {'type': 'integer'},
    float: {'type': 'number'},
    bool: {'type': 'boolean'},
    decimal.Decimal: {'type': 'number'},
    datetime.datetime: {'type': 'string', 'format': 'date-time'},
    datetime.date: {'type': 'string', 'format': 'date'},
    datetime.time: {'type': 'string', 'format': 'time'},
}


class FieldRanges(NamedTuple):
    """What ``versioned_resource`` recorded for one WSME type.

    ``fields`` maps each attribute's public name to its ``(first, last)``
    versions (``None``: unbounded); ``values`` maps a field with versioned
    values to each value's range; ``mandatory`` names the fields that are
    mandatory wherever they exist.
    """

    registry: VersionRegistry
    resource: str
    fields: Mapping[str, tuple[Optional[Version], Optional[Version]]]
    values: Mapping[str, Mapping[Any, tuple[Optional[Version],
                                            Optional[Version]]]]
    mandatory: frozenset[str]


def field_ranges(cls: type) -> Optional[FieldRanges]:
    """The version ranges of ``cls``'s fields; ``None`` for a plain type.

    :raises ~pecan_microversions.core.errors.InvalidDeclarationError:
        ``cls`` has versioned attributes but is not bound with
        ``versioned_resource``.
    """
    binding = binding_of(cls)
    if binding is None:
        return None
    return FieldRanges(
        binding.registry, binding.resource, dict(binding.ranges),
        {name: {value: (bounds.min_version, bounds.max_version)
          for value, bounds in rule.ranges.items()}
         for name, rule in binding.values.items()},
        frozenset(name for name, attr in binding.by_name.items()
                  if attr.mandatory
                  or getattr(attr, 'mandatory_when_available', False)))


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


class SchemaSet:
    """The schemas of WSME types at one version (``None``: all of them).

    :meth:`schema` answers a datatype's schema, referring to each complex
    type by ``$ref`` to ``ref_prefix + name``; :attr:`definitions` holds
    those types' schemas by name, filled as they are referred to.

    :param request: leave read-only fields out (request bodies); otherwise
        they are kept and marked ``readOnly``.
    """

    def __init__(self, version: Optional[Version], *,
                 ref_prefix: str = '#/$defs/', request: bool = False) -> None:
        self.version = version
        self.ref_prefix = ref_prefix
        self.request = request
        self.definitions: dict[str, dict[str, Any]] = {}
        self._names: dict[type, str] = {}

    def schema(self, datatype: Any) -> dict[str, Any]:
        """The schema of ``datatype`` (a WSME type, ``[T]`` or ``{K: V}``)."""
        if isinstance(datatype, list):
            datatype = wtypes.ArrayType(datatype[0])
        elif isinstance(datatype, dict):
            datatype = wtypes.DictType(*next(iter(datatype.items())))
        if isinstance(datatype, wtypes.ArrayType):
            return {'type': 'array', 'items': self.schema(datatype.item_type)}
        if isinstance(datatype, wtypes.DictType):
            return {'type': 'object',
                    'additionalProperties': self.schema(datatype.value_type)}
        if isinstance(datatype, type) and wtypes.iscomplex(datatype):
            return {'$ref': self.ref_prefix + self._define(datatype)}
        return _user_type(datatype)

    def _define(self, cls: type) -> str:
        name = self._names.get(cls)
        if name is not None:
            return name
        name, number = cls.__name__, 2
        while name in self.definitions:
            name, number = f'{cls.__name__}{number}', number + 1
        self._names[cls] = name
        self.definitions[name] = {}  # placeholder: recursive types terminate
        self.definitions[name] = self._complex(cls)
        return name

    def _complex(self, cls: type) -> dict[str, Any]:
        ranges = field_ranges(cls)
        properties: dict[str, Any] = {}
        required = []
        for attr in wtypes.list_attributes(cls):
            low, high = (None, None) if ranges is None else ranges.fields[
                attr.name]
            if self.version is not None and not self.version.matches(low,
                                                                    high):
                continue
            if attr.readonly and self.request:
                continue
            mandatory = attr.mandatory or (
                ranges is not None and attr.name in ranges.mandatory)
            values = None if ranges is None else ranges.values.get(attr.name)
            variants = [
                (self._field(datatype, values, attr.readonly, mandatory),
                 bounds)
                for datatype, bounds in _datatypes(cls, attr, self.version,
                                                   (low, high))]
            if len(variants) == 1:
                schema = variants[0][0]
            else:  # combined, retyped: each type with its range
                schema = {'anyOf': [{**v, **extension(*b)}
                                    for v, b in variants]}
                if attr.readonly:
                    schema['readOnly'] = True
            if mandatory and not attr.readonly and (
                    self.version is not None or (low is None
                                                 and high is None)):
                required.append(attr.name)  # (combined: if always there)
            if self.version is None:
                schema.update(extension(low, high))
            properties[attr.name] = schema
        result: dict[str, Any] = {'type': 'object', 'properties': properties,
                                  'additionalProperties': False}
        if required:
            result['required'] = required
        if cls.__doc__:
            result['description'] = cls.__doc__.strip().splitlines()[0]
        return result

    def _field(self, datatype: Any, values: Optional[Mapping[Any, _Range]],
               readonly: bool, mandatory: bool) -> dict[str, Any]:
        schema = self.schema(datatype)
        if values is not None:
            schema = self.values_schema(schema, values)
        if readonly:
            schema['readOnly'] = True
        if not mandatory:  # a response shows null for no value
            schema = _nullable(schema)
        return schema

    def values_schema(self, schema: dict[str, Any],
                values: Mapping[Any, _Range]) -> dict[str, Any]:
        schema = {k: v for k, v in schema.items() if k != 'enum'}
        if self.version is None:
            schema['enum'] = sorted(values, key=str)
            bounded = {str(value): extension(*bounds)['x-openstack']
                       for value, bounds in values.items() if any(bounds)}
            if bounded:
                schema['x-openstack'] = {'values': bounded}
        else:
            schema['enum'] = sorted(
                (value for value, bounds in values.items()
                 if self.version.matches(*bounds)), key=str)
        return schema


def _datatypes(cls: type, attr: Any, version: Optional[Version],
               bounds: _Range) -> list[tuple[Any, _Range]]:
    """The datatypes of a field and the range of each: the one at
    ``version``, or (``None``) each ``Retype``'s and the newest."""
    binding = binding_of(cls)
    if binding is None:
        return [(attr.datatype, bounds)]
    if version is not None:
        return [(binding.datatype_at(attr.name, version), bounds)]
    low, high = bounds
    found: list[tuple[Any, _Range]] = []
    for last, datatype in binding.retyped.get(attr.name, ()):
        end = last if high is None else min(last, high)
        if low is None or low <= end:
            found.append((datatype, (low, end)))
        low = binding.registry.next(last)
        if low is None or (high is not None and low > high):
            return found
    return [*found, (attr.datatype, (low, high))]


def _user_type(datatype: Any) -> dict[str, Any]:
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


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get('type')
    if isinstance(kind, str):
        schema['type'] = [kind, 'null']
        if 'enum' in schema:
            schema['enum'] = [*schema['enum'], None]
        return schema
    if '$ref' in schema:
        return {'anyOf': [{'$ref': schema.pop('$ref')}, {'type': 'null'}],
                **schema}
    return schema  # already allows anything


def body_schema(datatype: Any, version: Optional[VersionLike],
                *, request: bool = True) -> dict[str, Any]:
    """A self-contained JSON Schema for ``datatype`` at ``version``.

    :param version: ``'X.Y'`` or a :class:`Version`; ``None`` for every
        version with ``x-openstack`` ranges.
    :param request: for a request body (read-only fields left out) or,
        ``False``, a response body.
    :raises ~pecan_microversions.core.errors.RegistryError: a versioned type is
        not bound to a registry, or the version is not in its history.
    """
    at = None if version is None else as_version(version)
    schemas = SchemaSet(at, request=request)
    schema = {'$schema': DIALECT, **schemas.schema(datatype)}
    _check_known(schemas, at)
    if schemas.definitions:
        schema['$defs'] = schemas.definitions
    return schema


def _check_known(schemas: SchemaSet, version: Optional[Version]) -> None:
    if version is None:
        return
    for cls in schemas._names:
        ranges = field_ranges(cls)
        if ranges is not None:
            ranges.registry.known_version(version)


def validate_body(datatype: Any, data: Any, version: VersionLike) -> None:
    """Validate a request body with :mod:`jsonschema` against
    :func:`body_schema`.

    :raises ~pecan_microversions.pecan.errors.APIError: 400
        ``microversion.schema_violation`` naming the JSON pointer of the
        first problem, in the library's errors format.
    """
    schema = body_schema(datatype, version)
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return
    pointer = ''.join(f'/{part}' for part in error.absolute_path) or '/'
    raise APIError(
        f'The request body does not match the version {as_version(version)} '
        f'schema at {pointer}: {error.message}',
        error_code='microversion.schema_violation', pointer=pointer)
