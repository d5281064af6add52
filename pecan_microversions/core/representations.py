"""How a field looked at older versions: declared changes, framework-free.

A field's *newest* representation is what controllers read and write; each
object below declares how versions up to its ``max_version`` differ:

* :class:`ValueMap`: some values are shown as others (Ironic's pattern: a
  state new at 1.9 shown as an older state to 1.8 clients);
* :class:`Computed`: the value is computed from the newest object (a field
  removed from the newest version that older clients still see);
* :class:`Renamed`: the field had another public name;
* :class:`Retype`: the field had another type, with functions converting a
  value down to it and up from it.

:class:`FieldSpec` gathers one field's range and changes; adapters (WSME
types, plain-dict schemas) build them from their own declarations, and
:class:`~pecan_microversions.core.conversion.Conversion` compiles them.
These objects only describe; :func:`change_bounds` checks them and
:func:`declare_changes` records them in the registry, at import; nothing
here runs per request.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Protocol, Union

from pecan_microversions.core.changes import (
    COMPUTED_FIELD,
    FIELD_TYPE,
    FIELD_VALUE_MAP,
    RENAME,
)
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike

if TYPE_CHECKING:  # for an annotation only: no patching at import
    from pecan_microversions.core.patch_identity import Identity

__all__ = [
    'COMPUTED_FIELD',
    'FIELD_VALUE_MAP',
    'Change',
    'Computed',
    'Converter',
    'FieldSpec',
    'Renamed',
    'Retype',
    'ValueMap',
    'change_bounds',
    'declare_changes',
]



@dataclass(frozen=True)
class ValueMap:
    """Versions up to ``max_version`` see each key of ``down`` as its value.

    :param down: ``{newest value: value older clients see}``.
    :param up: ``{older value: newest value}`` for what older clients send;
        values left out are kept as they are (the default keeps all).
    """

    down: Mapping[Any, Any]
    max_version: VersionLike
    up: Mapping[Any, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Computed:
    """The field's value is ``compute(newest object)`` at versions up to
    ``max_version`` (``None``: every version the field exists at).  A
    computed field is read-only at those versions, declared ``readonly`` or
    not: bodies and patches that set it there are refused, since what
    clients send for it could not be stored.
    ``compute`` must not change what it is given (the response is written
    from the same values).

    :param reads: the newest names of the fields ``compute`` reads; given,
        ``compute`` receives a dict of only those (a field that is not set
        is absent) and nothing else is converted for it.  ``None``: the
        whole newest object.
    :raises InvalidDeclarationError: ``reads`` is a string, or holds
        something other than strings.
    """

    compute: Callable[[Mapping[str, Any]], Any]
    max_version: Optional[VersionLike] = None
    reads: Optional[Collection[str]] = None

    def __post_init__(self) -> None:
        if self.reads is None:
            return
        names = (None if isinstance(self.reads, (str, bytes))
                 or not isinstance(self.reads, Iterable)
                 else tuple(self.reads))
        if names is None or not all(isinstance(n, str) for n in names):
            raise InvalidDeclarationError(
                f'Computed reads must be a collection of field names, not '
                f'{self.reads!r}.')
        object.__setattr__(self, 'reads', tuple(dict.fromkeys(names)))


@dataclass(frozen=True)
class Renamed:
    """The field was called ``old_name`` up to ``max_version``."""

    old_name: str
    max_version: VersionLike


@dataclass(frozen=True)
class Retype:
    """Up to ``max_version`` the field had another type.

    :param down: newest value -> older value (never called with ``None``).
    :param up: older value -> newest value (never called with ``None``).
    :param type_name: the older type's name, for the history.
    :param datatype: the older type as the adapter knows it (a WSME type,
        for instance), used to check what older clients send.
    """

    down: Callable[[Any], Any]
    up: Callable[[Any], Any]
    max_version: VersionLike
    type_name: str = 'value'
    datatype: Any = None


#: One declared change of a field's representation.
Change = Union[ValueMap, Computed, Renamed, Retype]


class Converter(Protocol):
    """Converts values of a nested field (an object, a list, a dict)."""

    def down(self, value: Any, version: Version) -> Any:
        """The newest ``value`` as ``version`` shows it."""

    def up(self, value: Any, version: Version) -> Any:
        """``value`` sent at ``version`` in the newest representation."""

    def merge(self, newest: Any, shown: Any, patched: Any, version: Version,
              identity: Optional[Identity] = None) -> Any:
        """``newest`` with the edits that turned ``shown`` into ``patched``
        (both at ``version``), keeping what ``version`` cannot see;
        ``identity``: which values of ``patched`` a patch kept or moved
        (see :mod:`~pecan_microversions.core.patch_identity`)."""


@dataclass(frozen=True)
class FieldSpec:
    """One field as conversion sees it.

    :param name: the newest public name.
    :param min_version: the first version that has the field (under any
        name); ``None``: every one.
    :param max_version: the last version that has it; ``None``: still there.
    :param changes: its :data:`Change` objects, in any order.
    :param nested: converts the field's values when they are objects (or
        lists or dicts of them) that have versioned fields of their own.
    :param type_name: the newest type's name, for the history of a retype.
    """

    name: str
    min_version: Optional[Version] = None
    max_version: Optional[Version] = None
    changes: tuple[Change, ...] = ()
    nested: Optional[Converter] = None
    type_name: str = 'value'


def change_bounds(registry: VersionRegistry, resource: str,
                  spec: FieldSpec) -> dict[int, Version]:
    """Check ``spec``'s changes; ``{id(change): its max_version}``.

    :raises InvalidDeclarationError: a change is not one of the four
        kinds, or its ``max_version`` is not within the field's versions
        and before its newest one.
    """
    newest = spec.max_version or registry.max_version
    result: dict[int, Version] = {}
    for change in spec.changes:
        what = f'{resource}.{spec.name} {type(change).__name__}'
        if not isinstance(change, (ValueMap, Computed, Renamed, Retype)):
            raise InvalidDeclarationError(
                f'{resource}.{spec.name}: {change!r} is not a '
                'ValueMap, Computed, Renamed or Retype.')
        if change.max_version is None:  # only Computed allows it
            result[id(change)] = newest
            continue
        bound = registry.known_version(change.max_version,
                                            f'{what} max_version')
        if bound >= newest or (spec.min_version is not None
                               and bound < spec.min_version):
            raise InvalidDeclarationError(
                f'{what}: max_version {bound} must be within the field\'s '
                f'versions and before its newest one ({newest}).')
        if isinstance(change, ValueMap) and not change.down:
            raise InvalidDeclarationError(f'{what}: maps no value.')
        if isinstance(change, Retype) and not (callable(change.down)
                                               and callable(change.up)):
            raise InvalidDeclarationError(
                f'{what}: down and up must be functions.')
        result[id(change)] = bound
    return result


def declare_changes(registry: VersionRegistry, resource: str,
                    spec: FieldSpec, bounds: Mapping[int, Version]) -> None:
    """Record ``spec``'s changes in ``registry`` for the history: renames
    (:data:`RENAME`), types (:data:`FIELD_TYPE`), value maps and computed
    fields."""
    low = spec.min_version
    renames = sorted((c for c in spec.changes if isinstance(c, Renamed)),
                     key=lambda c: bounds[id(c)])
    for index, rename in enumerate(renames):
        new = (renames[index + 1].old_name if index + 1 < len(renames)
               else spec.name)
        registry.declare(RENAME, resource, f'{rename.old_name}->{new}',
                         registry.next(bounds[id(rename)]))
    retypes = sorted((c for c in spec.changes if isinstance(c, Retype)),
                     key=lambda c: bounds[id(c)])
    start = low
    for retype in retypes:
        registry.declare(FIELD_TYPE, resource,
                         f'{spec.name}:{retype.type_name}', start,
                         bounds[id(retype)])
        start = registry.next(bounds[id(retype)])
    if retypes:
        registry.declare(FIELD_TYPE, resource,
                         f'{spec.name}:{spec.type_name}', start,
                         spec.max_version)
    for change in spec.changes:
        if isinstance(change, ValueMap):
            for new, old in change.down.items():
                registry.declare(FIELD_VALUE_MAP, resource,
                                 f'{spec.name}={new}->{old}', low,
                                 bounds[id(change)])
        elif isinstance(change, Computed):
            registry.declare(COMPUTED_FIELD, resource, spec.name, low,
                             bounds[id(change)])
