"""Checking and compiling field declarations, at import.

A :class:`~pecan_microversions.core.schema.Schema`'s rename chains and
conversion specs, and the checks that a plain-dict schema and a WSME type
share: each mistake raises :class:`~pecan_microversions.core.errors.
InvalidDeclarationError` naming the resource and the field, with the same
words for the same mistake.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Optional

from pecan_microversions.core.contract import ValueRule
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.core.representations import FieldSpec, Renamed, Retype
from pecan_microversions.core.version import Version

if TYPE_CHECKING:  # pragma: no cover
    from pecan_microversions.core.conversion import Conversion

__all__ = ['check_field', 'check_no_older_datatype', 'check_no_renamed',
           'check_no_retyped_values', 'check_value_maps', 'conversion_specs',
           'read_only_fields', 'rename_groups']

_Ranges = Mapping[str, tuple[Optional[Version], Optional[Version]]]


def check_field(where: str, mandatory: bool, readonly: bool) -> None:
    """Refuse a field no request could satisfy."""
    if mandatory and readonly:
        raise InvalidDeclarationError(
            f'{where} is both mandatory and read-only: no request could '
            'send it, and none could leave it out.')


def read_only_fields(conversion: Conversion, declared: Iterable[str]
                     ) -> dict[Version, frozenset[str]]:
    """Per version, the public names of the fields a request may not set:
    those ``declared`` read-only, and those the version shows computed
    (:class:`~pecan_microversions.core.representations.Computed`), with or
    without ``readonly=True``: what a client sends for a computed field
    could not be stored.  Bodies and patches are checked against this
    one table, as responses are filtered by the fields each version has.
    """
    declared = frozenset(declared)
    return {version: declared.union(step.key for step in conversion.plan(
        version) if step.compute is not None)
        for version in conversion.registry.versions}


def check_no_renamed(where: str, name: str, changes: Iterable[Any]) -> None:
    """Refuse a ``Renamed`` among a plain-dict field's ``changes``: a
    :class:`~pecan_microversions.core.schema.Schema` renames with
    ``replaces=``, which its checks, patches and responses all follow."""
    for change in changes:
        if isinstance(change, Renamed):
            old, last = change.old_name, str(change.max_version)
            raise InvalidDeclarationError(
                f'{where} declares Renamed({old!r}, {last!r}) in changes=; '
                f'a Schema renames with replaces=: declare {old!r}: '
                f'field(max_version={last!r}) and {name!r}: field('
                f'min_version=<the version after {last}>, '
                f'replaces={old!r}).')


def check_no_older_datatype(where: str, changes: Iterable[Any]) -> None:
    """Refuse a ``Retype(datatype=...)`` among a plain-dict field's
    ``changes``: a :class:`~pecan_microversions.core.schema.Schema` checks
    no types, so the older type would be silently ignored."""
    for change in changes:
        if isinstance(change, Retype) and change.datatype is not None:
            raise InvalidDeclarationError(
                f'{where} declares Retype(datatype={change.datatype!r}); a '
                'Schema checks no types: leave datatype= out and refuse '
                'what older clients may not send in up= (raise ValueError).')


def check_no_retyped_values(where: str, changes: Iterable[Any]) -> None:
    """Refuse ``values=`` beside a ``Retype``: ``values=`` lists values of
    the newest type, which the versions up to the retype's ``max_version``
    show, and are sent, as another type: a request check, a ``ValueMap``
    check or a schema there would compare values of two types."""
    for change in changes:
        if isinstance(change, Retype):
            last = str(change.max_version)
            raise InvalidDeclarationError(
                f'{where} declares values= and Retype(..., {last!r}): '
                'values= lists values of the newest type, which versions up '
                f'to {last} show as another type, and a field cannot yet '
                'gate values by version across a retype: leave values= out '
                '(refuse in up=, raising ValueError, what clients up to '
                f'{last} may not send).')


def rename_groups(resource: str, fields: Mapping[str, Any], ranges: _Ranges,
                  where: Optional[Callable[[str], str]] = None,
                  kind: str = 'field', *,
                  following: Callable[[Version], Optional[Version]]
                  ) -> tuple[tuple[str, ...], ...]:
    """Chains of renames (each field's ``replaces``), newest name first,
    checked.

    :param fields: the fields by the names ``replaces`` uses.
    :param ranges: each field's version range, by the same names.
    :param where: names a field in an error (default: ``Schema 'node':
        name``); ``kind``: what the fields are called there.
    :param following: the version after a version in the history (the
        registry's ``next``): a new name must start right after the old
        one's last version, since a renamed field is one field, there at
        every version of its range under one name or the other.
    """
    parent: dict[str, str] = {}
    for name, spec in fields.items():
        old = getattr(spec, 'replaces', None)
        if old is None:
            continue
        here = (where or (lambda n: f'Schema {resource!r}: {n}'))(name)
        if old not in fields or old == name:
            raise InvalidDeclarationError(
                f'{here} replaces {old!r}, which is not another {kind}.')
        if old in parent.values():
            raise InvalidDeclarationError(
                f'{here} replaces {old!r}, which another {kind} already '
                'replaces.')
        new_low, old_high = ranges[name][0], ranges[old][1]
        if new_low is None or old_high is None or old_high >= new_low:
            raise InvalidDeclarationError(
                f'{here} replaces {old!r}: {old!r} needs a max_version '
                f'below the min_version of {name!r} (got max_version='
                f'{old_high}, min_version={new_low}).')
        right_after = following(old_high)
        if right_after != new_low:
            raise InvalidDeclarationError(
                f'{here} replaces {old!r}, whose last version is {old_high}, '
                f'but starts at {new_low}: a renamed field is one field, '
                'there at every version under one name or the other. '
                f'Declare min_version={str(right_after)!r} on {name!r} (or '
                f'end {old!r} at the version before {new_low}); '
                'a field missing in between is another field: declare it '
                'without replaces=.')
        if getattr(fields[old], 'changes', ()):
            raise InvalidDeclarationError(
                f'{here} replaces {old!r}, which declares changes=: '
                f'declare them on {name!r}, the newest name.')
        parent[name] = old
    groups = []
    for name in _newest(parent):
        chain = [name]
        while chain[-1] in parent:
            chain.append(parent[chain[-1]])
        groups.append(tuple(chain))
    return tuple(groups)


def conversion_specs(fields: Mapping[str, Any],
                     groups: tuple[tuple[str, ...], ...], ranges: _Ranges
                     ) -> list[FieldSpec]:
    """The fields for conversion: a rename chain is its newest field."""
    chains = {group[0]: group[1:] for group in groups}
    older = {name for group in groups for name in group[1:]}
    specs = []
    for name, spec in fields.items():
        if name in older:
            continue
        low, high = ranges[name]
        changes = list(spec.changes)
        for old in chains.get(name, ()):
            changes.append(Renamed(old, ranges[old][1]))  # type: ignore[arg-type]
            low = ranges[old][0]
        specs.append(FieldSpec(name, low, high, tuple(changes)))
    return specs


def check_value_maps(conversion: Conversion, rules: Mapping[str, ValueRule],
                     where: Callable[[str], str]) -> None:
    """Refuse a ``ValueMap`` that shows a version a value the field's
    ``values=`` does not allow at that version, or whose ``up=`` stores one
    it does not allow at the newest version that has the field: clients
    could not send back what they read.

    :param rules: the value rules by public name at each version.
    :param where: names a field in the error (``Schema 'node': state``).
    """
    newest: dict[str, Version] = {}
    for version in conversion.registry.versions:
        for step in conversion.plan(version):
            newest[step.name] = version
    for version in conversion.registry.versions:
        for step in conversion.plan(version):
            if step.retyped or step.compute is not None:
                continue
            rule = rules.get(step.key)
            for value, shown in _mapped_pairs(step.down, rule):
                if not _allows(rule, shown, version):
                    raise _map_error(
                        where(step.key), f'shows {value!r} as {shown!r} at '
                        f'version {version}', shown, rule, version, 'there')
            rule, last = rules.get(step.name), newest[step.name]
            for value, stored in _mapped_pairs(step.up, rule):
                if not _allows(rule, stored, last):
                    raise _map_error(
                        where(step.key), f'stores {value!r}, sent at version '
                        f'{version}, as {stored!r}', stored, rule, last,
                        f'at version {last}')


def _mapped_pairs(functions: tuple[Any, ...], rule: Optional[ValueRule]
                  ) -> list[tuple[Any, Any]]:
    """Each value the value maps among ``functions`` change, with what
    ``functions`` make of it (none without a ``rule``); a list field's
    items are mapped one by one, and its rule is each item's."""
    if rule is None or not functions:
        return []
    pairs = []
    for value in _mapped(functions):
        result = value
        for convert in functions:
            result = convert(result)
        if result != value:
            pairs.append((value, result))
    return pairs


def _map_error(field: str, what: str, value: Any, rule: Any,
               version: Version, where: str) -> InvalidDeclarationError:
    allowed = ', '.join(sorted(map(repr, rule.allowed[version])))
    return InvalidDeclarationError(
        f'{field}: a ValueMap {what}, but values= does not allow {value!r} '
        f'{where} (allowed: {allowed}).')


def _mapped(functions: Iterable[Any]) -> list[Any]:
    """The values the value maps among ``functions`` map, in order."""
    return list(dict.fromkeys(value for fn in functions
                              for value in getattr(fn, 'table', ())))


def _allows(rule: Optional[ValueRule], value: Any, version: Version) -> bool:
    if rule is None or value is None:  # values= never rules out null
        return True
    try:
        return value in rule.allowed[version]
    except TypeError:  # unhashable: never a listed value
        return False


def _newest(parent: Mapping[str, str]) -> Iterable[str]:
    return [name for name in parent if name not in parent.values()]
