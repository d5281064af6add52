"""The generated function that writes one WSME type at one version.

:mod:`pecan_microversions.wsme.views` decides, per (type, version), what
each attribute becomes (a :mod:`~pecan_microversions.wsme.view_entries`
entry, in the order the JSON shows them); :func:`object_view` turns those
entries into one function, reading either an object of the type or a
plain dict keyed by public names.  The function is unrolled, one statement per
entry (like ``collections.namedtuple``, by ``exec`` of source made only
from attribute keys and numbered names): a loop over the entries costs
about twice as much per object.  The dicts of a small nested type written
as it is (a link, say) are read inline by the views of the types holding
it, without a call per object; a computed field placed after everything
it reads is computed in its place.

Beside the view, the same entries give its JSON writer (the view's
``text`` attribute): the view's ``json.dumps``, written as text straight
from the value, without the dicts of the view in between.  Each member's
text goes to a variable of its own, and one f-string (one new string)
writes the object where no member is unset; a small nested type's dicts
whose values are all strings are written by one f-string too.  The
statements writing each entry come from
:mod:`pecan_microversions.wsme.view_statements`.
"""

from __future__ import annotations

import json
import keyword
from collections.abc import Sequence
from typing import Any

from wsme import types as wtypes

from pecan_microversions.compat import DATAHOLDER_KEY, NO_VALUES
from pecan_microversions.wsme.view_entries import Compute, Entry, Read, View
from pecan_microversions.wsme.view_statements import (
    JOINED,
    as_json,
    encode_string,
    fstring_object,
    in_fstring,
    member_text,
    plain_text,
    store,
    write,
)

__all__ = ['object_view']

_Unset = wtypes.Unset
#: Fewest attributes for which a dict already in view form is returned as
#: it is: checking that costs more than copying a smaller one.
_AS_IT_IS_MIN = 4

def object_view(cls: type, entries: Sequence[Entry], fallback: View) -> View:
    """The view of ``cls`` writing ``entries`` in order.

    An object of another class than ``cls`` (a subclass) goes to
    ``fallback``; a plain ``dict`` is read by public names.  The view's
    ``text`` attribute writes its JSON text (unless two entries would
    write the same key).
    """
    namespace: dict[str, Any] = {
        'cls': cls, 'fallback': fallback, 'Unset': _Unset,
        'KEY': DATAHOLDER_KEY, 'NO_VALUES': NO_VALUES,
        'first_set': _first_set, 'first_in': _first_in,
        'J': as_json, 'E': encode_string, 'dumps': json.dumps,
        'P': plain_text}
    keys = [e.shown_as if isinstance(e, Read) else e.name for e in entries]
    shown = [key for key in keys if key is not None]
    texts = len(set(shown)) == len(shown)
    source = _source(entries, namespace, False)
    if texts:
        source += '\n' + _source(entries, namespace, True)
    exec(source, namespace)  # noqa: S102
    convert = namespace['convert']
    convert.from_dict = namespace['from_dict']  # for lists of dicts
    if texts:
        convert.text = namespace['text']
        convert.text.from_dict = namespace['text_from_dict']
    if texts and _leaf(entries):  # for views of types holding it: inlined
        convert.leaf = tuple((e.name, e.default) for e in entries
                             if isinstance(e, Read))
    return convert  # type: ignore[no-any-return]


def _source(entries: Sequence[Entry], namespace: dict[str, Any],
            text: bool) -> str:
    """Source of the two functions writing ``entries`` (``convert`` and
    ``from_dict``; ``text`` and ``text_from_dict`` for JSON text)."""
    reader, from_dict = ('text', 'text_from_dict') if text else (
        'convert', 'from_dict')
    computing = any(isinstance(e, Compute) for e in entries)
    start = [] if text else ['    out = {}']
    start += (
        ['    new = {}'] if computing else [])
    objects = [f'def {reader}(obj):',
               '    if obj is None:',
               "        return 'null'" if text else '        return None',
               '    if obj.__class__ is not cls:',
               '        if obj.__class__ is dict:',
               f'            return {from_dict}(obj)',
               '        return J(fallback(obj))' if text else
               '        return fallback(obj)',
               '    holder = obj.__dict__.get(KEY, NO_VALUES)'] + start
    dicts = ([f'def {from_dict}(obj):'] + _as_it_is(entries, namespace, text)
             + start)
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
            computed = f'k{i}({given})'
            if i > last_read:
                line = '    ' + store(entry.name, computed, text, True,
                                      f'j{i}')
                objects.append(line)
                dicts.append(line)
                continue
            if text:  # its place is in the f-string
                finish.append(f'    j{i} = J({computed})')
                continue
            for body in (objects, dicts):  # its place in the JSON
                body.append(f'    out[{entry.name!r}] = None')
            finish.append(f'    out[{entry.name!r}] = {computed}')
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
        into = f'j{i}' if text and entry.shown_as is not None else None
        lines = write(i, entry, namespace, text, into)
        for body in (objects, dicts):
            body.append('    if value is not Unset:')
            body += [f'        {line}' for line in lines]
            if into is not None:
                body += ['    else:', f'        {into} = None']
    end = _joined(entries, namespace) if text else ['    return out']
    return '\n'.join(dicts + finish + end + objects + finish + end)


def _joined(entries: Sequence[Entry], namespace: dict[str, Any]) -> list[str]:
    """Statements returning the JSON text of the members written (each
    member's text in variable ``j{i}``, None where its value is unset):
    one f-string where every member is written."""
    shown = [(i, e.shown_as if isinstance(e, Read) else e.name)
             for i, e in enumerate(entries)
             if not isinstance(e, Read) or e.shown_as is not None]
    if not shown:
        return ["    return '{}'"]
    whole = '    return ' + fstring_object(', '.join(
        in_fstring(member_text(key)) + f'{{j{i}}}' for i, key in shown))
    unset = [i for i, e in enumerate(entries)
             if isinstance(e, Read) and e.shown_as is not None]
    if not unset:
        return [whole]
    namespace['MEMBERS'] = tuple(member_text(key) for _, key in shown)
    written = ', '.join(f'j{i}' for i, _ in shown)
    some = (f'[m + j for m, j in zip(MEMBERS, ({written},)) '
            'if j is not None]')
    return ['    if ' + ' and '.join(f'j{i} is not None' for i in unset)
            + ':', '    ' + whole, '    return ' + JOINED % some]


def _described(key: str) -> str:
    """The statement reading attribute ``key`` through its descriptor
    (``getattr`` where the key is not a plain name, ``class`` say)."""
    # ASCII only: Python reads other identifiers in source as their NFKC
    # form (``obj.\ufb01le`` is ``obj.file``).
    if key.isascii() and key.isidentifier() and not keyword.iskeyword(key):
        return f'    value = obj.{key}'
    return f'    value = getattr(obj, {key!r})'


def _leaf(entries: Sequence[Entry]) -> bool:
    """Whether a dict of the type is read by a few statements that views
    of types holding it inline: a small type whose attributes are written
    under their names, as they are."""
    return 0 < len(entries) < _AS_IT_IS_MIN and all(
        isinstance(e, Read) and e.shown_as == e.name and not e.others
        and e.convert is None and not e.down for e in entries)


def _as_it_is(entries: Sequence[Entry], namespace: dict[str, Any],
              text: bool) -> list[str]:
    """Statements returning a dict that is already its own view: each
    attribute's key, in order, every value set and written as it is."""
    if len(entries) < _AS_IT_IS_MIN or not all(
            isinstance(e, Read) and e.shown_as == e.name and not e.others
            and e.convert is None and not e.down for e in entries):
        return []
    namespace['NAMES'] = tuple(e.name for e in entries)
    return ['    if tuple(obj) == NAMES and Unset not in obj.values():',
            '        return dumps(obj)' if text else '        return obj']


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
