"""What the hook leaves on each request, and how controllers read it.

The version lives on the request (``pecan.request.api_version``), never in
module state, so concurrent requests at different versions cannot mix.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

import pecan

from pecan_microversions.negotiation import VersionLimits
from pecan_microversions.registry import VersionRegistry
from pecan_microversions.version import Version

__all__ = ['get_limits', 'get_version']

#: WebOb keeps ad hoc request attributes (``request.api_version``) in this
#: environ dict; the hook leaves both the version and its negotiation there.
_ADHOC_KEY = 'webob.adhoc_attrs'
_NEGOTIATION_ATTR = '_pecan_microversions'
_LEGACY_KEY = 'pecan_microversions.legacy_header'


class _Negotiation(NamedTuple):
    """What the hook leaves in the environ for a request: built once per
    version and configuration, shared (immutable) by every request."""

    limits: VersionLimits
    registry: VersionRegistry
    #: the response headers to append as they are, or None when they must
    #: be worked out after the controller (legacy header, error)
    headers: Optional[tuple[tuple[str, str], ...]]


def _negotiation(request: Any) -> Optional[_Negotiation]:
    attrs = _current(request).environ.get(_ADHOC_KEY)
    return None if attrs is None else attrs.get(_NEGOTIATION_ATTR)


def _current(request: Optional[Any]) -> Any:
    return pecan.request if request is None else request


def get_version(request: Optional[Any] = None) -> Version:
    """The version the current (or given) request is served at.

    :raises RuntimeError: the request did not pass through the hook.
    """
    version = getattr(_current(request), 'api_version', None)
    if not isinstance(version, Version):
        raise RuntimeError(
            'This request has no API version: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return version


def get_limits(request: Optional[Any] = None) -> VersionLimits:
    """The accepted range and default in force for the current request.

    :raises RuntimeError: the request did not pass through the hook.
    """
    negotiation = _negotiation(request)
    if negotiation is None:
        raise RuntimeError(
            'This request has no API version limits: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return negotiation.limits
