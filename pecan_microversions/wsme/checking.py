"""Checking request bodies and JSON patches against the request's version.

Both work on the JSON the client sent (before WSME converts it), so errors
name the public field names and nothing is silently dropped:

* :func:`check_body`: a POST/PUT body; a field the version does not have is
  rejected with the registry's ``unavailable_status`` (400, or 406), naming
  the field, the requested version and the versions that have it.
* :func:`check_patch`: an RFC 6902 JSON patch; every ``path`` (and
  ``from``) is checked the same way, plus read-only and mandatory fields
  (a field computed at the version is read-only there).
* :func:`~pecan_microversions.wsme.patching.apply_patch` checks, applies
  and judges the effect of a patch on a document.

:func:`~pecan_microversions.pecan.expose.versioned_wsexpose` runs the checks for
you; call them yourself from ``pecan.expose`` methods.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple, Optional

from wsme import types as wtypes

from pecan_microversions.core.checking import (
    OPERATIONS,
    check_member,
    check_present,
    is_read_only,
    operation_name,
    patch_error,
    unseen_value_error,
)
from pecan_microversions.core.contract import ValueRule
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import body_too_deep, moves_away
from pecan_microversions.core.version import Version
from pecan_microversions.wsme import pointers
from pecan_microversions.wsme.fields import Binding, binding_of
from pecan_microversions.wsme.pointers import attributes_by_name as _attributes
from pecan_microversions.wsme.pointers import join_label as _join
from pecan_microversions.wsme.pointers import walk_pointer
from pecan_microversions.wsme.values import check_json_value

__all__ = ['JsonPatchOperation', 'body_too_deep', 'check_body', 'check_data',
           'check_operations', 'check_patch', 'check_retyped', 'is_mandatory',
           'json_only', 'resolve_datatype']

#: JSON types of the scalar datatypes a retyped field may have.
_SCALARS: dict[Any, tuple[type, ...]] = {
    str: (str,), int: (int,), float: (int, float), bool: (bool,)}
_members_cache: dict[tuple[type, Version], tuple[dict[str, Any],
                                                 tuple[str, ...]]] = {}


class _AnyJSON(wtypes.UserType):
    """Any JSON value, passed through unchanged."""

    basetype = wtypes.text
    name = 'json'


class JsonPatchOperation(wtypes.Base):
    """One RFC 6902 operation, for ``body=[JsonPatchOperation]``."""

    op = wtypes.wsattr(wtypes.Enum(str, *OPERATIONS), mandatory=True)
    path = wtypes.wsattr(wtypes.text, mandatory=True)
    value = wtypes.wsattr(_AnyJSON())
    from_ = wtypes.wsattr(wtypes.text, name='from')


def check_body(datatype: Any, data: Any, version: Version) -> None:
    """Reject fields of ``data`` (parsed JSON) that ``version`` lacks.

    Recurses into nested types, lists and dicts; also rejects unknown and
    read-only fields, values outside their range, and missing fields that
    are mandatory at ``version``.

    :param datatype: the WSME type of the body (``Node``, ``[Node]``, ...).
    :raises ~pecan_microversions.core.errors.RequestError: naming the
        problem.
    """
    try:
        check_data(resolve_datatype(datatype), data, version, '')
    except RecursionError:
        raise body_too_deep() from None


def check_patch(datatype: Any, patch: Any,
                version: Version) -> list[dict[str, Any]]:
    """Check an RFC 6902 patch of a ``datatype`` resource; return it as dicts.

    Every ``path`` and ``from`` must name fields that exist at ``version``;
    paths that change a read-only field, or remove a mandatory one, are
    refused; values of ``add``/``replace`` are checked as by
    :func:`check_body`.

    :param patch: parsed JSON, or a list of :class:`JsonPatchOperation`.
    :raises ~pecan_microversions.core.errors.RequestError: 400 (or the registry's
        ``unavailable_status``) naming the operation and the problem.
    """
    try:
        return check_operations(datatype, patch, version, False)
    except RecursionError:
        raise body_too_deep() from None


def check_operations(datatype: Any, patch: Any, version: Version,
                     with_document: bool) -> list[dict[str, Any]]:
    """:func:`check_patch`; ``with_document``: the caller judges the patch's
    effect on the document (:func:`~pecan_microversions.wsme.patching.
    apply_patch`).  Without it, ``copy`` and ``move`` into a field whose
    values depend on the version are refused: their values are not seen."""
    datatype = resolve_datatype(datatype)
    if not isinstance(patch, list):
        raise patch_error('The body must be a JSON patch (RFC 6902): a list '
                           'of operations.')
    operations = [_as_dict(op, index) for index, op in enumerate(patch)]
    for index, op in enumerate(operations):
        where = f'Patch operation #{index}'
        name = operation_name(op, where)
        if name in ('move', 'copy'):
            # a move removes its source: a mandatory field cannot move away
            walk_pointer(datatype, op, 'from', where, version,
                         changes=name == 'move', removes=moves_away(op))
        target = walk_pointer(
            datatype, op, 'path', where, version, changes=name != 'test',
            removes=name == 'remove' or (name in ('add', 'replace')
                                         and op['value'] is None),
            appends=name in ('add', 'move', 'copy'))
        if name in ('move', 'copy') and not with_document and (
                target[1] is not None or _may_vary(target[3])):
            raise unseen_value_error(where, op)
        if name in ('add', 'replace'):
            attr_name, rule, binding, target_type, label = target
            value = op['value']
            if rule is not None and binding is not None and value is not None:
                _check_value_rule(binding, attr_name, rule, value, version,
                                  label)
            if (binding is not None and attr_name is not None
                    and value is not None and target_type is not None
                    and binding.retyped.get(attr_name)
                    and target_type is binding.datatype_at(attr_name,
                                                           version)):
                check_retyped(target_type, value, label, version)
            check_data(target_type, value, version, label)
    return operations


def resolve_datatype(datatype: Any) -> Any:
    """WSME's ``[T]`` and ``{K: V}`` shorthands as WSME array/dict types."""
    if isinstance(datatype, list):
        return wtypes.ArrayType(resolve_datatype(datatype[0]))
    if isinstance(datatype, dict):
        key, value = next(iter(datatype.items()))
        return wtypes.DictType(key, resolve_datatype(value))
    return datatype


def check_data(datatype: Any, data: Any, version: Version,
               label: str) -> None:
    """:func:`check_body` for a resolved ``datatype``; ``label`` names where
    ``data`` sits in the body (``''`` for the whole body)."""
    if data is None:
        return
    if isinstance(datatype, wtypes.ArrayType):
        if isinstance(data, list):
            for index, item in enumerate(data):
                check_data(datatype.item_type, item, version,
                           f'{label}[{index}]')
        return
    if isinstance(datatype, wtypes.DictType):
        if isinstance(data, dict):
            for key, item in data.items():
                check_data(datatype.value_type, item, version,
                           f'{label}[{key}]')
        return
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)):
        return
    if not isinstance(data, dict):
        raise RequestError(f'{_subject(label)} must be a JSON object.',
                       error_code='microversion.invalid_body')
    binding = binding_of(datatype)
    members, required = _members(datatype, binding, version)
    for name, value in data.items():
        member = members.get(name)
        if member is None:
            raise RequestError(f'Unknown field {_join(label, name)!r}.',
                               error_code='microversion.unknown_field')
        if value is None or not member.plain:  # else nothing to refuse
            if not check_member(binding, name, value, version,
                                _join(label, name),
                                readonly=member.readonly,
                                mandatory=member.mandatory) or value is None:
                continue  # left out, or a null: nothing more to check
        if member.retyped:
            check_retyped(member.datatype, value, _join(label, name),
                          version)
        if member.nested:
            check_data(member.datatype, value, version,
                       _join(label, name))
    check_present(required, data, lambda name: _join(label, name))


class _Member(NamedTuple):
    """How :func:`check_data` checks one attribute at one version."""

    readonly: bool
    mandatory: bool
    datatype: Any  # at the version
    retyped: bool  # another type than the newest
    nested: bool   # can hold members to check
    plain: bool    # check_member refuses none of its values but null


def _members(cls: type, binding: Optional[Binding], version: Version
             ) -> tuple[dict[str, _Member], tuple[str, ...]]:
    """The attributes of ``cls`` by public name as checked at ``version``,
    and the names a body must give (worked out once per type and
    version)."""
    key = (cls, version)
    found = _members_cache.get(key)
    if found is None:
        attributes = _attributes(cls)
        members = {}
        for name, attr in attributes.items():
            here = (attr.datatype if binding is None
                    else binding.datatype_at(name, version))
            members[name] = _Member(
                readonly := is_read_only(binding, name, version,
                                         bool(attr.readonly)),
                is_mandatory(attr, binding, name, version), here,
                here is not attr.datatype,
                isinstance(here, (wtypes.ArrayType, wtypes.DictType)) or (
                    isinstance(here, type) and wtypes.iscomplex(here)),
                not readonly and (binding is None or (
                    name in binding.visible[version]
                    and name not in binding.values)))
        required = [a.name for a in attributes.values() if a.mandatory]
        if binding is not None:
            required += binding.mandatory[version]
        found = _members_cache[key] = (members, tuple(required))
    return found


def check_retyped(datatype: Any, value: Any, field: str,
                   version: Version) -> None:
    """Refuse a value of a retyped field that is not of the type the
    version has, or breaks its constraints (a ``StringType``'s lengths, an
    ``Enum``'s values): WSME only ever sees the newest type, so it would
    refuse the value converted up, naming the newest type's fields."""
    if isinstance(datatype, type) and wtypes.iscomplex(datatype):
        return  # checked field by field
    base = getattr(datatype, 'basetype', datatype)  # a UserType's JSON type
    expected = _SCALARS.get(base)
    if expected is not None and (not isinstance(value, expected) or (
            isinstance(value, bool) and bool not in expected)):
        raise RequestError(
            f'Invalid value {value!r} for field {field!r}: at version '
            f'{version} it is a {_type_label(base)}.',
            error_code='microversion.invalid_value')
    check_json_value(datatype, value, field)


def json_only(field: str, version: Version) -> RequestError:
    """The 400 for a field of another representation at ``version`` than
    the newest, sent where it is not converted up (anything but JSON)."""
    return RequestError(
        f'Field {field} has another representation at version {version} '
        'than the newest; it can be sent in a JSON body only.',
        error_code='microversion.json_only')


def _type_label(datatype: Any) -> str:
    return {str: 'string', int: 'integer', float: 'number',
            bool: 'boolean'}.get(datatype, str(datatype))


def is_mandatory(attr: Any, binding: Optional[Binding], name: str,
                 version: Version) -> bool:
    """Whether a request at ``version`` must give ``attr``."""
    if attr.mandatory:
        return True
    return binding is not None and name in binding.mandatory[version]


def _check_value_rule(binding: Binding, name: str, rule: ValueRule,
                      value: Any, version: Version, field: str) -> None:
    rule.check(value, version, f'field {field!r} of {binding.resource}',
               binding.registry.unavailable_status)


_vary_cache: dict[Any, bool] = {}


def _may_vary(datatype: Any) -> bool:
    """Whether values of ``datatype`` may be valid at some versions only."""
    if isinstance(datatype, wtypes.ArrayType):
        return _may_vary(datatype.item_type)
    if isinstance(datatype, wtypes.DictType):
        return _may_vary(datatype.value_type)
    if not (isinstance(datatype, type) and wtypes.iscomplex(datatype)):
        return False
    found = _vary_cache.get(datatype)
    if found is None:
        _vary_cache[datatype] = False  # a cycle adds nothing
        binding = binding_of(datatype)
        found = (binding is not None and (binding.versioned
                                          or bool(binding.values))) or any(
            _may_vary(a.datatype) for a in wtypes.list_attributes(datatype))
        _vary_cache[datatype] = found
    return found


def _as_dict(op: Any, index: int) -> dict[str, Any]:
    if isinstance(op, JsonPatchOperation):
        result = {'op': op.op, 'path': op.path}
        if op.value is not wtypes.Unset:
            result['value'] = op.value
        if op.from_ is not wtypes.Unset:
            result['from'] = op.from_
        return result
    if not isinstance(op, dict):
        raise patch_error(f'Patch operation #{index} must be a JSON object.')
    return op


def _subject(label: str) -> str:
    return f'Field {label!r}' if label else 'The body'


def __getattr__(name: str) -> Any:
    """``attributes_by_name`` and ``join_label``, moved to
    :mod:`pecan_microversions.wsme.pointers`: the old spellings, kept for
    one release, warn."""
    if name in ('attributes_by_name', 'join_label'):
        warnings.warn(f'pecan_microversions.wsme.checking.{name} is '
                      'deprecated: import it from '
                      'pecan_microversions.wsme.pointers.',
                      DeprecationWarning, stacklevel=2)
        return getattr(pointers, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
