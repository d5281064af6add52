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
from the type's :class:`~pecan_microversions.wsme.fields.Binding`; the
compiled function is cached.  Down-conversion plugs in per (type, version)
through :func:`field_converters`: a table from attribute key to a function
applied to that attribute's JSON value.

Datatypes WSME's ``tojson`` was extended for (``tojson.when_object`` or
``when_type`` beyond WSME's own), and objects whose class is not the
declared one (a subclass), go through filtering and ``tojson`` itself.
"""

from __future__ import annotations

import datetime
import decimal
import json
from collections.abc import Callable, Mapping
from typing import Any, Optional

from wsme import types as wtypes
from wsme.rest.json import tojson

from pecan_microversions.compat import (
    DATAHOLDER_KEY,
    NO_VALUES,
    plain_attribute,
)
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    UnknownVersionError,
)
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import VersionedAttr, binding_of
from pecan_microversions.wsme.filtering import filter_response

__all__ = ['View', 'encode', 'field_converters', 'view']

#: A compiled view: value -> JSON-ready data.
View = Callable[[Any], Any]
_views: dict[tuple[Any, Version], View] = {}
_Unset = wtypes.Unset
_IDENTITY_TYPES = (wtypes.text, str, int, float, bool)
_ISOFORMAT_TYPES = (datetime.date, datetime.time, datetime.datetime)
#: VersionedAttr reads like wsattr when it has no default to hide.
_DELEGATING = (VersionedAttr.__get__,)
_WSME_OBJECTS = frozenset((bytes, decimal.Decimal) + _ISOFORMAT_TYPES)


def field_converters(cls: type, version: Version
                     ) -> Mapping[str, Callable[[Any], Any]]:
    """Down-conversions of ``cls``'s attributes at ``version``.

    Attribute key -> function of the attribute's JSON value returning the
    JSON value ``version`` shows; consulted once per (type, version) when
    its view is compiled.  No attribute converts yet: version conversion
    (value maps, retypes) supplies this table.
    """
    return {}


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
    """``value`` as the JSON text WSME would send at ``version``."""
    return json.dumps(view(datatype, version)(value))


def _compile(datatype: Any, version: Version,
             building: dict[Any, list[View]]) -> View:
    key = (datatype, version)
    try:
        return _views[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable datatype: not cached
        return _build(datatype, version, building)
    if isinstance(datatype, type) and datatype in building:
        cell = building[datatype]  # a cycle: resolved once built
        return lambda value: cell[0](value)
    result = _build(datatype, version, building)
    _views[key] = result
    return result


def _build(datatype: Any, version: Version,
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
        return _isoformat
    return _identity


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


def _generic(datatype: Any, version: Version) -> View:
    def convert(value: Any) -> Any:
        return tojson(datatype, filter_response(value, version))
    return convert


def _identity(value: Any) -> Any:
    return value


def _bytes(value: Any) -> Any:
    return None if value is None else value.decode('ascii')


def _decimal(value: Any) -> Any:
    return None if value is None else str(value)


def _isoformat(value: Any) -> Any:
    return None if value is None else value.isoformat()


def _user(datatype: Any, base: View) -> View:
    to_base = datatype.tobasetype

    def convert(value: Any) -> Any:
        return None if value is None else base(to_base(value))
    return convert


def _plain_list(value: Any) -> Any:
    """A list of plain values: shared when it is one (json.dumps writes it
    as WSME's copy)."""
    return value if value is None or value.__class__ is list else list(value)


def _plain_dict(value: Any) -> Any:
    return value if value is None or value.__class__ is dict else dict(value)


#: Views the generated code inlines as ``value if value.__class__ is ...``.
_SHARED = {_plain_list: 'list', _plain_dict: 'dict'}


def _array(item: View) -> View:
    if item is _identity:
        return _plain_list

    def convert(value: Any) -> Any:
        return None if value is None else [item(v) for v in value]
    return convert


def _dict(key: View, item: View) -> View:
    if key is _identity and item is _identity:
        return _plain_dict

    def convert(value: Any) -> Any:
        if value is None:
            return None
        return {key(k): item(v) for k, v in value.items()}
    return convert


def _complex(cls: type, version: Version,
             building: dict[Any, list[View]]) -> View:
    binding = binding_of(cls)
    hidden: tuple[str, ...] = ()
    sync: dict[str, tuple[str, ...]] = {}
    if binding is not None:
        if version not in binding.hidden:
            raise UnknownVersionError(
                f'Version {version} is not in the history of the '
                f'{binding.registry.service_type} registry that '
                f'{cls.__qualname__} is bound to.')
        hidden = binding.hidden[version]
        sync = dict(binding.sync[version])
    cell: list[View] = []
    building[cls] = cell
    converters = field_converters(cls, version)
    fields: list[_Field] = []
    for attr in wtypes.list_attributes(cls):
        if attr.key in hidden:
            continue
        convert: Optional[View] = _compile(attr.datatype, version, building)
        extra = converters.get(attr.key)
        if extra is not None:
            convert = _chain(convert, extra)  # type: ignore[arg-type]
        fields.append((attr.name, attr.key, attr.default,
                       None if convert is _identity else convert,
                       not _plain_read(attr), sync.get(attr.key, ())))
    del building[cls]
    result = _make_object(cls, version, tuple(fields))
    cell.append(result)
    return result


#: (JSON name, key, default, converter or None, read through the
#: descriptor, keys of the renamed attribute's other names)
_Field = tuple[str, str, Any, Optional[View], bool, tuple[str, ...]]


def _plain_read(attr: Any) -> bool:
    if isinstance(attr, VersionedAttr) and not attr.plain_read:
        return False
    return plain_attribute(attr, _DELEGATING)


def _chain(first: View, then: Callable[[Any], Any]) -> View:
    return lambda value: then(first(value))


def _make_object(cls: type, version: Version,
                 fields: tuple[_Field, ...]) -> View:
    """Generate the view of ``cls``: one statement per shown attribute.

    Unrolled (like ``collections.namedtuple``, with ``exec`` of source
    made only from attribute keys and numbered names) because a loop over
    the fields costs about twice as much per object.
    """
    namespace: dict[str, Any] = {
        'cls': cls, 'fallback': _generic(cls, version), 'Unset': _Unset,
        'KEY': DATAHOLDER_KEY, 'NO_VALUES': NO_VALUES,
        'first_set': _first_set, 'first_in': _first_in}
    names = {a.key: a.name for a in wtypes.list_attributes(cls)}
    lines = ['def convert(obj):',
             '    if obj is None:',
             '        return None',
             '    if obj.__class__ is not cls:',
             '        if obj.__class__ is dict:',
             '            return from_dict(obj)',
             '        return fallback(obj)',
             '    holder = obj.__dict__.get(KEY, NO_VALUES)',
             '    out = {}']
    plain = ['def from_dict(obj):', '    out = {}']
    for i, (name, key, default, conv, described, others) in enumerate(fields):
        if not key.isidentifier():
            raise InvalidDeclarationError(f'{cls.__qualname__}: attribute '
                                          f'key {key!r} is not a name.')
        namespace[f'd{i}'], namespace[f'c{i}'] = default, conv
        namespace[f'o{i}'] = others
        namespace[f'n{i}'] = tuple(names[k] for k in others)
        lines.append(f'    value = obj.{key}' if described else
                     f'    value = getattr(holder, {key!r}, d{i})')
        plain.append(f'    value = obj.get({name!r}, d{i})')
        if others:
            lines += ['    if value is Unset:',
                      f'        value = first_set(obj, o{i})']
            plain += ['    if value is Unset:',
                      f'        value = first_in(obj, n{i})']
        if conv is None:
            store = 'value'
        elif conv in _SHARED:
            store = f'value if value.__class__ is {_SHARED[conv]} else c{i}(value)'
        else:
            store = f'c{i}(value)'
        for body in (lines, plain):
            body += ['    if value is not Unset:',
                     f'        out[{name!r}] = {store}']
    lines.append('    return out')
    plain.append('    return out')
    exec('\n'.join(plain + lines), namespace)  # noqa: S102
    return namespace['convert']  # type: ignore[no-any-return]


def _first_in(data: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        value = data.get(name, _Unset)
        if value is not _Unset:
            return value
    return _Unset


def _first_set(obj: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = getattr(obj, key)
        if value is not _Unset:
            return value
    return _Unset
