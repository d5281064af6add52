"""The generated statements writing one attribute's value.

:mod:`pecan_microversions.wsme.object_views` assembles a type's view from
one group of statements per :class:`~pecan_microversions.wsme.
view_entries.Read` entry, written here: as data into the view's ``out``
dict, or, in text mode, as JSON text: the member ``"key": value`` onto
the ``out`` list of its JSON writer (joined at the end), or the value's
text into a variable of its own (``into``: the writer assembles the
members in one f-string).  The views of
nested values are inlined where that saves a call (dates, plain lists
and dicts, objects read from dicts, lists of objects, small leaf types);
a nested view's own JSON writer writes its text.

Names the statements use are stored in the generated code's namespace,
numbered by entry: ``c``/``w`` views, ``e`` leaf defaults, ``m``/``t``
down-mappings; ``J`` (:func:`as_json`), ``E`` (the string encoder),
``P`` (:func:`plain_text`) and ``dumps``.  The value being written is the
variable ``value``; the members written so far are in ``out``, added to
by ``add``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Optional

from pecan_microversions.wsme.view_entries import (
    Read,
    View,
    isoformat,
    plain_dict,
    plain_list,
)

__all__ = ['JOINED', 'as_json', 'encode_string', 'fstring_object', 'in_fstring',
           'member', 'member_text', 'plain_text', 'store', 'write']

#: ``json.dumps``' own string encoder.
encode_string = json.encoder.encode_basestring_ascii
#: Source joining the members listed in ``%s`` into a JSON object.
JOINED = "'{' + ', '.join(%s) + '}'"

#: Views the generated code inlines as ``value if value.__class__ is ...``.
_SHARED = {plain_list: 'list', plain_dict: 'dict'}
#: Views the generated code inlines whole, as data and as JSON text.
_INLINE = {isoformat: 'None if value is None else value.isoformat()'}
_INLINE_TEXT = {isoformat: "'null' if value is None else (E(iso) if (iso := "
                             "value.isoformat()).__class__ is str else J(iso))"}


def as_json(value: Any) -> str:
    """``json.dumps(value)``, the common scalars without its encoder."""
    kind = value.__class__
    if kind is str:
        return encode_string(value)
    if value is None:
        return 'null'
    if value is True:
        return 'true'
    if value is False:
        return 'false'
    if kind is int:
        return int.__repr__(value)
    return json.dumps(value)


#: Most members of a dict or list :func:`plain_text` writes itself: past
#: them ``json.dumps``, whose cost per call is then worth its speed.
_SMALL = 8


def plain_text(value: Any) -> str:
    """``json.dumps(value)`` of a small dict or list of plain values,
    written without its encoder (its cost per call is that of a few
    members)."""
    kind = value.__class__
    if kind is dict and len(value) <= _SMALL:
        parts = []
        for key, item in value.items():
            if key.__class__ is not str:  # json.dumps turns it to text
                return json.dumps(value)
            parts.append(encode_string(key) + ': ' + as_json(item))
        return '{' + ', '.join(parts) + '}'
    if kind is list and len(value) <= _SMALL:
        return '[' + ', '.join([as_json(item) for item in value]) + ']'
    return json.dumps(value)


def _text(name: str) -> str:
    """Source of the JSON text of the value in variable ``name``."""
    return f'(E({name}) if {name}.__class__ is str else J({name}))'


def member(key: Any) -> str:
    """Source of the literal starting member ``key`` of a JSON object,
    written as ``json.dumps`` writes a dict's key (``1`` as ``"1"``)."""
    return repr(member_text(key))


def member_text(key: Any) -> str:
    """The text starting member ``key`` of a JSON object: the key as
    ``json.dumps`` writes it, a colon and a space."""
    return json.dumps({key: 0})[1:-4] + ': '


def in_fstring(literal: str) -> str:
    """``literal`` as it is written inside the quotes of an ``f'...'``."""
    parts = []
    for char in literal:
        if char in '{}':
            parts.append(char * 2)
        elif char in "\\'":
            parts.append('\\' + char)
        elif ' ' <= char <= '~':
            parts.append(char)
        else:
            parts.append(ascii(char)[1:-1])
    return ''.join(parts)


def store(key: str, expression: str, text: bool, data: bool,
          into: Optional[str] = None) -> str:
    """The statement writing member ``key``: ``expression`` is its value
    (``data``) or, in text mode, may be its JSON text already.  In text
    mode with ``into``, the statement sets variable ``into`` to the
    value's JSON text (the member's key is the writer's to add)."""
    if not text:
        return f'out[{key!r}] = {expression}'
    if data:
        expression = (_text(expression) if expression.isidentifier()
                      else f'J({expression})')
    if into is not None:
        return f'{into} = {expression}'
    return f'add({member(key)} + {expression})'


def _text_of(i: int, name: str, view: View, data: str,
             namespace: dict[str, Any]) -> str:
    """Source of the JSON text of ``view(value)`` (``data``: its source)
    by the view's own writer where it has one."""
    writer = getattr(view, 'text', None)
    if writer is None:
        return f'J({data})'
    namespace[f'{name}{i}t'] = writer
    return f'{name}{i}t(value)'


def _expression(i: int, name: str, view: Optional[View],
                namespace: dict[str, Any], text: bool = False) -> str:
    """Source of ``view(value)``, stored as ``{name}{i}`` (in text mode,
    of its JSON text)."""
    if view is None:
        return _text('value') if text else 'value'
    namespace[f'{name}{i}'] = view
    if view in _INLINE:
        return f'({(_INLINE_TEXT if text else _INLINE)[view]})'
    if view in _SHARED:
        data = (f'value if value.__class__ is {_SHARED[view]} '
                f'else {name}{i}(value)')
        return f'P({data})' if text else data
    from_dict = getattr(view, 'from_dict', None)
    if from_dict is not None:  # an object: a dict read without a dispatch
        namespace[f'{name}{i}d'] = from_dict
        data = (f'({name}{i}d(value) if value.__class__ is dict '
                f'else {name}{i}(value))')
        writer = getattr(view, 'text', None)
        if not text or writer is None:
            return f'J({data})' if text else data
        namespace[f'{name}{i}t'] = writer
        namespace[f'{name}{i}td'] = writer.from_dict
        return (f'({name}{i}td(value) if value.__class__ is dict '
                f'else {name}{i}t(value))')
    items = getattr(view, 'items_of', None)
    if items is not None:  # a list of objects: the loop inlined
        namespace[f'{name}{i}i'], namespace[f'{name}{i}d'] = items
        writer = getattr(items[0], 'text', None)
        if text and writer is not None:
            namespace[f'{name}{i}ti'] = writer
            namespace[f'{name}{i}td'] = writer.from_dict
            return (f"('null' if value is None else '[' + ', '.join("
                    f'[{name}{i}td(v) if v.__class__ is dict else '
                    f"{name}{i}ti(v) for v in value]) + ']')")
        data = (f'(None if value is None else [{name}{i}d(v) if v.__class__ '
                f'is dict else {name}{i}i(v) for v in value])')
        return f'J({data})' if text else data
    data = f'{name}{i}(value)'
    return _text_of(i, name, view, data, namespace) if text else data


def _inlined(i: int, view: Optional[View], target: Callable[[str], str],
             namespace: dict[str, Any], text: bool = False) -> list[str]:
    """Statements giving ``view(value)`` to ``target`` (a statement of
    its source) where the value is an object, or a list of objects, of a
    leaf type (see :func:`_leaf`): a dict of it is read here, without
    calling its view; [] otherwise.  In text mode, ``target`` is given
    JSON text."""
    item = getattr(view, 'items_of', (None,))[0]
    leaf = getattr(view if item is None else item, 'leaf', None)
    if leaf is None:
        return []
    for j, (_, default) in enumerate(leaf):
        namespace[f'e{i}_{j}'] = default
    namespace[f'c{i}'] = one = view if item is None else item
    other = f'c{i}(v)'
    if text:
        writer = getattr(one, 'text', None)
        namespace[f'c{i}t'] = writer
        other = f'J({other})' if writer is None else f'c{i}t(v)'
    read = (_leaf_text if text else _leaf_data)(i, leaf)
    if item is None:  # one object
        return (['v = value', 'if v.__class__ is dict:']
                + [f'    {line}' for line in read(target)]
                + ['else:', f'    {target(other)}'])
    return (['if value is None:',
             f'    {target(repr("null") if text else "None")}', 'else:',
             '    items = []', '    for v in value:',
             '        if v.__class__ is dict:']
            + [f'            {line}' for line in read(
                lambda got: f'items.append({got})')]
            + ['        else:', f'            items.append({other})',
               '    ' + target('f"[{\', \'.join(items)}]"' if text
                              else 'items')])


def _leaf_data(i: int, leaf: Any) -> Callable[[Callable[[str], str]],
                                              list[str]]:
    """Statements reading a leaf type's dict ``v`` as data, then giving
    it to their target."""
    def read(target: Callable[[str], str]) -> list[str]:
        lines = ['o = {}']
        for j, (name, _) in enumerate(leaf):
            lines += [f'x = v.get({name!r}, e{i}_{j})', 'if x is not Unset:',
                      f'    o[{name!r}] = x']
        return lines + [target('o')]
    return read


def _leaf_text(i: int, leaf: Any) -> Callable[[Callable[[str], str]],
                                              list[str]]:
    """Statements writing a leaf type's dict ``v`` as JSON text, then
    giving it to their target: in one f-string where every value is a
    string (none unset), else member by member."""
    def read(target: Callable[[str], str]) -> list[str]:
        lines = [f'x{j} = v.get({name!r}, e{i}_{j})'
                 for j, (name, _) in enumerate(leaf)]
        strings = ' and '.join(f'x{j}.__class__ is str'
                               for j in range(len(leaf)))
        members = ', '.join(in_fstring(member_text(name)) + f'{{E(x{j})}}'
                            for j, (name, _) in enumerate(leaf))
        lines += [f'if {strings}:', f'    {target(fstring_object(members))}',
                  'else:', '    o = []']
        for j, (name, _) in enumerate(leaf):
            lines += [f'    if x{j} is not Unset:',
                      f'        o.append({member(name)} + {_text(f"x{j}")})']
        return lines + [f'    {target(JOINED % "o")}']
    return read


def fstring_object(members: str) -> str:
    """Source of the f-string writing a JSON object of ``members`` (the
    inside of an f-string, each ``"key": {value}``)."""
    return "f'{{" + members + "}}'"


def write(i: int, entry: Read, namespace: dict[str, Any],
           text: bool = False, into: Optional[str] = None) -> list[str]:
    """The statements writing one set value (named ``value``): into the
    ``out`` dict, or in text mode as JSON text onto the ``out`` list (with
    ``into``: into that variable, see :func:`store`)."""
    key = entry.shown_as
    if key is not None and not entry.computed_from and not entry.down:
        lines = _inlined(i, entry.convert,
                         lambda got: store(key, got, text, False, into),
                         namespace, text)
        return lines or [store(key, _expression(
            i, 'c', entry.convert, namespace, text), text, False, into)]
    lines = []
    if key is not None and not entry.computed_from:  # then mapped down
        lines = _inlined(i, entry.convert, lambda got: f'shown = {got}',
                         namespace)
    shown = 'shown' if lines else _expression(i, 'c', entry.convert,
                                              namespace)
    if entry.computed_from:
        newest = _expression(i, 'w', entry.newest, namespace)
        if entry.newest is entry.convert and key is not None:
            lines.append(f'shown = {newest}')
            newest = shown = 'shown'
        lines.append(f'new[{entry.name!r}] = {newest}')
    if key is None:
        return lines
    if not entry.down:
        if shown != 'shown' and text:
            shown = _expression(i, 'c', entry.convert, namespace, text)
            return lines + [store(key, shown, text, False, into)]
        return lines + [store(key, shown, text, True, into)]
    if shown != 'shown':
        lines.append(f'shown = {shown}')
    lines.append('if shown is not None:')
    for j, function in enumerate(entry.down):
        namespace[f'm{i}_{j}'] = function
        table = getattr(function, 'table', None)
        if isinstance(table, dict):  # a value map: its look-up inlined
            namespace[f't{i}_{j}'] = table
            lines += ['    try:', f'        shown = t{i}_{j}.get(shown, shown)',
                      '    except TypeError:',  # unhashable: a list's
                      f'        shown = m{i}_{j}(shown)']  # items mapped
        else:
            lines.append(f'    shown = m{i}_{j}(shown)')
    return lines + [store(key, 'shown', text, True, into)]


