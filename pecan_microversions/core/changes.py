"""What each version changed, derived from the registry's declarations.

Every declaration is a thing (a field, a value, a query parameter, a
method, a sub-resource, ...) with a version range.  A thing is *added* at a
version when it exists there but not at the previous one, *removed* when it
existed at the previous version but not there, and *changed* when it exists
at both through different declarations (a method with a new
implementation, a field with a new type).  The history tools, the CLI and
the Sphinx directive all read :func:`version_changes`.

To add a new kind of change: declare it in the registry with a new
``kind`` (a constant below) and give it a label in :data:`KIND_LABELS`;
every history document then shows it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple, Optional

from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.core.registry import Declaration, VersionRegistry
from pecan_microversions.core.version import Version, VersionLike

__all__ = [
    'FIELD',
    'FIELD_TYPE',
    'FIELD_VALUE',
    'FIELD_VALUE_MAP',
    'COMPUTED_FIELD',
    'KIND_LABELS',
    'METHOD',
    'QUERY_PARAMETER',
    'QUERY_PARAMETER_VALUE',
    'RENAME',
    'RESOURCE',
    'Change',
    'Grouped',
    'MethodChange',
    'VersionChanges',
    'compare',
    'group',
    'method_changes',
    'pair_changes',
    'surface',
    'version_changes',
]

#: A field of a resource (owner: the resource, name: the public name).
FIELD = 'field'
#: A field's datatype over a range (name: the field's public name).
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

#: A value shown as another up to a version (name ``field=new->old``).
FIELD_VALUE_MAP = 'field_value_map'
#: A field computed from the newest object (name: the field).
COMPUTED_FIELD = 'computed_field'

#: Known declaration kinds, in the order documents list them, with their
#: singular and plural labels.  Other kinds follow, alphabetically.
KIND_LABELS: dict[str, tuple[str, str]] = {
    RESOURCE: ('Resource', 'Resources'),
    METHOD: ('Method', 'Methods'),
    FIELD: ('Field', 'Fields'),
    RENAME: ('Renamed field', 'Renamed fields'),
    FIELD_TYPE: ('Field type', 'Field types'),
    FIELD_VALUE: ('Field value', 'Field values'),
    FIELD_VALUE_MAP: ('Value shown as another', 'Values shown as others'),
    COMPUTED_FIELD: ('Computed field', 'Computed fields'),
    QUERY_PARAMETER: ('Query parameter', 'Query parameters'),
    QUERY_PARAMETER_VALUE: ('Query parameter value',
                            'Query parameter values'),
    'behaviour': ('Behaviour', 'Behaviours'),
}

#: ``{kind: {owner: [name, ...]}}``
Grouped = dict[str, dict[str, list[str]]]
_Key = tuple[str, str, str]


class Change(NamedTuple):
    """One declared thing: its ``kind``, ``owner`` and ``name``."""

    kind: str
    owner: str
    name: str


class VersionChanges(NamedTuple):
    """One version of the history and what it did."""

    version: Version
    description: str
    added: tuple[Change, ...]
    removed: tuple[Change, ...]
    changed: tuple[Change, ...]
    deprecation: Optional[Deprecation]

    @property
    def empty(self) -> bool:
        """Whether the version declares no change at all."""
        return not (self.added or self.removed or self.changed)


def surface(registry: VersionRegistry, version: Optional[Version]
             ) -> dict[_Key, tuple[Declaration, ...]]:
    """Every thing that exists at ``version``, with the declarations behind
    it."""
    found: dict[_Key, tuple[Declaration, ...]] = {}
    if version is None:
        return found
    for d in registry.declarations(at=version):
        key = (d.kind, d.owner, d.name)
        found[key] = found.get(key, ()) + (d,)
    declared = {(d.kind, d.owner, d.name) for d in registry.declarations()}
    for key in list(found):
        parent = _parent(key)
        if parent is not None and parent in declared and parent not in found:
            del found[key]  # a value of a field or parameter absent here
    return found


def _parent(key: _Key) -> Optional[_Key]:
    """``('query_parameter', o, 'p')`` for ``('query_parameter_value', o,
    'p=v')``: a value exists only where its field or parameter does."""
    kind, owner, name = key
    if kind.endswith('_value') and '=' in name:
        return kind[:-len('_value')], owner, name.split('=', 1)[0]
    return None


def compare(before: Mapping[_Key, tuple[Declaration, ...]],
             after: Mapping[_Key, tuple[Declaration, ...]]
             ) -> tuple[tuple[Change, ...], ...]:
    """What is added, removed and changed from ``before`` to ``after``; a
    rename or a new type of a field is one change (see
    :func:`pair_changes`)."""
    groups = pair_changes(
        [k for k in after if k not in before],
        [k for k in before if k not in after],
        [k for k in after if k in before and set(before[k]) != set(after[k])])
    return tuple(tuple(sorted((Change(*k) for k in group), key=_sort_key))
                 for group in groups)


def pair_changes(added: list[_Key], removed: list[_Key],
                 changed: list[_Key]
                 ) -> tuple[list[_Key], list[_Key], list[_Key]]:
    """Report renames and retypes as one change each.

    Takes and returns ``(kind, owner, name)`` lists of what was added,
    removed and changed.  A :data:`RENAME` ``old->new`` moves to *changed*
    and takes the old field's removal and the new one's addition with it
    (in either direction of time); a :data:`FIELD_TYPE` added and one
    removed for the same field become one change ``field: old->new``.
    """
    added, removed, changed = list(added), list(removed), list(changed)
    for source in (added, removed):
        for kind, owner, name in [k for k in source if k[0] == RENAME]:
            old, _, new = name.partition('->')
            if source is removed:  # going back in time
                old, new = new, old
            for group, field in ((removed, old), (added, new)):
                if (FIELD, owner, field) in group:
                    group.remove((FIELD, owner, field))
            source.remove((kind, owner, name))
            changed.append((RENAME, owner, f'{old}->{new}'))
    for key in [k for k in added if k[0] == FIELD_TYPE]:
        field, _, new_type = key[2].partition(':')
        old_key = next((k for k in removed if k[0] == FIELD_TYPE
                        and k[1] == key[1]
                        and k[2].partition(':')[0] == field), None)
        if old_key is not None:
            added.remove(key)
            removed.remove(old_key)
            changed.append((FIELD_TYPE, key[1], f'{field}: '
                            f'{old_key[2].partition(":")[2]}->{new_type}'))
    return added, removed, changed


def _sort_key(change: Change) -> tuple[int, str, str, str]:
    order = list(KIND_LABELS)
    rank = order.index(change.kind) if change.kind in KIND_LABELS else len(order)
    return rank, change.kind, change.owner, change.name


def version_changes(registry: VersionRegistry) -> list[VersionChanges]:
    """Per history entry, oldest first: what it added, removed, changed."""
    result = []
    previous: dict[_Key, tuple[Declaration, ...]] = {}
    for entry in registry.history:
        current = surface(registry, entry.version)
        added, removed, changed = compare(previous, current)
        result.append(VersionChanges(
            entry.version, entry.description, added, removed, changed,
            registry.deprecation_at(entry.version)))
        previous = current
    return result


def group(changes: Iterable[Change]) -> Grouped:
    """``{kind: {owner: [name, ...]}}`` in document order."""
    grouped: Grouped = {}
    for c in sorted(changes, key=_sort_key):
        grouped.setdefault(c.kind, {}).setdefault(c.owner, []).append(c.name)
    return grouped


class MethodChange(NamedTuple):
    """What one version did to one method or resource.

    ``change`` is ``'added'``, ``'removed'`` or ``'changed'`` (one
    implementation ended at the previous version and another starts here).
    ``kind`` is :data:`METHOD` or :data:`RESOURCE`; ``owner`` the endpoint
    or controller path; ``name`` the method's name (``'*'`` for a resource).
    """

    change: str
    kind: str
    owner: str
    name: str


def method_changes(registry: VersionRegistry,
                   version: VersionLike) -> list[MethodChange]:
    """The methods and resources ``version`` added, removed or changed.

    :raises ~pecan_microversions.core.errors.UnknownVersionError:
        ``version`` is not in the history.
    """
    added, removed = registry.changes(registry.known_version(version))
    kinds = (METHOD, RESOURCE)
    came = {(d.kind, d.owner, d.name) for d in added if d.kind in kinds}
    went = {(d.kind, d.owner, d.name) for d in removed if d.kind in kinds}
    changes = [MethodChange('changed', *key) for key in came & went]
    changes += [MethodChange('added', *key) for key in came - went]
    changes += [MethodChange('removed', *key) for key in went - came]
    return sorted(changes, key=lambda c: (c.owner, c.name, c.change))
