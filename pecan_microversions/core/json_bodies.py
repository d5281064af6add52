"""JSON request bodies read strictly: UTF-8 JSON text, each key once per object.

``versioned_wsexpose`` reads JSON bodies with :data:`DECODER`; a service
reading a body itself (a plain-dict :class:`~pecan_microversions.core.
schema.Schema` service, a patch handler of its own) calls :func:`read_json`
for the same 400s instead of ``json.loads``, which keeps the last of two
values given for one key, reads ``NaN`` and ``Infinity`` (which JSON does
not have, and which the service would then send back as invalid JSON),
reads other encodings than UTF-8, reads ``"\\ud800"`` (half of a UTF-16
surrogate pair, which is no character: a UTF-8 database or encoder fails
on it later), and raises ``RecursionError`` on a deeply nested document.
"""

from __future__ import annotations

import json
import re
from math import isinf
from typing import Any, Union

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import body_too_deep

__all__ = ['DECODER', 'StrictJSONError', 'deeper_than', 'nested_too_deep',
           'raised_by_decoder', 'read_json', 'utf8_text']

_REFUSE = object()


class StrictJSONError(ValueError):
    """Text ``json.loads`` reads that is not strict JSON; ``args[0]`` is
    the sentence for the client."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise StrictJSONError(f'The JSON body has the key {key!r} '
                                      'twice in one object.')
            seen.add(key)
    return result


def _no_constant(name: str) -> Any:
    raise StrictJSONError(f'The JSON body holds {name}, which is not a JSON '
                          'number.')


def _finite(text: str) -> float:
    value = float(text)
    if isinf(value):
        raise StrictJSONError('The JSON body holds a number too large for a '
                              f'floating-point number ({text[:40]} reads as '
                              'infinity, which JSON does not have).')
    return value


#: Decodes JSON text refusing a key given twice in one object, ``NaN``,
#: ``Infinity`` and ``-Infinity``, and numbers only infinity holds
#: (``1e999``) (:class:`StrictJSONError`); one for every body, as it keeps
#: no state between documents (``json.loads`` with a hook makes one per
#: call).
DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates,
                           parse_constant=_no_constant, parse_float=_finite)


def read_json(body: Union[bytes, str], *, malformed: Any = _REFUSE) -> Any:
    """The JSON value of a request ``body``.

    :param malformed: returned for a body that is not JSON at all, instead
        of the 400 (for a caller that leaves that answer to another reader).
    :raises RequestError: 400 ``microversion.invalid_body`` for a body that
        is not UTF-8 or not JSON, that gives a key twice in one object, or
        holds ``NaN``, ``Infinity`` (or a number only it holds, ``1e999``)
        or a lone surrogate; 400
        ``microversion.body_too_deep`` for one nested too deeply to read.
    """
    if isinstance(body, bytes):
        body = utf8_text(body)
    try:
        value = DECODER.decode(body)
    except StrictJSONError as exc:
        raise RequestError(exc.args[0],
                           error_code='microversion.invalid_body') from None
    except ValueError as exc:
        if malformed is not _REFUSE:
            return malformed
        raise RequestError(f'The body is not valid JSON: {exc}.',
                           error_code='microversion.invalid_body') from None
    except RecursionError:
        raise body_too_deep() from None
    if '\\u' in body and _may_hold_lone_surrogate(body):
        lone = _lone_surrogate(value)
        if lone is not None:
            raise RequestError(
                f'The JSON body holds "\\u{ord(lone):04x}" alone, half of a '
                'UTF-16 surrogate pair, which is no character.',
                error_code='microversion.invalid_body')
    return value


#: The escape of a surrogate; the decoder joins a high one followed by a
#: low one (a whole pair) into one character.
_SURROGATE_ESCAPE = re.compile(r'\\u[dD][89a-fA-F]')
_LOW = re.compile(r'\\u[dD][c-fC-F]')
_SURROGATE = re.compile('[\\ud800-\\udfff]')


def _may_hold_lone_surrogate(body: str) -> bool:
    """Whether JSON text ``body`` has the escape of a surrogate that is not
    half of a whole pair (or an escaped backslash before such text: the
    parsed value tells)."""
    paired = -1  # where the low half of the last whole pair starts
    for found in _SURROGATE_ESCAPE.finditer(body):
        start = found.start()
        if start == paired:
            continue
        if body[start + 3] not in '89abAB' or not _LOW.match(body,
                                                            start + 6):
            return True
        paired = start + 6
    return False


def _lone_surrogate(value: Any) -> Any:
    """A lone surrogate in a string (a key or a value) of parsed JSON
    ``value``, or ``None``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return found.group()
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def utf8_text(body: bytes) -> str:
    """A JSON request ``body`` as text.

    :raises RequestError: 400 ``microversion.invalid_body`` naming the
        first byte that is not UTF-8.
    """
    try:
        return body.decode('utf-8')
    except UnicodeDecodeError as exc:
        raise RequestError(f'The JSON body is not UTF-8: {exc}.',
                           error_code='microversion.invalid_body') from None


def raised_by_decoder(error: BaseException) -> bool:
    """Whether ``error`` was raised inside the JSON decoder itself (a
    ``RecursionError`` there is the document's depth; parsing again higher
    up the stack could succeed)."""
    frame = error.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    return frame is not None and frame.tb_frame.f_globals.get(
        '__name__') == 'json.decoder'


def nested_too_deep(body: Union[bytes, str]) -> bool:
    """Whether ``body`` is JSON nested too deeply for the decoder."""
    try:
        json.loads(body)
    except RecursionError:
        return True
    except ValueError:
        return False
    return False


def deeper_than(value: Any, limit: int) -> bool:
    """Whether parsed JSON ``value`` nests objects and arrays more than
    ``limit`` levels deep (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False
