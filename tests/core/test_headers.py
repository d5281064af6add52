"""The response headers of a version."""

import datetime

from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.core.headers import (
    MAX_HEADER,
    MIN_HEADER,
    Header,
    response_headers,
)
from pecan_microversions.core.negotiation import limits_for
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd')]
LEGACY = 'X-OpenStack-Shelf-API-Version'


def _registry(**options):
    return VersionRegistry('shelf', HISTORY, legacy_headers=[LEGACY],
                           **options)


def test_standard_min_max_and_vary():
    registry = _registry()
    limits = limits_for(registry, max_version='1.2')
    headers = response_headers(registry, Version(1, 1), limits)
    assert headers == (
        Header('OpenStack-API-Version', 'shelf 1.1', 'set'),
        Header(MIN_HEADER, '1.0', 'set'),
        Header(MAX_HEADER, '1.2', 'set'),
        Header('Vary', f'OpenStack-API-Version, {LEGACY}', 'list'),
    )
    assert MIN_HEADER == 'OpenStack-API-Minimum-Version'
    assert MAX_HEADER == 'OpenStack-API-Maximum-Version'


def test_vary_names_only_the_standard_header_without_legacy_headers():
    registry = VersionRegistry('shelf', HISTORY)
    headers = response_headers(registry, Version(1, 1), limits_for(registry))
    assert headers[-1] == Header('Vary', 'OpenStack-API-Version', 'list')


def test_min_and_max_come_from_the_limits_not_the_registry():
    registry = _registry()
    limits = limits_for(registry, min_version='1.1', max_version='1.2')
    named = {h.name: h.value for h in response_headers(
        registry, Version(1, 2), limits)}
    assert named[MIN_HEADER] == '1.1'
    assert named[MAX_HEADER] == '1.2'


def test_legacy_header_is_echoed_and_varied_on():
    registry = _registry()
    headers = response_headers(registry, Version(1, 3), limits_for(registry),
                               legacy_header=LEGACY)
    named = {h.name: h for h in headers}
    assert named[LEGACY] == Header(LEGACY, '1.3', 'set')
    assert named['Vary'] == Header(
        'Vary', f'OpenStack-API-Version, {LEGACY}', 'list')
    assert headers[-1].name == 'Vary'


def test_deprecated_version_adds_deprecation_headers():
    deprecation = Deprecation(
        '1.0', '1.1', deprecated_on=datetime.date(2025, 1, 1),
        sunset_on=datetime.date(2027, 1, 1), link='https://example.org/d')
    registry = _registry(deprecations=[deprecation])
    limits = limits_for(registry)
    headers = response_headers(registry, Version(1, 1), limits)
    added = [h for h in headers if h.mode == 'add']
    assert [h.name for h in added] == ['Deprecation', 'Sunset', 'Link',
                                       'Link']
    stamp = int(datetime.datetime(2025, 1, 1,
                                  tzinfo=datetime.timezone.utc).timestamp())
    assert added[0].value == f'@{stamp}'
    assert added[1].value == 'Fri, 01 Jan 2027 00:00:00 GMT'
    assert 'rel="deprecation"' in added[2].value
    assert 'rel="sunset"' in added[3].value
    # A version outside the range carries none of them.
    later = response_headers(registry, Version(1, 2), limits)
    assert not [h for h in later if h.mode == 'add']
    assert {h.name for h in later}.isdisjoint({'Deprecation', 'Sunset',
                                               'Link'})
