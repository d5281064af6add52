"""Every exception the library raises, under one root.

::

    MicroversionError
    ├── InvalidVersion           a version string breaks the X.Y grammar
    ├── ConfigurationError       operator options contradict the registry
    ├── RegistryError            a declaration is wrong (raised at import)
    │   ├── DuplicateVersionError, VersionOrderError, VersionGapError,
    │   │   EmptyDescriptionError, UnknownVersionError
    │   ├── InvalidDeclarationError
    │   │   ├── InvertedRangeError      a range's maximum is below its minimum
    │   │   └── VersionedMethodError
    │   │       ├── OverlappingVersionsError
    │   │       └── MismatchedExposureError
    │   ├── SunsetBeforeDeprecationError
    │   └── OverlappingDeprecationError
    ├── RequestError             a client's request breaks the contract (4xx)
    └── LoadError                the command line cannot load a registry

``RequestError`` is framework-free; the Pecan adapter's
:class:`~pecan_microversions.pecan.errors.APIError` is the same error as a
WebOb response.
"""

from __future__ import annotations

import http.client
from collections.abc import Mapping
from typing import Any, Optional

__all__ = [
    'ConfigurationError',
    'DuplicateVersionError',
    'EmptyDescriptionError',
    'InvalidDeclarationError',
    'InvalidVersion',
    'InvertedRangeError',
    'LoadError',
    'MicroversionError',
    'MismatchedExposureError',
    'OverlappingDeprecationError',
    'OverlappingVersionsError',
    'RegistryError',
    'RequestError',
    'SunsetBeforeDeprecationError',
    'UnknownVersionError',
    'VersionGapError',
    'VersionOrderError',
    'VersionedMethodError',
]

#: Longest ``detail`` kept: quoted bad input cannot bloat an error body.
MAX_DETAIL = 1000


class MicroversionError(Exception):
    """Root of every exception pecan-microversions raises."""


class InvalidVersion(MicroversionError, ValueError):
    """A version string does not follow the ``X.Y`` grammar."""


class ConfigurationError(MicroversionError, ValueError):
    """Operator configuration contradicts the registry."""


class LoadError(MicroversionError):
    """A registry named on the command line cannot be loaded; the message
    says why, ``cause`` holds the underlying exception if any."""

    def __init__(self, message: str,
                 cause: Optional[BaseException] = None) -> None:
        super().__init__(message)
        self.cause = cause


class RegistryError(MicroversionError, ValueError):
    """A registry or a declaration against it is wrong."""


class DuplicateVersionError(RegistryError):
    """A version appears twice in the history."""


class VersionOrderError(RegistryError):
    """The history is not in increasing order."""


class VersionGapError(RegistryError):
    """Minor versions within one major are not consecutive."""


class EmptyDescriptionError(RegistryError):
    """A history entry has no description."""


class UnknownVersionError(RegistryError):
    """A declaration names a version that is not in the history."""


class InvalidDeclarationError(RegistryError):
    """A declaration is malformed (bad name, wrong type, ...)."""


class InvertedRangeError(InvalidDeclarationError):
    """A version range's maximum is below its minimum."""


class VersionedMethodError(InvalidDeclarationError):
    """A versioned method or sub-resource is declared wrongly."""


class OverlappingVersionsError(VersionedMethodError):
    """Two implementations of one method claim the same version."""


class MismatchedExposureError(VersionedMethodError):
    """Implementations of one method would be routed differently by Pecan.

    They must share the name, the exposure (``pecan.expose`` template and
    content types, ``generic``, ``route``) and the argument list, because
    Pecan routes a request before the version picks an implementation.
    """


class SunsetBeforeDeprecationError(RegistryError):
    """A deprecation's sunset date is before its deprecation date."""


class OverlappingDeprecationError(RegistryError):
    """Two deprecated ranges share a version."""


class RequestError(MicroversionError):
    """A request the contract refuses: an HTTP 4xx (or 5xx) to answer.

    :param detail: a sentence for the client naming the problem; cut to
        :data:`MAX_DETAIL` characters.
    :param status: the HTTP status.
    :param error_code: a dotted machine-readable name, such as
        ``microversion.field_unavailable``.
    :param headers: extra response headers, such as ``Allow``.
    :param members: extra members of the error object (for version errors,
        ``min_version`` and ``max_version``).
    """

    def __init__(self, detail: str, *, status: int = 400,
                 error_code: str = 'microversion.bad_request',
                 headers: Optional[Mapping[str, str]] = None,
                 **members: Any) -> None:
        if not is_error_status(status):
            raise ValueError(f'{status} is not an HTTP error status.')
        title = status_title(status)
        if len(detail) > MAX_DETAIL:
            detail = (f'{detail[:MAX_DETAIL]}... ({len(detail) - MAX_DETAIL}'
                      ' more characters)')
        Exception.__init__(self, detail)
        self.code = status
        self.title = title
        self.detail = detail
        self.error_code = error_code
        self.extra_headers: dict[str, str] = dict(headers or {})
        self.members = members

    def to_dict(self, request_id: Optional[str] = None) -> dict[str, Any]:
        """The API-WG error object: ``status``, ``code``, ``title``, ..."""
        error: dict[str, Any] = {
            'status': self.code,
            'code': self.error_code,
            'title': self.title,
            'detail': self.detail,
        }
        if request_id:
            error['request_id'] = request_id
        error.update(self.members)
        return error


def is_error_status(status: Any) -> bool:
    """Whether ``status`` is an HTTP error status, an ``int`` from 400 to
    599: one a :class:`RequestError` can carry."""
    return isinstance(status, int) and 400 <= status <= 599


def status_title(status: int) -> str:
    """The reason phrase of ``status``; a generic one for a status Python
    does not name (a controller may answer 499 or 599)."""
    title = http.client.responses.get(status)
    if title is None:
        title = 'Client Error' if status < 500 else 'Server Error'
    return title


def http_code(status: int) -> str:
    """The ``error_code`` of a plain HTTP error: ``http.not_found``, ..."""
    slug = status_title(status).lower()
    return 'http.' + slug.replace(' ', '_').replace('-', '_')
