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

__all__ = ['check_json_value']


def check_json_value(datatype: Any, value: Any, label: str) -> None:
    """Refuse ``value`` (JSON) if WSME would not accept it as ``datatype``.

    ``None`` is accepted (whether a field may be null is the contract's
    business).

    :param label: names the field in the message.
    :raises ~pecan_microversions.core.errors.RequestError: 400
        ``microversion.invalid_value``.
    """
    if value is None:
        return
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
    except (ValueError, TypeError, AttributeError, ArithmeticError) as exc:
        raise RequestError(f'Invalid value {value!r} for field {label!r}: '
                           f'{exc}', error_code='microversion.invalid_value'
                           ) from None
