"""One JSON value checked against its WSME datatype, as WSME reads it.

WSME checks what it reads from a body when it builds the argument: each
value is converted from JSON (dates parsed, user types built) and set on
its attribute, which validates it (its type, a string's length, an enum's
values).  :func:`check_json_value` does the same to a value a controller
handles as plain JSON, such as a field a JSON patch changed, and answers
what WSME refuses as a :class:`~pecan_microversions.core.errors.
RequestError`.
"""

from __future__ import annotations

from typing import Any

import wsme.exc
from wsme import types as wtypes

from pecan_microversions.core.errors import RequestError
from pecan_microversions.wsme.readers import reader

__all__ = ['check_argument_value', 'check_json_argument', 'check_json_value',
           'validated_by_wsme']


def check_json_value(datatype: Any, value: Any, label: str,
                     stored: bool = False) -> None:
    """Refuse ``value`` (JSON) if WSME would not accept it as ``datatype``.

    ``None`` is accepted (whether a field may be null is the contract's
    business).

    :param label: names the field in the message.
    :param stored: ``value`` is a stored one (a patched document): the
        read-only members its objects hold are not the client's and are
        not read (WSME refuses them in a body).
    :raises ~pecan_microversions.core.errors.RequestError: 400
        ``microversion.invalid_value``.
    """
    if value is None or (datatype is str and value.__class__ is str):
        return  # text as text: nothing WSME would refuse
    if stored:
        value = _writable_part(datatype, value)
    try:
        converted = reader(datatype)(value)
        if not wtypes.iscomplex(datatype):  # objects: set field by field
            wtypes.validate_value(datatype, converted)
    except wsme.exc.UnknownAttribute as exc:
        where = label if exc.fieldname is None else f'{label}.{exc.fieldname}'
        raise RequestError(f'Invalid value for field {label!r}: {where!r} '
                           f'has no {", ".join(sorted(exc.attributes))}.',
                           error_code='microversion.invalid_value') from None
    except wsme.exc.ClientSideError as exc:
        raise RequestError(f'Invalid value for field {label!r}: '
                           f'{exc.faultstring}',
                           error_code='microversion.invalid_value') from None
    except Exception as exc:  # noqa: BLE001 - a user type's own error
        # (Ironic's raise exception.Invalid): WSME answers any as a 400.
        raise RequestError(f'Invalid value {value!r} for field {label!r}: '
                           f'{exc}', error_code='microversion.invalid_value'
                           ) from None


def _writable_part(datatype: Any, value: Any) -> Any:
    """``value`` without the members its objects declare read-only."""
    members = _members.get(datatype) if isinstance(datatype, type) else None
    if members is None:
        if isinstance(datatype, wtypes.ArrayType) and isinstance(value, list):
            return [_writable_part(datatype.item_type, v) for v in value]
        if isinstance(datatype, wtypes.DictType) and isinstance(value, dict):
            return {k: _writable_part(datatype.value_type, v)
                    for k, v in value.items()}
        if not wtypes.iscomplex(datatype):
            return value
        members = _members[datatype] = {
            a.name: (a.readonly, a.datatype if isinstance(
                a.datatype, (wtypes.ArrayType, wtypes.DictType))
                or wtypes.iscomplex(a.datatype) else None)
            for a in wtypes.list_attributes(datatype)}
    if not isinstance(value, dict):
        return value
    kept: dict[str, Any] = {}
    for key, item in value.items():
        member = members.get(key)
        if member is None:
            kept[key] = item  # unknown: refused when read
        elif member[0]:
            continue  # read-only: the stored value's, not the client's
        elif member[1] is None:
            kept[key] = item
        else:
            kept[key] = _writable_part(member[1], item)
    return kept


#: Of each complex type, by public name: whether the attribute is
#: read-only, and its datatype where it may hold objects (else None).
_members: dict[Any, dict[str, tuple[bool, Any]]] = {}


def check_json_argument(datatype: Any, value: Any, label: str) -> None:
    """Refuse ``value``, given by name in a JSON body for a method's
    argument of ``datatype``, where WSME would hand it to the method
    unchecked: what is no text for a text argument (a number, an object, a
    list), and a value one of WSME's own validating types (``Enum``,
    ``StringType``, ``IntegerType``, or lists and dicts of them) refuses,
    as it refuses it in a body's attribute.  A service's own user types
    convert and check their values as WSME lets them.

    :raises ~pecan_microversions.core.errors.RequestError: 400
        ``microversion.invalid_value``.
    """
    _check_text(datatype, value, label)
    if validated_by_wsme(datatype):
        check_json_value(datatype, value, label)


def validated_by_wsme(datatype: Any) -> bool:
    """Whether ``datatype`` is one of WSME's own validating user types
    (``Enum``, ``StringType``, ``IntegerType``), or a list or dict of
    them: types whose ``validate`` WSME calls only for an object's
    attributes, never for a method's arguments."""
    item = datatype
    while isinstance(item, (wtypes.ArrayType, wtypes.DictType)):
        item = (item.item_type if isinstance(item, wtypes.ArrayType)
                else item.value_type)
    return isinstance(item, _VALIDATING)


def check_argument_value(datatype: Any, value: Any, label: str) -> None:
    """Refuse ``value``, as WSME converted it for a method's argument of
    ``datatype`` (see :func:`validated_by_wsme`) from any source (the URL
    path, the query string, a form, an XML or JSON body), if the type
    refuses it: an enum's unknown value, a string too long, a number out
    of range.

    :raises ~pecan_microversions.core.errors.RequestError: 400
        ``microversion.invalid_value``.
    """
    if value is None or value is wtypes.Unset:
        return
    try:
        wtypes.validate_value(datatype, value)
    except Exception as exc:  # noqa: BLE001 - a subclass's own error too
        raise RequestError(f'Invalid value {value!r} for argument '
                           f'{label!r}: {exc}',
                           error_code='microversion.invalid_value') from None


#: WSME's own user types, which validate the value they are given (a
#: service's own may validate only what comes from the client).
_VALIDATING = (wtypes.Enum, wtypes.StringType, wtypes.IntegerType)


def _check_text(datatype: Any, value: Any, label: str) -> None:
    if value is None:
        return
    if isinstance(datatype, wtypes.ArrayType):
        if not isinstance(value, list):
            raise _not_a(value, label, 'a list')
        for index, item in enumerate(value):
            _check_text(datatype.item_type, item, f'{label}[{index}]')
    elif isinstance(datatype, wtypes.DictType):
        if not isinstance(value, dict):
            raise _not_a(value, label, 'an object')
        for key, item in value.items():
            _check_text(datatype.value_type, item, f'{label}[{key}]')
    elif datatype in (wtypes.text, str) and not isinstance(value, str):
        raise _not_a(value, label, 'a string')


def _not_a(value: Any, label: str, kind: str) -> RequestError:
    return RequestError(f'Invalid value {value!r} for {label!r}: it must be '
                        f'{kind}.', error_code='microversion.invalid_value')
