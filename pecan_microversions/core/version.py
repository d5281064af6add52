"""The microversion value ``X.Y`` and the version range ``[min, max]``.

:class:`Version` is strictly parsed and compares with other versions, with
``(X, Y)`` tuples and with ``"X.Y"`` strings; it formats as ``X.Y`` with
``str()``, ``%s`` and f-strings.  :class:`VersionRange` is the one range
type: ``min_version`` and ``max_version`` inclusive, ``None`` unbounded.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterator
from typing import Any, NamedTuple, Optional, Union

from pecan_microversions.core.errors import InvalidVersion, InvertedRangeError

__all__ = ['LATEST', 'InvalidVersion', 'Version', 'VersionLike',
           'VersionLimits', 'VersionRange', 'as_version', 'parse_version']

#: The special request value that selects the service's maximum version.
LATEST = 'latest'

_MAX_LENGTH = 64
_GRAMMAR = re.compile(r'(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)')
_TRIM = ' \t'


class Version:
    """A microversion ``X.Y``.

    Immutable; hashes like the tuple ``(X, Y)``; compares with versions,
    ``(X, Y)`` tuples and ``"X.Y"`` strings (a malformed string raises
    :class:`InvalidVersion`).
    """

    __slots__ = ('major', 'minor', '_key', '_hash', '_text')

    major: int
    minor: int
    _key: tuple[int, int]
    _hash: int
    _text: str

    def __init__(self, major: int, minor: int) -> None:
        if type(major) is not int or type(minor) is not int or (
                major < 0 or minor < 0):
            raise InvalidVersion(
                f'A version is two whole numbers, not ({major!r}, {minor!r}).')
        key = (major, minor)
        object.__setattr__(self, 'major', major)
        object.__setattr__(self, 'minor', minor)
        object.__setattr__(self, '_key', key)
        object.__setattr__(self, '_hash', hash(key))
        object.__setattr__(self, '_text', f'{major}.{minor}')

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('Version is immutable.')

    def __reduce__(self) -> Any:
        return (Version, self._key)

    def __repr__(self) -> str:
        return f'Version({self.major}, {self.minor})'

    def __str__(self) -> str:
        return self._text

    def __format__(self, spec: str) -> str:
        return format(self._text, spec) if spec else self._text

    def __hash__(self) -> int:
        return self._hash

    def __iter__(self) -> Iterator[int]:
        return iter(self._key)

    def __eq__(self, other: object) -> bool:
        if type(other) is Version:
            return self._key == other._key
        try:
            key = _key_of(other)
        except InvalidVersion:
            return False
        return NotImplemented if key is None else self._key == key

    # Each comparison written out (not functools.total_ordering's, which
    # makes two calls of one): versions are compared on every request.
    def __lt__(self, other: object) -> bool:
        if type(other) is Version:
            return self._key < other._key
        key = _key_of(other)
        return NotImplemented if key is None else self._key < key

    def __le__(self, other: object) -> bool:
        if type(other) is Version:
            return self._key <= other._key
        key = _key_of(other)
        return NotImplemented if key is None else self._key <= key

    def __gt__(self, other: object) -> bool:
        if type(other) is Version:
            return self._key > other._key
        key = _key_of(other)
        return NotImplemented if key is None else self._key > key

    def __ge__(self, other: object) -> bool:
        if type(other) is Version:
            return self._key >= other._key
        key = _key_of(other)
        return NotImplemented if key is None else self._key >= key

    def matches(self, min_version: Optional[Version] = None,
                max_version: Optional[Version] = None) -> bool:
        """Whether ``min_version <= self <= max_version``; ``None`` is
        unbounded on that side (the Nova guide's null version)."""
        key = self._key
        if min_version is not None and key < min_version._key:
            return False
        return max_version is None or key <= max_version._key

    @classmethod
    def parse(cls, text: str) -> Version:
        """Parse ``X.Y``; see :func:`parse_version`."""
        return parse_version(text)


def _key_of(other: object) -> Optional[tuple[int, int]]:
    if isinstance(other, tuple):
        return as_version(other)._key  # type: ignore[arg-type]
    if isinstance(other, str):
        return parse_version(other)._key
    return None


def parse_version(text: str) -> Version:
    """Parse ``X.Y`` under the strict grammar.

    Surrounding spaces and tabs are trimmed; then the value must match
    ``(0|[1-9][0-9]*).(0|[1-9][0-9]*)`` with ASCII digits only, and be at most
    64 characters long.  ``latest`` is not a version: callers that accept it
    check for :data:`LATEST` first.

    :raises InvalidVersion: with a message that names the problem.
    """
    if not isinstance(text, str):
        raise InvalidVersion(
            f'Version must be a string, not {type(text).__name__}.')
    if len(text) > _MAX_LENGTH:
        raise InvalidVersion(
            f'Version string is {len(text)} characters long; '
            f'at most {_MAX_LENGTH} are allowed.')
    return _parse(text)


@functools.lru_cache(maxsize=256)  # a Version is immutable: shared
def _parse(text: str) -> Version:
    match = _GRAMMAR.fullmatch(text.strip(_TRIM))
    if match is None:
        raise InvalidVersion(
            f'Invalid version string {text!r}: expected MAJOR.MINOR, two '
            'whole numbers without leading zeros, such as "1.2".')
    return Version(int(match.group(1)), int(match.group(2)))


#: What declarations accept for a version: ``"X.Y"``, ``(X, Y)`` or a Version.
VersionLike = Union[str, Version, tuple[int, int]]


def as_version(value: VersionLike) -> Version:
    """Coerce a declaration's ``"X.Y"`` or ``(X, Y)`` to a :class:`Version`."""
    if isinstance(value, Version):
        return value
    if isinstance(value, tuple):
        if (len(value) == 2 and all(type(v) is int and v >= 0
                                    for v in value)):
            return Version(*value)
        raise InvalidVersion(f'Invalid version tuple {value!r}.')
    return parse_version(value)


class VersionRange:
    """Versions from ``min_version`` to ``max_version``, both inclusive.

    ``None`` leaves a side unbounded.  ``str()`` gives the range in words
    (``from version 1.2 to 1.5``), the wording every error message uses.

    :raises InvertedRangeError: ``max_version`` is below ``min_version``;
        ``what`` names the declaration in the message.
    """

    __slots__ = ('min_version', 'max_version')

    min_version: Optional[Version]
    max_version: Optional[Version]

    def __init__(self, min_version: Optional[VersionLike] = None,
                 max_version: Optional[VersionLike] = None, *,
                 what: str = 'range') -> None:
        low = None if min_version is None else as_version(min_version)
        high = None if max_version is None else as_version(max_version)
        if low is not None and high is not None and high < low:
            raise InvertedRangeError(
                f'{what}: max_version {high} is below min_version {low}.')
        object.__setattr__(self, 'min_version', low)
        object.__setattr__(self, 'max_version', high)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError('VersionRange is immutable.')

    def __repr__(self) -> str:
        return f'VersionRange({self.min_version!r}, {self.max_version!r})'

    def __str__(self) -> str:
        low, high = self.min_version, self.max_version
        if low is None and high is None:
            return 'at every version'
        if high is None:
            return f'from version {low} on'
        if low is None:
            return f'up to version {high}'
        if low == high:
            return f'only at version {low}'
        return f'from version {low} to {high}'

    def short(self) -> str:
        """The range in short words: ``1.2``, ``1.1 to 1.4``, ``1.5 and
        later``, ``up to 1.4``, ``every version``."""
        low, high = self.min_version, self.max_version
        if low is None:
            return 'every version' if high is None else f'up to {high}'
        if high is None:
            return f'{low} and later'
        return f'{low}' if high == low else f'{low} to {high}'

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VersionRange):
            return NotImplemented
        return (self.min_version, self.max_version) == (
            other.min_version, other.max_version)

    def __hash__(self) -> int:
        return hash((self.min_version, self.max_version))

    def __iter__(self) -> Iterator[Optional[Version]]:
        return iter((self.min_version, self.max_version))

    def __contains__(self, version: object) -> bool:
        return isinstance(version, Version) and version.matches(
            self.min_version, self.max_version)

    def overlaps(self, other: VersionRange) -> bool:
        """Whether some version is in both ranges."""
        return ((other.max_version is None or self.min_version is None
                 or self.min_version <= other.max_version)
                and (self.max_version is None or other.min_version is None
                     or other.min_version <= self.max_version))


class VersionLimits(NamedTuple):
    """The versions a service accepts now, ``min_version`` to
    ``max_version``, and the ``default_version`` for requests that name
    none."""

    min_version: Version
    max_version: Version
    default_version: Version

    @property
    def minimum(self) -> Version:
        """Deprecated spelling of :attr:`min_version`."""
        warnings.warn('VersionLimits.minimum is deprecated: use min_version.',
                      DeprecationWarning, stacklevel=2)
        return self.min_version

    @property
    def maximum(self) -> Version:
        """Deprecated spelling of :attr:`max_version`."""
        warnings.warn('VersionLimits.maximum is deprecated: use max_version.',
                      DeprecationWarning, stacklevel=2)
        return self.max_version

    @property
    def default(self) -> Version:
        """Deprecated spelling of :attr:`default_version`."""
        warnings.warn('VersionLimits.default is deprecated: use '
                      'default_version.', DeprecationWarning, stacklevel=2)
        return self.default_version
