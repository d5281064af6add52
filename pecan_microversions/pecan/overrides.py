"""Pecan's ``_method`` override, kept to the requests it is meant for.

A ``RestController`` routes a request by its ``_method`` query parameter
(or form field) rather than its HTTP method, so that HTML forms, which send
only GET and POST, can reach PUT, PATCH and DELETE handlers.  Pecan refuses
the override only from GET to DELETE or PUT: ``GET /v1/nodes/1?_method=patch``
and ``HEAD /v1/nodes/1?_method=delete`` run those handlers, though GET and
HEAD must change nothing (a link or a prefetch would).  :func:`check_override`,
which the hook calls before routing, refuses them all.
"""

from __future__ import annotations

from typing import Any

import webob

from pecan_microversions.pecan.errors import APIError

__all__ = ['check_override']

_SAFE = frozenset(['GET', 'HEAD'])


def check_override(environ: dict[str, Any]) -> None:
    """Refuse a GET or HEAD request whose ``_method`` query parameter names
    another method than GET or HEAD, read as Pecan reads it (WebOb's
    parsing, the last value given), on any URL.

    :raises ~pecan_microversions.pecan.errors.APIError: 405
        ``http.method_not_allowed``, as Pecan answers GET to DELETE.
    """
    method = environ.get('REQUEST_METHOD')
    if method not in _SAFE or not environ.get('QUERY_STRING'):
        return
    # Parsed once: WebOb keeps the result in the environ for Pecan.
    value = webob.BaseRequest(environ).GET.get('_method')
    if value is not None and value.upper() not in _SAFE:
        raise APIError(
            f'A {method} request cannot be sent on as {value.upper()!r} '
            'with _method: it must change nothing.  Send the request with '
            'its own method.', status=405,
            error_code='http.method_not_allowed')
