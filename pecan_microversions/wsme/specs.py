"""The fields of a WSME type as conversion sees them, its renames and value
rules.

:func:`field_specs` turns a bound type's attributes into
:class:`~pecan_microversions.core.representations.FieldSpec` objects: a
``replaces`` chain becomes its newest attribute with ``Renamed`` changes,
and each field carries its ``changes=`` and its type's name;
:func:`rename_groups` checks and chains the ``replaces`` declarations, and
:func:`field_rule` builds a field's ``values=`` rule.
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Mapping
from typing import Any, Optional

from wsme import types as wtypes
from wsme.rest.json import fromjson

from pecan_microversions.core import field_rules
from pecan_microversions.core.contract import ValueRule, value_rule
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import FieldSpec, Renamed, Retype
from pecan_microversions.core.version import Version

__all__ = ['field_rule', 'field_specs', 'older_types', 'rename_groups',
           'type_name']


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


def rename_groups(registry: VersionRegistry, cls: type,
                  attributes: list[Any],
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
        kind=f'attribute of {cls.__qualname__}', following=registry.next)


def field_rule(registry: VersionRegistry, resource: str, cls: type,
               attr: Any) -> ValueRule:
    """The value rule of ``attr``, a ``versioned()`` attribute of ``cls``
    declaring ``values=`` (each item's, for a list field).

    :raises ~pecan_microversions.core.errors.InvalidDeclarationError: the
        field does not hold single values, or declares a ``Retype``.
    """
    where = f'{cls.__qualname__}.{attr.key}'
    field_rules.check_no_retyped_values(where, getattr(attr, 'changes', ()))
    datatype = attr.datatype
    items = isinstance(datatype, wtypes.ArrayType)
    if items:
        datatype = datatype.item_type
    base = datatype
    while isinstance(base, wtypes.UserType):
        base = base.basetype
    if not isinstance(base, type) or wtypes.iscomplex(base) or isinstance(
            datatype, (wtypes.ArrayType, wtypes.DictType)):
        raise InvalidDeclarationError(
            f'{where}: values= needs a field of single values (text, int, '
            f'an Enum, or a list of them), not {attr.datatype!r}.')
    enum_values = (frozenset(datatype.values)
                   if isinstance(datatype, wtypes.Enum) else None)
    assert attr.values is not None
    read = None
    if base in _READ_FROM_TEXT:  # JSON writes it as text: read it back
        def read(value: Any, base: type = base, kind: Any = datatype) -> Any:
            return value if isinstance(value, base) else fromjson(kind, value)
    return value_rule(registry, 'field_value', resource, attr.name,
                      enum_values, attr.values, value_type=base, items=items,
                      where=where, read=read)


#: Field types JSON carries as text, whose values= are compared once read.
_READ_FROM_TEXT = (decimal.Decimal, datetime.date, datetime.datetime,
                   datetime.time)
