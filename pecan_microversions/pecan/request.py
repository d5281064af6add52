"""What the hook leaves on each request, and how controllers read it.

The version lives on the request (``pecan.request.api_version``), never in
module state, so concurrent requests at different versions cannot mix.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import pecan

from pecan_microversions.compat import ADHOC_ATTRS_KEY
from pecan_microversions.core.negotiation import VersionLimits
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version

__all__ = ['LEGACY_KEY', 'NEGOTIATION_ATTR', 'Negotiation', 'current_request',
           'get_limits', 'get_registry', 'get_version', 'negotiation_of']

#: The ad hoc request attribute holding the request's :class:`Negotiation`.
NEGOTIATION_ATTR = '_pecan_microversions'
#: The WSGI environ key naming the legacy header a request used.
LEGACY_KEY = 'pecan_microversions.legacy_header'


class Negotiation(NamedTuple):
    """What the hook leaves in the environ for a request: built once per
    version and configuration, shared (immutable) by every request."""

    limits: VersionLimits
    registry: VersionRegistry
    #: the response headers (name, value) to append as they are, or None
    #: when they must be worked out after the controller (legacy header,
    #: error)
    headers: Optional[tuple[tuple[str, str], ...]]


def current_request(request: Optional[Any] = None) -> Any:
    """``request``, or Pecan's current request when it is ``None``."""
    return pecan.request if request is None else request


def negotiation_of(request: Optional[Any] = None) -> Optional[Negotiation]:
    """The negotiation the hook left on the (current) request, if any."""
    attrs = current_request(request).environ.get(ADHOC_ATTRS_KEY)
    return None if attrs is None else attrs.get(NEGOTIATION_ATTR)


def get_version(request: Optional[Any] = None) -> Version:
    """The version the current (or given) request is served at.

    :raises RuntimeError: the request did not pass through the hook.
    """
    version = getattr(current_request(request), 'api_version', None)
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
