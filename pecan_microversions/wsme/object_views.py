"""The generated function that writes one WSME type at one version.

:mod:`pecan_microversions.wsme.views` decides, per (type, version), what
each attribute becomes (a :class:`Read` or a :class:`Compute` entry, in
the order the JSON shows them); :func:`object_view` turns those entries
into one function, reading either an object of the type or a plain dict
keyed by public names.  The function is unrolled, one statement per
entry (like ``collections.namedtuple``, by ``exec`` of source made only
from attribute keys and numbered names): a loop over the entries costs
about twice as much per object.  The dicts of a small nested type written
as it is (a link, say) are read inline by the views of the types holding
it, without a call per object; a computed field placed after everything
it reads is computed in its place.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, Optional, Union

from wsme import types as wtypes

from pecan_microversions.compat import DATAHOLDER_KEY, NO_VALUES

__all__ = ['Compute', 'Read', 'View', 'isoformat', 'object_view',
           'plain_dict', 'plain_list']

#: A compiled view: value -> JSON-ready data.
View = Callable[[Any], Any]
_Unset = wtypes.Unset


class Read(NamedTuple):
    """One attribute read from the value, and written as ``shown_as``."""

    name: str                       # public name: a dict's key
    key: str                        # Python key: an object's attribute
    default: Any                    # an object's value when unset
    described: bool                 # read through the descriptor
    others: tuple[tuple[str, str], ...] = ()  # (key, name) tried if unset
    shown_as: Optional[str] = None  # written under; None: only read
    convert: Optional[View] = None  # the value's view (None: as it is)
    down: tuple[Callable[[Any], Any], ...] = ()  # then, if not None
    newest: Optional[View] = None   # its newest JSON, for computing
    computed_from: bool = False     # a computed field reads it


class Compute(NamedTuple):
    """A field computed from the newest JSON of the value: of the
    attributes read for computing, or only ``reads`` of them."""

    name: str
    compute: Callable[[Mapping[str, Any]], Any]
    reads: Optional[tuple[str, ...]] = None


Entry = Union[Read, Compute]


def plain_list(value: Any) -> Any:
    """The view of a list of plain values: shared when it is a list
    (``json.dumps`` writes it as WSME's copy)."""
    return value if value is None or value.__class__ is list else list(value)


def plain_dict(value: Any) -> Any:
    """The view of a dict of plain values: shared when it is a dict."""
    return value if value is None or value.__class__ is dict else dict(value)


def isoformat(value: Any) -> Any:
    """The view of a date, a time or a datetime."""
    return None if value is None else value.isoformat()


#: Views the generated code inlines as ``value if value.__class__ is ...``.
_SHARED = {plain_list: 'list', plain_dict: 'dict'}
#: Fewest attributes for which a dict already in view form is returned as
#: it is: checking that costs more than copying a smaller one.
_AS_IT_IS_MIN = 4
#: Views the generated code inlines whole.
_INLINE = {isoformat: 'None if value is None else value.isoformat()'}


def object_view(cls: type, entries: Sequence[Entry], fallback: View) -> View:
    """The view of ``cls`` writing ``entries`` in order.

    An object of another class than ``cls`` (a subclass) goes to
    ``fallback``; a plain ``dict`` is read by public names.
    """
    namespace: dict[str, Any] = {
        'cls': cls, 'fallback': fallback, 'Unset': _Unset,
        'KEY': DATAHOLDER_KEY, 'NO_VALUES': NO_VALUES,
        'first_set': _first_set, 'first_in': _first_in}
    computing = any(isinstance(e, Compute) for e in entries)
    start = ['    out = {}'] + (['    new = {}'] if computing else [])
    objects = ['def convert(obj):',
               '    if obj is None:',
               '        return None',
               '    if obj.__class__ is not cls:',
               '        if obj.__class__ is dict:',
               '            return from_dict(obj)',
               '        return fallback(obj)',
               '    holder = obj.__dict__.get(KEY, NO_VALUES)'] + start
    dicts = ['def from_dict(obj):'] + _as_it_is(entries, namespace) + start
    finish = []
    # Past the last attribute a computed field reads, it is computed in
    # its place; before it, its place is kept and it is computed at the end.
    last_read = max((i for i, e in enumerate(entries)
                     if isinstance(e, Read) and e.computed_from), default=-1)
    for i, entry in enumerate(entries):
        if isinstance(entry, Compute):
            namespace[f'k{i}'] = entry.compute
            given = 'new'
            if entry.reads is not None:
                namespace[f'r{i}'] = entry.reads
                given = f'{{n: new[n] for n in r{i} if n in new}}'
            computed = f'    out[{entry.name!r}] = k{i}({given})'
            if i > last_read:
                objects.append(computed)
                dicts.append(computed)
                continue
            for body in (objects, dicts):  # its place in the JSON
                body.append(f'    out[{entry.name!r}] = None')
            finish.append(computed)
            continue
        namespace[f'd{i}'] = entry.default
        namespace[f'o{i}'] = tuple(key for key, _ in entry.others)
        namespace[f'n{i}'] = tuple(name for _, name in entry.others)
        objects.append(_described(entry.key) if entry.described else
                       f'    value = getattr(holder, {entry.key!r}, d{i})')
        dicts.append(f'    value = obj.get({entry.name!r}, d{i})')
        if entry.others:
            objects += ['    if value is Unset:',
                        f'        value = first_set(obj, o{i})']
            dicts += ['    if value is Unset:',
                      f'        value = first_in(obj, n{i})']
        lines = _write(i, entry, namespace)
        for body in (objects, dicts):
            body.append('    if value is not Unset:')
            body += [f'        {line}' for line in lines]
    source = '\n'.join(dicts + finish + ['    return out']
                       + objects + finish + ['    return out'])
    exec(source, namespace)  # noqa: S102
    convert = namespace['convert']
    convert.from_dict = namespace['from_dict']  # for lists of dicts
    if _leaf(entries):  # for views of types holding it: inlined
        convert.leaf = tuple((e.name, e.default) for e in entries
                             if isinstance(e, Read))
    return convert  # type: ignore[no-any-return]


def _described(key: str) -> str:
    """The statement reading attribute ``key`` through its descriptor
    (``getattr`` where the key is not a plain name, ``class`` say)."""
    if key.isidentifier() and not keyword.iskeyword(key):
        return f'    value = obj.{key}'
    return f'    value = getattr(obj, {key!r})'


def _leaf(entries: Sequence[Entry]) -> bool:
    """Whether a dict of the type is read by a few statements that views
    of types holding it inline: a small type whose attributes are written
    under their names, as they are."""
    return 0 < len(entries) < _AS_IT_IS_MIN and all(
        isinstance(e, Read) and e.shown_as == e.name and not e.others
        and e.convert is None and not e.down for e in entries)


def _as_it_is(entries: Sequence[Entry],
              namespace: dict[str, Any]) -> list[str]:
    """Statements returning a dict that is already its own view: each
    attribute's key, in order, every value set and written as it is."""
    if len(entries) < _AS_IT_IS_MIN or not all(
            isinstance(e, Read) and e.shown_as == e.name and not e.others
            and e.convert is None and not e.down for e in entries):
        return []
    namespace['NAMES'] = tuple(e.name for e in entries)
    return ['    if tuple(obj) == NAMES and Unset not in obj.values():',
            '        return obj']


def _expression(i: int, name: str, view: Optional[View],
                namespace: dict[str, Any]) -> str:
    """Source of ``view(value)``, stored as ``{name}{i}``."""
    if view is None:
        return 'value'
    namespace[f'{name}{i}'] = view
    if view in _INLINE:
        return f'({_INLINE[view]})'
    if view in _SHARED:
        return (f'value if value.__class__ is {_SHARED[view]} '
                f'else {name}{i}(value)')
    from_dict = getattr(view, 'from_dict', None)
    if from_dict is not None:  # an object: a dict read without a dispatch
        namespace[f'{name}{i}d'] = from_dict
        return (f'({name}{i}d(value) if value.__class__ is dict '
                f'else {name}{i}(value))')
    items = getattr(view, 'items_of', None)
    if items is not None:  # a list of objects: the loop inlined
        namespace[f'{name}{i}i'], namespace[f'{name}{i}d'] = items
        return (f'(None if value is None else [{name}{i}d(v) if v.__class__ '
                f'is dict else {name}{i}i(v) for v in value])')
    return f'{name}{i}(value)'


def _inlined(i: int, view: Optional[View], target: str,
             namespace: dict[str, Any]) -> list[str]:
    """Statements storing ``view(value)`` in ``target`` where the value is
    an object, or a list of objects, of a leaf type (see :func:`_leaf`):
    a dict of it is read here, without calling its view; [] otherwise."""
    item = getattr(view, 'items_of', (None,))[0]
    leaf = getattr(view if item is None else item, 'leaf', None)
    if leaf is None:
        return []
    read = ['o = {}']
    for j, (name, default) in enumerate(leaf):
        namespace[f'e{i}_{j}'] = default
        read += [f'x = v.get({name!r}, e{i}_{j})', 'if x is not Unset:',
                 f'    o[{name!r}] = x']
    namespace[f'c{i}'] = view if item is None else item
    if item is None:  # one object
        return (['v = value', 'if v.__class__ is dict:']
                + [f'    {line}' for line in read]
                + [f'    {target} = o', 'else:', f'    {target} = c{i}(v)'])
    return (['if value is None:', f'    {target} = None', 'else:',
             '    items = []', '    for v in value:',
             '        if v.__class__ is dict:']
            + [f'            {line}' for line in read]
            + ['            items.append(o)', '        else:',
               f'            items.append(c{i}(v))', f'    {target} = items'])


def _write(i: int, entry: Read, namespace: dict[str, Any]) -> list[str]:
    """The statements storing one set value (named ``value``)."""
    lines: list[str] = []
    if not entry.computed_from and entry.shown_as is not None:
        target = 'shown' if entry.down else f'out[{entry.shown_as!r}]'
        lines = _inlined(i, entry.convert, target, namespace)
        if lines and not entry.down:
            return lines
    shown = 'shown' if lines else _expression(i, 'c', entry.convert,
                                              namespace)
    if entry.computed_from:
        newest = _expression(i, 'w', entry.newest, namespace)
        if entry.newest is entry.convert and entry.shown_as is not None:
            lines.append(f'shown = {newest}')
            newest = shown = 'shown'
        lines.append(f'new[{entry.name!r}] = {newest}')
    if entry.shown_as is None:
        return lines
    if not entry.down:
        return lines + [f'out[{entry.shown_as!r}] = {shown}']
    if shown != 'shown':
        lines.append(f'shown = {shown}')
    lines.append('if shown is not None:')
    for j, function in enumerate(entry.down):
        namespace[f'm{i}_{j}'] = function
        table = getattr(function, 'table', None)
        if isinstance(table, dict):  # a value map: its look-up inlined
            namespace[f't{i}_{j}'] = table
            lines += ['    try:', f'        shown = t{i}_{j}.get(shown, shown)',
                      '    except TypeError:',  # unhashable: never mapped
                      '        pass']
        else:
            lines.append(f'    shown = m{i}_{j}(shown)')
    return lines + [f'out[{entry.shown_as!r}] = shown']


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
