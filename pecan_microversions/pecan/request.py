"""What the hook leaves on each request, and how controllers read it.

The version lives on the request (``pecan.request.api_version``), never in
module state, so concurrent requests at different versions cannot mix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Optional

import pecan

from pecan_microversions.compat import (
    ADHOC_ATTRS_KEY,
    context_request,
    request_environ,
)
from pecan_microversions.core.negotiation import VersionLimits
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version

__all__ = ['LEGACY_KEY', 'NEGOTIATION_ATTR', 'Negotiation', 'current_request',
           'get_limits', 'get_registry', 'get_version', 'named_method',
           'negotiation_of', 'request_line']

#: The ad hoc request attribute holding the request's :class:`Negotiation`.
NEGOTIATION_ATTR = '_pecan_microversions'
_NO_ATTRS: Mapping[str, Any] = {}
#: The WSGI environ key naming the legacy header a request used.
LEGACY_KEY = 'pecan_microversions.legacy_header'


class Negotiation(NamedTuple):
    """What the hook leaves in the environ for a request: built once per
    configuration, shared (immutable) by every request."""

    limits: VersionLimits
    registry: VersionRegistry


def current_request(request: Optional[Any] = None) -> Any:
    """``request``, or Pecan's current request when it is ``None`` (the
    request object itself, not the ``pecan.request`` proxy)."""
    if request is not None:
        return request
    try:
        return context_request()
    except AttributeError:  # outside a request: the proxy says so
        return pecan.request


def _attrs(request: Optional[Any]) -> Mapping[str, Any]:
    """The request's ad hoc attributes (``request.api_version``, ...);
    none outside a request."""
    try:
        environ = request_environ(current_request(request))
    except AttributeError:
        return _NO_ATTRS
    return environ.get(ADHOC_ATTRS_KEY) or _NO_ATTRS


def negotiation_of(request: Optional[Any] = None) -> Optional[Negotiation]:
    """The negotiation the hook left on the (current) request, if any."""
    return _attrs(request).get(NEGOTIATION_ATTR)  # type: ignore[no-any-return]


def get_version(request: Optional[Any] = None) -> Version:
    """The version the current (or given) request is served at.

    :raises RuntimeError: the request did not pass through the hook.
    """
    version = _attrs(request).get('api_version')
    if not isinstance(version, Version):
        raise RuntimeError(
            'This request has no API version: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return version


def get_limits(request: Optional[Any] = None) -> VersionLimits:
    """The accepted range and default in force for the current request.

    :raises RuntimeError: the request did not pass through the hook.
    """
    negotiation = negotiation_of(request)
    if negotiation is None:
        raise RuntimeError(
            'This request has no API version limits: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return negotiation.limits


def get_registry(request: Optional[Any] = None) -> VersionRegistry:
    """The registry the current (or given) request was negotiated with.

    :raises RuntimeError: the request did not pass through the hook.
    """
    negotiation = negotiation_of(request)
    if negotiation is None:
        raise RuntimeError(
            'This request has no API version: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return negotiation.registry


def named_method(method: str, *, head_as_get: bool = True) -> str:
    """The method an error's detail names for a request sent with
    ``method``: ``HEAD`` is named ``GET`` where the ``GET``'s answer is
    the ``HEAD``'s (``head_as_get``).

    Every detail that names the request's method takes it from here: a
    ``HEAD`` must send exactly the headers the ``GET`` would,
    ``Content-Length`` included, so its error body must be the ``GET``'s,
    to the byte.  Pass ``head_as_get=False`` where the ``HEAD`` is refused
    or answered on its own (a ``head`` method, a URL that answers ``GET``
    but not ``HEAD``): its answer is not the ``GET``'s.
    """
    return 'GET' if head_as_get and method == 'HEAD' else method


def request_line(request: Optional[Any] = None, *,
                 head_as_get: bool = True) -> str:
    """``METHOD /path`` of the current (or given) request, for an error's
    detail (``METHOD`` as Pecan routed it, ``_method`` overriding, and
    named by :func:`named_method`).

    :param head_as_get: name ``HEAD`` ``GET`` (see :func:`named_method`).
        Pass ``False`` when the handler answers ``HEAD`` only (a ``head``
        method).
    """
    request = current_request(request)
    method = request.method
    if method == 'POST' or '_method' in request.environ.get('QUERY_STRING',
                                                             ''):
        # Pecan's override, from the query or a form body (POST
        # /v1/nodes/1?_method=patch): the method it routed.
        try:
            method = str(request.params.get('_method') or method).upper()
        except (ValueError, UnicodeDecodeError):  # a body WebOb cannot read
            pass
    return f'{named_method(method, head_as_get=head_as_get)} {request.path}'
