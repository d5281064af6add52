"""Declaring WSME attributes by microversion.

An attribute made with :func:`versioned` carries the version that introduced
it and, optionally, the last version that has it; :func:`versioned_resource`
binds the WSME type to a registry under a resource name, records every
attribute there and precomputes, for every version of the history, which
attributes a response hides and a request may use::

    @versioned_resource(REGISTRY, 'node')
    class Node(wtypes.Base):
        uuid = wtypes.wsattr(wtypes.text, readonly=True)   # every version
        description = versioned(wtypes.text, introduced='1.1')
        driver = versioned(wtypes.text, last='1.5')
        hardware_type = versioned(wtypes.text, introduced='1.6',
                                  replaces='driver')
        state = versioned(wtypes.Enum(str, 'available', 'active', 'deploying'),
                          values={'deploying': '1.3'})

Mistakes (an unknown version, ``last`` before ``introduced``, a rename onto
an overlapping range, ...) raise a :class:`~pecan_microversions.registry.
RegistryError` when the class is decorated, that is, at import.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Optional, TypeVar, Union

from wsme import types as wtypes

from pecan_microversions.errors import APIError
from pecan_microversions.registry import (
    InvalidDeclarationError,
    UnknownVersionError,
    VersionRegistry,
)
from pecan_microversions.version import InvalidVersion, Version, VersionLike, as_version

__all__ = ['FieldRanges', 'VersionedAttr', 'field_ranges', 'versioned',
           'versioned_resource',
           'visible_fields']

#: A value's range: ``None`` (always), ``'X.Y'`` (introduced) or a pair
#: ``(introduced, last)`` in which either may be ``None``.
ValueRange = Union[None, VersionLike, tuple[Optional[VersionLike],
                                            Optional[VersionLike]]]
_T = TypeVar('_T', bound=type)
_UNSET_MARKS = '_pmv_unset'
_BINDING = '_pmv_binding'


class VersionedAttr(wtypes.wsattr):
    """A :class:`wsme.types.wsattr` that exists only in a version range.

    Made by :func:`versioned`.  ``introduced``/``last`` are the declared
    bounds (``None``: unbounded); ``mandatory`` for a bounded attribute is
    enforced only at the versions where it exists (by the request checks of
    :mod:`pecan_microversions.validation`), so WSME itself sees it optional.
    """

    def __init__(self, datatype: Any, *, introduced: Optional[VersionLike],
                 last: Optional[VersionLike],
                 values: Optional[Mapping[Any, ValueRange]],
                 replaces: Optional[str], mandatory: bool, name: Optional[str],
                 default: Any, readonly: bool) -> None:
        bounded = introduced is not None or last is not None
        super().__init__(datatype, mandatory=mandatory and not bounded,
                         name=name, default=default, readonly=readonly)
        self.introduced = _parse('introduced', introduced)
        self.last = _parse('last', last)
        if (self.introduced is not None and self.last is not None
                and self.last < self.introduced):
            raise InvalidDeclarationError(
                f'versioned(): last version {self.last} is before the '
                f'version that introduced it, {self.introduced}.')
        self.mandatory_when_available = mandatory
        self.values = None if values is None else dict(values)
        self.replaces = replaces
        self._hides_default = default is not wtypes.Unset

    def _hide(self, instance: Any) -> None:
        """Unset the value on ``instance`` (the filter's fast path)."""
        holder = self._get_dataholder(instance)
        if hasattr(holder, self.key):
            delattr(holder, self.key)
        if self._hides_default:
            instance.__dict__.setdefault(_UNSET_MARKS, set()).add(self.key)

    def __get__(self, instance: Any, owner: Any) -> Any:
        if (instance is not None and self._hides_default
                and self.key in instance.__dict__.get(_UNSET_MARKS, ())):
            return wtypes.Unset
        return super().__get__(instance, owner)

    def __set__(self, instance: Any, value: Any) -> None:
        super().__set__(instance, value)
        if self._hides_default:
            # WSME returns the default for an unset attribute; remember an
            # explicit Unset so a hidden attribute with a default stays hidden.
            marks = instance.__dict__.setdefault(_UNSET_MARKS, set())
            if value is wtypes.Unset:
                marks.add(self.key)
            else:
                marks.discard(self.key)


def versioned(datatype: Any, introduced: Optional[VersionLike] = None,
              last: Optional[VersionLike] = None, *,
              values: Optional[Mapping[Any, ValueRange]] = None,
              replaces: Optional[str] = None, mandatory: bool = False,
              name: Optional[str] = None, default: Any = wtypes.Unset,
              readonly: bool = False) -> Any:
    """A WSME attribute that exists from ``introduced`` to ``last`` inclusive.

    :param datatype: any WSME datatype, as for ``wsattr``.
    :param introduced: the first version that has it (``None``: every one).
    :param last: the last version that has it (``None``: still present).
    :param values: for a non-free-form field, the range of each allowed
        value (``{'deploying': '1.3', 'old': (None, '1.4')}``).  With a
        ``wtypes.Enum`` datatype, values left out exist at every version;
        otherwise the mapping lists every allowed value.
    :param replaces: the Python name of the attribute this one renames (for
        example ``driver`` for ``hardware_type``); both then carry one value.
    :param mandatory: as for ``wsattr``.
    :param name: as for ``wsattr``.
    :param default: as for ``wsattr``.
    :param readonly: as for ``wsattr``.
    """
    return VersionedAttr(datatype, introduced=introduced, last=last,
                         values=values, replaces=replaces, mandatory=mandatory,
                         name=name, default=default, readonly=readonly)


class _ValueRule:
    """The allowed values of one field or query parameter, by version."""

    def __init__(self, ranges: dict[Any, tuple[Optional[Version],
                                               Optional[Version]]],
                 versions: tuple[Version, ...]) -> None:
        self.ranges = ranges
        self.allowed = {v: frozenset(value for value, (lo, hi) in ranges.items()
                                     if v.matches(lo, hi))
                        for v in versions}

    def check(self, value: Any, version: Version, subject: str,
              unavailable_status: int) -> None:
        """Refuse ``value`` of ``subject`` (e.g. ``"query parameter 'x'"``)
        unless ``version`` allows it.

        :raises ~pecan_microversions.errors.APIError: ``unavailable_status``
            for a value that exists at other versions, 400 for one that never
            does.
        """
        allowed = self.allowed[version]
        try:
            if value in allowed:
                return
            declared = self.ranges.get(value)
        except TypeError:  # an unhashable value (a list, a dict)
            declared = None
        if declared is not None:
            raise APIError(
                f'Value {value!r} of {subject} is not available at version '
                f'{version}; it exists {_range_text(*declared)}.',
                status=unavailable_status,
                error_code='microversion.value_unavailable')
        raise APIError(
            f'Invalid value {value!r} for {subject}; allowed at version '
            f'{version}: {", ".join(sorted(map(str, allowed)))}.',
            error_code='microversion.invalid_value')


def _range_text(low: Optional[Version], high: Optional[Version]) -> str:
    """A version range in words: ``from version 1.2 to 1.5``, ..."""
    if low is None and high is None:
        return 'at every version'
    if high is None:
        return f'from version {low} on'
    if low is None:
        return f'up to version {high}'
    if low == high:
        return f'only at version {low}'
    return f'from version {low} to {high}'


class _Binding:
    """What a bound WSME type hides and checks, precomputed per version."""

    def __init__(self, registry: VersionRegistry, resource: str,
                 cls: type) -> None:
        self.registry = registry
        self.resource = resource
        attributes = list(wtypes.list_attributes(cls))
        self.by_name: dict[str, Any] = {a.name: a for a in attributes}
        self.ranges: dict[str, tuple[Optional[Version], Optional[Version]]] = {}
        self.values: dict[str, _ValueRule] = {}
        for attr in attributes:
            low = high = None
            if isinstance(attr, VersionedAttr):
                declaration = registry.declare('field', resource, attr.name,
                                               attr.introduced, attr.last)
                low, high = declaration.introduced, declaration.last
                if attr.values is not None:
                    self.values[attr.name] = _value_rule(
                        registry, 'field_value', resource, attr.name,
                        attr.datatype, attr.values)
            else:
                registry.declare('field', resource, attr.name)
            self.ranges[attr.name] = (low, high)
        groups = _rename_groups(cls, attributes, self.ranges)
        versions = registry.versions
        self.hidden: dict[Version, tuple[str, ...]] = {}
        self.hiders: dict[Version, tuple[Callable[[Any], None], ...]] = {}
        self.visible: dict[Version, frozenset[str]] = {}
        self.sync: dict[Version, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self.mandatory: dict[Version, tuple[str, ...]] = {}
        for v in versions:
            shown = [a for a in attributes if v.matches(*self.ranges[a.name])]
            shown_keys = {a.key for a in shown}
            self.hidden[v] = tuple(a.key for a in attributes
                                   if a.key not in shown_keys)
            self.hiders[v] = tuple(a._hide for a in attributes
                                   if a.key not in shown_keys)
            self.visible[v] = frozenset(a.name for a in shown)
            self.mandatory[v] = tuple(
                a.name for a in shown if isinstance(a, VersionedAttr)
                and a.mandatory_when_available and not a.mandatory)
            sync = []
            for group in groups:
                current = [k for k in group if k in shown_keys]
                if current:
                    sync.append((current[0], tuple(k for k in group
                                                   if k != current[0])))
            self.sync[v] = tuple(sync)
        self.groups = groups
        self.versioned = any(self.hidden.values()) or bool(groups)


def versioned_resource(registry: VersionRegistry,
                       resource: str) -> Callable[[_T], _T]:
    """Class decorator: bind a ``wsme.types.Base`` subclass to ``registry``.

    Records each attribute as a ``'field'`` declaration of ``resource``
    (plain attributes exist at every version) and each versioned value as a
    ``'field_value'`` (named ``field=value``), then precomputes the visible
    attributes of every version.

    :raises ~pecan_microversions.registry.RegistryError: a version is not in
        the history, a range is inverted, a rename is wrong, or ``resource``
        is already bound.
    """
    if not isinstance(resource, str) or not resource:
        raise InvalidDeclarationError(
            f'Invalid resource name {resource!r}.')

    def decorate(cls: _T) -> _T:
        if not (isinstance(cls, type) and issubclass(cls, wtypes.Base)
                and wtypes.iscomplex(cls)):
            raise InvalidDeclarationError(
                f'@versioned_resource({resource!r}) decorates a subclass of '
                f'wsme.types.Base, not {cls!r}.')
        if next(registry.declarations('field', resource), None) is not None:
            raise InvalidDeclarationError(
                f'Resource {resource!r} is already bound to a type in the '
                f'{registry.service_type} registry.')
        setattr(cls, _BINDING, _Binding(registry, resource, cls))
        return cls

    return decorate


def visible_fields(cls: type, version: VersionLike) -> frozenset[str]:
    """The public names of ``cls``'s attributes that exist at ``version``."""
    binding = _binding_of(cls)
    if binding is None:
        return frozenset(a.name for a in wtypes.list_attributes(cls))
    return binding.visible[binding.registry.known_version(version)]


def _binding_of(cls: type) -> Optional[_Binding]:
    """The type's own binding; ``None`` for a plain type.

    :raises InvalidDeclarationError: it has versioned attributes but was
        not decorated with :func:`versioned_resource`.
    """
    binding = cls.__dict__.get(_BINDING)
    if binding is None and any(isinstance(a, VersionedAttr)
                               for a in wtypes.list_attributes(cls)):
        raise InvalidDeclarationError(
            f'{cls.__qualname__} has versioned attributes but is not bound to '
            'a registry: decorate it with @versioned_resource(registry, name).')
    return binding


def _check_bound(datatype: Any, seen: Optional[set[int]] = None) -> None:
    """Raise :class:`InvalidDeclarationError` now if ``datatype``, or a
    type nested in it, has versioned attributes but no registry binding."""
    seen = set() if seen is None else seen
    if id(datatype) in seen:
        return
    seen.add(id(datatype))
    if isinstance(datatype, wtypes.ArrayType):
        _check_bound(datatype.item_type, seen)
    elif isinstance(datatype, wtypes.DictType):
        _check_bound(datatype.value_type, seen)
    elif isinstance(datatype, type) and wtypes.iscomplex(datatype):
        _binding_of(datatype)
        for attribute in wtypes.list_attributes(datatype):
            _check_bound(attribute.datatype, seen)


def _parse(what: str, value: Optional[VersionLike]) -> Optional[Version]:
    if value is None:
        return None
    try:
        return as_version(value)
    except InvalidVersion as exc:
        raise UnknownVersionError(f'versioned() {what}: {exc}') from None


def _value_rule(registry: VersionRegistry, kind: str, owner: str, name: str,
                datatype: Any, values: Mapping[Any, ValueRange]) -> _ValueRule:
    """Declare each value's range; with an Enum, unlisted values are always."""
    enum_values = getattr(datatype, 'values', None)
    if isinstance(datatype, wtypes.Enum) and enum_values is not None:
        unknown = [v for v in values if v not in enum_values]
        if unknown:
            raise InvalidDeclarationError(
                f'{kind} {owner}.{name}: {unknown!r} not among the Enum values '
                f'{sorted(map(str, enum_values))}.')
        specs: dict[Any, ValueRange] = dict.fromkeys(enum_values)
        specs.update(values)
    else:
        specs = dict(values)
    if not specs:
        raise InvalidDeclarationError(f'{kind} {owner}.{name}: no values.')
    ranges = {}
    for value, spec in specs.items():
        if spec is None or isinstance(spec, (str, Version)) or (
                isinstance(spec, tuple) and spec
                and isinstance(spec[0], int)):
            low, high = spec, None
        elif isinstance(spec, tuple) and len(spec) == 2:
            low, high = spec
        else:
            raise InvalidDeclarationError(
                f'{kind} {owner}.{name}={value}: a value range is None, '
                f'"X.Y" or (introduced, last), not {spec!r}.')
        declaration = registry.declare(kind, owner, f'{name}={value}',
                                       low, high)
        ranges[value] = (declaration.introduced, declaration.last)
    return _ValueRule(ranges, registry.versions)


def _rename_groups(cls: type, attributes: list[Any],
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
                f'{where} replaces {old!r}: {old!r} needs a last version '
                f'before the version introducing {attr.key!r} (got last='
                f'{old_high}, introduced={new_low}).')
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


class FieldRanges(NamedTuple):
    """What :func:`versioned_resource` recorded for one WSME type.

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

    :raises InvalidDeclarationError: ``cls`` has versioned attributes but
        is not bound with :func:`versioned_resource`.
    """
    binding = _binding_of(cls)
    if binding is None:
        return None
    return FieldRanges(
        binding.registry, binding.resource, dict(binding.ranges),
        {name: dict(rule.ranges) for name, rule in binding.values.items()},
        frozenset(name for name, attr in binding.by_name.items()
                  if attr.mandatory
                  or getattr(attr, 'mandatory_when_available', False)))
