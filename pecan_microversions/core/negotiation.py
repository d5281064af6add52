"""From request headers to the version a request is served at.

Pure functions, no Pecan: :func:`requested_version_text` finds the header
value (the standard header's with microversion-parse), :func:`resolve`
applies the grammar and the service's limits.  :class:`VersionLimits` is
the accepted range after the operator's caps; it is immutable and replaced
whole when configuration is reloaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

import microversion_parse

from pecan_microversions.core.errors import (
    ConfigurationError,
    InvalidVersion,
    RequestError,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import (
    LATEST,
    Version,
    VersionLimits,
    parse_version,
)

__all__ = ['STANDARD_ENVIRON_KEY',
           'limits_for', 'resolve', 'requested_version_text']

#: Where a WSGI server puts the standard header.
STANDARD_ENVIRON_KEY = 'HTTP_OPENSTACK_API_VERSION'


def limits_for(registry: VersionRegistry, *,
               min_version: Optional[str] = None,
               max_version: Optional[str] = None,
               default_version: Optional[str] = None) -> VersionLimits:
    """Apply an operator's floor, cap and default to the registry's range.

    Each option, when set, must be a version of the registry's history.  The
    default, unless set, is the registry's default raised to the floor.

    :raises ConfigurationError: naming the option and the allowed range.
    """
    def known(value: Optional[str], option: str) -> Optional[Version]:
        if value is None or value == '':
            return None
        try:
            version = parse_version(value)
        except InvalidVersion as exc:
            raise ConfigurationError(f'{option}: {exc}') from None
        if not registry.is_known(version) or not version.matches(
                registry.min_version, registry.max_version):
            raise ConfigurationError(
                f'{option} = {version} is not a version this service offers: '
                f'{registry.service_type} supports {registry.min_version} to '
                f'{registry.max_version}.')
        return version

    floor = known(min_version, 'min_version') or registry.min_version
    cap = known(max_version, 'max_version') or registry.max_version
    if cap < floor:
        raise ConfigurationError(
            f'max_version {cap} is below min_version {floor}.')
    default = known(default_version, 'default_version')
    if default is None:
        default = max(registry.default_version, floor)
    if not default.matches(floor, cap):
        raise ConfigurationError(
            f'default_version {default} is outside the accepted range '
            f'{floor} to {cap}.')
    return VersionLimits(floor, cap, default)


def requested_version_text(environ: Mapping[str, Any],
                           registry: VersionRegistry,
                           legacy_keys: tuple[tuple[str, str], ...] = ()
                           ) -> tuple[Optional[str], Optional[str]]:
    """The version text a request asks for, and the legacy header it used.

    The standard header's last entry for this service with a version wins
    (as microversion-parse reads it); if there is none, the first legacy
    header present is read, its last element winning.  Both headers are
    comma-separated lists whose empty elements are ignored (``1.2,`` is
    ``1.2``).  ``legacy_keys`` pairs each legacy header name with its WSGI
    environ key.  Returns ``(None, None)`` when the request names no
    version for this service, and ``''`` for the text when a header names
    the service but holds no version (the standard header's ``fleet``
    alone, a legacy header empty or ``,``): :func:`resolve` refuses it.
    """
    standard = environ.get(STANDARD_ENVIRON_KEY)
    named = False
    if standard:
        text = microversion_parse.check_standard_header(
            {'openstack-api-version': standard}, registry.service_type)
        if text:
            return text, None
        service = registry.service_type.lower()
        named = any(entry.lower().split() == [service]  # "fleet" alone
                    for entry in standard.split(','))
    for name, key in legacy_keys:
        value = environ.get(key)
        if value is not None:
            elements = (e.strip() for e in reversed(value.split(',')))
            return next((e for e in elements if e), ''), name
    return ('' if named else None), None


def resolve(text: Optional[str], limits: VersionLimits,
            registry: VersionRegistry) -> Version:
    """The version to serve for the requested ``text``.

    ``None``: the default; ``latest`` (any case): the maximum.  Empty (a
    header naming the service without a version) is malformed.

    With the registry's ``bare_major``, ``X`` alone is ``X.0``.

    :raises RequestError: the registry's ``malformed_status`` (400 or 406)
        when ``text`` is malformed, 406 when it is well formed but not
        accepted; both with ``min_version``/``max_version``.
    """
    if text is None:
        return limits.default_version
    if not text:
        raise _version_error(
            'No version given: the version header names none; expected '
            'MAJOR.MINOR, such as "1.2". "latest" asks for the newest.',
            registry.malformed_status, 'microversion.invalid', limits)
    if text.lower() == LATEST:
        return limits.max_version
    try:
        version = parse_version(text)
    except InvalidVersion as exc:
        bare = _bare_major(text) if registry.bare_major else None
        if bare is None:  # the message names the text as the client sent it
            raise _version_error(f'{exc} "latest" asks for the newest.',
                                 registry.malformed_status,
                                 'microversion.invalid', limits) from None
        version = bare
    if not (version.matches(limits.min_version, limits.max_version)
            and registry.is_known(version)):
        raise _version_error(
            f'Version {version} is not supported by the API: '
            f'{registry.service_type} accepts {limits.min_version} to '
            f'{limits.max_version}.', 406, 'microversion.not_acceptable',
            limits)
    return version


def _bare_major(text: str) -> Optional[Version]:
    """``X`` alone as ``X.0`` (``"1"`` is 1.0; ``"01"`` stays malformed)."""
    major = text.strip(' \t')
    if not major.isdigit():
        return None
    try:
        return parse_version(major + '.0')
    except InvalidVersion:
        return None


def _version_error(detail: str, status: int, code: str,
                   limits: VersionLimits) -> RequestError:
    return RequestError(detail, status=status, error_code=code,
                        min_version=str(limits.min_version),
                        max_version=str(limits.max_version))
