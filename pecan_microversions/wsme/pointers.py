"""JSON pointers of a patch walked through WSME types at a version.

:func:`walk_pointer` follows an operation's ``path`` (or ``from``) from the
resource's type down to the field, list item or dict entry it names,
refusing on the way what the version cannot reach: an unknown field, one
the version lacks, a read-only one it would change, a mandatory one it
would remove.  A walk that succeeded is remembered per (type, version,
pointer, use), so that the patches a service receives again and again are
not walked again (at most 4096 walks of pointers up to 200 characters).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wsme import types as wtypes

from pecan_microversions.core.checking import (
    check_available,
    is_read_only,
    patch_error,
    pointer_parts,
)
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import binding_of

__all__ = ['attributes_by_name', 'join_label', 'walk_pointer']

_by_name_cache: dict[type, dict[str, Any]] = {}
#: Successful walks by (type, version, pointer, changes, removes, appends);
#: emptied when full, and of short pointers only, so that the pointers
#: clients make up (keys of a free-form dict) cannot hold much memory.
_walks: dict[tuple[Any, ...], tuple[Any, ...]] = {}
_MAX_WALKS = 4096
_MAX_REMEMBERED_LENGTH = 200


def attributes_by_name(cls: type) -> dict[str, Any]:
    """The WSME attributes of ``cls`` by public (JSON) name."""
    binding = binding_of(cls)
    if binding is not None:
        return binding.by_name
    found = _by_name_cache.get(cls)
    if found is None:
        found = _by_name_cache[cls] = {
            a.name: a for a in wtypes.list_attributes(cls)}
    return found


def join_label(label: str, name: str) -> str:
    """``label.name``, or ``name`` at the top of the body."""
    return f'{label}.{name}' if label else name


def walk_pointer(datatype: Any, op: Mapping[str, Any], member: str,
                 where: str, version: Version, *, changes: bool,
                 removes: bool = False, appends: bool = False
                 ) -> tuple[Any, ...]:
    """Walk the pointer ``op[member]`` through ``datatype`` at ``version``;
    return ``(field name, value rule, binding, datatype, label)`` of what it
    ends on (the last field's, the datatype ``None`` below free-form
    content).

    :param where: names the operation in error messages.
    :param changes: the operation changes what the pointer names (a
        read-only field is refused).
    :param removes: it removes it, or sets it to null (a mandatory field
        is refused).
    :param appends: it may end on ``-``, past a list's last item.
    :raises ~pecan_microversions.core.errors.RequestError: naming the
        operation and the problem.
    """
    pointer = op.get(member)
    key = None
    if pointer.__class__ is str and len(pointer) <= _MAX_REMEMBERED_LENGTH \
            and isinstance(datatype, type):
        key = (datatype, version, pointer, changes, removes, appends)
        found = _walks.get(key)
        if found is not None:
            return found
    result = _walk(datatype, op, member, where, version, changes=changes,
                   removes=removes, appends=appends)
    if key is not None:
        if len(_walks) >= _MAX_WALKS:
            _walks.clear()
        _walks[key] = result
    return result


def _walk(datatype: Any, op: Mapping[str, Any], member: str, where: str,
          version: Version, *, changes: bool, removes: bool,
          appends: bool) -> tuple[Any, ...]:
    parts = pointer_parts(op, member, where)
    pointer = op[member]
    current, label = datatype, ''
    attr_name = rule = binding = attr = None
    for position, part in enumerate(parts, 1):
        attr = None
        if isinstance(current, wtypes.ArrayType):
            if part == '-' and not (appends and position == len(parts)):
                raise patch_error(f'{where}: "-" in {pointer!r} names no '
                                  'item; it only ends the path of an add.')
            if part != '-' and not (part.isdigit() and (
                    part == '0' or not part.startswith('0'))):
                raise patch_error(f'{where}: {part!r} in {pointer!r} is not '
                                  'a list index.')
            current, label = current.item_type, f'{label}[{part}]'
        elif isinstance(current, wtypes.DictType):
            current, label = current.value_type, f'{label}[{part}]'
        elif isinstance(current, type) and wtypes.iscomplex(current):
            binding = binding_of(current)
            label = join_label(label, part)
            attr = attributes_by_name(current).get(part)
            if attr is None:
                raise RequestError(f'{where}: unknown field {label!r} in '
                                   f'{pointer!r}.',
                                   error_code='microversion.unknown_field')
            if binding is not None:
                check_available(binding, part, version, label)
            if changes and is_read_only(binding, part, version,
                                        attr.readonly):  # computed too
                raise RequestError(f'{where}: field {label!r} is read-only.',
                                   error_code='microversion.read_only_field')
            attr_name = part
            rule = binding.values.get(part) if binding is not None else None
            current = (attr.datatype if binding is None
                       else binding.datatype_at(part, version))
        else:
            break  # free-form content: any path below it
    else:
        if removes and attr is not None and (attr.mandatory or getattr(
                attr, 'mandatory_when_available', False)):
            raise RequestError(f'{where}: mandatory field {label!r} cannot '
                               'be removed or set to null.',
                               error_code='microversion.missing_field')
        return attr_name, rule if attr is not None else None, binding, \
            current, label
    return attr_name, None, binding, None, label
