"""The microversion value: ``X.Y``, strictly parsed, compared as a tuple."""

from __future__ import annotations

import re
from typing import NamedTuple, Optional, Union

__all__ = ['LATEST', 'InvalidVersion', 'Version', 'VersionLike',
           'parse_version']

#: The special request value that selects the service's maximum version.
LATEST = 'latest'

_MAX_LENGTH = 64
_GRAMMAR = re.compile(r'(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)')
_TRIM = ' \t'


class InvalidVersion(ValueError):
    """A version string does not follow the ``X.Y`` grammar."""


class Version(NamedTuple):
    """A microversion ``X.Y``; compares and hashes as the tuple ``(X, Y)``."""

    major: int
    minor: int

    def __str__(self) -> str:
        return f'{self.major}.{self.minor}'

    def matches(self, min_version: Optional[Version] = None,
                max_version: Optional[Version] = None) -> bool:
        """Whether ``min_version <= self <= max_version``.

        A ``None`` bound is unbounded on that side, as in the Nova guide's
        null version.
        """
        if min_version is not None and self < min_version:
            return False
        return max_version is None or self <= max_version

    @classmethod
    def parse(cls, text: str) -> Version:
        """Parse ``X.Y``; see :func:`parse_version`."""
        return parse_version(text)


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
    match = _GRAMMAR.fullmatch(text.strip(_TRIM))
    if match is None:
        raise InvalidVersion(
            f'Invalid version string {text!r}: expected MAJOR.MINOR, two '
            'whole numbers without leading zeros, such as "1.2", or "latest".')
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
