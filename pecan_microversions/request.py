"""What the hook leaves on each request, and how controllers read it.

The version lives on the request (``pecan.request.api_version``), never in
module state, so concurrent requests at different versions cannot mix.
"""

from __future__ import annotations

from typing import Any, Optional

import pecan

from pecan_microversions.negotiation import VersionLimits
from pecan_microversions.version import Version

__all__ = ['get_limits', 'get_version']

_LIMITS_KEY = 'pecan_microversions.limits'
_LEGACY_KEY = 'pecan_microversions.legacy_header'


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
    limits = _current(request).environ.get(_LIMITS_KEY)
    if limits is None:
        raise RuntimeError(
            'This request has no API version limits: register '
            'pecan_microversions.MicroversionHook in the app\'s hooks.')
    return limits
