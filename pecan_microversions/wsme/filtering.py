"""Hiding, in responses, the attributes a request's version does not have.

:func:`filter_response` sets every such attribute of a WSME object to
``Unset``, so WSME leaves it out, and recurses into nested types, lists and
dicts (collection wrappers are ordinary types holding a list).  What to do
for each (type, version) is worked out once and cached; types without
versioned attributes, anywhere below them, cost one dictionary look-up.
:func:`~pecan_microversions.pecan.expose.versioned_wsexpose` calls it for you.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Optional

from wsme import types as wtypes

from pecan_microversions.compat import plain_attribute, wsme_dataholder
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import VersionedAttr, binding_of
from pecan_microversions.wsme.readers import set_statement, stored_as_is

__all__ = ['CONTAINERS', 'drop_unavailable_nulls', 'fill_renames',
           'filter_response']

#: The values that can hold WSME objects: a walk finds nothing in any
#: other (a string, a number, ``None``, ``Unset``), so callers skip it.
CONTAINERS = (wtypes.Base, list, tuple, dict)

_Walker = Optional[Callable[[Any], None]]
_plans: dict[tuple[type, Version], _Walker] = {}
_may_need: dict[type, bool] = {}
_request_plans: dict[type, tuple[tuple[tuple[str, ...], ...],
                                tuple[str, ...]]] = {}
#: Per type, the compiled fill_renames of its objects.
_fillers: dict[type, Callable[[Any], None]] = {}
_MISSING = object()
_Unset = wtypes.Unset


def filter_response(obj: Any, version: Version) -> Any:
    """Unset, in place, what ``version`` does not have; return ``obj``.

    :param obj: a WSME object, or a list, tuple or dict of them.
    """
    _walk(obj, version)
    return obj


def _walk(value: Any, version: Version) -> None:
    if isinstance(value, wtypes.Base):
        walker = _plans.get((type(value), version), _MISSING)
        if walker is _MISSING:
            walker = _plan(type(value), version)
        if walker is not None:
            walker(value)  # type: ignore[operator]
    elif isinstance(value, (list, tuple)):
        last_type: Any = None
        walker = None
        for item in value:
            if type(item) is not last_type:
                if not isinstance(item, wtypes.Base):
                    _walk(item, version)
                    continue
                last_type = type(item)
                walker = _plans.get((last_type, version), _MISSING)
                if walker is _MISSING:
                    walker = _plan(last_type, version)
            if walker is not None:
                walker(item)  # type: ignore[operator]
    elif isinstance(value, dict):
        for item in value.values():
            _walk(item, version)


def _plan(cls: type, version: Version) -> _Walker:
    """Build (and cache) the walker of ``cls`` at ``version``."""
    binding = binding_of(cls)
    hide: tuple[str, ...] = ()
    hiders: tuple[Callable[[Any], None], ...] = ()
    sync: tuple[tuple[str, tuple[str, ...]], ...] = ()
    if binding is not None:
        if version not in binding.hidden:
            raise UnknownVersionError(
                f'Version {version} is not in the history of the '
                f'{binding.registry.service_type} registry that '
                f'{cls.__qualname__} is bound to.')
        hide, sync = binding.hidden[version], binding.sync[version]
        hiders = binding.hiders[version]
    nested = tuple(a.key for a in wtypes.list_attributes(cls)
                   if a.key not in hide and _may_contain(a.datatype))
    walker: _Walker = None
    if hide or sync or nested:
        walker = _make_walker(hiders, sync, nested, version)
    _plans[(cls, version)] = walker
    return walker


def _make_walker(hiders: tuple[Callable[[Any], None], ...],
                 sync: tuple[tuple[str, tuple[str, ...]], ...],
                 nested: tuple[str, ...], version: Version
                 ) -> Callable[[Any], None]:
    def walker(obj: Any) -> None:
        for shown, others in sync:
            if getattr(obj, shown) is _Unset:
                for other in others:
                    value = getattr(obj, other)
                    if value is not _Unset:
                        setattr(obj, shown, value)
                        break
        for hide in hiders:
            hide(obj)
        for key in nested:
            value = getattr(obj, key)
            if value is not _Unset and value is not None:
                _walk(value, version)
    return walker


def _may_contain(datatype: Any, seen: Optional[set[type]] = None) -> bool:
    """Whether values of ``datatype`` can hold something to filter."""
    if isinstance(datatype, wtypes.ArrayType):
        return _may_contain(datatype.item_type, seen)
    if isinstance(datatype, wtypes.DictType):
        return _may_contain(datatype.value_type, seen)
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)):
        return False
    known = _may_need.get(datatype)
    if known is not None:
        return known
    top = seen is None
    seen = set() if seen is None else seen
    if datatype in seen:
        return False  # a cycle: decided where it started
    seen.add(datatype)
    binding = binding_of(datatype)
    result = (binding is not None and binding.versioned) or any(
        _may_contain(a.datatype, seen) for a in wtypes.list_attributes(datatype))
    if top:
        _may_need[datatype] = result
    return result


def fill_renames(value: Any) -> None:
    """Give every name of a renamed attribute the value the client sent.

    Version-independent, for request objects: a controller then reads the
    value under the old or the new name alike.
    """
    if isinstance(value, wtypes.Base):
        cls = type(value)
        fill = _fillers.get(cls)
        if fill is None:
            fill = _fillers[cls] = _filler(cls)
        fill(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            fill_renames(item)
    elif isinstance(value, dict):
        for item in value.values():
            fill_renames(item)


def _filler(cls: type) -> Callable[[Any], None]:
    """Compile :func:`fill_renames` for one type: per renamed group, the
    first value set given to the names still unset.  Values are read and
    written in WSME's data holder where the attribute's descriptor would do
    just that (a plain ``wsattr`` read; a write that would store the value
    as it is, see :func:`~pecan_microversions.wsme.readers.stored_as_is`),
    through the descriptor otherwise, so WSME still checks each value."""
    groups, nested = _request_plan(cls)
    attributes = {a.key: a for a in wtypes.list_attributes(cls)}
    namespace: dict[str, Any] = {'Unset': _Unset,
                                 'fill_renames': fill_renames}
    lines = ['def fill(obj):']
    reads = {key: _plain_read(cls, attributes[key])
             for group in groups for key in group}
    plain = [attributes[key] for key, direct in reads.items() if direct]
    if plain:
        namespace['holder'] = functools.partial(wsme_dataholder, plain[0])
        lines.append('    h = holder(obj)')
    index = 0
    for group in groups:
        first = index
        for key in group:
            namespace[f'k{index}'] = key
            namespace[f'a{index}'] = attributes[key].default
            lines.append(f'    p{index} = getattr(h, k{index}, a{index})'
                         if reads[key]
                         else f'    p{index} = getattr(obj, k{index})')
            index += 1
        lines.append('    v = ' + ' else '.join(
            f'p{i} if p{i} is not Unset' for i in range(first, index)
        ) + ' else Unset')
        lines.append('    if v is not Unset:')
        for i, key in zip(range(first, index), group, strict=True):
            attr = attributes[key]
            lines.append(f'        if p{i} is Unset:')
            # (stored_as_is tests for a plain set itself)
            test = stored_as_is(cls, attr, i, namespace) if plain else None
            pad = '            '
            if test is not None:
                lines += [pad + f'if {test}:',
                          pad + '    ' + set_statement('h', key, i),
                          pad + 'else:']
                pad += '    '
            lines.append(pad + set_statement('obj', key, i))
            if plain:  # a descriptor may make the holder anew
                lines.append(pad + 'h = holder(obj)')
    for i, key in enumerate(nested, start=index):
        namespace[f'k{i}'] = key
        lines.append(f'    fill_renames(getattr(obj, k{i}))')
    lines.append('    return None')
    exec('\n'.join(lines), namespace)  # noqa: S102
    result: Callable[[Any], None] = namespace['fill']
    return result


def _plain_read(cls: type, attr: Any) -> bool:
    """Whether reading ``attr`` on a ``cls`` is reading WSME's data holder
    (``getattr(holder, key, default)``)."""
    delegating = (VersionedAttr.__get__,) if (
        isinstance(attr, VersionedAttr) and attr.plain_read) else ()
    return (cls.__getattribute__ is object.__getattribute__
            and plain_attribute(attr, delegating))


def drop_unavailable_nulls(value: Any, version: Version) -> None:
    """Unset, in request objects, attributes ``version`` lacks that hold
    ``None``: the explicit nulls a registry's ``null_as_absent`` accepted,
    which the application then sees as absent.  Run it before
    :func:`fill_renames`, so that a null never stands for a sent value.
    """
    if isinstance(value, wtypes.Base):
        cls = type(value)
        binding = binding_of(cls)
        if binding is not None and binding.registry.null_as_absent:
            visible = binding.visible[version]
            for name, attr in binding.by_name.items():
                if name not in visible and getattr(value, attr.key) is None:
                    setattr(value, attr.key, _Unset)
        for key in _request_plan(cls)[1]:
            drop_unavailable_nulls(getattr(value, key), version)
    elif isinstance(value, (list, tuple)):
        for item in value:
            drop_unavailable_nulls(item, version)
    elif isinstance(value, dict):
        for item in value.values():
            drop_unavailable_nulls(item, version)


def _request_plan(cls: type) -> tuple[tuple[tuple[str, ...], ...],
                                      tuple[str, ...]]:
    """A type's renamed groups, and the keys of its attributes that can
    hold something to walk (worked out once per type)."""
    plan = _request_plans.get(cls)
    if plan is None:
        binding = binding_of(cls)
        plan = _request_plans[cls] = (
            tuple(binding.groups) if binding is not None else (),
            tuple(a.key for a in wtypes.list_attributes(cls)
                  if _may_contain(a.datatype)))
    return plan
