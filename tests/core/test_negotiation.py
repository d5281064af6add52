"""The pure negotiation functions: limits, header reading, resolution."""

import pytest

from pecan_microversions.core.errors import ConfigurationError, RequestError
from pecan_microversions.core.negotiation import (
    STANDARD_ENVIRON_KEY,
    VersionLimits,
    limits_for,
    requested_version_text,
    resolve,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd'),
           ('2.0', 'e')]
LEGACY = 'X-OpenStack-Shelf-API-Version'
LEGACY_KEYS = ((LEGACY, 'HTTP_X_OPENSTACK_SHELF_API_VERSION'),
               ('X-Old-Version', 'HTTP_X_OLD_VERSION'))


@pytest.fixture
def registry():
    return VersionRegistry('shelf', HISTORY, min_version='1.1',
                           default_version='1.2', legacy_headers=[LEGACY])


def test_limits_default_to_the_registry(registry):
    limits = limits_for(registry)
    assert limits == VersionLimits(Version(1, 1), Version(2, 0),
                                   Version(1, 2))
    assert limits_for(registry, min_version='', max_version='') == limits


def test_limits_apply_floor_cap_and_default(registry):
    limits = limits_for(registry, min_version='1.2', max_version='1.3',
                        default_version='1.3')
    assert (limits.min_version, limits.max_version,
            limits.default_version) == ('1.2', '1.3', '1.3')


def test_default_is_raised_to_the_floor(registry):
    assert limits_for(registry, min_version='1.3').default_version == '1.3'


@pytest.mark.parametrize('options, words', [
    ({'min_version': '1.0'}, 'min_version = 1.0 is not a version'),
    ({'max_version': '1.4'}, 'max_version = 1.4 is not a version'),
    ({'min_version': 'x'}, 'min_version: Invalid version'),
    ({'min_version': '1.3', 'max_version': '1.2'},
     'max_version 1.2 is below min_version 1.3'),
    ({'max_version': '1.1', 'default_version': '1.2'},
     'default_version 1.2 is outside the accepted range 1.1 to 1.1'),
])
def test_bad_limits_raise_configuration_error(registry, options, words):
    with pytest.raises(ConfigurationError) as info:
        limits_for(registry, **options)
    assert words in str(info.value)


def test_deprecated_limit_spellings_warn(registry):
    limits = limits_for(registry)
    with pytest.warns(DeprecationWarning, match='min_version'):
        assert limits.minimum == limits.min_version
    with pytest.warns(DeprecationWarning, match='max_version'):
        assert limits.maximum == limits.max_version
    with pytest.warns(DeprecationWarning, match='default_version'):
        assert limits.default == limits.default_version


def test_requested_text_from_the_standard_header(registry):
    environ = {STANDARD_ENVIRON_KEY: 'compute 2.1, shelf 1.3'}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.3', None)
    environ = {STANDARD_ENVIRON_KEY: 'Shelf latest'}
    assert requested_version_text(environ, registry) == ('latest', None)


def test_last_standard_entry_for_the_service_wins(registry):
    environ = {STANDARD_ENVIRON_KEY: 'shelf 1.1, shelf 1.3'}
    assert requested_version_text(environ, registry)[0] == '1.3'


def test_no_version_named(registry):
    assert requested_version_text({}, registry, LEGACY_KEYS) == (None, None)
    environ = {STANDARD_ENVIRON_KEY: 'compute 2.1'}
    assert requested_version_text(environ, registry) == (None, None)


def test_legacy_header_read_when_the_standard_names_another_service(
        registry):
    environ = {STANDARD_ENVIRON_KEY: 'compute 2.1',
               'HTTP_X_OPENSTACK_SHELF_API_VERSION': '1.2'}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.2', LEGACY)


def test_standard_header_beats_legacy(registry):
    environ = {STANDARD_ENVIRON_KEY: 'shelf 1.1',
               'HTTP_X_OPENSTACK_SHELF_API_VERSION': '1.2'}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.1', None)


def test_legacy_headers_in_order(registry):
    environ = {'HTTP_X_OLD_VERSION': '1.1',
               'HTTP_X_OPENSTACK_SHELF_API_VERSION': '1.3'}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.3', LEGACY)
    assert requested_version_text({'HTTP_X_OLD_VERSION': '1.1'}, registry,
                                  LEGACY_KEYS) == ('1.1', 'X-Old-Version')


@pytest.mark.parametrize('value', ['', ',', ' , ,\t'])
def test_legacy_header_without_a_version_is_empty_text(registry, value):
    # Present but naming no version: '' (malformed), not None (the default).
    environ = {'HTTP_X_OPENSTACK_SHELF_API_VERSION': value}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '', LEGACY)


@pytest.mark.parametrize('value', ['1.2,', '1.2, ,', ', 1.2', '1.1,,1.2, '])
def test_legacy_header_ignores_empty_elements(registry, value):
    environ = {'HTTP_X_OPENSTACK_SHELF_API_VERSION': value}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.2', LEGACY)


@pytest.mark.parametrize('value', ['shelf', ' SHELF ', 'compute 2.1, shelf,'])
def test_standard_entry_without_a_version_is_empty_text(registry, value):
    environ = {STANDARD_ENVIRON_KEY: value}
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '', None)
    # The legacy header is read then, as microversion-parse would.
    environ['HTTP_X_OPENSTACK_SHELF_API_VERSION'] = '1.3'
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.3', LEGACY)
    environ[STANDARD_ENVIRON_KEY] = value + ', shelf 1.1'
    assert requested_version_text(environ, registry, LEGACY_KEYS) == (
        '1.1', None)


def test_empty_text_is_malformed(registry):
    limits = limits_for(registry)
    with pytest.raises(RequestError) as info:
        resolve('', limits, registry)
    assert (info.value.code, info.value.error_code) == (
        400, 'microversion.invalid')
    assert info.value.detail.startswith('No version given')


def test_resolve_default_and_latest(registry):
    limits = limits_for(registry, max_version='1.3')
    assert resolve(None, limits, registry) == Version(1, 2)
    assert resolve('latest', limits, registry) == Version(1, 3)
    assert resolve('LaTeSt', limits, registry) == Version(1, 3)
    assert resolve('1.1', limits, registry) == Version(1, 1)
    assert resolve(' 1.3\t', limits, registry) == Version(1, 3)


@pytest.mark.parametrize('text', ['1', '1.02', 'v1.1', '1.1.1', 'x' * 100,
                                  '١.١'])
def test_malformed_is_400_with_limits(registry, text):
    limits = limits_for(registry)
    with pytest.raises(RequestError) as info:
        resolve(text, limits, registry)
    error = info.value
    assert error.code == 400
    assert error.error_code == 'microversion.invalid'
    assert error.members == {'min_version': '1.1', 'max_version': '2.0'}
    assert error.to_dict()['min_version'] == '1.1'
    assert error.detail.endswith('"latest" asks for the newest.')


@pytest.mark.parametrize('text', ['1.0', '2.1', '1.9', '3.0'])
def test_unsupported_is_406_with_limits(registry, text):
    limits = limits_for(registry)
    with pytest.raises(RequestError) as info:
        resolve(text, limits, registry)
    error = info.value
    assert error.code == 406
    assert error.error_code == 'microversion.not_acceptable'
    assert error.members == {'min_version': '1.1', 'max_version': '2.0'}
    assert 'shelf accepts 1.1 to 2.0' in error.detail


def test_operator_cap_refuses_newer_versions(registry):
    limits = limits_for(registry, max_version='1.2')
    with pytest.raises(RequestError) as info:
        resolve('1.3', limits, registry)
    assert info.value.code == 406
    assert info.value.members['max_version'] == '1.2'
