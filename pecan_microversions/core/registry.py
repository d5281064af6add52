"""The registry: one declarative object per service holding its version history.

A service builds one :class:`VersionRegistry` at import time.  Everything else
(the hook, field and method declarations, docs) reads from it; the registry
itself never changes per request.  Mistakes in a declaration raise a
:class:`RegistryError` subclass at construction, never at request time.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple, Optional

from pecan_microversions.core.deprecation import (
    Deprecation,
    deprecation_at,
    resolve_deprecations,
)
from pecan_microversions.core.errors import (
    DuplicateVersionError,
    EmptyDescriptionError,
    InvalidDeclarationError,
    InvalidVersion,
    RegistryError,
    UnknownVersionError,
    VersionGapError,
    VersionOrderError,
)
from pecan_microversions.core.version import (
    Version,
    VersionLike,
    VersionRange,
    as_version,
)

__all__ = [
    'STANDARD_HEADER',
    'Declaration',
    'HistoryEntry',
    'RegistryError',
    'VersionRegistry',
]

#: The request body formats a service may enable (see ``request_formats``).
REQUEST_FORMATS = ('json', 'form', 'xml')
_SERVICE_TYPE = re.compile(r'[a-z0-9][a-z0-9_-]*', re.IGNORECASE)
_HEADER_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
#: The standard request and response header.
STANDARD_HEADER = 'OpenStack-API-Version'


class HistoryEntry(NamedTuple):
    """One version of the history and its one-line description."""

    version: Version
    description: str


class Declaration(NamedTuple):
    """One versioned thing: a field, query parameter, value, method, ...

    ``kind`` says what it is (``'field'``, ``'query_parameter'``, ...),
    ``owner`` what it belongs to (a resource or URL), ``name`` its name.
    It exists from ``min_version`` to ``max_version`` inclusive; ``None`` is
    unbounded.
    """

    kind: str
    owner: str
    name: str
    min_version: Optional[Version]
    max_version: Optional[Version]

    @property
    def range(self) -> VersionRange:
        """The versions it exists at."""
        return VersionRange(self.min_version, self.max_version)

    @property
    def introduced(self) -> Optional[Version]:
        """Deprecated spelling of :attr:`min_version`."""
        warnings.warn('Declaration.introduced is deprecated: use '
                      'min_version.', DeprecationWarning, stacklevel=2)
        return self.min_version

    @property
    def last(self) -> Optional[Version]:
        """Deprecated spelling of :attr:`max_version`."""
        warnings.warn('Declaration.last is deprecated: use max_version.',
                      DeprecationWarning, stacklevel=2)
        return self.max_version

    def exists_at(self, version: Version) -> bool:
        """Whether the declared thing exists at ``version``."""
        return version.matches(self.min_version, self.max_version)


class VersionRegistry:
    """A service's microversion history and everything declared against it.

    :param service_type: the service type clients name in
        ``OpenStack-API-Version: <service_type> X.Y`` (matched case-insensitively).
    :param history: ``(version, description)`` pairs, oldest first.  The last
        one is the maximum version.
    :param min_version: the oldest version still served; defaults to the
        first history entry.  Must be in the history.
    :param default_version: what a request without a version gets; defaults to
        ``min_version``.  Operators may override it in configuration.
    :param legacy_headers: older single-service headers, such as
        ``X-OpenStack-Ironic-API-Version``, read when the standard header does
        not name this service.
    :param unavailable_status: the status answering a request that uses a
        field, query parameter or value outside its version range: 400, or
        406 for services that keep Ironic's or Watcher's behaviour.
    :param unknown_query_params: ``'reject'`` (400) or ``'ignore'`` query
        parameters that a method neither declares nor takes.
    :param deprecations: :class:`~pecan_microversions.core.deprecation.Deprecation`
        ranges; responses at those versions carry ``Deprecation``, ``Sunset``
        and ``Link`` headers.
    :param malformed_status: the status answering a malformed version
        (``1.01``, ``x``): 400, or 406 as Watcher and older Ironic answer.
    :param bare_major: serve a bare major version (``infra-optim 1``) as
        ``X.0``, as Watcher does for old clients; otherwise it is malformed.
    :param null_as_absent: treat an explicit ``null`` for a field the
        request's version lacks as if the field were absent, as many WSME
        services do, instead of refusing it.  The risk: a client that sends
        ``null`` to clear such a field is not told that nothing happened.
    :param legacy_range_headers: send, on every response, each legacy
        header's minimum and maximum companions (for
        ``X-OpenStack-Ironic-API-Version``:
        ``X-OpenStack-Ironic-API-Minimum-Version`` and ``-Maximum-Version``,
        which python-ironicclient negotiates from) and the legacy header
        itself naming the version served.
    :param request_formats: the request body formats ``versioned_wsexpose``
        methods accept, among ``'json'``, ``'form'`` (URL-encoded) and
        ``'xml'``; others get 415.  ``('json',)`` makes a JSON-only service.
    :raises RegistryError: a precise subclass when the declaration is wrong.
    """

    def __init__(self, service_type: str,
                 history: Iterable[tuple[str | Version, str]],
                 *, min_version: str | Version | None = None,
                 default_version: str | Version | None = None,
                 legacy_headers: Sequence[str] = (),
                 unavailable_status: int = 400,
                 unknown_query_params: str = 'reject',
                 deprecations: Iterable[Deprecation] = (),
                 malformed_status: int = 400,
                 bare_major: bool = False,
                 null_as_absent: bool = False,
                 legacy_range_headers: bool = False,
                 request_formats: Iterable[str] = REQUEST_FORMATS) -> None:
        if not isinstance(service_type, str) or not _SERVICE_TYPE.fullmatch(
                service_type):
            raise InvalidDeclarationError(
                f'Invalid service type {service_type!r}: use letters, digits, '
                '"-" and "_".')
        self.service_type = service_type
        self.history: tuple[HistoryEntry, ...] = _check_history(history)
        self.versions: tuple[Version, ...] = tuple(
            e.version for e in self.history)
        self._known = frozenset(self.versions)
        self.max_version = self.versions[-1]
        self.min_version = (self.versions[0] if min_version is None
                            else self.known_version(min_version, 'min_version'))
        self.default_version = (
            self.min_version if default_version is None
            else self.known_version(default_version, 'default_version'))
        if self.default_version < self.min_version:
            raise InvalidDeclarationError(
                f'default_version {self.default_version} is below '
                f'min_version {self.min_version}.')
        self.legacy_headers = tuple(_check_legacy_header(h)
                                    for h in legacy_headers)
        if unavailable_status not in (400, 406):
            raise InvalidDeclarationError(
                f'unavailable_status must be 400 or 406, not '
                f'{unavailable_status!r}.')
        if unknown_query_params not in ('reject', 'ignore'):
            raise InvalidDeclarationError(
                "unknown_query_params must be 'reject' or 'ignore', not "
                f'{unknown_query_params!r}.')
        self.unavailable_status = unavailable_status
        self.unknown_query_params = unknown_query_params
        if malformed_status not in (400, 406):
            raise InvalidDeclarationError(
                f'malformed_status must be 400 or 406, not '
                f'{malformed_status!r}.')
        self.malformed_status = malformed_status
        self.bare_major = bool(bare_major)
        self.null_as_absent = bool(null_as_absent)
        #: ``(version header, minimum header, maximum header)`` per legacy
        #: header, sent on every response; empty unless
        #: ``legacy_range_headers`` is set.
        self.legacy_range_headers: tuple[tuple[str, str, str], ...] = (
            tuple(legacy_range_names(h) for h in self.legacy_headers)
            if legacy_range_headers else ())
        if legacy_range_headers and not self.legacy_headers:
            raise InvalidDeclarationError(
                'legacy_range_headers needs legacy_headers to derive the '
                'minimum and maximum header names from.')
        formats = tuple(request_formats) if not isinstance(
            request_formats, str) else (request_formats,)
        unknown = [f for f in formats if f not in REQUEST_FORMATS]
        if unknown or not formats:
            raise InvalidDeclarationError(
                f'request_formats lists {", ".join(REQUEST_FORMATS)}, not '
                f'{formats!r}.')
        #: The enabled request body formats.
        self.request_formats: frozenset[str] = frozenset(formats)
        self._declarations: list[Declaration] = []
        #: The deprecated ranges, oldest first, with :class:`Version` bounds.
        self.deprecations: tuple[Deprecation, ...] = resolve_deprecations(
            self.known_version, deprecations)

    def __repr__(self) -> str:
        return (f'<VersionRegistry {self.service_type} '
                f'{self.min_version}-{self.max_version}>')

    def is_known(self, version: Version) -> bool:
        """Whether ``version`` is one of the history's versions."""
        return version in self._known

    def known_version(self, value: VersionLike,
                      what: str = 'version') -> Version:
        """Return ``value`` as a :class:`Version` that is in the history.

        :param what: names the declaration in the error message.
        :raises UnknownVersionError: when it is malformed or not in the history.
        """
        if isinstance(value, str) and value.strip().lower() == 'latest':
            raise UnknownVersionError(
                f'{what}: "latest" is what a client asks for, not a version; '
                f'name one, such as "{self.max_version}" (a range without '
                'max_version stays open to later versions).')
        try:
            version = as_version(value)
        except InvalidVersion as exc:
            raise UnknownVersionError(f'{what}: {exc}') from None
        if version not in self._known:
            raise UnknownVersionError(
                f'{what} names version {version}, which is not in the '
                f'{self.service_type} history '
                f'({self.versions[0]} to {self.max_version}).')
        return version

    def deprecation_at(self, version: Version) -> Optional[Deprecation]:
        """The deprecation covering ``version``, or ``None``."""
        return deprecation_at(self.deprecations, version)

    def previous(self, version: Version) -> Optional[Version]:
        """The history entry before ``version``, or ``None`` for the first."""
        index = self.versions.index(version)
        return self.versions[index - 1] if index else None

    def next(self, version: Version) -> Optional[Version]:
        """The history entry after ``version``, or ``None`` for the last."""
        index = self.versions.index(version)
        return (self.versions[index + 1]
                if index + 1 < len(self.versions) else None)

    def declare(self, kind: str, owner: str, name: str,
                min_version: Optional[VersionLike] = None,
                max_version: Optional[VersionLike] = None) -> Declaration:
        """Record that ``owner``'s ``name`` of ``kind`` exists in a range.

        Used by the field, parameter and method declarations; services rarely
        call it directly.

        :raises UnknownVersionError: a bound is not in the history.
        :raises InvertedRangeError: ``max_version`` is below ``min_version``.
        """
        what = f'{kind} {owner}.{name}'
        low = (None if min_version is None
               else self.known_version(min_version, f'{what} min_version'))
        high = None if max_version is None else self.known_version(
            max_version, f'{what} max_version')
        VersionRange(low, high, what=what)
        declaration = Declaration(kind, owner, name, low, high)
        self._declarations.append(declaration)
        return declaration

    def declarations(self, kind: Optional[str] = None,
                     owner: Optional[str] = None,
                     at: Optional[Version] = None) -> Iterator[Declaration]:
        """The declarations, optionally only of a kind, an owner, a version."""
        for d in self._declarations:
            if ((kind is None or d.kind == kind)
                    and (owner is None or d.owner == owner)
                    and (at is None or d.exists_at(at))):
                yield d

    def changes(self, version: str | Version
                ) -> tuple[list[Declaration], list[Declaration]]:
        """What ``version`` added and removed, as two lists of declarations.

        A declaration is added at its ``min_version`` and removed at the
        version after its ``max_version``.
        """
        version = self.known_version(version)
        before = self.previous(version)
        added = [d for d in self._declarations if d.min_version == version]
        removed = [d for d in self._declarations
                   if before is not None and d.max_version == before]
        return added, removed


def _check_history(history: Iterable[tuple[str | Version, str]]
                   ) -> tuple[HistoryEntry, ...]:
    entries: list[HistoryEntry] = []
    for position, item in enumerate(history):
        try:
            raw, description = item
        except (TypeError, ValueError):
            raise InvalidDeclarationError(
                f'History entry #{position} must be a (version, description) '
                f'pair, not {item!r}.') from None
        try:
            version = as_version(raw)
        except InvalidVersion as exc:
            raise InvalidDeclarationError(
                f'History entry #{position}: {exc}') from None
        if not isinstance(description, str) or not description.strip():
            raise EmptyDescriptionError(
                f'History entry {version} has no description.')
        if entries:
            prior = entries[-1].version
            if version == prior or any(e.version == version for e in entries):
                raise DuplicateVersionError(
                    f'Version {version} appears twice in the history.')
            if version < prior:
                raise VersionOrderError(
                    f'Version {version} follows {prior}: the history must '
                    'be in increasing order.')
            if version.major == prior.major and version.minor != prior.minor + 1:
                raise VersionGapError(
                    f'Version {version} follows {prior}: minor versions '
                    f'within major {prior.major} must be consecutive '
                    f'(expected {prior.major}.{prior.minor + 1}).')
        entries.append(HistoryEntry(version, description.strip()))
    if not entries:
        raise InvalidDeclarationError('The history must have at least one '
                                      'version.')
    return tuple(entries)


def legacy_range_names(name: str) -> tuple[str, str, str]:
    """A legacy version header and its minimum and maximum companions:
    ``X-OpenStack-Ironic-API-Version`` gives
    ``X-OpenStack-Ironic-API-Minimum-Version`` and
    ``X-OpenStack-Ironic-API-Maximum-Version``.

    :raises InvalidDeclarationError: ``name`` does not end in ``-Version``.
    """
    stem, dash, last = name.rpartition('-')
    if not dash or not stem or last.lower() != 'version':
        raise InvalidDeclarationError(
            f'Cannot derive minimum and maximum headers from {name!r}: '
            'legacy_range_headers needs names ending in "-Version".')
    return name, f'{stem}-Minimum-{last}', f'{stem}-Maximum-{last}'


def _check_legacy_header(name: str) -> str:
    if not isinstance(name, str) or not _HEADER_TOKEN.fullmatch(name):
        raise InvalidDeclarationError(
            f'Invalid legacy header name {name!r}.')
    if name.lower() == STANDARD_HEADER.lower():
        raise InvalidDeclarationError(
            f'{STANDARD_HEADER} is the standard header; legacy_headers lists '
            'only older ones such as X-OpenStack-<Name>-API-Version.')
    return name
