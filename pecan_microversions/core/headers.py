"""The headers a response carries at a version: the one place to add one.

:func:`response_headers` lists them; the hook precomputes the list per
accepted version and appends it to every response, or merges it header by
header (:func:`merge_headers`, by each :class:`Header`'s ``mode``) when the
controller set one itself.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Protocol

from pecan_microversions.core.negotiation import VersionLimits
from pecan_microversions.core.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.core.version import Version

__all__ = ['MAX_HEADER', 'MIN_HEADER', 'Header', 'HeaderMap', 'merge_headers',
           'response_headers']

MIN_HEADER = 'OpenStack-API-Minimum-Version'
MAX_HEADER = 'OpenStack-API-Maximum-Version'


class Header(NamedTuple):
    """One response header and how it meets a value the controller set.

    ``mode`` is ``'set'`` (ours replaces it), ``'add'`` (both are kept) or
    ``'list'`` (a comma-separated list such as ``Vary``: our tokens are
    appended to the controller's).
    """

    name: str
    value: str
    mode: str = 'set'


def response_headers(registry: VersionRegistry, version: Version,
                     limits: VersionLimits,
                     legacy_header: Optional[str] = None
                     ) -> tuple[Header, ...]:
    """Every header a response served at ``version`` carries.

    :param limits: the range the request was judged by.
    :param legacy_header: the legacy version header the request used, if
        any: the response echoes it.  With the registry's
        ``legacy_range_headers`` every response carries each legacy header,
        its minimum and maximum.

    ``Vary`` names the standard header and every legacy header of the
    registry, whichever the request used: a version chosen without the
    standard header depends on the legacy headers, and a shared cache must
    not serve it to a request that sends one.
    """
    headers = [
        Header(STANDARD_HEADER, f'{registry.service_type} {version}'),
        Header(MIN_HEADER, str(limits.min_version)),
        Header(MAX_HEADER, str(limits.max_version)),
    ]
    echoed = set()
    for name, minimum, maximum in registry.legacy_range_headers:
        headers += [Header(name, str(version)),
                    Header(minimum, str(limits.min_version)),
                    Header(maximum, str(limits.max_version))]
        echoed.add(name)
    if legacy_header is not None and legacy_header not in echoed:
        headers.append(Header(legacy_header, str(version)))
    deprecation = registry.deprecation_at(version)
    if deprecation is not None:
        headers.extend(Header(name, value, 'add')
                       for name, value in deprecation.headers())
    headers.append(Header('Vary', ', '.join(
        (STANDARD_HEADER, *registry.legacy_headers)), 'list'))
    return tuple(headers)


class HeaderMap(Protocol):
    """A response's headers, as WebOb's ``ResponseHeaders`` holds them."""

    def __setitem__(self, name: str, value: str) -> None: ...

    def add(self, name: str, value: str) -> None: ...

    def getall(self, name: str) -> list[str]: ...


def merge_headers(headers: HeaderMap, wanted: tuple[Header, ...]) -> None:
    """Put ``wanted`` into ``headers``, each by its ``mode``."""
    for header in wanted:
        if header.mode == 'set':
            headers[header.name] = header.value
        elif header.mode == 'add':
            headers.add(header.name, header.value)
        else:
            _append_list(headers, header.name, header.value)


def _append_list(headers: HeaderMap, name: str, value: str) -> None:
    """Append the tokens of ``value`` missing from the list header."""
    current = ', '.join(headers.getall(name))
    if not current:
        headers[name] = value
        return
    present = {token.strip().lower() for token in current.split(',')}
    if '*' in present:
        return
    missing = [token.strip() for token in value.split(',')
               if token.strip().lower() not in present]
    if missing:
        headers[name] = ', '.join([current] + missing)
