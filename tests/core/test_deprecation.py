"""Deprecated version ranges: declaration checks, headers, discovery."""

import datetime
import email.utils

import pecan
import pytest
import webtest
from oslo_config import cfg

from pecan_microversions import (
    MicroversionHook,
    VersionRegistry,
    register_opts,
    root_document,
    version_document,
)
from pecan_microversions.core.deprecation import (
    Deprecation,
    deprecation_at,
    deprecation_headers,
)
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    OverlappingDeprecationError,
    RegistryError,
    SunsetBeforeDeprecationError,
    UnknownVersionError,
)
from pecan_microversions.core.version import Version

HISTORY = [(f'1.{minor}', f'Version 1.{minor}.') for minor in range(6)]
DEPRECATED_ON = datetime.date(2025, 3, 1)
SUNSET_ON = datetime.datetime(2026, 9, 30, 12, 0, tzinfo=datetime.timezone.utc)
LINK = 'https://gizmo.example.org/api/deprecations'
OLD = Deprecation('1.0', '1.2', deprecated_on=DEPRECATED_ON,
                  sunset_on=SUNSET_ON, link=LINK)
# A range announced for the future, with its own sunset page and no
# deprecation page.
SOON = Deprecation('1.3', '1.3', deprecated_on=datetime.date(2999, 1, 1),
                   sunset_on=datetime.date(2999, 6, 1),
                   sunset_link='https://gizmo.example.org/sunset')
REGISTRY = VersionRegistry('gizmo', HISTORY, deprecations=[SOON, OLD])


class V1:
    @pecan.expose('json')
    def index(self):
        return version_document()

    @pecan.expose('json')
    def linked(self):
        pecan.response.headers.add('Link', '</v1/>; rel="up"')
        return {}


class Root:
    v1 = V1()

    @pecan.expose('json')
    def index(self):
        return root_document()


def make_app(registry=REGISTRY, conf=None):
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry, conf=conf)], debug=False))


@pytest.fixture
def app():
    return make_app()


def at(version):
    return {'OpenStack-API-Version': f'gizmo {version}'}


def epoch(moment):
    return int(moment.timestamp())


# -- headers -------------------------------------------------------------------

@pytest.mark.parametrize('version', ['1.0', '1.1', '1.2'])
def test_headers_inside_the_range(app, version):
    response = app.get('/v1/', headers=at(version))
    midnight = datetime.datetime(2025, 3, 1, tzinfo=datetime.timezone.utc)
    assert response.headers['Deprecation'] == f'@{epoch(midnight)}'
    assert response.headers['Deprecation'] == '@1740787200'
    assert response.headers['Sunset'] == 'Wed, 30 Sep 2026 12:00:00 GMT'
    assert email.utils.parsedate_to_datetime(
        response.headers['Sunset']) == SUNSET_ON
    assert response.headers.getall('Link') == [
        f'<{LINK}>; rel="deprecation"; type="text/html"',
        f'<{LINK}>; rel="sunset"; type="text/html"']


@pytest.mark.parametrize('version', ['1.4', '1.5', 'latest'])
def test_no_headers_outside_the_ranges(app, version):
    response = app.get('/v1/', headers=at(version))
    for name in ('Deprecation', 'Sunset', 'Link'):
        assert name not in response.headers


def test_future_deprecation_is_announced(app):
    response = app.get('/v1/', headers=at('1.3'))
    assert response.headers['Deprecation'] == '@32472144000'
    assert response.headers['Sunset'] == 'Sat, 01 Jun 2999 00:00:00 GMT'
    assert response.headers.getall('Link') == [
        '<https://gizmo.example.org/sunset>; rel="sunset"; type="text/html"']


def test_default_version_and_errors_carry_headers(app):
    # No version asked: the default (1.0) is served, and deprecated.
    assert app.get('/v1/').headers['Deprecation'] == '@1740787200'
    # A 404 at a deprecated version is still served at that version.
    response = app.get('/v1/missing', headers=at('1.1'), status=404)
    assert response.headers['Deprecation'] == '@1740787200'
    assert app.get('/v1/missing', headers=at('1.5'), status=404
                   ).headers.get('Deprecation') is None
    # A rejected version is answered at the default version.
    response = app.get('/v1/', headers=at('1.9'), status=406)
    assert response.headers['OpenStack-API-Version'] == 'gizmo 1.0'
    assert response.headers['Deprecation'] == '@1740787200'


def test_application_link_headers_are_kept(app):
    response = app.get('/v1/linked', headers=at('1.0'))
    assert response.headers.getall('Link') == [
        '</v1/>; rel="up"',
        f'<{LINK}>; rel="deprecation"; type="text/html"',
        f'<{LINK}>; rel="sunset"; type="text/html"']


def test_deprecation_without_sunset_or_link():
    registry = VersionRegistry('gizmo', HISTORY, deprecations=[
        Deprecation('1.0', '1.0', deprecated_on=datetime.datetime(
            2025, 3, 1, 6, 30, tzinfo=datetime.timezone(
                datetime.timedelta(hours=2))))])
    response = make_app(registry).get('/v1/', headers=at('1.0'))
    assert response.headers['Deprecation'] == '@1740803400'  # 04:30 UTC
    assert 'Sunset' not in response.headers
    assert 'Link' not in response.headers


def test_precomputed_per_version():
    headers = deprecation_headers(REGISTRY.deprecations, REGISTRY.versions)
    assert set(headers) == {Version(1, 0), Version(1, 1), Version(1, 2),
                            Version(1, 3)}
    assert headers[Version(1, 0)] is headers[Version(1, 2)]
    assert deprecation_at(REGISTRY.deprecations, Version(1, 4)) is None
    assert deprecation_at(REGISTRY.deprecations, Version(1, 1)).link == LINK


# -- discovery -----------------------------------------------------------------

def test_discovery_lists_deprecated_ranges(app):
    document = app.get('/').json
    version = document['versions'][0]
    assert version['status'] == 'CURRENT'
    assert version['min_version'] == '1.0' and version['max_version'] == '1.5'
    assert version['deprecated_versions'] == [
        {'min_version': '1.0', 'max_version': '1.2',
         'deprecation': '2025-03-01T00:00:00Z',
         'sunset': '2026-09-30T12:00:00Z',
         'links': [{'rel': 'deprecation', 'href': LINK},
                   {'rel': 'sunset', 'href': LINK}]},
        {'min_version': '1.3', 'max_version': '1.3',
         'deprecation': '2999-01-01T00:00:00Z',
         'sunset': '2999-06-01T00:00:00Z',
         'links': [{'rel': 'sunset',
                    'href': 'https://gizmo.example.org/sunset'}]}]
    assert app.get('/v1/').json['version']['deprecated_versions'] == version[
        'deprecated_versions']


def test_discovery_clips_to_the_operators_range():
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    register_opts(conf)
    conf.set_override('min_version', '1.1', group='api_microversions')
    conf.set_override('max_version', '1.2', group='api_microversions')
    app = make_app(conf=conf)
    version = app.get('/').json['versions'][0]
    assert [(d['min_version'], d['max_version'])
            for d in version['deprecated_versions']] == [('1.1', '1.2')]
    # Every accepted version is deprecated (since 2025): the major is too.
    assert version['status'] == 'DEPRECATED'
    conf.set_override('max_version', '1.3', group='api_microversions')
    version = make_app(conf=conf).get('/').json['versions'][0]
    # 1.3's deprecation is only announced: the major is still current.
    assert version['status'] == 'CURRENT'
    conf.set_override('min_version', '1.4', group='api_microversions')
    conf.set_override('max_version', '1.5', group='api_microversions')
    version = make_app(conf=conf).get('/').json['versions'][0]
    assert 'deprecated_versions' not in version
    assert version['status'] == 'CURRENT'


def test_discovery_unchanged_without_deprecations():
    registry = VersionRegistry('gizmo', HISTORY)
    version = make_app(registry).get('/').json['versions'][0]
    assert set(version) == {'id', 'status', 'min_version', 'max_version',
                            'version', 'links'}


# -- declaration errors (at import) --------------------------------------------

def test_sunset_before_deprecation_fails_at_construction():
    with pytest.raises(SunsetBeforeDeprecationError,
                       match='sunset_on 2025-02-28T00:00:00Z is before '
                             'deprecated_on 2025-03-01T00:00:00Z'):
        Deprecation('1.0', '1.1', deprecated_on=DEPRECATED_ON,
                    sunset_on=datetime.date(2025, 2, 28))
    assert issubclass(SunsetBeforeDeprecationError, RegistryError)


def test_sunset_before_deprecation_fails_at_import(tmp_path, monkeypatch):
    (tmp_path / 'early_sunset.py').write_text(
        'import datetime\n'
        'from pecan_microversions import VersionRegistry\n'
        'from pecan_microversions.core.deprecation import Deprecation\n'
        "REGISTRY = VersionRegistry('x', [('1.0', 'One.')], deprecations=["
        "Deprecation('1.0', '1.0', datetime.date(2026, 2, 1), "
        'datetime.date(2026, 1, 31))])\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(SunsetBeforeDeprecationError):
        __import__('early_sunset')


def test_sunset_equal_to_deprecation_is_allowed():
    item = Deprecation('1.0', '1.0', DEPRECATED_ON, DEPRECATED_ON)
    assert item.sunset_at == item.deprecated_at


@pytest.mark.parametrize('kwargs,error,message', [
    ({'min_version': '1.0', 'max_version': '1.9'}, UnknownVersionError,
     'Deprecation max_version'),
    ({'min_version': '0.9', 'max_version': '1.0'}, UnknownVersionError,
     'Deprecation min_version'),
    ({'min_version': '1.3', 'max_version': '1.1'}, InvalidDeclarationError,
     'max_version 1.1 is below min_version 1.3'),
])
def test_range_errors(kwargs, error, message):
    with pytest.raises(error, match=message):
        VersionRegistry('gizmo', HISTORY, deprecations=[
            Deprecation(deprecated_on=DEPRECATED_ON, **kwargs)])


def test_overlapping_ranges():
    with pytest.raises(OverlappingDeprecationError,
                       match='1.0-1.2 and 1.2-1.3 overlap'):
        VersionRegistry('gizmo', HISTORY, deprecations=[
            Deprecation('1.2', '1.3', DEPRECATED_ON), OLD])


@pytest.mark.parametrize('kwargs,message', [
    ({'deprecated_on': datetime.datetime(2025, 1, 1)}, 'has no timezone'),
    ({'deprecated_on': '2025-01-01'}, 'must be a datetime.date'),
    ({'deprecated_on': DEPRECATED_ON, 'link': 'https://x/a b'},
     'not a usable URL'),
    ({'deprecated_on': DEPRECATED_ON, 'sunset_link': '<https://x>'},
     'not a usable URL'),
])
def test_malformed_deprecations(kwargs, message):
    with pytest.raises(InvalidDeclarationError, match=message):
        Deprecation('1.0', '1.0', **kwargs)


def test_deprecations_must_be_deprecation_objects():
    with pytest.raises(InvalidDeclarationError, match='Deprecation objects'):
        VersionRegistry('gizmo', HISTORY, deprecations=[('1.0', '1.1')])


def test_registry_keeps_resolved_ranges_in_order():
    assert [(d.min_version, d.max_version)
            for d in REGISTRY.deprecations] == [
        (Version(1, 0), Version(1, 2)), (Version(1, 3), Version(1, 3))]
    assert VersionRegistry('gizmo', HISTORY).deprecations == ()


def test_old_range_spelling_warns_and_still_works():
    with pytest.warns(DeprecationWarning, match='min_version= and max_version'):
        old = Deprecation(first='1.0', last='1.1',
                          deprecated_on=DEPRECATED_ON)
    with pytest.warns(DeprecationWarning, match='use min_version'):
        assert old.first == '1.0'
    assert (old.min_version, old.max_version) == ('1.0', '1.1')
