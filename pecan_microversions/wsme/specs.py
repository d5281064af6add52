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

from pecan_microversions.core import field_rules
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
    """Chains of renames (``replaces``) as tuples of keys, checked as a
    plain-dict schema's are (:func:`~pecan_microversions.core.field_rules.
    rename_groups`)."""
    return field_rules.rename_groups(
        cls.__qualname__, {a.key: a for a in attributes},
        {a.key: ranges[a.name] for a in attributes},
        where=lambda key: f'{cls.__qualname__}.{key}',
        kind=f'attribute of {cls.__qualname__}')
