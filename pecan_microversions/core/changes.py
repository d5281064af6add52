"""What each version changed, as first-class objects derived from the
registry's declarations.

Every declaration is a thing (a field, a value, a query parameter, a
method, a sub-resource, ...) with a version range; a version *adds* the
things whose range starts there and *removes* those whose range ended just
before it.  :func:`version_changes` turns that into :class:`Change` objects;
a rename or a retype is reported as one change rather than a removal plus
an addition.

To add a new kind of change: declare it in the registry with a new
``kind`` (a constant below), and give :data:`KIND_LABELS` its wording; the
history, the CLI and the Sphinx directive then show it.
"""

from __future__ import annotations

from typing import NamedTuple

from pecan_microversions.core.registry import Declaration, VersionRegistry
from pecan_microversions.core.version import VersionLike

__all__ = [
    'FIELD',
    'FIELD_TYPE',
    'FIELD_VALUE',
    'KIND_LABELS',
    'METHOD',
    'QUERY_PARAMETER',
    'QUERY_PARAMETER_VALUE',
    'RENAME',
    'RESOURCE',
    'Change',
    'MethodChange',
    'method_changes',
    'version_changes',
]

#: A field of a resource (owner: the resource, name: the public name).
FIELD = 'field'
#: A field's datatype over a range (name: ``field:type``).
FIELD_TYPE = 'field_type'
#: A value of a field (name: ``field=value``).
FIELD_VALUE = 'field_value'
#: A field's earlier public name (name: ``old->new``).
RENAME = 'rename'
#: A query parameter of a method (owner: ``'GET /v1/things'``).
QUERY_PARAMETER = 'query_parameter'
#: A value of a query parameter (name: ``param=value``).
QUERY_PARAMETER_VALUE = 'query_parameter_value'
#: An implementation of a versioned controller method.
METHOD = 'method'
#: A versioned sub-resource (a URL subtree; name ``*``).
RESOURCE = 'resource'

#: How the history names each kind.
KIND_LABELS = {
    FIELD: 'field',
    FIELD_TYPE: 'field type',
    FIELD_VALUE: 'field value',
    RENAME: 'renamed field',
    QUERY_PARAMETER: 'query parameter',
    QUERY_PARAMETER_VALUE: 'query parameter value',
    METHOD: 'method',
    RESOURCE: 'resource',
}


class Change(NamedTuple):
    """What one version did to one declared thing.

    ``change`` is ``'added'``, ``'removed'`` or ``'changed'`` (one range of
    the thing ended at the previous version and another starts here, as
    for a method's new implementation or a field's new type).
    """

    change: str
    kind: str
    owner: str
    name: str


def version_changes(registry: VersionRegistry,
                    version: VersionLike) -> list[Change]:
    """Everything ``version`` added, removed or changed, sorted.

    :raises ~pecan_microversions.core.errors.UnknownVersionError:
        ``version`` is not in the history.
    """
    added, removed = registry.changes(registry.known_version(version))
    came = {_key(d) for d in added}
    went = {_key(d) for d in removed}
    changes = [Change('changed', *key) for key in came & went]
    changes += [Change('added', *key) for key in came - went]
    changes += [Change('removed', *key) for key in went - came]
    return sorted(changes, key=lambda c: (c.kind, c.owner, c.name, c.change))


def _key(declaration: Declaration) -> tuple[str, str, str]:
    name = declaration.name
    if declaration.kind == FIELD_TYPE:
        name = name.partition(':')[0]  # a new type of the same field
    return declaration.kind, declaration.owner, name


#: A method or resource change (kept for the method history's callers).
MethodChange = Change


def method_changes(registry: VersionRegistry,
                   version: VersionLike) -> list[Change]:
    """The methods and resources ``version`` added, removed or changed.

    :raises ~pecan_microversions.core.errors.UnknownVersionError:
        ``version`` is not in the history.
    """
    return sorted((c for c in version_changes(registry, version)
                   if c.kind in (METHOD, RESOURCE)),
                  key=lambda c: (c.owner, c.name, c.change))
