"""The registry: history, range, legacy headers, declaration errors."""

import pytest

from pecan_microversions import RegistryError, Version, VersionRegistry
from pecan_microversions.core.errors import (
    DuplicateVersionError,
    EmptyDescriptionError,
    InvalidDeclarationError,
    UnknownVersionError,
    VersionGapError,
    VersionOrderError,
)
from pecan_microversions.core.registry import HistoryEntry

HISTORY = [('1.0', 'Initial.'), ('1.1', 'Colour.'), ('1.2', 'Size.'),
           ('2.0', 'New major.'), ('2.1', 'Weight.')]


def test_registry_holds_the_history_in_order():
    registry = VersionRegistry('widget', HISTORY)
    assert registry.service_type == 'widget'
    assert registry.versions == (Version(1, 0), Version(1, 1), Version(1, 2),
                                 Version(2, 0), Version(2, 1))
    assert registry.history[0] == HistoryEntry(Version(1, 0), 'Initial.')
    assert [e.description for e in registry.history] == [
        'Initial.', 'Colour.', 'Size.', 'New major.', 'Weight.']
    assert registry.max_version == Version(2, 1)  # the last entry
    assert registry.min_version == Version(1, 0)  # the first by default
    assert registry.default_version == registry.min_version
    assert registry.legacy_headers == ()
    assert repr(registry) == '<VersionRegistry widget 1.0-2.1>'


def test_minimum_default_and_legacy_headers():
    registry = VersionRegistry(
        'widget', HISTORY, min_version='1.1', default_version=(1, 2),
        legacy_headers=['X-OpenStack-Widget-API-Version'])
    assert registry.min_version == Version(1, 1)
    assert registry.default_version == Version(1, 2)
    assert registry.legacy_headers == ('X-OpenStack-Widget-API-Version',)


def test_default_follows_the_minimum():
    registry = VersionRegistry('widget', HISTORY, min_version='1.2')
    assert registry.default_version == Version(1, 2)


def test_history_accepts_versions_and_tuples_and_trims_descriptions():
    registry = VersionRegistry('widget', [(Version(1, 0), '  First.  '),
                                          ((1, 1), 'Second.')])
    assert registry.history == (HistoryEntry(Version(1, 0), 'First.'),
                                HistoryEntry(Version(1, 1), 'Second.'))


def test_history_may_be_any_iterable():
    registry = VersionRegistry('widget', iter(HISTORY[:2]))
    assert registry.max_version == Version(1, 1)


def test_single_version_history():
    registry = VersionRegistry('widget', [('3.7', 'Only.')])
    assert registry.min_version == registry.max_version == Version(3, 7)


@pytest.mark.parametrize('service_type', ['widget', 'block-storage',
                                          'shared_file_system', 'Compute2'])
def test_service_types(service_type):
    assert VersionRegistry(service_type, HISTORY).service_type == service_type


def _raises(exc_type, match, *args, **kwargs):
    with pytest.raises(exc_type, match=match) as info:
        VersionRegistry(*args, **kwargs)
    assert isinstance(info.value, RegistryError)
    assert isinstance(info.value, ValueError)
    return info.value


def test_duplicate_version():
    _raises(DuplicateVersionError, r'Version 1\.1 appears twice',
            'widget', [('1.0', 'a'), ('1.1', 'b'), ('1.1', 'c')])


def test_going_back_to_an_earlier_version_is_a_duplicate():
    _raises(DuplicateVersionError, r'Version 1\.0 appears twice',
            'widget', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.0', 'd')])


def test_duplicate_written_differently():
    _raises(DuplicateVersionError, r'1\.1 appears twice',
            'widget', [('1.0', 'a'), ('1.1', 'b'), ((1, 1), 'c')])


@pytest.mark.parametrize('history, message', [
    ([('1.1', 'a'), ('1.0', 'b')], r'Version 1\.0 follows 1\.1'),
    ([('2.0', 'a'), ('1.5', 'b')], r'Version 1\.5 follows 2\.0'),
    ([('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('0.5', 'd')],
     r'Version 0\.5 follows 1\.2'),
])
def test_decreasing_versions(history, message):
    error = _raises(VersionOrderError, message, 'widget', history)
    assert 'increasing order' in str(error)


@pytest.mark.parametrize('history, message', [
    ([('1.0', 'a'), ('1.2', 'b')], r'1\.2 follows 1\.0.*expected 1\.1'),
    ([('1.0', 'a'), ('1.1', 'b'), ('1.5', 'c')],
     r'1\.5 follows 1\.1.*expected 1\.2'),
    ([('2.0', 'a'), ('2.1', 'b'), ('3.0', 'c'), ('3.2', 'd')],
     r'3\.2 follows 3\.0.*expected 3\.1'),
])
def test_gap_in_minor_numbers(history, message):
    _raises(VersionGapError, message, 'widget', history)


def test_a_new_major_is_not_a_gap():
    registry = VersionRegistry('widget', [('1.0', 'a'), ('1.1', 'b'),
                                          ('2.0', 'c'), ('3.0', 'd')])
    assert registry.max_version == Version(3, 0)


@pytest.mark.parametrize('description', ['', '   ', '\t\n', None, 42])
def test_empty_description(description):
    _raises(EmptyDescriptionError, r'1\.1 has no description',
            'widget', [('1.0', 'a'), ('1.1', description)])


@pytest.mark.parametrize('min_version', ['1.9', '3.0', (0, 1), '1.3'])
def test_minimum_not_in_history(min_version):
    error = _raises(UnknownVersionError, 'min_version', 'widget',
                    [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')],
                    min_version=min_version)
    assert 'not in the widget history' in str(error)
    assert '1.0 to 1.2' in str(error)


def test_malformed_minimum():
    _raises(UnknownVersionError, r"min_version: Invalid version string '1\.01'",
            'widget', HISTORY, min_version='1.01')


def test_default_not_in_history_or_below_minimum():
    _raises(UnknownVersionError, 'default_version', 'widget', HISTORY,
            default_version='1.7')
    _raises(InvalidDeclarationError, r'default_version 1\.0 is below '
            r'min_version 1\.1', 'widget', HISTORY, min_version='1.1',
            default_version='1.0')


@pytest.mark.parametrize('history, message', [
    ([], 'at least one version'),
    ([('1.0',)], r'#0 must be a \(version, description\) pair'),
    ([('1.0', 'a', 'b')], 'must be a'),
    (['1.0'], 'must be a'),
    ([('1.0', 'a'), None], '#1 must be a'),
    ([('1.01', 'a')], r"History entry #0: Invalid version string '1\.01'"),
    ([('1.0', 'a'), ('one.one', 'b')], 'History entry #1'),
    ([((1, -1), 'a')], 'History entry #0'),
])
def test_malformed_history(history, message):
    _raises(InvalidDeclarationError, message, 'widget', history)


@pytest.mark.parametrize('service_type', ['', ' widget', 'wid get', '-widget',
                                          'widget!', None, 'wídget'])
def test_bad_service_type(service_type):
    _raises(InvalidDeclarationError, 'Invalid service type', service_type,
            HISTORY)


@pytest.mark.parametrize('name, message', [
    ('X-Bad Header', 'Invalid legacy header name'),
    ('', 'Invalid legacy header name'),
    ('X-Widget:Version', 'Invalid legacy header name'),
    (None, 'Invalid legacy header name'),
    ('OpenStack-API-Version', 'is the standard header'),
    ('openstack-api-version', 'is the standard header'),
])
def test_bad_legacy_header(name, message):
    _raises(InvalidDeclarationError, message, 'widget', HISTORY,
            legacy_headers=[name])


def test_known_versions_and_neighbours():
    registry = VersionRegistry('widget', HISTORY)
    assert registry.is_known(Version(2, 0))
    assert not registry.is_known(Version(1, 3))
    assert registry.known_version('1.2') == Version(1, 2)
    with pytest.raises(UnknownVersionError, match=r'field x names version 1\.3'):
        registry.known_version('1.3', 'field x')
    assert registry.previous(Version(2, 0)) == Version(1, 2)
    assert registry.previous(Version(1, 0)) is None
    assert registry.next(Version(1, 2)) == Version(2, 0)
    assert registry.next(Version(2, 1)) is None


@pytest.mark.parametrize('value', ['latest', ' Latest '])
def test_latest_is_no_version_to_declare(value):
    registry = VersionRegistry('widget', HISTORY)
    with pytest.raises(UnknownVersionError) as info:
        registry.known_version(value, 'field x: max_version')
    message = str(info.value)
    assert message.startswith('field x: max_version: "latest" is what a client')
    assert f'"{registry.max_version}"' in message


def test_a_malformed_declared_version_is_not_told_about_latest():
    registry = VersionRegistry('widget', HISTORY)
    with pytest.raises(UnknownVersionError) as info:
        registry.known_version('1.x', 'field x')
    assert 'latest' not in str(info.value)
    assert 'such as "1.2"' in str(info.value)


def test_declarations_and_changes():
    registry = VersionRegistry('widget', HISTORY)
    colour = registry.declare('field', 'Widget', 'colour', min_version='1.1')
    size = registry.declare('field', 'Widget', 'size', min_version='1.2',
                            max_version='1.2')
    assert colour.exists_at(Version(2, 1)) and not colour.exists_at(
        Version(1, 0))
    assert size.exists_at(Version(1, 2)) and not size.exists_at(Version(2, 0))
    assert list(registry.declarations(at=Version(1, 2))) == [colour, size]
    assert list(registry.declarations(at=Version(2, 0))) == [colour]
    assert registry.changes('1.2') == ([size], [])
    assert registry.changes('2.0') == ([], [size])
    with pytest.raises(UnknownVersionError):
        registry.declare('field', 'Widget', 'x', min_version='1.7')
    with pytest.raises(InvalidDeclarationError, match='is below min_version'):
        registry.declare('field', 'Widget', 'x', min_version='2.0', max_version='1.1')
