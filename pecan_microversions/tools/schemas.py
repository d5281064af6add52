"""JSON Schema (draft 2020-12) of WSME types and plain-dict ``Schema``
resources, per version, from the declarations.

::

    from pecan_microversions.tools.schemas import body_schema, validate_body

    schema = body_schema(Node, '1.4')       # what a 1.4 request body may hold
    validate_body(Node, data, '1.4')        # raises APIError (400) if not

A type's schema at a version has exactly the fields that exist there, the
field values allowed there (``enum``), the WSME constraints (string lengths
and patterns, integer bounds, formats of dates and UUIDs), ``required`` for
mandatory fields and ``additionalProperties: false``.  A request body schema
leaves out read-only fields (and those computed at the version), which a
request may not send; the OpenAPI documents
(:mod:`pecan_microversions.tools.openapi`) use the same schemas with
``readOnly`` marks.  Without a version (``None``) a schema holds every field
and value of every served version, each bounded one marked with an
``x-openstack`` extension: ``{"min-ver": "1.1", "max-ver": "1.5"}``.

A list field declared with ``values=`` has its ``enum`` under ``items``;
values are written as WSME writes them.  A ``decimal.Decimal`` is written
as a JSON string (``"1.50"``) and read from a string or a number:
``{"type": "string", "format": "decimal", "pattern": ...}``, or a number,
in a request body; a response schema marks the number ``writeOnly`` (only
requests send one).  Its values are strings and, where a request can send
one, numbers (see
:func:`~pecan_microversions.tools.schema_parts.decimal_schema`).  A
:class:`~pecan_microversions.wsme.checking.JsonPatchOperation` requires
``value`` for ``add``, ``replace`` and ``test`` and a ``from`` string for
``copy`` and ``move``.  A plain-dict
:class:`~pecan_microversions.core.schema.Schema`, which declares no types,
is described as :mod:`~pecan_microversions.tools.plain_schemas` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Optional

import jsonschema
from wsme import types as wtypes

from pecan_microversions.core.errors import InvalidVersion, UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.schema import Schema
from pecan_microversions.core.version import Version, VersionLike, as_version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.tools.plain_schemas import plain_object_schema
from pecan_microversions.tools.schema_fields import (
    computed_at,
    field_datatypes,
)
from pecan_microversions.tools.schema_parts import (
    clip,
    enum_schema,
    extension,
    json_value,
    nullable,
    patch_rules,
    scalar_schema,
)
from pecan_microversions.wsme.checking import JsonPatchOperation
from pecan_microversions.wsme.fields import binding_of

__all__ = ['DIALECT', 'FieldRanges', 'MalformedVersionError', 'SchemaSet',
           'body_schema', 'extension', 'field_ranges', 'validate_body']

#: The JSON Schema dialect of every schema here (OpenAPI 3.1's default).
DIALECT = 'https://json-schema.org/draft/2020-12/schema'

_Range = tuple[Optional[Version], Optional[Version]]


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


class SchemaSet:
    """The schemas of WSME types at one version (``None``: all of them).

    :meth:`schema` answers a datatype's schema, referring to each complex
    type by ``$ref`` to ``ref_prefix + name``; :attr:`definitions` holds
    those types' schemas by name, filled as they are referred to.

    :param request: leave read-only fields out (request bodies); otherwise
        they are kept and marked ``readOnly``.
    :param served: without a version, the versions served (default: each
        type's registry's ``min_version`` to ``max_version``); what exists
        only outside them is left out, ranges are clipped to them.
    """

    def __init__(self, version: Optional[Version], *,
                 ref_prefix: str = '#/$defs/', request: bool = False,
                 served: Optional[tuple[Version, Version]] = None) -> None:
        self.version = version
        self.ref_prefix = ref_prefix
        self.request = request
        self.served = served
        self.definitions: dict[str, dict[str, Any]] = {}
        self._names: dict[type, str] = {}
        self._named: dict[str, str] = {}

    def schema(self, datatype: Any) -> dict[str, Any]:
        """The schema of ``datatype`` (a WSME type, ``[T]`` or ``{K: V}``,
        or a plain-dict :class:`~pecan_microversions.core.schema.Schema`:
        see :mod:`~pecan_microversions.tools.plain_schemas`)."""
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
        if isinstance(datatype, Schema):  # a plain-dict resource
            return self.named(datatype.resource,
                              plain_object_schema(self, datatype))
        return scalar_schema(datatype, request=self.request)

    def named(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        """A ``$ref`` to ``schema``, defined once as ``name`` (or
        ``name2``... when a type took that name)."""
        found = self._named.get(name)
        if found is None:
            found, number = name, 2
            while found in self.definitions:
                found, number = f'{name}{number}', number + 1
            self._named[name] = found
            self.definitions[found] = schema
        return {'$ref': self.ref_prefix + found}

    def defined_as(self, name: str) -> Optional[str]:
        """The name :meth:`named` defined ``name``'s schema under, if it
        did."""
        return self._named.get(name)

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
        served = self._served(ranges)
        properties: dict[str, Any] = {}
        required = []
        for attr in wtypes.list_attributes(cls):
            low, high = (None, None) if ranges is None else ranges.fields[
                attr.name]
            if self.version is not None and not self.version.matches(low,
                                                                    high):
                if (self.request and ranges is not None
                        and ranges.registry.null_as_absent):
                    properties[attr.name] = {'type': 'null'}  # as absent
                continue
            if self.version is None and served is not None:
                clipped = clip(low, high, served)
                if clipped is None:
                    continue  # only at versions no longer served
                low, high = clipped
            computed = computed_at(cls, attr.name, self.version,
                                   (low, high), served)
            readonly = attr.readonly or (bool(computed) and all(computed))
            if readonly and self.request:
                continue
            mandatory = attr.mandatory or (
                ranges is not None and attr.name in ranges.mandatory)
            values = None if ranges is None else ranges.values.get(attr.name)
            variants = [
                (self._field(datatype, values, readonly, mandatory,
                             served), bounds)
                for datatype, bounds in field_datatypes(
                    cls, attr, self.version, (low, high), served)]
            if len(variants) == 1:
                schema = variants[0][0]
            else:  # combined, retyped: each type with its range
                schema = {'anyOf': [{**v, **extension(*b)}
                                    for v, b in variants]}
                if readonly:
                    schema['readOnly'] = True
            if mandatory and not readonly and not any(computed) and (
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
        if issubclass(cls, JsonPatchOperation):
            result['allOf'] = patch_rules()
        return result

    def _served(self, ranges: Optional[FieldRanges]
                ) -> Optional[tuple[Version, Version]]:
        if self.served is not None or ranges is None:
            return self.served
        return ranges.registry.min_version, ranges.registry.max_version

    def _field(self, datatype: Any, values: Optional[Mapping[Any, _Range]],
               readonly: bool, mandatory: bool,
               served: Optional[tuple[Version, Version]]) -> dict[str, Any]:
        schema = self.schema(datatype)
        if values is not None and schema.get('type') == 'array':
            # values= of a list field: what each item may be
            schema['items'] = self.values_schema(schema['items'], values,
                                                 served)
        elif values is not None:
            schema = self.values_schema(schema, values, served)
        else:
            _null_items(schema)
        if readonly:
            schema['readOnly'] = True
        if not mandatory:  # a response shows null for no value
            schema = nullable(schema)
        return schema

    def values_schema(self, schema: dict[str, Any],
                      values: Mapping[Any, _Range],
                      served: Optional[tuple[Version, Version]] = None
                      ) -> dict[str, Any]:
        """``schema`` with the ``enum`` of ``values`` (each value's range)
        at this set's version; without one, every value of the ``served``
        versions, bounded ones listed in ``x-openstack`` ``values``.

        Values are written as WSME writes them (a decimal or a date as a
        string); a request may send a decimal value as that string or as
        a number equal to it, as the library reads both
        (:func:`~pecan_microversions.tools.schema_parts.decimal_schema`).
        """
        if self.version is None:
            clipped = {value: bounds if served is None
                       else clip(*bounds, served)
                       for value, bounds in values.items()}
            kept = {v: b for v, b in clipped.items() if b is not None}
            schema = enum_schema(schema, kept, request=self.request)
            bounded = {str(json_value(value)): extension(*bounds)[
                'x-openstack'] for value, bounds in kept.items()
                if any(bounds)}
            if bounded:
                schema['x-openstack'] = {'values': bounded}
            return schema
        return enum_schema(schema, [
            value for value, bounds in values.items()
            if self.version.matches(*bounds)], request=self.request)


def _null_items(schema: dict[str, Any]) -> None:
    """Let ``schema``'s list items and dict values be null, in place (and
    theirs): WSME reads and writes a null item of any type as ``None``,
    and the request checks take it (``values=`` on a list refuses it,
    its ``enum`` too)."""
    for member in ('items', 'additionalProperties'):
        inner = schema.get(member)
        if isinstance(inner, dict) and schema.get('type') in (
                'array' if member == 'items' else 'object',):
            _null_items(inner)
            schema[member] = nullable(inner)


def body_schema(datatype: Any, version: Optional[VersionLike],
                *, request: bool = True,
                registry: Optional[VersionRegistry] = None
                ) -> dict[str, Any]:
    """A self-contained JSON Schema for ``datatype`` at ``version``.

    :param version: ``'X.Y'`` or a :class:`Version`; ``None`` for every
        version with ``x-openstack`` ranges.
    :param request: for a request body (read-only fields left out) or,
        ``False``, a response body.
    :param registry: the history ``version`` must be in; the registry of
        every versioned type in ``datatype`` checks it too.  (A plain type
        without it has the same schema at any well-formed version.)
    :raises ~pecan_microversions.core.errors.RegistryError: a versioned type is
        not bound to a registry;
        :class:`~pecan_microversions.core.errors.UnknownVersionError` when
        ``version`` is not in a history, and its subclass
        :class:`MalformedVersionError` (also an
        :class:`~pecan_microversions.core.errors.InvalidVersion`) when it
        is malformed (``'1.01'``, ``'latest'``).
    """
    at = None if version is None else _version(version, registry)
    schemas = SchemaSet(at, request=request)
    schema = {'$schema': DIALECT, **schemas.schema(datatype)}
    _check_known(schemas, at)
    if schemas.definitions:
        schema['$defs'] = schemas.definitions
    return schema


class MalformedVersionError(UnknownVersionError, InvalidVersion):
    """A version given to :func:`body_schema` or :func:`validate_body` is
    malformed (``'1.01'``, ``'latest'``).

    It is an :class:`~pecan_microversions.core.errors.UnknownVersionError`,
    as documented, and also the
    :class:`~pecan_microversions.core.errors.InvalidVersion` these
    functions raised before, so code catching either still does.
    """


def _version(version: VersionLike,
             registry: Optional[VersionRegistry]) -> Version:
    try:
        parsed = as_version(version)
    except InvalidVersion as exc:
        raise MalformedVersionError(f'version: {exc}') from None
    return parsed if registry is None else registry.known_version(parsed)


def _check_known(schemas: SchemaSet, version: Optional[Version]) -> None:
    if version is None:
        return
    for cls in schemas._names:
        ranges = field_ranges(cls)
        if ranges is not None:
            ranges.registry.known_version(version)


def validate_body(datatype: Any, data: Any, version: VersionLike, *,
                  registry: Optional[VersionRegistry] = None) -> None:
    """Validate a request body with :mod:`jsonschema` against
    :func:`body_schema` (which raises for a bad ``version``: an
    ``UnknownVersionError``, a :class:`MalformedVersionError` if it is
    malformed).

    :raises ~pecan_microversions.pecan.errors.APIError: 400
        ``microversion.schema_violation`` naming the JSON pointer of the
        first problem, in the library's errors format.
    """
    at = _version(version, registry)
    schema = body_schema(datatype, at, registry=registry)
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return
    pointer = ''.join(f'/{part}' for part in error.absolute_path) or '/'
    raise APIError(
        f'The request body does not match the version {at} '
        f'schema at {pointer}: {error.message}',
        error_code='microversion.schema_violation', pointer=pointer)
