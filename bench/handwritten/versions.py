"""Version negotiation and error bodies of the baseline: one Pecan hook.

Written out by hand, as a service without a microversion library does it:
versions are ``(major, minor)`` tuples compared with ``>=``.
"""

from __future__ import annotations

import http.client
import json
import re
from typing import Any, Optional

from pecan.hooks import PecanHook
from webob import Response

SERVICE = 'fleet'
MIN_VERSION = (1, 0)
MAX_VERSION = (1, 9)
DEFAULT_VERSION = (1, 0)
STANDARD_HEADER = 'OpenStack-API-Version'
LEGACY_HEADER = 'X-OpenStack-Fleet-API-Version'
_LEGACY_KEY = 'HTTP_X_OPENSTACK_FLEET_API_VERSION'
_VERSION = re.compile(r'(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)')

Version = tuple[int, int]


def text(version: Version) -> str:
    """``"X.Y"``."""
    return f'{version[0]}.{version[1]}'


class Fault(Exception):
    """An error answered in the API-WG JSON errors format."""

    def __init__(self, status: int, code: str, detail: str,
                 headers: Optional[dict[str, str]] = None,
                 **members: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers or {}
        self.members = members

    def body(self) -> str:
        error = {'status': self.status, 'code': self.code,
                 'title': http.client.responses[self.status],
                 'detail': self.detail}
        error.update(self.members)
        return json.dumps({'errors': [error]})


def bad_request(detail: str, code: str) -> Fault:
    return Fault(400, code, detail)


def _version_fault(status: int, code: str, detail: str) -> Fault:
    return Fault(status, code, detail, min_version=text(MIN_VERSION),
                 max_version=text(MAX_VERSION))


def requested_version(environ: dict[str, Any]) -> tuple[Optional[str], bool]:
    """The version text asked for, and whether the legacy header gave it."""
    standard = environ.get('HTTP_OPENSTACK_API_VERSION')
    if standard:
        found = None
        for entry in standard.split(','):  # the last "fleet X.Y" wins
            parts = entry.split(None, 1)
            if len(parts) == 2 and parts[0].lower() == SERVICE:
                found = parts[1].strip()
        if found:
            return found, False
    legacy = environ.get(_LEGACY_KEY)
    if legacy is not None:
        return legacy.strip() or None, True
    return None, False


def negotiate(requested: Optional[str]) -> Version:
    """The version to serve for the ``requested`` text (None: no header).

    :raises Fault: 400 for a malformed version, 406 for one not served.
    """
    if not requested:
        return DEFAULT_VERSION
    if requested.lower() == 'latest':
        return MAX_VERSION
    match = _VERSION.fullmatch(requested.strip(' \t'))
    if match is None or len(requested) > 64:
        raise _version_fault(
            400, 'microversion.invalid',
            f'Invalid version string {requested!r}: expected MAJOR.MINOR, '
            'two whole numbers without leading zeros, such as "1.2". '
            '"latest" asks for the newest.')
    version = (int(match.group(1)), int(match.group(2)))
    if not MIN_VERSION <= version <= MAX_VERSION:
        raise _version_fault(
            406, 'microversion.not_acceptable',
            f'Version {text(version)} is not supported by the API: '
            f'{SERVICE} accepts {text(MIN_VERSION)} to {text(MAX_VERSION)}.')
    return version


def _version_headers(version: Version, legacy: bool) -> list[tuple[str, str]]:
    headers = [(STANDARD_HEADER, f'{SERVICE} {text(version)}'),
               ('OpenStack-API-Minimum-Version', text(MIN_VERSION)),
               ('OpenStack-API-Maximum-Version', text(MAX_VERSION))]
    if legacy:
        headers.append((LEGACY_HEADER, text(version)))
    # Either header can choose the version: a cache must vary on both.
    headers.append(('Vary', f'{STANDARD_HEADER}, {LEGACY_HEADER}'))
    return headers


#: The headers of each version, built once (as a service would hard-code).
_HEADERS = {(version, legacy): _version_headers(version, legacy)
            for version in [(1, minor) for minor in range(MAX_VERSION[1] + 1)]
            for legacy in (False, True)}


class VersionHook(PecanHook):
    """Negotiates the version before routing; labels every response.

    The version is ``pecan.request.version``; a :class:`Fault` raised
    anywhere is answered as JSON by :meth:`on_error`.
    """

    def on_route(self, state: Any) -> None:
        request = state.request
        requested, request.legacy_version = requested_version(request.environ)
        request.version = DEFAULT_VERSION  # what an error is labelled with
        request.version = negotiate(requested)

    def on_error(self, state: Any, e: BaseException) -> Optional[Response]:
        if not isinstance(e, Fault):
            return None
        response = Response(body=e.body().encode(), status=e.status,
                            content_type='application/json', charset=None)
        for name, value in e.headers.items():
            response.headers[name] = value
        return response

    def after(self, state: Any) -> None:
        request = state.request
        state.response.headerlist.extend(
            _HEADERS[request.version, request.legacy_version])
