"""Compiled per-(type, version) JSON views of WSME values.

:func:`view` turns a WSME datatype and a version into one function that maps
a value of that datatype (an object, a list or dict of them, a date, ...)
straight to JSON-ready Python data: what
:func:`~pecan_microversions.wsme.filtering.filter_response` followed by
WSME's ``wsme.rest.json.tojson`` gives, without changing the value and
without WSME's per-value generic dispatch.  Where an object is expected,
a plain ``dict`` keyed by the attributes' public names is read the same
way (a missing key has the attribute's default): a ``pecan.expose('json')``
controller may answer ``view(NodeCollection, get_version())(data)`` for
plain data without building WSME objects.  :func:`encode` adds
``json.dumps`` as ``wsmeext.pecan`` does, so the bytes are WSME's.

The attributes a (type, version) shows, their order and renamed values come
from the type's :class:`~pecan_microversions.wsme.fields.Binding`.  A type
that declares changes of representation (``changes=``, see
:doc:`conversion`) is written from its newest representation the way
:func:`~pecan_microversions.wsme.conversion.from_newest` writes it (old
names, mapped values, old types, computed fields), in the same one pass.
The compiled function is cached; :mod:`pecan_microversions.wsme.
object_views` generates it.

Datatypes WSME's ``tojson`` was extended for (``tojson.when_object`` or
``when_type`` beyond WSME's own), and objects whose class is not the
declared one (a subclass), go through filtering and ``tojson`` itself.
"""

from __future__ import annotations

import datetime
import decimal
import json
from typing import Any, Optional

from wsme import types as wtypes
from wsme.rest.json import tojson

from pecan_microversions.compat import plain_attribute
from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.conversion import converter_of
from pecan_microversions.wsme.fields import VersionedAttr, binding_of
from pecan_microversions.wsme.filtering import filter_response
from pecan_microversions.wsme.object_views import object_view
from pecan_microversions.wsme.view_entries import (
    Compute,
    Entry,
    Read,
    View,
    isoformat,
    plain_dict,
    plain_list,
)

__all__ = ['View', 'encode', 'view']

#: Compiled views by (datatype, version); version ``None``: the newest
#: representation, every attribute (what a computed field reads).
_views: dict[tuple[Any, Optional[Version]], View] = {}
_Unset = wtypes.Unset
_IDENTITY_TYPES = (wtypes.text, str, int, float, bool)
_ISOFORMAT_TYPES = (datetime.date, datetime.time, datetime.datetime)
#: VersionedAttr reads like wsattr when it has no default to hide.
_DELEGATING = (VersionedAttr.__get__,)
_WSME_OBJECTS = frozenset((bytes, decimal.Decimal) + _ISOFORMAT_TYPES)
#: ``tobasetype`` methods that return the value itself (strings, enums).
_AS_IT_IS = (wtypes.UserType.tobasetype, wtypes.Enum.tobasetype)


def view(datatype: Any, version: Version) -> View:
    """The compiled view of ``datatype`` at ``version`` (cached).

    :raises UnknownVersionError: a bound type's registry lacks ``version``.
    """
    try:
        return _views[(datatype, version)]
    except (KeyError, TypeError):
        return _compile(_normal(datatype), version, {})


def _normal(datatype: Any) -> Any:
    """WSME's ``[T]`` and ``{K: V}`` spellings as array and dict types."""
    if isinstance(datatype, list):
        return wtypes.ArrayType(datatype[0])
    if isinstance(datatype, dict):
        return wtypes.DictType(*next(iter(datatype.items())))
    return datatype


def encode(value: Any, datatype: Any, version: Version) -> str:
    """``value`` as the JSON text WSME would send at ``version``: the
    view's ``json.dumps``, written straight by its JSON writer where it
    has one (objects and lists of them).

    A value the view or ``json.dumps`` cannot write raises as they do; of
    a value with two such faults, the writer may meet the second first.
    """
    compiled = view(datatype, version)
    writer = getattr(compiled, 'text', None)
    if writer is not None:
        return writer(value)  # type: ignore[no-any-return]
    return json.dumps(compiled(value))


def _compile(datatype: Any, version: Optional[Version],
             building: dict[Any, list[View]]) -> View:
    key = (datatype, version)
    try:
        return _views[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable datatype: not cached
        return _build(datatype, version, building)
    if isinstance(datatype, type) and key in building:
        cell = building[key]  # a cycle: resolved once built
        return lambda value: cell[0](value)
    if version is not None and _unversioned(datatype, set()):
        # One view for every version (a computed field reads it too).
        result = _views[key] = _compile(datatype, None, building)
        return result
    result = _build(datatype, version, building)
    _views[key] = result
    return result


def _build(datatype: Any, version: Optional[Version],
           building: dict[Any, list[View]]) -> View:
    datatype = _normal(datatype)
    if _extended(datatype):
        return _generic(datatype, version)
    if wtypes.iscomplex(datatype):
        return _complex(datatype, version, building)
    if isinstance(datatype, wtypes.ArrayType):
        return _array(_compile(datatype.item_type, version, building))
    if isinstance(datatype, wtypes.DictType):
        return _dict(_compile(datatype.key_type, version, building),
                     _compile(datatype.value_type, version, building))
    if wtypes.isusertype(datatype):
        return _user(datatype, _compile(datatype.basetype, version, building))
    if datatype is bytes:
        return _bytes
    if datatype is decimal.Decimal:
        return _decimal
    if datatype in _ISOFORMAT_TYPES:
        return isoformat
    return _identity


def _unversioned(datatype: Any, seen: set[int]) -> bool:
    """Whether ``datatype`` is written alike at every version: no bound
    type in it (nor a datatype WSME's ``tojson`` was extended for)."""
    datatype = _normal(datatype)
    if id(datatype) in seen:
        return True
    seen.add(id(datatype))
    if _extended(datatype):
        return False
    if wtypes.iscomplex(datatype):
        return binding_of(datatype) is None and all(
            _unversioned(a.datatype, seen)
            for a in wtypes.list_attributes(datatype))
    if isinstance(datatype, wtypes.ArrayType):
        return _unversioned(datatype.item_type, seen)
    if isinstance(datatype, wtypes.DictType):
        return (_unversioned(datatype.key_type, seen)
                and _unversioned(datatype.value_type, seen))
    if wtypes.isusertype(datatype):
        return _unversioned(datatype.basetype, seen)
    return True


def _extended(datatype: Any) -> bool:
    """Whether WSME's ``tojson`` was taught something about ``datatype``."""
    try:
        if tojson.has_object(datatype) and datatype not in _WSME_OBJECTS:
            return True
    except TypeError:
        pass
    kind = type(datatype)
    return (kind not in (wtypes.ArrayType, wtypes.DictType)
            and tojson.has_type(kind))


def _generic(datatype: Any, version: Optional[Version]) -> View:
    def convert(value: Any) -> Any:
        if version is None:  # the newest representation: everything
            return tojson(datatype, value)
        return tojson(datatype, filter_response(value, version))
    return convert


def _identity(value: Any) -> Any:
    return value


def _bytes(value: Any) -> Any:
    return None if value is None else value.decode('ascii')


def _decimal(value: Any) -> Any:
    return None if value is None else str(value)


def _user(datatype: Any, base: View) -> View:
    if base is _identity and type(datatype).tobasetype in _AS_IT_IS:
        return _identity  # a string type, an Enum: the value as it is
    to_base = datatype.tobasetype

    def convert(value: Any) -> Any:
        return None if value is None else base(to_base(value))
    return convert


def _array(item: View) -> View:
    if item is _identity:
        return plain_list
    from_dict = getattr(item, 'from_dict', None)
    if from_dict is not None:  # objects: dicts read without a dispatch
        def objects(value: Any) -> Any:
            if value is None:
                return None
            return [from_dict(v) if v.__class__ is dict else item(v)
                    for v in value]
        objects.items_of = (item, from_dict)  # type: ignore[attr-defined]
        writer = getattr(item, 'text', None)
        if writer is not None:
            objects.text = _texts(writer)  # type: ignore[attr-defined]
        return objects

    def convert(value: Any) -> Any:
        return None if value is None else [item(v) for v in value]
    return convert


def _texts(writer: View) -> View:
    """The JSON writer of a list of objects ``writer`` writes."""
    from_dict = writer.from_dict  # type: ignore[attr-defined]

    def text(value: Any) -> str:
        if value is None:
            return 'null'
        return '[' + ', '.join([from_dict(v) if v.__class__ is dict
                                else writer(v) for v in value]) + ']'
    return text


def _dict(key: View, item: View) -> View:
    if key is _identity and item is _identity:
        return plain_dict

    def convert(value: Any) -> Any:
        if value is None:
            return None
        return {key(k): item(v) for k, v in value.items()}
    return convert


def _complex(cls: type, version: Optional[Version],
             building: dict[Any, list[View]]) -> View:
    binding = None if version is None else binding_of(cls)
    if binding is not None and version not in binding.hidden:
        raise UnknownVersionError(
            f'Version {version} is not in the history of the '
            f'{binding.registry.service_type} registry that '
            f'{cls.__qualname__} is bound to.')
    cell: list[View] = []
    building[(cls, version)] = cell
    converter = None if binding is None else converter_of(cls)
    fallback: View
    if isinstance(converter, Conversion):
        assert binding is not None and version is not None
        entries = _converted(cls, binding, version, building)

        def fallback(value: Any) -> Any:
            return converter.down(tojson(cls, value),  # type: ignore
                                  version)
    else:
        entries = _plain(cls, binding, version, building)
        fallback = _generic(cls, version)
    del building[(cls, version)]
    result = object_view(cls, entries, fallback)
    cell.append(result)
    return result


def _read(attr: Any, others: tuple[str, ...] = (),
          names: Optional[dict[str, str]] = None, **fields: Any) -> Read:
    """The :class:`Read` entry of ``attr`` (``others``: keys of its other
    names, ``names`` maps them to public names)."""
    return Read(attr.name, attr.key, attr.default, not _plain_read(attr),
                tuple((k, names[k]) for k in others) if names else (),
                **fields)


def _plain(cls: type, binding: Any, version: Optional[Version],
           building: dict[Any, list[View]]) -> list[Entry]:
    """Entries of a type shown as WSME shows it after filtering: the
    attributes ``version`` has, in declaration order (renamed ones carrying
    the value set under any of their names)."""
    hidden: tuple[str, ...] = ()
    sync: dict[str, tuple[str, ...]] = {}
    if binding is not None:
        hidden = binding.hidden[version]
        sync = dict(binding.sync[version])
    attributes = wtypes.list_attributes(cls)
    names = {a.key: a.name for a in attributes}
    return [_read(attr, sync.get(attr.key, ()), names, shown_as=attr.name,
                  convert=_view_or_none(attr.datatype, version, building))
            for attr in attributes if attr.key not in hidden]


def _converted(cls: type, binding: Any, version: Version,
               building: dict[Any, list[View]]) -> list[Entry]:
    """Entries of a type that declares changes of representation, as
    :meth:`~pecan_microversions.core.conversion.Conversion.down` writes its
    newest JSON: old names, mapped values, old types, computed fields."""
    plan = binding.conversion.plan(version)
    computes = [step for step in plan if step.compute is not None]
    # The newest names computed fields read (None: every one).
    needed: Optional[frozenset[str]] = frozenset().union(
        *(step.reads for step in computes if step.reads is not None))
    if any(step.reads is None for step in computes):
        needed = None
    attributes = wtypes.list_attributes(cls)
    names = {a.key: a.name for a in attributes}
    groups = {group[0]: group[1:] for group in binding.groups}
    entries: list[Entry] = []
    read: set[str] = set()
    for step in plan:
        if step.compute is not None:
            entries.append(Compute(step.key, step.compute, None if (
                step.reads is None or frozenset(step.reads) == needed)
                else step.reads))
            continue
        attr = binding.by_name[step.name]
        read.add(attr.key)
        newest = _view_or_none(attr.datatype, None, building)
        entries.append(_read(
            attr, groups.get(attr.key, ()), names, shown_as=step.key,
            convert=newest if step.retyped else _view_or_none(
                attr.datatype, version, building),
            down=step.down, newest=newest,
            computed_from=bool(computes) and (needed is None
                                              or attr.name in needed)))
    if computes:  # what the version hides is still read, to compute from
        entries += [_read(attr, newest=_view_or_none(attr.datatype, None,
                                                     building),
                          computed_from=True)
                    for attr in attributes if attr.key not in read
                    and (needed is None or attr.name in needed)]
    return entries


def _view_or_none(datatype: Any, version: Optional[Version],
                  building: dict[Any, list[View]]) -> Optional[View]:
    """The view of ``datatype``; ``None`` where values are written as
    they are."""
    result = _compile(datatype, version, building)
    return None if result is _identity else result


def _plain_read(attr: Any) -> bool:
    if isinstance(attr, VersionedAttr) and not attr.plain_read:
        return False
    return plain_attribute(attr, _DELEGATING)
