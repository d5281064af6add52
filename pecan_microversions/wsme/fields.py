"""Declaring WSME attributes by microversion.

An attribute made with :func:`versioned` carries its ``min_version`` and,
optionally, its ``max_version`` (the last version that has it);
:func:`versioned_resource`
binds the WSME type to a registry under a resource name, records every
attribute there and precomputes, for every version of the history, which
attributes a response hides and a request may use::

    @versioned_resource(REGISTRY, 'node')
    class Node(wtypes.Base):
        uuid = wtypes.wsattr(wtypes.text, readonly=True)   # every version
        description = versioned(wtypes.text, min_version='1.1')
        driver = versioned(wtypes.text, max_version='1.5')
        hardware_type = versioned(wtypes.text, min_version='1.6',
                                  replaces='driver')
        state = versioned(wtypes.Enum(str, 'available', 'active', 'deploying'),
                          values={'deploying': '1.3'})

Mistakes (an unknown version, an inverted range, a rename onto
an overlapping range, ...) raise a :class:`~pecan_microversions.core.registry.
RegistryError` when the class is decorated, that is, at import.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Optional, TypeVar

from wsme import types as wtypes

from pecan_microversions.compat import wsme_dataholder
from pecan_microversions.core.contract import ValueRange, ValueRule
from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    InvalidVersion,
    UnknownVersionError,
)
from pecan_microversions.core.field_rules import (
    check_field,
    check_value_maps,
    read_only_fields,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import Change, Computed, Renamed
from pecan_microversions.core.version import (
    Version,
    VersionLike,
    VersionRange,
    as_version,
)
from pecan_microversions.wsme.specs import (
    field_rule,
    field_specs,
    older_types,
    rename_groups,
)

__all__ = ['Binding', 'ValueRange', 'VersionedAttr', 'binding_of',
           'check_bound', 'versioned', 'versioned_resource', 'visible_fields']
_T = TypeVar('_T', bound=type)
_UNSET_MARKS = '_pmv_unset'
_BINDING = '_pmv_binding'


class VersionedAttr(wtypes.wsattr):
    """A :class:`wsme.types.wsattr` that exists only in a version range.

    Made by :func:`versioned`.  ``min_version``/``max_version`` are the declared
    bounds (``None``: unbounded); ``mandatory`` for a bounded or computed
    attribute is enforced only at the versions where it exists and is not
    computed (by the request checks of :mod:`pecan_microversions.wsme.
    checking`), so WSME itself sees it optional.
    """

    def __init__(self, datatype: Any, *, min_version: Optional[VersionLike],
                 max_version: Optional[VersionLike],
                 values: Optional[Mapping[Any, ValueRange]],
                 replaces: Optional[str], mandatory: bool, name: Optional[str],
                 default: Any, readonly: bool,
                 changes: tuple[Change, ...] = ()) -> None:
        per_version = (min_version is not None or max_version is not None
                       or any(isinstance(c, Computed) for c in changes))
        super().__init__(datatype, mandatory=mandatory and not per_version,
                         name=name, default=default, readonly=readonly)
        self.range = VersionRange(_parse('min_version', min_version),
                                  _parse('max_version', max_version),
                                  what='versioned()')
        self.mandatory_when_available = mandatory
        self.values = None if values is None else dict(values)
        self.replaces = replaces
        self.changes = changes
        self._hides_default = default is not wtypes.Unset

    @property
    def plain_read(self) -> bool:
        """Whether reading it is WSME's plain read (no hidden default)."""
        return not self._hides_default

    def _hide(self, instance: Any) -> None:
        """Unset the value on ``instance`` (the filter's fast path)."""
        holder = wsme_dataholder(self, instance)
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


def versioned(datatype: Any, min_version: Optional[VersionLike] = None,
              max_version: Optional[VersionLike] = None, *,
              values: Optional[Mapping[Any, ValueRange]] = None,
              replaces: Optional[str] = None, mandatory: bool = False,
              name: Optional[str] = None, default: Any = wtypes.Unset,
              readonly: bool = False,
              changes: Iterable[Change] = (),
              introduced: Optional[VersionLike] = None,
              last: Optional[VersionLike] = None) -> Any:
    """A WSME attribute that exists from ``min_version`` to ``max_version``
    inclusive.

    :param datatype: any WSME datatype, as for ``wsattr``.
    :param min_version: the first version that has it (``None``: every one).
    :param max_version: the last version that has it (``None``: still
        present).
    :param values: for a non-free-form field, the range of each allowed
        value (``{'deploying': '1.3', 'old': (None, '1.4')}``).  With a
        ``wtypes.Enum`` datatype, values left out exist at every version;
        otherwise the mapping lists every allowed value.
    :param replaces: the Python name of the attribute this one renames (for
        example ``driver`` for ``hardware_type``); both then carry one value.
    :param mandatory: as for ``wsattr``.
    :param name: as for ``wsattr``.
    :param default: as for ``wsattr``.
    :param readonly: as for ``wsattr``; a field is also read-only at the
        versions a ``Computed`` change computes it at.
    :param changes: how older versions show it (``ValueMap``, ``Computed``,
        ``Retype``; see :doc:`conversion`).  A rename is ``replaces=``: a
        ``Renamed`` here raises a ``RegistryError`` when the class is
        bound.

    ``introduced`` and ``last`` are the deprecated spellings of
    ``min_version`` and ``max_version``.
    """
    if introduced is not None or last is not None:
        warnings.warn('versioned(introduced=, last=) is deprecated: use '
                      'min_version= and max_version=.', DeprecationWarning,
                      stacklevel=2)
        min_version = introduced if min_version is None else min_version
        max_version = last if max_version is None else max_version
    return VersionedAttr(datatype, min_version=min_version,
                         max_version=max_version, values=values,
                         replaces=replaces, mandatory=mandatory, name=name,
                         default=default, readonly=readonly,
                         changes=tuple(changes))


class Binding:
    """What a bound WSME type hides and checks, precomputed per version."""

    def __init__(self, registry: VersionRegistry, resource: str,
                 cls: type) -> None:
        self.registry = registry
        self.resource = resource
        attributes = list(wtypes.list_attributes(cls))
        _check_attributes(cls, attributes)
        self.by_name: dict[str, Any] = {a.name: a for a in attributes}
        self.ranges: dict[str, tuple[Optional[Version], Optional[Version]]] = {}
        self.values: dict[str, ValueRule] = {}
        for attr in attributes:
            low = high = None
            if isinstance(attr, VersionedAttr):
                declaration = registry.declare('field', resource, attr.name,
                                               *attr.range)
                low, high = declaration.min_version, declaration.max_version
                if attr.values is not None:
                    self.values[attr.name] = field_rule(
                        registry, resource, cls, attr)
            else:
                registry.declare('field', resource, attr.name)
            self.ranges[attr.name] = (low, high)
        groups = rename_groups(registry, cls, attributes, self.ranges)
        versions = registry.versions
        self.hidden: dict[Version, tuple[str, ...]] = {}
        self.hiders: dict[Version, tuple[Callable[[Any], None], ...]] = {}
        self.visible: dict[Version, frozenset[str]] = {}
        self.sync: dict[Version, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        #: the same by public names: (shown, every name of the group)
        self.renames: dict[Version, tuple[tuple[str, tuple[str, ...]],
                                          ...]] = {}
        name_of = {a.key: a.name for a in attributes}
        mandatory: dict[Version, list[str]] = {}
        for v in versions:
            shown = [a for a in attributes if v.matches(*self.ranges[a.name])]
            shown_keys = {a.key for a in shown}
            self.hidden[v] = tuple(a.key for a in attributes
                                   if a.key not in shown_keys)
            self.hiders[v] = tuple(a._hide for a in attributes
                                   if a.key not in shown_keys)
            self.visible[v] = frozenset(a.name for a in shown)
            mandatory[v] = [
                a.name for a in shown if isinstance(a, VersionedAttr)
                and a.mandatory_when_available and not a.mandatory]
            sync = []
            for group in groups:
                current = [k for k in group if k in shown_keys]
                if current:
                    sync.append((current[0], tuple(k for k in group
                                                   if k != current[0])))
            self.sync[v] = tuple(sync)
            self.renames[v] = tuple(
                (name_of[shown], (name_of[shown], *(name_of[k] for k in others)))
                for shown, others in sync)
        self.groups = groups
        #: The fields for conversion; their changes are checked at import.
        self.fields = field_specs(attributes, groups, self.ranges)
        self.conversion = Conversion(registry, resource, self.fields)
        check_value_maps(self.conversion, self.values,
                         lambda name: f'{cls.__qualname__}.'
                                      f'{self.by_name[name].key}')
        #: Per version, the public names of the fields a request may not
        #: set (read-only ones, and those computed there: see
        #: :func:`~pecan_microversions.core.field_rules.read_only_fields`);
        #: bodies and patches are checked against it, and none of them is
        #: mandatory there.
        self.readonly = read_only_fields(
            self.conversion, (a.name for a in attributes if a.readonly))
        self.mandatory = {v: tuple(n for n in names
                                   if n not in self.readonly[v])
                          for v, names in mandatory.items()}
        self.versioned = (any(self.hidden.values()) or bool(groups)
                          or self.conversion.changes_values)
        self.retyped = older_types(registry, self.fields)
        #: Per version, the names of the fields a body holds in another
        #: representation than the newest (a retype, or a value map with
        #: ``up`` values): converted up from JSON only.
        self.converted = {v: frozenset(
            name for step in self.conversion.plan(v)
            if step.retyped or any(getattr(fn, 'table', None)
                                   for fn in step.up)
            for name in (step.key, step.name)) for v in registry.versions}

    def datatype_at(self, name: str, version: Version) -> Any:
        """Field ``name``'s datatype at ``version`` (see ``Retype``)."""
        for bound, datatype in self.retyped.get(name, ()):
            if version <= bound:
                return datatype
        return self.by_name[name].datatype


def versioned_resource(registry: VersionRegistry,
                       resource: str) -> Callable[[_T], _T]:
    """Class decorator: bind a ``wsme.types.Base`` subclass to ``registry``.

    Records each attribute as a ``'field'`` declaration of ``resource``
    (plain attributes exist at every version) and each versioned value as a
    ``'field_value'`` (named ``field=value``), then precomputes the visible
    attributes of every version.

    :raises ~pecan_microversions.core.registry.RegistryError: a version is not in
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
        setattr(cls, _BINDING, Binding(registry, resource, cls))
        return cls

    return decorate


def visible_fields(cls: type, version: VersionLike) -> frozenset[str]:
    """The public names of ``cls``'s attributes that exist at ``version``."""
    binding = binding_of(cls)
    if binding is None:
        return frozenset(a.name for a in wtypes.list_attributes(cls))
    return binding.visible[binding.registry.known_version(version)]


def binding_of(cls: type) -> Optional[Binding]:
    """The type's own binding; ``None`` for a plain type.

    :raises InvalidDeclarationError: it has versioned attributes but was
        not decorated with :func:`versioned_resource`.
    """
    binding = cls.__dict__.get(_BINDING)
    if binding is not None:
        return binding
    attributes = wtypes.list_attributes(cls)
    if not any(isinstance(a, VersionedAttr) for a in attributes):
        return None
    for base in cls.__mro__[1:]:
        inherited = base.__dict__.get(_BINDING)
        if inherited is not None:
            added = sorted(a.key for a in attributes
                           if inherited.by_name.get(a.name) is not a)
            if not added:  # a subclass that adds no attribute: the same
                return inherited
            raise InvalidDeclarationError(
                f'{cls.__qualname__} subclasses the versioned type '
                f'{base.__qualname__} and adds {", ".join(added)} but is not '
                'bound to a registry: decorate it with '
                '@versioned_resource(registry, name).')
    raise InvalidDeclarationError(
        f'{cls.__qualname__} has versioned attributes but is not bound to '
        'a registry: decorate it with @versioned_resource(registry, name).')


def check_bound(datatype: Any, seen: Optional[set[int]] = None) -> None:
    """Raise :class:`InvalidDeclarationError` now if ``datatype``, or a
    type nested in it, has versioned attributes but no registry binding."""
    seen = set() if seen is None else seen
    if id(datatype) in seen:
        return
    seen.add(id(datatype))
    if isinstance(datatype, wtypes.ArrayType):
        check_bound(datatype.item_type, seen)
    elif isinstance(datatype, wtypes.DictType):
        check_bound(datatype.value_type, seen)
    elif isinstance(datatype, type) and wtypes.iscomplex(datatype):
        binding_of(datatype)
        for attribute in wtypes.list_attributes(datatype):
            check_bound(attribute.datatype, seen)
        # A subclass may be returned where the type is declared.
        subclass: type
        for subclass in datatype.__subclasses__():
            if wtypes.iscomplex(subclass):
                check_bound(subclass, seen)


def _parse(what: str, value: Optional[VersionLike]) -> Optional[Version]:
    if value is None:
        return None
    try:
        return as_version(value)
    except InvalidVersion as exc:
        raise UnknownVersionError(f'versioned() {what}: {exc}') from None


def _check_attributes(cls: type, attributes: list[Any]) -> None:
    """Refuse attribute declarations no request could satisfy."""
    names: dict[str, str] = {}
    for attr in attributes:
        where = f'{cls.__qualname__}.{attr.key}'
        other = names.setdefault(attr.name, attr.key)
        if other != attr.key:
            raise InvalidDeclarationError(
                f'{cls.__qualname__}.{other} and {where} both use the JSON '
                f'name {attr.name!r}; give each its own name.')
        check_field(where, attr.mandatory or getattr(
            attr, 'mandatory_when_available', False), attr.readonly)
        for change in getattr(attr, 'changes', ()):
            if isinstance(change, Renamed):  # one attribute, one JSON name
                old, last = change.old_name, str(change.max_version)
                raise InvalidDeclarationError(
                    f'{where} declares Renamed({old!r}, {last!r}) in '
                    'changes=; a WSME type renames with replaces=: declare '
                    f'{old} = versioned(..., max_version={last!r}) and '
                    f'{attr.key} = versioned(..., min_version=<the version '
                    f'after {last}>, replaces={old!r}).')

