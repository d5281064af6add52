"""Compiled readers of JSON values into WSME values.

:func:`reader` turns a WSME datatype into one function that maps a value
``json.loads`` returned to what ``wsme.rest.json.fromjson(datatype, value)``
returns, raising the same errors in the same order, without ``fromjson``'s
generic dispatch on every value and its attribute listing on every object.
An object type is read by generated code, one statement per attribute (as
:mod:`pecan_microversions.wsme.object_views` writes one); each attribute is
set through its descriptor, so WSME checks every value as it does, but for
a ``str`` a plain text, ``StringType`` or ``Enum`` attribute would store as
it is (the right type, length and value): the reader stores it in the
object's data holder directly.

Datatypes ``fromjson`` was extended for (``fromjson.when_object`` or
``when_type`` beyond WSME's own) are read by ``fromjson`` itself.  Readers
are compiled at first use and cached: extend ``fromjson`` at import, before
serving requests.
"""

from __future__ import annotations

import functools
import keyword
from collections.abc import Callable
from typing import Any, Optional

import wsme.exc
from wsme import types as wtypes
from wsme.rest.json import fromjson

from pecan_microversions.compat import (
    FROMJSON_FUNCTIONS,
    dispatch_class,
    plain_attribute,
    wsme_dataholder,
)
from pecan_microversions.wsme.fields import VersionedAttr

__all__ = ['Reader', 'reader']

#: A compiled reader: JSON-decoded value -> WSME value.
Reader = Callable[[Any], Any]

#: Text, read by WSME's own function (which changes only bytes).
_TEXT = functools.partial(FROMJSON_FUNCTIONS[wtypes.text], wtypes.text)
_readers: dict[Any, Reader] = {wtypes.text: _TEXT}


def reader(datatype: Any) -> Reader:
    """The compiled equivalent of ``fromjson(datatype, value)`` (cached)."""
    try:
        return _readers[datatype]
    except (KeyError, TypeError):
        return _compile(datatype, {})


def _compile(datatype: Any, building: dict[Any, list[Reader]]) -> Reader:
    try:
        return _readers[datatype]
    except KeyError:
        pass
    except TypeError:  # an unhashable datatype: not cached
        return _build(datatype, building)
    if datatype in building:
        cell = building[datatype]  # a cycle: resolved once built
        return lambda value: cell[0](value)
    result = _readers[datatype] = _build(datatype, building)
    return result


def _build(datatype: Any, building: dict[Any, list[Reader]]) -> Reader:
    kind = dispatch_class(fromjson, datatype)
    if kind is None:  # a function registered for the datatype itself
        try:
            own = FROMJSON_FUNCTIONS.get(datatype)
        except TypeError:
            own = None
        if own is None:
            return functools.partial(fromjson, datatype)
        return functools.partial(own, datatype)
    if kind is wtypes.ArrayType:
        return _array(_compile(datatype.item_type, building))
    if kind is wtypes.DictType:
        return _dict(_compile(datatype.key_type, building),
                     _compile(datatype.value_type, building))
    if kind is not object:
        return functools.partial(fromjson, datatype)
    # fromjson's own body:
    if wtypes.iscomplex(datatype):
        return _complex(datatype, building)
    if wtypes.isusertype(datatype):
        return _user(datatype.frombasetype,
                     _compile(datatype.basetype, building))
    return _as_it_is


def _plain_set(attr: Any) -> bool:
    """Whether setting ``attr`` is ``wsattr.__set__`` (``VersionedAttr``'s
    adds nothing without a hidden default): it validates the value, then
    stores it in the data holder, and nothing else."""
    delegating = (VersionedAttr.__set__,) if (
        isinstance(attr, VersionedAttr) and attr.plain_read) else ()
    return plain_attribute(attr, delegating, '__set__')


def _stored_directly(cls: type, attr: Any) -> bool:
    """Whether setting ``attr`` on a ``cls`` may be done in the data
    holder: a plain set, on a class with no ``__setattr__`` of its own."""
    return cls.__setattr__ is object.__setattr__ and _plain_set(attr)


def stored_as_is(cls: type, attr: Any, index: int,
                 namespace: dict[str, Any]) -> Optional[str]:
    """The test on a value ``v`` under which reading it and setting it on
    ``attr`` stores ``v`` itself in the data holder, or None if there is no
    such test: a ``str`` for a text attribute, one of the right length for
    a ``StringType`` with no pattern, one of the values for an ``Enum`` of
    text (their limits and values read when the value is: as WSME reads
    them), for a plain set (:func:`_plain_set`) on a class with no
    ``__setattr__``, and a datatype ``fromjson`` was not extended for."""
    if not _stored_directly(cls, attr):
        return None
    datatype, test = attr.datatype, 'v.__class__ is str'
    if datatype is wtypes.text:
        return test
    kind, rule = type(datatype), f'd{index}'
    if dispatch_class(fromjson, datatype) is not object:
        return None  # fromjson extended for it: read by the extension
    namespace[rule] = datatype
    if kind is wtypes.StringType:
        return (f'{test} and {rule}.pattern is None and ({rule}.min_length '
                f'is None or {rule}.min_length <= len(v)) and ('
                f'{rule}.max_length is None or len(v) <= {rule}.max_length)')
    if kind is wtypes.Enum and datatype.basetype is wtypes.text:
        return f'{test} and v in {rule}.values'
    return None


def _validated_as_is(datatype: Any) -> bool:
    """Whether ``validate_value(datatype, obj)`` returns ``obj``, an
    instance of the complex type ``datatype``, as it is (checked for
    ``validate`` when a value is read): no ``validate`` of its own, and the
    usual equality (``validate_value`` compares it with ``Unset``)."""
    return (isinstance(datatype, type) and wtypes.iscomplex(datatype)
            and datatype.__eq__ is object.__eq__
            and not hasattr(datatype, 'validate'))


def _read_as_is(cls: type, attr: Any, index: int,
                namespace: dict[str, Any]) -> Optional[str]:
    """For an attribute of a complex type read by a compiled reader, the
    test on the value read ``v`` under which setting it stores ``v`` as it
    is (an instance of that very type, validated as is: see
    :func:`_validated_as_is`), for a plain set on a class with no
    ``__setattr__``; None otherwise."""
    datatype = attr.datatype
    if not (_stored_directly(cls, attr) and _validated_as_is(datatype)
            and dispatch_class(fromjson, datatype) is object):
        return None
    namespace[f'c{index}'] = datatype
    return f"v.__class__ is c{index} and not hasattr(c{index}, 'validate')"


def set_statement(target: str, key: str, index: int) -> str:
    """The statement setting attribute ``key`` of ``target`` to ``v`` (the
    key as ``k<index>`` in the namespace where it is not an identifier)."""
    if key.isascii() and key.isidentifier() and not keyword.iskeyword(key):
        return f'{target}.{key} = v'
    return f'setattr({target}, k{index}, v)'  # NFKC: see views


def _as_it_is(value: Any) -> Any:
    return value


def _array(item: Reader) -> Reader:
    def read(value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, list):
            raise ValueError(f'Value not a valid list: {value}')
        return [item(v) for v in value]
    return read


def _dict(key: Reader, item: Reader) -> Reader:
    def read(value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise ValueError(f'Value not a valid dict: {value}')
        return {key(k): item(v) for k, v in value.items()}
    return read


def _user(frombasetype: Callable[[Any], Any], base: Reader) -> Reader:
    def read(value: Any) -> Any:
        if value is None:
            return None
        return frombasetype(base(value))
    return read


def _complex(cls: type, building: dict[Any, list[Reader]]) -> Reader:
    cell: list[Reader] = []
    building[cls] = cell
    attributes = wtypes.list_attributes(cls)
    namespace: dict[str, Any] = {
        'cls': cls, 'NAMES': frozenset(a.name for a in attributes),
        'UnknownAttribute': wsme.exc.UnknownAttribute,
        'InvalidInput': wsme.exc.InvalidInput,
        'validate_value': wtypes.validate_value}
    stored = [None if getattr(attr, 'readonly', False)
              else stored_as_is(cls, attr, i, namespace)
              for i, attr in enumerate(attributes)]
    lines = ['def read(value):',
             '    if value is None:',
             '        return None',
             '    obj = cls()',
             '    keys = value.keys()',
             '    if not keys <= NAMES:',
             '        raise UnknownAttribute(None, set(keys) - NAMES)']
    read_as_is = [None if getattr(attr, 'readonly', False)
                  else _read_as_is(cls, attr, i, namespace)
                  for i, attr in enumerate(attributes)]
    plain = [attr for attr, test, read in zip(attributes, stored, read_as_is,
                                              strict=True) if test or read]
    if plain:
        namespace['holder'] = functools.partial(wsme_dataholder, plain[0])
        lines.append('    h = holder(obj)')
    for i, attr in enumerate(attributes):
        name = repr(attr.name)
        item = _compile(attr.datatype, building)
        namespace[f'r{i}'] = item
        namespace[f'k{i}'] = attr.key
        lines += [f'    if {name} in value:',
                  f'        v = value[{name}]']
        pad = '        '
        if stored[i]:  # as the descriptor would store it, without it
            lines += [f'        if {stored[i]}:',
                      f'            {set_statement("h", attr.key, i)}',
                      '        else:']
            pad += '    '
        lines.append(pad + 'try:')
        if item is _TEXT and not stored[i]:  # no call for a str
            lines.append(pad + f'    v = v if v.__class__ is str else r{i}(v)')
        else:
            lines.append(pad + f'    v = r{i}(v)')
        lines += [pad + 'except UnknownAttribute as exc:',
                  pad + f'    exc.add_fieldname({name})',
                  pad + '    raise']
        if getattr(attr, 'readonly', False):
            lines.append(pad + f'raise InvalidInput({name}, v, '
                         "'Cannot set read only field.')")
        elif read_as_is[i]:  # an object its reader made: stored as is
            lines += [pad + f'if {read_as_is[i]}:',
                      pad + f'    {set_statement("h", attr.key, i)}',
                      pad + 'else:',
                      pad + f'    {set_statement("obj", attr.key, i)}']
        else:
            lines.append(pad + set_statement('obj', attr.key, i))
            if plain and not _plain_set(attr):  # it may replace the holder
                lines.append(pad + 'h = holder(obj)')
        if attr.mandatory:
            lines += ['    else:',
                      f'        raise InvalidInput({name}, None, '
                      "'Mandatory field missing.')"]
    if _validated_as_is(cls):  # validate_value would return it
        lines.append("    return obj if not hasattr(cls, 'validate') else "
                     'validate_value(cls, obj)')
    else:
        lines.append('    return validate_value(cls, obj)')
    exec('\n'.join(lines), namespace)  # noqa: S102
    del building[cls]
    result: Reader = namespace['read']
    cell.append(result)
    return result
