"""Judging what a JSON patch changed, as a body sent at a version.

A ``copy`` or ``move`` carries a value of the stored resource, which the
patch itself does not show: :func:`check_effect` compares the document
before and after the patch and checks what changed as if the client had
sent it: a value that lands in a field must be valid at the version there
(and of its type, as WSME checks a body: see :func:`~pecan_microversions.
wsme.values.check_json_value`), and a field mandatory at the version
cannot be removed.

:func:`kept_members` is what an object a patch puts in place of another
keeps of it: what a body at the version could not carry.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any, Optional

from wsme import types as wtypes

from pecan_microversions.core.checking import (
    check_available,
    check_value,
    is_read_only,
)
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.patching import Keep
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.checking import (
    body_too_deep,
    check_data,
    is_mandatory,
    resolve_datatype,
)
from pecan_microversions.wsme.fields import Binding, binding_of
from pecan_microversions.wsme.pointers import attributes_by_name, join_label
from pecan_microversions.wsme.values import check_json_value

__all__ = ['check_effect', 'kept_members']

_ABSENT = object()
_Rule = Optional[tuple[Binding, str]]


def check_effect(datatype: Any, before: Any, after: Any,
                 version: Version,
                 fields: Optional[Collection[str]] = None) -> None:
    """Judge what a patch changed from ``before`` to ``after`` (JSON of
    ``datatype`` as ``version`` shows it), nested fields included, as a
    body sent at ``version``: each field available, writable, of its type
    and of a value the version allows, a mandatory one not null or absent.

    :param fields: the top-level fields the patch may have changed
        (:func:`~pecan_microversions.core.checking.touched_fields` of its
        operations), when ``datatype`` is an object type: the others are
        the same in both documents and not compared.
    :raises ~pecan_microversions.core.errors.RequestError: naming the field.
    """
    datatype = resolve_datatype(datatype)
    try:
        if fields is not None and isinstance(datatype, type) and \
                wtypes.iscomplex(datatype) and isinstance(
                    before, dict) and isinstance(after, dict):
            _check_object(datatype, before, after, version, '', fields)
        else:
            _check_effect(datatype, before, after, version, '', None)
    except RecursionError:
        raise body_too_deep() from None


def _check_effect(datatype: Any, before: Any, after: Any, version: Version,
                  label: str, rule: _Rule) -> None:
    """Check what changed from ``before`` to ``after``; what the patch left
    alone is not judged.  List items already in the list (moved within it)
    are not new."""
    if before is not _ABSENT and same_json(before, after):
        return
    if isinstance(datatype, wtypes.ArrayType) and isinstance(
            before, list) and isinstance(after, list):
        _check_list(datatype.item_type, before, after, version, label, rule)
    elif isinstance(datatype, wtypes.DictType) and isinstance(
            before, dict) and isinstance(after, dict):
        for key, item in after.items():
            _check_effect(datatype.value_type, before.get(key, _ABSENT),
                          item, version, f'{label}[{key}]', rule)
    elif isinstance(datatype, type) and wtypes.iscomplex(datatype) and \
            isinstance(before, dict) and isinstance(after, dict):
        _check_object(datatype, before, after, version, label)
    elif after is not None:
        if rule is not None:
            binding, name = rule
            check_value(binding, name, after, version, label)
        check_data(datatype, after, version, label)
        check_json_value(datatype, after, label)


def _check_list(item_type: Any, before: list[Any], after: list[Any],
                version: Version, label: str, rule: _Rule) -> None:
    if len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            _check_effect(item_type, old, new, version, f'{label}[{index}]',
                          rule)
        return
    counts: dict[str, int] = {}
    for item in before:
        key = json.dumps(item, sort_keys=True, default=str)
        counts[key] = counts.get(key, 0) + 1
    for index, item in enumerate(after):
        key = json.dumps(item, sort_keys=True, default=str)
        if counts.get(key):
            counts[key] -= 1
        else:
            _check_effect(item_type, _ABSENT, item, version,
                          f'{label}[{index}]', rule)


def _check_object(datatype: type, before: dict[str, Any],
                  after: dict[str, Any], version: Version,
                  label: str, names: Optional[Collection[str]] = None) -> None:
    binding = binding_of(datatype)
    attributes = attributes_by_name(datatype)
    order = list(before) + [k for k in after if k not in before]
    if names is not None:  # in the same order: the same first refusal
        order = [name for name in order if name in names]
    for name in order:
        old, new = before.get(name, _ABSENT), after.get(name, _ABSENT)
        if same_json(old, new):
            continue
        field = join_label(label, name)
        attr = attributes.get(name)
        if attr is None:
            raise RequestError(f'Unknown field {field!r}.',
                               error_code='microversion.unknown_field')
        if binding is not None:
            check_available(binding, name, version, field)
        if is_read_only(binding, name, version, attr.readonly):
            raise RequestError(f'Field {field!r} is read-only.',
                               error_code='microversion.read_only_field')
        if new is _ABSENT or new is None:
            if is_mandatory(attr, binding, name, version):
                raise RequestError(
                    f'Mandatory field {field!r} cannot be removed or set to '
                    'null.', error_code='microversion.missing_field')
            continue
        _check_effect(attr.datatype if binding is None
                      else binding.datatype_at(name, version), old, new,
                      version, field,
                      None if binding is None or name not in binding.values
                      else (binding, name))


def kept_members(datatype: Any, version: Version) -> Keep:
    """For :func:`~pecan_microversions.core.patching.patched_copy`: an
    object an ``add`` or ``replace`` puts onto an object's member (a
    field's object, a dict's entry; objects within it too) gets back what
    the one it replaces held and a body at ``version`` cannot send: members
    the version lacks, read-only and computed ones.  An array's item is
    not kept from (its place is no identity: a patch may shift items), nor
    a renamed member (the client may send it under its other name)."""
    def keep(parts: list[str], old: Any, new: Any) -> Any:
        if isinstance(old, dict) and isinstance(new, dict):  # objects only
            target = datatype
            for part in parts:
                target = _member_type(target, part, version)
            _keep(target, old, new, version)
        return new
    return keep


def _member_type(datatype: Any, part: str, version: Version) -> Any:
    """The datatype of ``datatype``'s member ``part`` (None: not known)."""
    if isinstance(datatype, wtypes.ArrayType):
        return datatype.item_type
    if isinstance(datatype, wtypes.DictType):
        return datatype.value_type
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)):
        return None
    attr = attributes_by_name(datatype).get(part)
    if attr is None:
        return None
    binding = binding_of(datatype)
    return (attr.datatype if binding is None
            else binding.datatype_at(part, version))


def _keep(datatype: Any, old: Any, new: Any, version: Version) -> None:
    if isinstance(datatype, wtypes.DictType) and isinstance(
            old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key in old:
                _keep(datatype.value_type, old[key], value, version)
        return
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)
            and isinstance(old, dict) and isinstance(new, dict)):
        return
    binding = binding_of(datatype)
    attributes = attributes_by_name(datatype)
    renamed = () if binding is None else {
        name for _, group in binding.renames[version] for name in group}
    for name, value in old.items():
        attr = attributes.get(name)
        if attr is None or name in renamed:
            continue
        if name in new:
            _keep(_member_type(datatype, name, version), value, new[name],
                  version)
        elif ((binding is not None and name not in binding.visible[version])
              or is_read_only(binding, name, version, attr.readonly)):
            new[name] = value
