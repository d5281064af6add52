"""Deprecated version ranges, and the response headers that announce them.

A service marks a range of its history deprecated in its registry::

    REGISTRY = VersionRegistry('fleet', [...], deprecations=[
        Deprecation('1.0', '1.2', deprecated_on=datetime.date(2026, 1, 1),
                    sunset_on=datetime.date(2027, 1, 1),
                    link='https://fleet.example.org/docs/deprecations')])

Every response served at a version in the range then carries
``Deprecation: @<epoch seconds>`` (RFC 9745), ``Sunset: <HTTP-date>``
(RFC 8594) and ``Link`` headers with ``rel="deprecation"`` and
``rel="sunset"``; the discovery documents list the range under
``deprecated_versions``.  A sunset before its deprecation, an unknown version,
an inverted or overlapping range raise a
:class:`~pecan_microversions.registry.RegistryError` subclass when the
registry is built, i.e. at import.
"""

from __future__ import annotations

import dataclasses
import datetime
import email.utils
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional, Union

from pecan_microversions.registry import InvalidDeclarationError, RegistryError
from pecan_microversions.version import Version, as_version

if TYPE_CHECKING:  # pragma: no cover
    from pecan_microversions.negotiation import VersionLimits
    from pecan_microversions.registry import VersionRegistry

__all__ = [
    'Deprecation',
    'OverlappingDeprecationError',
    'SunsetBeforeDeprecationError',
    'deprecation_at',
    'deprecation_headers',
    'discovery_entries',
]

#: A calendar date (midnight UTC) or a timezone-aware moment.
When = Union[datetime.date, datetime.datetime]

_BAD_LINK = re.compile(r'[\s<>"\x00-\x1f\x7f]')


class SunsetBeforeDeprecationError(RegistryError):
    """A deprecation's sunset date is before its deprecation date."""


class OverlappingDeprecationError(RegistryError):
    """Two deprecated ranges share a version."""


def _moment(value: When, what: str) -> datetime.datetime:
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None or value.utcoffset() is None:
            raise InvalidDeclarationError(
                f'{what} {value.isoformat()} has no timezone: use an aware '
                'datetime (e.g. tzinfo=datetime.timezone.utc) or a date.')
        return value.astimezone(datetime.timezone.utc)
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day,
                                 tzinfo=datetime.timezone.utc)
    raise InvalidDeclarationError(
        f'{what} must be a datetime.date or datetime.datetime, not '
        f'{type(value).__name__}.')


def _check_link(value: Optional[str], what: str) -> Optional[str]:
    if value is None:
        return None
    if not isinstance(value, str) or not value or _BAD_LINK.search(value):
        raise InvalidDeclarationError(
            f'{what} {value!r} is not a usable URL (no spaces, quotes, "<" '
            'or ">").')
    return value


@dataclasses.dataclass(frozen=True)
class Deprecation:
    """The versions ``first`` to ``last`` (inclusive) are deprecated.

    :param first: the first deprecated version, ``"X.Y"``.
    :param last: the last deprecated version, ``"X.Y"``.
    :param deprecated_on: when the range is (or will be) deprecated: a date
        (midnight UTC) or an aware datetime.
    :param sunset_on: when the range is expected to stop being served; not
        before ``deprecated_on``.
    :param link: a page explaining the deprecation (``rel="deprecation"``).
    :param sunset_link: a page about the sunset (``rel="sunset"``); defaults
        to ``link``.
    :raises SunsetBeforeDeprecationError: ``sunset_on`` is before
        ``deprecated_on``.
    :raises ~pecan_microversions.registry.InvalidDeclarationError: a date is
        naive or not a date, or a link is malformed.
    """

    first: Union[str, Version]
    last: Union[str, Version]
    deprecated_on: When
    sunset_on: Optional[When] = None
    link: Optional[str] = None
    sunset_link: Optional[str] = None

    def __post_init__(self) -> None:
        deprecated = _moment(self.deprecated_on, 'deprecated_on')
        if self.sunset_on is not None:
            sunset = _moment(self.sunset_on, 'sunset_on')
            if sunset < deprecated:
                raise SunsetBeforeDeprecationError(
                    f'Deprecation of {self.first} to {self.last}: sunset_on '
                    f'{_iso(sunset)} is before deprecated_on '
                    f'{_iso(deprecated)}.')
        _check_link(self.link, 'link')
        _check_link(self.sunset_link, 'sunset_link')

    @property
    def deprecated_at(self) -> datetime.datetime:
        """``deprecated_on`` as an aware UTC datetime."""
        return _moment(self.deprecated_on, 'deprecated_on')

    @property
    def sunset_at(self) -> Optional[datetime.datetime]:
        """``sunset_on`` as an aware UTC datetime, or ``None``."""
        if self.sunset_on is None:
            return None
        return _moment(self.sunset_on, 'sunset_on')

    def covers(self, version: Version) -> bool:
        """Whether ``version`` is in the deprecated range."""
        return version.matches(as_version(self.first), as_version(self.last))

    def headers(self) -> tuple[tuple[str, str], ...]:
        """The response headers for a version in the range, in order."""
        result = [('Deprecation', f'@{int(self.deprecated_at.timestamp())}')]
        sunset = self.sunset_at
        if sunset is not None:
            result.append(('Sunset', email.utils.format_datetime(
                sunset, usegmt=True)))
        if self.link is not None:
            result.append(('Link', f'<{self.link}>; rel="deprecation"; '
                                   'type="text/html"'))
        sunset_link = self.sunset_link or self.link
        if sunset is not None and sunset_link is not None:
            result.append(('Link', f'<{sunset_link}>; rel="sunset"; '
                                   'type="text/html"'))
        return tuple(result)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``min_version``, ``max_version``, ``deprecation``,
        ``sunset`` (ISO 8601 UTC or ``None``) and ``links``."""
        links = []
        if self.link is not None:
            links.append({'rel': 'deprecation', 'href': self.link})
        sunset = self.sunset_at
        sunset_link = self.sunset_link or self.link
        if sunset is not None and sunset_link is not None:
            links.append({'rel': 'sunset', 'href': sunset_link})
        return {
            'min_version': str(self.first),
            'max_version': str(self.last),
            'deprecation': _iso(self.deprecated_at),
            'sunset': None if sunset is None else _iso(sunset),
            'links': links,
        }


def _iso(moment: datetime.datetime) -> str:
    return moment.strftime('%Y-%m-%dT%H:%M:%SZ')


def resolve_deprecations(registry: VersionRegistry,
                         deprecations: Iterable[Deprecation]
                         ) -> tuple[Deprecation, ...]:
    """Check ``deprecations`` against ``registry``; bounds become Versions.

    :raises ~pecan_microversions.registry.UnknownVersionError: a bound is not
        in the history.
    :raises ~pecan_microversions.registry.InvalidDeclarationError: ``last``
        is before ``first``, or an item is not a :class:`Deprecation`.
    :raises OverlappingDeprecationError: two ranges share a version.
    """
    resolved: list[Deprecation] = []
    for item in deprecations:
        if not isinstance(item, Deprecation):
            raise InvalidDeclarationError(
                f'deprecations must hold Deprecation objects, not {item!r}.')
        first = registry.known_version(item.first, 'Deprecation first')
        last = registry.known_version(item.last, 'Deprecation last')
        if last < first:
            raise InvalidDeclarationError(
                f'Deprecation: last version {last} is before first version '
                f'{first}.')
        resolved.append(dataclasses.replace(item, first=first, last=last))
    resolved.sort(key=lambda d: as_version(d.first))
    for before, after in zip(resolved, resolved[1:], strict=False):
        if as_version(after.first) <= as_version(before.last):
            raise OverlappingDeprecationError(
                f'Deprecated ranges {before.first}-{before.last} and '
                f'{after.first}-{after.last} overlap.')
    return tuple(resolved)


def deprecation_at(registry: VersionRegistry,
                   version: Version) -> Optional[Deprecation]:
    """The deprecation covering ``version``, or ``None``."""
    for item in getattr(registry, 'deprecations', ()):
        if item.covers(version):
            return item
    return None


def deprecation_headers(registry: VersionRegistry
                        ) -> dict[Version, tuple[tuple[str, str], ...]]:
    """Per deprecated version, the headers its responses carry.

    Versions that are not deprecated are absent, so the hook's per-request
    work is one dictionary lookup.
    """
    result = {}
    for item in getattr(registry, 'deprecations', ()):
        values = item.headers()
        for version in registry.versions:
            if item.covers(version):
                result[version] = values
    return result


def discovery_entries(deprecations: Iterable[Deprecation],
                      limits: VersionLimits) -> list[dict[str, Any]]:
    """The ranges that meet the accepted range, clipped to it, as JSON."""
    entries = []
    for item in deprecations:
        first = max(as_version(item.first), limits.minimum)
        last = min(as_version(item.last), limits.maximum)
        if first > last:
            continue
        entry = item.to_dict()
        entry['min_version'] = str(first)
        entry['max_version'] = str(last)
        entries.append(entry)
    return entries


def fully_deprecated(registry: VersionRegistry, limits: VersionLimits,
                     now: Optional[datetime.datetime] = None) -> bool:
    """Whether every accepted version is deprecated as of ``now``."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    past = [d for d in getattr(registry, 'deprecations', ())
            if d.deprecated_at <= now]
    accepted = [v for v in registry.versions
                if v.matches(limits.minimum, limits.maximum)]
    return bool(accepted) and all(
        any(d.covers(v) for d in past) for v in accepted)
