"""JSON Schema of a plain-dict :class:`~pecan_microversions.core.schema.
Schema` resource, per version, as :meth:`Schema.check_body
<pecan_microversions.core.schema.Schema.check_body>` reads a body.

A ``Schema`` declares no types: a field's schema allows any JSON value,
only the values its ``values=`` allows at the version where it lists them
(``enum``), and not ``null`` where it is mandatory.  Otherwise it is a WSME
type's schema (:mod:`pecan_microversions.tools.schemas`): the fields the
version has, ``required`` for mandatory ones, read-only fields (and those
computed at the version) left out of a request body and marked
``readOnly`` in a response; without a version, every served version's
fields with ``x-openstack`` ranges.  A request body holds nothing else
(``additionalProperties: false``; with the registry's ``null_as_absent``,
a field of other versions may be ``null``); a response may hold what the
resource does not declare, which :meth:`~pecan_microversions.core.schema.
Schema.filter` passes on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Protocol

from pecan_microversions.core.schema import Schema
from pecan_microversions.core.version import Version
from pecan_microversions.tools.schema_parts import clip, extension, nullable

__all__ = ['plain_object_schema']

_Range = tuple[Optional[Version], Optional[Version]]


class _Schemas(Protocol):
    """What is read of the :class:`~pecan_microversions.tools.schemas.
    SchemaSet` writing the schema (named so without importing it, which
    imports this module)."""

    version: Optional[Version]
    request: bool
    served: Optional[tuple[Version, Version]]

    def values_schema(self, schema: dict[str, Any],
                      values: Mapping[Any, _Range],
                      served: Optional[tuple[Version, Version]] = None
                      ) -> dict[str, Any]:
        """``schema`` with the enum of ``values``."""


def plain_object_schema(schemas: _Schemas, resource: Schema
                        ) -> dict[str, Any]:
    """The object schema of ``resource`` at ``schemas.version``.

    :raises ~pecan_microversions.core.errors.UnknownVersionError: the
        version is not in the resource's registry.
    """
    version, registry = schemas.version, resource.registry
    if version is not None:
        registry.known_version(version)
    served = schemas.served or (registry.min_version, registry.max_version)
    properties: dict[str, Any] = {}
    required = []
    for name in resource.fields:
        low, high = resource.ranges[name]
        if version is not None:
            if not version.matches(low, high):
                if schemas.request and registry.null_as_absent:
                    properties[name] = {'type': 'null'}  # read as absent
                continue
            at = [version]
        else:
            clipped = clip(low, high, served)
            if clipped is None:
                continue  # only at versions no longer served
            low, high = clipped
            at = [v for v in registry.versions if v.matches(low, high)]
        readonly = all(name in resource.readonly[v] for v in at)
        if readonly and schemas.request:
            continue
        mandatory = any(name in resource.mandatory[v] for v in at)
        schema = _field(schemas, resource, name, served, mandatory)
        if readonly:
            schema['readOnly'] = True
        if mandatory and (version is not None or (low is None
                                                  and high is None)):
            required.append(name)  # (combined: if always there)
        if version is None:
            schema.update(extension(low, high))
        properties[name] = schema
    # filter() passes on what the resource does not declare (links, ...)
    result: dict[str, Any] = {'type': 'object', 'properties': properties}
    if schemas.request:
        result['additionalProperties'] = False
    if required:
        result['required'] = required
    return result


def _field(schemas: _Schemas, resource: Schema, name: str,
           served: tuple[Version, Version], mandatory: bool
           ) -> dict[str, Any]:
    rule = resource.values.get(name)
    if rule is None:  # any JSON value; a mandatory one not null
        return {'not': {'type': 'null'}} if mandatory else {}
    schema = schemas.values_schema({}, {
        value: (r.min_version, r.max_version)
        for value, r in rule.ranges.items()}, served)
    return schema if mandatory else nullable(schema)
