"""Converting WSME resources between versions (see :doc:`conversion`).

A bound type whose fields declare ``changes=`` (or that holds such a type,
in a list or dict) is served by converting its newest JSON down to the
request's version with :class:`~pecan_microversions.core.conversion.
Conversion`; requests are converted up before WSME reads them, so
controllers see only the newest representation.  Types without such changes
keep the in-place filter of :mod:`pecan_microversions.wsme.filtering`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any, Optional

import wsme.rest.json
from wsme import types as wtypes

from pecan_microversions.core.checking import touched_fields
from pecan_microversions.core.containers import ItemNotKept
from pecan_microversions.core.conversion import Conversion, DictOf, ListOf
from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.patch_identity import Identity, tracked_patch
from pecan_microversions.core.representations import Converter
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.checking import (
    check_patch,
    resolve_datatype,
)
from pecan_microversions.wsme.fields import binding_of
from pecan_microversions.wsme.patch_effects import check_effect, kept_members
from pecan_microversions.wsme.values import check_json_value

__all__ = ['JSONValue', 'converter_of', 'from_newest', 'patch_newest',
           'shown_names', 'to_newest', 'up_from']

_converters: dict[Any, Optional[Converter]] = {}
_shown_names: dict[tuple[Any, Version], Mapping[str, str]] = {}
_PENDING = object()
_ABSENT = object()


class JSONValue(wtypes.UserType):
    """Any JSON value: the datatype of an already converted response."""

    basetype = wtypes.text
    name = 'json'


def converter_of(datatype: Any) -> Optional[Converter]:
    """What converts values of ``datatype`` between versions; ``None`` when
    no type in it declares a change of representation."""
    datatype = resolve_datatype(datatype)
    key = _key(datatype)
    found = _converters.get(key, _PENDING)
    if found is _PENDING:
        if not _changes(datatype):
            found = _converters[key] = None
        else:
            # A type holding itself (a tree's children) gets this one back
            # while it is built: it converts once the build is done.
            deferred = _converters[key] = _Deferred()
            try:
                found = _converters[key] = deferred.target = _build(datatype)
            except BaseException:  # a declaration error: built again next time
                del _converters[key]
                raise
    return found  # type: ignore[return-value]


def _changes(datatype: Any) -> bool:
    """Whether ``datatype``, or a type it holds, declares a change of
    representation (renames aside)."""
    return any(binding is not None and binding.conversion.changes_values
               for binding in map(binding_of, _complex_types(datatype)))


def _complex_types(datatype: Any) -> Iterator[type]:
    """Each complex type ``datatype`` is or holds (in a list, a dict, an
    attribute, at any depth), once."""
    seen: set[Any] = set()
    stack = [datatype]
    while stack:
        datatype = stack.pop()
        while isinstance(datatype, (wtypes.ArrayType, wtypes.DictType)):
            datatype = (datatype.item_type if isinstance(
                datatype, wtypes.ArrayType) else datatype.value_type)
        if (isinstance(datatype, type) and wtypes.iscomplex(datatype)
                and datatype not in seen):
            seen.add(datatype)
            yield datatype
            stack.extend(resolve_datatype(a.datatype)
                         for a in wtypes.list_attributes(datatype))


class _Deferred:
    """The converter of a type still being built; ``target`` once built."""

    target: Any = None

    def down(self, value: Any, version: Version) -> Any:
        return self.target.down(value, version)

    def up(self, value: Any, version: Version) -> Any:
        return self.target.up(value, version)

    def merge(self, newest: Any, shown: Any, patched: Any, version: Version,
              identity: Optional[Identity] = None) -> Any:
        return self.target.merge(newest, shown, patched, version, identity)


def _key(datatype: Any) -> Any:
    if isinstance(datatype, wtypes.ArrayType):
        return ('list', _key(datatype.item_type))
    if isinstance(datatype, wtypes.DictType):
        return ('dict', _key(datatype.value_type))
    return datatype


def _build(datatype: Any) -> Optional[Converter]:
    if isinstance(datatype, wtypes.ArrayType):
        item = converter_of(datatype.item_type)
        return None if item is None else ListOf(item)
    if isinstance(datatype, wtypes.DictType):
        item = converter_of(datatype.value_type)
        return None if item is None else DictOf(item)
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)):
        return None
    binding = binding_of(datatype)
    if binding is None:
        return _Plain(datatype)._nonempty()
    specs = tuple(dataclasses.replace(
        spec, nested=converter_of(binding.by_name[spec.name].datatype))
        for spec in binding.fields)
    if not (binding.conversion.changes_values
            or any(s.nested is not None for s in specs)):
        return None
    return Conversion(binding.registry, binding.resource, specs,
                      declare=False)


class _Plain:
    """An unversioned WSME type holding versioned ones."""

    def __init__(self, datatype: type) -> None:
        self.nested = {a.name: c for a in wtypes.list_attributes(datatype)
                       if (c := converter_of(a.datatype)) is not None}

    def _nonempty(self) -> Optional[_Plain]:
        return self if self.nested else None

    def down(self, value: Any, version: Version) -> Any:
        return self._each(value, version, 'down')

    def up(self, value: Any, version: Version) -> Any:
        return self._each(value, version, 'up')

    def _each(self, value: Any, version: Version, way: str) -> Any:
        if not isinstance(value, dict):
            return value
        out = dict(value)
        for name, converter in self.nested.items():
            if out.get(name) is not None:
                out[name] = getattr(converter, way)(out[name], version)
        return out

    def merge(self, newest: Any, shown: Any, patched: Any, version: Version,
              identity: Optional[Identity] = None) -> Any:
        if not (isinstance(newest, dict) and isinstance(shown, dict)
                and isinstance(patched, dict)):
            return self.up(patched, version)
        out = dict(patched)
        for name, converter in self.nested.items():
            if name not in patched or patched[name] is None:
                continue
            if (shown.get(name) is not None
                    and newest.get(name) is not None):
                try:
                    out[name] = converter.merge(newest[name], shown[name],
                                                patched[name], version,
                                                identity)
                except ItemNotKept as exc:
                    raise exc.within(name) from None
            else:
                out[name] = converter.up(patched[name], version)
        return out


def to_newest(datatype: Any, value: Any) -> Any:
    """``value`` (a WSME object, or a list or dict of them) as its newest
    JSON, every field included."""
    return wsme.rest.json.tojson(resolve_datatype(datatype), value)


def from_newest(datatype: Any, value: Any, version: Version) -> Any:
    """The JSON ``version`` shows of ``value``, a WSME object (or list or
    dict of them) holding the newest representation: WSME's ``tojson``,
    then converted down.  Responses use the compiled views instead
    (:func:`~pecan_microversions.pecan.current.response_json`), which
    also write nested types without changes at ``version``."""
    data = to_newest(datatype, value)
    converter = converter_of(datatype)
    return data if converter is None or data is None else converter.down(
        data, version)


def up_from(datatype: Any, data: Any, version: Version) -> Any:
    """``data``, JSON sent at ``version``, in the newest representation."""
    converter = converter_of(datatype)
    return data if converter is None or data is None else converter.up(
        data, version)


def shown_names(datatype: Any, version: Version) -> Mapping[str, str]:
    """What clients at ``version`` call the renamed fields of ``datatype``
    and of the types it holds: each other name of a renamed field -> the
    version's (a name another type renames differently, or uses for a
    field of its own, is left out).  Errors about
    a body converted up name its fields this way."""
    key = (_key(resolve_datatype(datatype)), version)
    found = _shown_names.get(key)
    if found is None:
        names: dict[str, Optional[str]] = {}  # None: not to be told
        for cls in _complex_types(resolve_datatype(datatype)):
            binding = binding_of(cls)
            renamed: set[str] = set()
            for shown, group in binding.renames[version] if binding else ():
                renamed.update(group)
                for name in group:
                    if name != shown:  # another type may disagree
                        names[name] = (shown if names.get(name, shown)
                                       == shown else None)
            for attr in wtypes.list_attributes(cls):
                if attr.name not in renamed:  # a name of its own here
                    names[attr.name] = None
        found = _shown_names[key] = {
            newest: shown for newest, shown in names.items()
            if shown is not None}
    return found


def patch_newest(datatype: Any, newest: Mapping[str, Any], patch: Any,
                 version: Version) -> dict[str, Any]:
    """Apply a JSON ``patch`` sent at ``version`` to the resource's newest
    JSON ``newest``; return the patched newest JSON.

    The patch is checked against what ``version`` shows (as by
    :func:`~pecan_microversions.wsme.checking.check_patch`), applied to that
    view, and written back: every field the version cannot see, top level
    or nested, keeps its value; renamed fields land under their newest
    names and old values are mapped up.  Each field whose value changed is
    then checked as WSME checks it in a body (its type, a string's length,
    an enum's values: see :func:`~pecan_microversions.wsme.values.
    check_json_value`), whichever operation put it there.

    :raises ~pecan_microversions.core.errors.RequestError: the patch is
        refused or cannot be applied, or leaves a field with a value its
        type does not allow, or a mandatory field null or absent.
    """
    operations = check_patch(datatype, patch, version)
    binding = binding_of(resolve_datatype(datatype))
    converter = converter_of(datatype)
    if binding is None:
        raise TypeError(f'{datatype!r} is not bound to a registry.')
    conversion = (converter if isinstance(converter, Conversion)
                  else binding.conversion)
    shown = conversion.down(newest, version)
    touched = touched_fields(operations)  # checked: each names a field
    changed, identity = tracked_patch(shown, operations,
                                      kept_members(datatype, version),
                                      touched=touched)
    check_effect(datatype, shown, changed, version,  # nested fields too
                 touched)
    patched = conversion.merge(newest, shown, changed, version, identity)
    for name, value in patched.items():
        old = newest.get(name, _ABSENT)  # the same object: left alone
        if value is not old and not same_json(value, old):
            attr = binding.by_name.get(name)
            if attr is not None:
                check_json_value(attr.datatype, value, name, stored=True)
    return patched
