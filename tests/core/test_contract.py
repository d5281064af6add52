"""Value rules: the values a field or parameter may take, by version."""

import pytest

from pecan_microversions.core.contract import ValueRule, value_rule
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    InvertedRangeError,
    RequestError,
    UnknownVersionError,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionRange

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd'),
           ('1.4', 'e')]
V = {f'1.{n}': Version(1, n) for n in range(5)}


@pytest.fixture
def registry():
    return VersionRegistry('shelf', HISTORY)


def test_enum_values_left_out_exist_at_every_version(registry):
    rule = value_rule(registry, 'field_value', 'node', 'state',
                      {'available', 'active', 'deploying'},
                      {'deploying': '1.3'})
    assert isinstance(rule, ValueRule)
    assert rule.allowed[V['1.0']] == {'available', 'active'}
    assert rule.allowed[V['1.3']] == {'available', 'active', 'deploying'}
    assert rule.ranges['available'] == VersionRange()
    declared = {d.name for d in registry.declarations('field_value', 'node')}
    assert declared == {'state=available', 'state=active', 'state=deploying'}


def test_unknown_enum_value_is_refused(registry):
    with pytest.raises(InvalidDeclarationError) as info:
        value_rule(registry, 'field_value', 'node', 'state',
                   {'available'}, {'deployin': '1.3'})
    assert "['deployin']" in str(info.value)
    assert 'node.state' in str(info.value)


def test_range_forms(registry):
    rule = value_rule(registry, 'query_parameter_value', 'GET /x', 'sort',
                      None, {'always': None,
                             'string': '1.2',
                             'version': Version(1, 3),
                             'tuple_version': (1, 4),
                             'pair': ('1.1', '1.2'),
                             'open_low': (None, '1.1'),
                             'open_high': ('1.3', None)})
    assert rule.ranges == {
        'always': VersionRange(),
        'string': VersionRange('1.2'),
        'version': VersionRange('1.3'),
        'tuple_version': VersionRange('1.4'),
        'pair': VersionRange('1.1', '1.2'),
        'open_low': VersionRange(None, '1.1'),
        'open_high': VersionRange('1.3'),
    }
    assert rule.allowed[V['1.0']] == {'always', 'open_low'}
    assert rule.allowed[V['1.2']] == {'always', 'string', 'pair'}
    assert rule.allowed[V['1.4']] == {'always', 'string', 'version',
                                      'tuple_version', 'open_high'}


@pytest.mark.parametrize('spec, error', [
    (('1.0', '1.1', '1.2'), InvalidDeclarationError),
    (['1.1'], InvalidDeclarationError),
    (1.1, InvalidDeclarationError),
    ('1.9', UnknownVersionError),
    (('1.3', '1.1'), InvertedRangeError),
])
def test_malformed_ranges(registry, spec, error):
    with pytest.raises(error):
        value_rule(registry, 'field_value', 'node', 'x', None, {'v': spec})


def test_no_values_is_refused(registry):
    with pytest.raises(InvalidDeclarationError, match='no values'):
        value_rule(registry, 'field_value', 'node', 'x', None, {})


@pytest.fixture
def rule(registry):
    return value_rule(registry, 'field_value', 'node', 'state', None,
                      {'available': None, 'deploying': '1.3',
                       'old': (None, '1.1')})


def test_check_allows_values_of_the_version(rule):
    assert rule.check('deploying', V['1.3'], 'field x', 400) is None
    assert rule.check('old', V['1.0'], 'field x', 400) is None


@pytest.mark.parametrize('status', [400, 406])
def test_value_of_another_version_gets_the_unavailable_status(rule, status):
    with pytest.raises(RequestError) as info:
        rule.check('deploying', V['1.2'], "field 'state'", status)
    error = info.value
    assert error.code == status
    assert error.error_code == 'microversion.value_unavailable'
    assert error.detail == (
        "Value 'deploying' of field 'state' is not available at version "
        '1.2; it exists from version 1.3 on.')
    with pytest.raises(RequestError) as info:
        rule.check('old', V['1.4'], "field 'state'", status)
    assert 'up to version 1.1' in info.value.detail


@pytest.mark.parametrize('status', [400, 406])
def test_value_of_no_version_is_always_400(rule, status):
    with pytest.raises(RequestError) as info:
        rule.check('bogus', V['1.3'], "field 'state'", status)
    error = info.value
    assert error.code == 400
    assert error.error_code == 'microversion.invalid_value'
    assert 'allowed at version 1.3: available, deploying.' in error.detail


@pytest.mark.parametrize('value', [['deploying'], {'a': 1}, {1, 2}])
def test_unhashable_values_are_400_not_a_crash(rule, value):
    with pytest.raises(RequestError) as info:
        rule.check(value, V['1.3'], "field 'state'", 406)
    assert info.value.code == 400
    assert info.value.error_code == 'microversion.invalid_value'
