"""Pecan's ``_method`` override, kept to the requests it is meant for.

A ``RestController`` routes a request by its ``_method`` query parameter
(or form field) rather than its HTTP method, so that HTML forms, which send
only GET and POST, can reach PUT, PATCH and DELETE handlers.  Pecan refuses
the override only from GET to DELETE or PUT: ``GET /v1/nodes/1?_method=patch``
and ``HEAD /v1/nodes/1?_method=delete`` run those handlers, though GET and
HEAD must change nothing (a link or a prefetch would).  :func:`check_override`,
which the hook calls before routing, refuses them all.

The refusal is a 400, not Pecan's 405: the request's own method is one the
URL may well answer (a 405's ``Allow`` would list it), and it is refused
before routing, on any URL, for the parameter it carries.
"""

from __future__ import annotations

from typing import Any

import webob

from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.request import named_method

__all__ = ['check_override']

_SAFE = frozenset(['GET', 'HEAD'])


def check_override(environ: dict[str, Any]) -> None:
    """Refuse a GET or HEAD request whose ``_method`` query parameter names
    another method than GET or HEAD, read as Pecan reads it (WebOb's
    parsing, the last value given), on any URL.

    :raises ~pecan_microversions.pecan.errors.APIError: 400
        ``microversion.invalid_method_override`` naming the parameter.
    """
    method = environ.get('REQUEST_METHOD')
    query = environ.get('QUERY_STRING')
    if method not in _SAFE or not query or (
            '_method' not in query and '%' not in query):
        return  # no key WebOb could read as _method: nothing to parse
    # Parsed once: WebOb keeps the result in the environ for Pecan.
    value = webob.BaseRequest(environ).GET.get('_method')
    if value is not None and value.upper() not in _SAFE:
        named = named_method(method)  # a HEAD's detail is the GET's
        raise APIError(
            f'The _method query parameter cannot send a {named} request '
            f'on as {value.upper()!r}: a {named} must change nothing.  '
            'Send the request with its own method.', status=400,
            error_code='microversion.invalid_method_override')
