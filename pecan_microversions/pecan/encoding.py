"""Content types and query strings that would fail while Pecan routes.

Pecan reads ``request.params`` while routing (a form or multipart body is
parsed by WebOb then), and JSON bodies too, before any controller or WSME
runs: a charset or a boundary WebOb or Python's form parser fails on would
be a 500 there, and a JSON body that is not UTF-8 Pecan's own 400 that does
not say why.  :func:`check_encoding`, which the hook calls for every request
before routing, refuses them first with a 400 or 415.
"""

from __future__ import annotations

import codecs
import re
import urllib.parse
from collections.abc import Mapping
from typing import Any, Optional

import webob

from pecan_microversions.compat import request_body
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_bodies import utf8_text
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.media import may_have_body, media_format

__all__ = ['check_encoding']

_UTF8 = frozenset(['utf-8', 'utf8'])
#: The only methods whose form or multipart body WebOb (Python's form
#: parser) never parses; it parses every other one, OPTIONS included.
_UNPARSED = frozenset(['GET', 'HEAD'])


def check_encoding(environ: Mapping[str, Any]) -> None:
    """Refuse, before routing, a content type WebOb, WSME or Pecan would fail
    on with a 500, a query string that is not UTF-8 (400), and a JSON body
    that is not UTF-8 (400: Pecan's own 400 would not say why).

    The body's charset is read as WebOb reads it (the first ``charset``
    parameter, found by its pattern, quotes and spaces stripped) and as a
    parameter parser reads it; a charset named twice, or one the two read
    differently, is a 400, so that no reader can see another charset than
    the one checked.  A charset Python does not know, and a JSON, form or
    ``multipart/form-data`` body (which Pecan parses while routing) in
    another charset than UTF-8, is a 415.  A ``multipart/form-data`` body
    needs one boundary that Python's form parser takes (1 to 201 printable
    ASCII characters, the last not a space), and parts that parse (a part's
    charset known, a nested multipart part with a boundary): else 400.

    A request without a body, of any method, is only refused a charset
    WebOb fails on (unknown, or not UTF-8 for a form, which WebOb refuses
    even empty), and, but for a GET or HEAD, a ``multipart/form-data``
    boundary or part Python's form parser fails on (it parses an empty
    body too).  The hook calls it for every request, before routing.
    """
    content_type = environ.get('CONTENT_TYPE') or ''
    if ';' in content_type or content_type[:10].lower() == 'multipart/':
        body = may_have_body(environ)
        _check_content_type(environ, content_type, body=body, parsed=body or (
            environ.get('REQUEST_METHOD') not in _UNPARSED))
    if environ.get('REQUEST_METHOD') != 'GET' and content_type.partition(
            ';')[0].strip().lower() in _DECODED_BY_PECAN:
        _check_utf8(environ)
    query = environ.get('QUERY_STRING') or ''
    if '%' in query:
        try:
            urllib.parse.unquote_to_bytes(query).decode('utf-8')
        except UnicodeDecodeError:
            raise APIError('The query string is not UTF-8.',
                           error_code='microversion.invalid_query') from None


#: Media types whose bodies Pecan decodes while routing a request other than
#: a GET (as ``request.json``; Pecan compares them as written, this check
#: in any case, as the library's own body checks do).
_DECODED_BY_PECAN = frozenset(['application/json', 'application/javascript'])


def _check_utf8(environ: Mapping[str, Any]) -> None:
    """A 400 for a body that is not UTF-8 (read as WebOb reads it, which
    keeps it for whoever reads it next)."""
    if not may_have_body(environ):
        return
    request = webob.Request(environ)
    if not request.is_body_readable:
        return  # WebOb reads none (a malformed Content-Length, say)
    request.make_body_seekable()  # the read WebOb's ``body`` starts with
    try:
        utf8_text(request_body(request))
    except RequestError as exc:
        raise APIError.from_error(exc) from None


#: How WebOb finds a request's charset (``webob.descriptors.CHARSET_RE``):
#: the first match, its value stripped of double quotes, then of spaces.
_WEBOB_CHARSET = re.compile(r';\s*charset=([^;]*)', re.IGNORECASE)
#: An HTTP token (RFC 9110), the form a charset name takes.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: A boundary Python's form parser takes (``cgi.valid_boundary``).
_BOUNDARY = re.compile(r'[ -~]{0,200}[!-~]')
#: Media types whose bodies must be UTF-8 besides those WSME reads as text:
#: those WebOb parses as forms ('' is a POST form to WebOb).
_UTF8_ONLY = frozenset(['', 'multipart/form-data'])


def _check_content_type(environ: Mapping[str, Any], content_type: str, *,
                        body: bool, parsed: bool) -> None:
    """``body``: the request may have one, which any reader may decode;
    ``parsed``: WebOb parses it as a form if it is one, even empty."""
    media_type, _, rest = content_type.partition(';')
    media_type = media_type.strip().lower()
    parameters = _parameters(rest)
    if body:
        charset = _charset(content_type, parameters)
    else:  # as WebOb reads it, which is all that reads it
        seen = _WEBOB_CHARSET.search(content_type)
        charset = seen and seen.group(1).strip('"').strip().lower() or None
    if charset is not None:
        try:
            codecs.lookup(charset)
        except (LookupError, ValueError):  # ValueError: a NUL in the name
            raise APIError(f'Unknown charset {charset!r}.', status=415,
                           error_code='microversion.unsupported_charset'
                           ) from None
        form = media_type in _UTF8_ONLY or media_format(media_type) == 'form'
        textual = form or body and (media_type.endswith('+json')
                                    or media_format(media_type) == 'json')
        if textual and charset not in _UTF8:
            raise APIError(f'A {media_type or "form"} body is sent as '
                           f'UTF-8, not {charset}.', status=415,
                           error_code='microversion.unsupported_charset')
    if media_type == 'multipart/form-data' and parsed:
        boundaries = [value for name, value in parameters
                      if name == 'boundary']
        if not boundaries:
            raise _bad_content_type(
                'A multipart/form-data body needs a boundary parameter.')
        if len(boundaries) > 1:
            raise _bad_content_type(
                'The Content-Type header names the boundary more than once.')
        if _BOUNDARY.fullmatch(boundaries[0]) is None:
            raise _bad_content_type(
                f'Invalid multipart/form-data boundary {boundaries[0]!r}: '
                'it is 1 to 201 printable ASCII characters, the last not a '
                'space.')
        try:  # parsed now as Pecan would while routing (WebOb keeps it)
            webob.Request(environ).POST  # noqa: B018 (the parse is the check)
        except (ValueError, LookupError) as exc:
            raise _bad_content_type(f'The multipart/form-data body does not '
                                    f'parse: {exc}.') from None


def _parameters(text: str) -> list[tuple[str, str]]:
    """The ``name=value`` parameters after a media type, in order, read as
    Python's form parser reads them (``cgi.parse_header``): split at the
    semicolons outside quoted strings, names lower-cased, a quoted value
    unquoted."""
    found = []
    while text:
        end = text.find(';')
        while end > 0 and (text.count('"', 0, end)
                           - text.count('\\"', 0, end)) % 2:
            end = text.find(';', end + 1)
        if end < 0:
            end = len(text)
        name, equals, value = text[:end].partition('=')
        text = text[end + 1:]
        if not equals:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1].replace('\\\\', '\\').replace('\\"', '"')
        found.append((name.strip().lower(), value))
    return found


def _charset(content_type: str, parameters: list[tuple[str, str]]
             ) -> Optional[str]:
    """The charset of ``content_type`` in lower case, or None; a 400 unless
    WebOb and a parameter parser read the same single one."""
    seen = _WEBOB_CHARSET.findall(content_type)
    named = [value for name, value in parameters if name == 'charset']
    if not seen and not named:
        return None
    if len(seen) > 1 or len(named) > 1:
        raise _bad_content_type(
            'The Content-Type header names the charset more than once.')
    charset = seen[0].strip('"').strip() if seen else None
    if charset is None or not named or charset != named[0] or \
            _TOKEN.fullmatch(charset) is None:
        raise _bad_content_type(
            'Malformed charset parameter in the Content-Type header '
            f'{content_type!r}: write charset=NAME or charset="NAME".')
    return charset.lower()


def _bad_content_type(detail: str) -> APIError:
    return APIError(detail, error_code='microversion.invalid_content_type')
