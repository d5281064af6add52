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
:class:`~pecan_microversions.core.registry.RegistryError` subclass when the
registry is built, i.e. at import.
"""

from __future__ import annotations

import datetime
import email.utils
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Optional, Union

from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    OverlappingDeprecationError,
    SunsetBeforeDeprecationError,
)
from pecan_microversions.core.version import (
    Version,
    VersionLimits,
    VersionRange,
    as_version,
)

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


class Deprecation:
    """The versions ``min_version`` to ``max_version`` (inclusive) are
    deprecated.

    :param min_version: the first deprecated version, ``"X.Y"``.
    :param max_version: the last deprecated version, ``"X.Y"``.
    :param deprecated_on: when the range is (or will be) deprecated: a date
        (midnight UTC) or an aware datetime.
    :param sunset_on: when the range is expected to stop being served; not
        before ``deprecated_on``.
    :param link: a page explaining the deprecation (``rel="deprecation"``).
    :param sunset_link: a page about the sunset (``rel="sunset"``); defaults
        to ``link``.
    :raises SunsetBeforeDeprecationError: ``sunset_on`` is before
        ``deprecated_on``.
    :raises ~pecan_microversions.core.errors.InvalidDeclarationError: a date
        is naive or not a date, or a link is malformed.

    ``first`` and ``last`` are the deprecated spellings of ``min_version``
    and ``max_version``.
    """

    def __init__(self, min_version: Union[str, Version, None] = None,
                 max_version: Union[str, Version, None] = None,
                 deprecated_on: Optional[When] = None,
                 sunset_on: Optional[When] = None,
                 link: Optional[str] = None,
                 sunset_link: Optional[str] = None, *,
                 first: Union[str, Version, None] = None,
                 last: Union[str, Version, None] = None) -> None:
        if first is not None or last is not None:
            warnings.warn('Deprecation(first=, last=) is deprecated: use '
                          'min_version= and max_version=.',
                          DeprecationWarning, stacklevel=2)
            min_version = first if min_version is None else min_version
            max_version = last if max_version is None else max_version
        if min_version is None or max_version is None:
            raise InvalidDeclarationError(
                'Deprecation needs min_version and max_version.')
        if deprecated_on is None:
            raise InvalidDeclarationError('Deprecation needs deprecated_on.')
        self.min_version = min_version
        self.max_version = max_version
        self.deprecated_on = deprecated_on
        self.sunset_on = sunset_on
        self.link = link
        self.sunset_link = sunset_link
        self._check()

    def __repr__(self) -> str:
        return (f'Deprecation({str(self.min_version)!r}, '
                f'{str(self.max_version)!r}, '
                f'deprecated_on={self.deprecated_on!r})')

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deprecation):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def _fields(self) -> tuple[Any, ...]:
        return (str(self.min_version), str(self.max_version),
                self.deprecated_on, self.sunset_on, self.link,
                self.sunset_link)

    def replace(self, **changes: Any) -> Deprecation:
        """A copy with some attributes changed."""
        values: dict[str, Any] = dict(min_version=self.min_version,
                      max_version=self.max_version,
                      deprecated_on=self.deprecated_on,
                      sunset_on=self.sunset_on, link=self.link,
                      sunset_link=self.sunset_link)
        values.update(changes)
        return Deprecation(**values)

    @property
    def first(self) -> Union[str, Version]:
        """Deprecated spelling of :attr:`min_version`."""
        warnings.warn('Deprecation.first is deprecated: use min_version.',
                      DeprecationWarning, stacklevel=2)
        return self.min_version

    @property
    def last(self) -> Union[str, Version]:
        """Deprecated spelling of :attr:`max_version`."""
        warnings.warn('Deprecation.last is deprecated: use max_version.',
                      DeprecationWarning, stacklevel=2)
        return self.max_version

    @property
    def range(self) -> VersionRange:
        """The deprecated versions."""
        return VersionRange(self.min_version, self.max_version)

    def _check(self) -> None:
        deprecated = _moment(self.deprecated_on, 'deprecated_on')
        if self.sunset_on is not None:
            sunset = _moment(self.sunset_on, 'sunset_on')
            if sunset < deprecated:
                raise SunsetBeforeDeprecationError(
                    f'Deprecation of {self.min_version} to '
                    f'{self.max_version}: sunset_on '
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
        return version.matches(as_version(self.min_version),
                               as_version(self.max_version))

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
            'min_version': str(self.min_version),
            'max_version': str(self.max_version),
            'deprecation': _iso(self.deprecated_at),
            'sunset': None if sunset is None else _iso(sunset),
            'links': links,
        }


def _iso(moment: datetime.datetime) -> str:
    return moment.strftime('%Y-%m-%dT%H:%M:%SZ')


def resolve_deprecations(known_version: Callable[[Any, str], Version],
                         deprecations: Iterable[Deprecation]
                         ) -> tuple[Deprecation, ...]:
    """Check ``deprecations``; their bounds become Versions, oldest first.

    :param known_version: the registry's ``known_version``.
    :raises ~pecan_microversions.core.errors.UnknownVersionError: a bound
        is not in the history.
    :raises ~pecan_microversions.core.errors.InvertedRangeError:
        ``max_version`` is below ``min_version``.
    :raises ~pecan_microversions.core.errors.InvalidDeclarationError: an
        item is not a :class:`Deprecation`.
    :raises OverlappingDeprecationError: two ranges share a version.
    """
    resolved: list[Deprecation] = []
    for item in deprecations:
        if not isinstance(item, Deprecation):
            raise InvalidDeclarationError(
                f'deprecations must hold Deprecation objects, not {item!r}.')
        low = known_version(item.min_version, 'Deprecation min_version')
        high = known_version(item.max_version, 'Deprecation max_version')
        VersionRange(low, high, what='Deprecation')
        resolved.append(item.replace(min_version=low, max_version=high))
    resolved.sort(key=lambda d: as_version(d.min_version))
    for before, after in zip(resolved, resolved[1:], strict=False):
        if as_version(after.min_version) <= as_version(before.max_version):
            raise OverlappingDeprecationError(
                f'Deprecated ranges {before.min_version}-{before.max_version} '
                f'and {after.min_version}-{after.max_version} overlap.')
    return tuple(resolved)


def deprecation_at(deprecations: Iterable[Deprecation],
                   version: Version) -> Optional[Deprecation]:
    """The deprecation covering ``version``, or ``None``."""
    for item in deprecations:
        if item.covers(version):
            return item
    return None


def deprecation_headers(deprecations: Iterable[Deprecation],
                        versions: Sequence[Version]
                        ) -> dict[Version, tuple[tuple[str, str], ...]]:
    """Per deprecated version, the headers its responses carry.

    Versions that are not deprecated are absent, so the hook's per-request
    work is one dictionary lookup.
    """
    result = {}
    for item in deprecations:
        values = item.headers()
        for version in versions:
            if item.covers(version):
                result[version] = values
    return result


def discovery_entries(deprecations: Iterable[Deprecation],
                      limits: VersionLimits) -> list[dict[str, Any]]:
    """The ranges that meet the accepted range, clipped to it, as JSON."""
    entries = []
    for item in deprecations:
        low = max(as_version(item.min_version), limits.min_version)
        high = min(as_version(item.max_version), limits.max_version)
        if low > high:
            continue
        entry = item.to_dict()
        entry['min_version'] = str(low)
        entry['max_version'] = str(high)
        entries.append(entry)
    return entries


def fully_deprecated(deprecations: Iterable[Deprecation],
                     versions: Sequence[Version], limits: VersionLimits,
                     now: Optional[datetime.datetime] = None) -> bool:
    """Whether every accepted version is deprecated as of ``now``."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    past = [d for d in deprecations if d.deprecated_at <= now]
    accepted = [v for v in versions
                if v.matches(limits.min_version, limits.max_version)]
    return bool(accepted) and all(
        any(d.covers(v) for d in past) for v in accepted)
