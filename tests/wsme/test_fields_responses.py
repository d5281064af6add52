"""Responses at every version contain exactly the declared fields."""

import pytest
import webtest
from wsme.types import Unset

from pecan_microversions import filter_response
from pecan_microversions.core.version import Version
from tests import versioned_app

VERSIONS = [v for v, _ in versioned_app.HISTORY]


def _v(text):
    return Version.parse(text)


def expected_node(version, full=True):
    """The node fields a client of ``version`` sees, written out by hand."""
    v = _v(version)
    keys = {'uuid', 'name', 'state'}
    if full:
        if v >= _v('1.1'):
            keys.add('description')
        if v >= _v('1.2'):
            keys.add('location')
        if v >= _v('1.5'):
            keys.add('owner')
    keys.add('driver' if v <= _v('1.5') else 'hardware_type')
    if v <= _v('1.6'):
        keys.add('legacy')
    return keys


def expected_location(version):
    return {'rack', 'row'} if _v(version) >= _v('1.4') else {'rack'}


@pytest.fixture
def app():
    return webtest.TestApp(versioned_app.make_app())


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


@pytest.mark.parametrize('version', VERSIONS)
def test_single_resource_exact_fields(app, version):
    body = app.get('/v1/nodes/uuid-a', headers=at(version)).json
    assert set(body) == expected_node(version)
    if 'location' in body:
        assert set(body['location']) == expected_location(version)


@pytest.mark.parametrize('version', VERSIONS)
def test_collection_exact_fields(app, version):
    body = app.get('/v1/nodes', headers=at(version)).json
    assert set(body) == {'nodes', 'next'}
    full, sparse = body['nodes']
    assert set(full) == expected_node(version)
    # uuid-b has no description, location or owner; legacy has a default.
    assert set(sparse) == expected_node(version, full=False)
    if 'location' in full:
        assert set(full['location']) == expected_location(version)


@pytest.mark.parametrize('version', VERSIONS)
def test_manual_path_exact_fields(app, version):
    body = app.get('/v1/plain', headers=at(version)).json
    assert body['version'] == version
    assert set(body['nodes'][0]) == expected_node(version)
    assert set(body['nodes'][1]) == expected_node(version, full=False)


@pytest.mark.parametrize('version', VERSIONS)
def test_rename_carries_the_same_value(app, version):
    body = app.get('/v1/nodes/uuid-a', headers=at(version)).json
    name = 'driver' if _v(version) <= _v('1.5') else 'hardware_type'
    assert body[name] == 'ipmi'


def test_default_of_removed_field_is_hidden(app):
    assert app.get('/v1/nodes/uuid-b', headers=at('1.6')).json['legacy'] is False
    assert 'legacy' not in app.get('/v1/nodes/uuid-b', headers=at('1.7')).json


def test_no_header_is_served_as_the_oldest_version(app):
    body = app.get('/v1/nodes/uuid-a').json
    assert set(body) == expected_node('1.0')
    assert body['driver'] == 'ipmi'


def _types():
    wsgi = versioned_app.make_app()
    return wsgi.types['Node'], wsgi.types['Location']


def test_filter_response_recurses_through_dicts_lists_and_tuples():
    node_type, location_type = _types()

    def node():
        return node_type(name='n', driver='d', owner='o', description='x',
                         location=location_type(rack='r', row=1))

    value = {'a': [node(), node()], 'b': (node(),), 'c': {'d': node()}}
    filter_response(value, _v('1.3'))
    for obj in (value['a'][0], value['a'][1], value['b'][0], value['c']['d']):
        assert obj.owner is Unset
        assert obj.description == 'x'
        assert obj.location.rack == 'r'
        assert obj.location.row is Unset


def test_filter_response_returns_its_argument_and_skips_plain_values():
    node_type, _ = _types()
    obj = node_type(name='n')
    assert filter_response(obj, _v('1.0')) is obj
    assert filter_response([1, 'a', None, obj], _v('1.0'))[3] is obj
    assert filter_response(None, _v('1.0')) is None


def test_filter_response_is_idempotent_and_ordered_by_version():
    node_type, _ = _types()
    obj = node_type(name='n', driver='d', owner='o')
    filter_response(obj, _v('1.6'))
    filter_response(obj, _v('1.6'))
    assert (obj.hardware_type, obj.owner) == ('d', 'o')
    assert obj.driver is Unset
