"""What each version changed, on a small registry."""

import pytest

from pecan_microversions.core.changes import (
    FIELD,
    FIELD_TYPE,
    FIELD_VALUE,
    KIND_LABELS,
    METHOD,
    QUERY_PARAMETER,
    QUERY_PARAMETER_VALUE,
    RENAME,
    RESOURCE,
    Change,
    MethodChange,
    compare,
    group,
    method_changes,
    surface,
    version_changes,
)
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd'),
           ('1.4', 'e')]


@pytest.fixture
def registry():
    r = VersionRegistry('shelf', HISTORY)
    r.declare(FIELD, 'node', 'uuid')
    r.declare(FIELD, 'node', 'owner', '1.1')
    r.declare(FIELD, 'node', 'driver', None, '1.1')
    r.declare(FIELD_TYPE, 'node', 'size', None, '1.1')
    r.declare(FIELD_TYPE, 'node', 'size', '1.2')
    r.declare(FIELD, 'node', 'state')
    r.declare(FIELD_VALUE, 'node', 'state=deploying', '1.2')
    r.declare(QUERY_PARAMETER, 'GET /v1/nodes', 'sort', '1.1', '1.2')
    r.declare(QUERY_PARAMETER_VALUE, 'GET /v1/nodes', 'sort=name')
    r.declare(METHOD, 'NodesController', 'get_one', None, '1.1')
    r.declare(METHOD, 'NodesController', 'get_one', '1.2')
    r.declare(METHOD, 'NodesController', 'clean', '1.3')
    r.declare(RESOURCE, 'RootController.ports', '*', '1.2')
    return r


def _by_version(registry):
    return {str(c.version): c for c in version_changes(registry)}


def test_one_entry_per_history_version(registry):
    changes = version_changes(registry)
    assert [str(c.version) for c in changes] == [v for v, _ in HISTORY]
    assert [c.description for c in changes] == [d for _, d in HISTORY]
    assert _by_version(registry)['1.4'].empty
    assert not _by_version(registry)['1.1'].empty


def test_first_version_adds_what_exists_there(registry):
    first = _by_version(registry)['1.0']
    assert Change(FIELD, 'node', 'uuid') in first.added
    assert Change(FIELD, 'node', 'driver') in first.added
    assert Change(FIELD, 'node', 'owner') not in first.added
    assert first.removed == () and first.changed == ()


def test_additions_and_removals(registry):
    v11 = _by_version(registry)['1.1']
    assert v11.added == (
        Change(FIELD, 'node', 'owner'),
        Change(QUERY_PARAMETER, 'GET /v1/nodes', 'sort'),
        Change(QUERY_PARAMETER_VALUE, 'GET /v1/nodes', 'sort=name'))
    assert v11.removed == ()
    v13 = _by_version(registry)['1.3']
    assert v13.added == (Change(METHOD, 'NodesController', 'clean'),)
    assert v13.removed == (
        Change(QUERY_PARAMETER, 'GET /v1/nodes', 'sort'),
        Change(QUERY_PARAMETER_VALUE, 'GET /v1/nodes', 'sort=name'))


def test_a_value_exists_only_with_its_parameter(registry):
    by_version = _by_version(registry)
    value = Change(QUERY_PARAMETER_VALUE, 'GET /v1/nodes', 'sort=name')
    assert value not in by_version['1.0'].added
    assert value in by_version['1.1'].added
    assert value in by_version['1.3'].removed
    assert (QUERY_PARAMETER_VALUE, 'GET /v1/nodes', 'sort=name') not in \
        surface(registry, Version(1, 0))
    assert surface(registry, None) == {}


def test_new_declaration_of_the_same_thing_is_a_change(registry):
    v12 = _by_version(registry)['1.2']
    assert v12.changed == (Change(METHOD, 'NodesController', 'get_one'),
                           Change(FIELD_TYPE, 'node', 'size'))
    assert v12.added == (Change(RESOURCE, 'RootController.ports', '*'),
                         Change(FIELD_VALUE, 'node', 'state=deploying'))
    assert v12.removed == (Change(FIELD, 'node', 'driver'),)


def test_compare_directly(registry):
    before = surface(registry, Version(1, 1))
    after = surface(registry, Version(1, 2))
    added, removed, changed = compare(before, after)
    assert Change(RESOURCE, 'RootController.ports', '*') in added
    assert removed == (Change(FIELD, 'node', 'driver'),)
    assert len(changed) == 2
    assert compare(after, after) == ((), (), ())
    assert compare(after, before)[0] == removed  # the reverse


def test_group_orders_by_kind_then_owner():
    changes = [Change(FIELD, 'node', 'b'), Change('behaviour', 'x', 'y'),
               Change(FIELD, 'node', 'a'), Change(RESOURCE, 'R', '*'),
               Change(FIELD, 'chassis', 'c'), Change('zzz', 'o', 'n')]
    grouped = group(changes)
    assert list(grouped) == [RESOURCE, FIELD, 'behaviour', 'zzz']
    assert grouped[FIELD] == {'chassis': ['c'], 'node': ['a', 'b']}
    assert list(grouped[FIELD]) == ['chassis', 'node']


def test_method_changes(registry):
    assert method_changes(registry, '1.2') == [
        MethodChange('changed', METHOD, 'NodesController', 'get_one'),
        MethodChange('added', RESOURCE, 'RootController.ports', '*'),
    ]
    assert method_changes(registry, (1, 3)) == [
        MethodChange('added', METHOD, 'NodesController', 'clean')]
    assert method_changes(registry, '1.1') == []


@pytest.mark.parametrize('version', ['1.5', '2.0', 'x'])
def test_unknown_version_raises(registry, version):
    with pytest.raises(UnknownVersionError):
        method_changes(registry, version)


def test_every_kind_has_labels():
    for kind in (FIELD, FIELD_TYPE, FIELD_VALUE, QUERY_PARAMETER,
                 QUERY_PARAMETER_VALUE, METHOD, RESOURCE, RENAME):
        singular, plural = KIND_LABELS[kind]
        assert singular and plural and singular != plural
