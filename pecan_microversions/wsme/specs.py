"""The fields of a WSME type as conversion sees them, and its renames.

:func:`field_specs` turns a bound type's attributes into
:class:`~pecan_microversions.core.representations.FieldSpec` objects: a
``replaces`` chain becomes its newest attribute with ``Renamed`` changes,
and each field carries its ``changes=`` and its type's name;
:func:`rename_groups` checks and chains the ``replaces`` declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from wsme import types as wtypes

from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import FieldSpec, Renamed, Retype
from pecan_microversions.core.version import Version

__all__ = ['field_specs', 'older_types', 'rename_groups', 'type_name']


def field_specs(attributes: list[Any], groups: tuple[tuple[str, ...], ...],
                 ranges: Mapping[str, tuple[Optional[Version],
                                            Optional[Version]]]
                 ) -> tuple[FieldSpec, ...]:
    """One :class:`FieldSpec` per field; a ``replaces`` chain becomes its
    newest attribute with :class:`Renamed` changes."""
    by_key = {a.key: a for a in attributes}
    chains = {group[0]: group[1:] for group in groups}
    older = {key for group in groups for key in group[1:]}
    specs = []
    for attr in attributes:
        if attr.key in older:
            continue
        low, high = ranges[attr.name]
        changes = list(getattr(attr, 'changes', ()))
        for key in chains.get(attr.key, ()):
            old = by_key[key]
            old_low, old_high = ranges[old.name]
            changes.append(Renamed(old.name, old_high))  # type: ignore[arg-type]
            low = old_low
        specs.append(FieldSpec(attr.name, low, high, tuple(changes),
                               type_name=type_name(attr.datatype)))
    return tuple(specs)


def type_name(datatype: Any) -> str:
    """A short name of a WSME datatype for the history (``string``, ...)."""
    if isinstance(datatype, wtypes.ArrayType):
        return f'list of {type_name(datatype.item_type)}'
    if isinstance(datatype, wtypes.DictType):
        return f'dict of {type_name(datatype.value_type)}'
    if isinstance(datatype, wtypes.UserType):
        return str(getattr(datatype, 'name', None) or type(datatype).__name__)
    if datatype in (str, wtypes.text, bytes):
        return 'string'
    if isinstance(datatype, type) and wtypes.iscomplex(datatype):
        return 'object'
    return getattr(datatype, '__name__', None) or str(datatype)


def older_types(registry: VersionRegistry, specs: tuple[FieldSpec, ...]
                ) -> dict[str, tuple[tuple[Version, Any], ...]]:
    """Per retyped field: ``(max_version, older datatype)`` pairs, oldest
    first, as :class:`Retype` declares them."""
    return {spec.name: tuple(sorted(
        ((registry.known_version(c.max_version), c.datatype)
         for c in spec.changes if isinstance(c, Retype)),
        key=lambda pair: pair[0]))
        for spec in specs if any(isinstance(c, Retype) for c in spec.changes)}


def rename_groups(cls: type, attributes: list[Any],
                   ranges: Mapping[str, tuple[Optional[Version],
                                              Optional[Version]]]
                   ) -> tuple[tuple[str, ...], ...]:
    """Chains of renames (``replaces``) as tuples of keys, checked."""
    by_key = {a.key: a for a in attributes}
    parent: dict[str, str] = {}
    for attr in attributes:
        old = getattr(attr, 'replaces', None)
        if old is None:
            continue
        where = f'{cls.__qualname__}.{attr.key}'
        if old not in by_key or old == attr.key:
            raise InvalidDeclarationError(
                f'{where} replaces {old!r}, which is not another attribute of '
                f'{cls.__qualname__}.')
        if old in parent.values():
            raise InvalidDeclarationError(
                f'{where} replaces {old!r}, which another attribute already '
                'replaces.')
        new_low = ranges[by_key[attr.key].name][0]
        old_high = ranges[by_key[old].name][1]
        if new_low is None or old_high is None or old_high >= new_low:
            raise InvalidDeclarationError(
                f'{where} replaces {old!r}: {old!r} needs a max_version '
                f'below the min_version of {attr.key!r} (got max_version='
                f'{old_high}, min_version={new_low}).')
        parent[attr.key] = old
    groups: list[tuple[str, ...]] = []
    for attr in attributes:  # start from each chain's newest member
        key = attr.key
        if key in parent and key not in parent.values():
            chain = [key]
            while chain[-1] in parent:
                chain.append(parent[chain[-1]])
            groups.append(tuple(chain))
    return tuple(groups)
