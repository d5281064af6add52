"""Request bodies, JSON patches and query parameters outside their range."""

import pytest
import webtest

from tests import versioned_app

VERSIONS = [v for v, _ in versioned_app.HISTORY]


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


@pytest.fixture
def app():
    return webtest.TestApp(versioned_app.make_app())


def error(response, status, code):
    assert response.status_int == status
    assert response.content_type == 'application/json'
    (err,) = response.json['errors']
    assert err['status'] == status
    assert err['code'] == code
    assert 'OpenStack-API-Version' in response.headers
    return err['detail']


# Fields of a create body, each with the versions that accept it.
BODY_FIELDS = {
    'description': ('1.1', None, 'x'),
    'location': ('1.2', None, {'rack': 'r'}),
    'owner': ('1.5', None, 'o'),
    'legacy': (None, '1.6', True),
}


def _in_range(version, low, high):
    v = tuple(map(int, version.split('.')))
    return ((low is None or v >= tuple(map(int, low.split('.'))))
            and (high is None or v <= tuple(map(int, high.split('.')))))


def _base_body(version):
    key = 'hardware_type' if _in_range(version, '1.6', None) else 'driver'
    return {'name': 'n', key: 'ipmi'}


@pytest.mark.parametrize('version', VERSIONS)
@pytest.mark.parametrize('field', sorted(BODY_FIELDS))
def test_create_accepts_or_rejects_each_field(app, version, field):
    low, high, value = BODY_FIELDS[field]
    body = dict(_base_body(version), **{field: value})
    response = app.post_json('/v1/nodes', body, headers=at(version),
                             expect_errors=True)
    if _in_range(version, low, high):
        assert response.status_int == 201
        assert response.json[field] == value
    else:
        detail = error(response, 400, 'microversion.field_unavailable')
        assert repr(field) in detail
        assert f'version {version}' in detail
        assert (f'from version {low} on' if high is None
                else f'up to version {high}') in detail


@pytest.mark.parametrize('version', VERSIONS)
def test_renamed_field_create(app, version):
    new = _in_range(version, '1.6', None)
    ok = {'name': 'n', 'hardware_type' if new else 'driver': 'x'}
    bad = {'name': 'n', 'driver' if new else 'hardware_type': 'x'}
    created = app.post_json('/v1/nodes', ok, headers=at(version)).json
    assert created['hardware_type' if new else 'driver'] == 'x'
    # The other name reads the same stored value.
    other = app.get(f'/v1/nodes/{created["uuid"]}',
                    headers=at('1.5' if new else '1.6')).json
    assert other['driver' if new else 'hardware_type'] == 'x'
    detail = error(app.post_json('/v1/nodes', bad, headers=at(version),
                                 expect_errors=True),
                   400, 'microversion.field_unavailable')
    assert ("'driver'" if new else "'hardware_type'") in detail


def test_mandatory_only_where_the_field_exists(app):
    assert app.post_json('/v1/nodes', {'name': 'n'},
                         headers=at('1.5')).status_int == 201
    detail = error(app.post_json('/v1/nodes', {'name': 'n'},
                                 headers=at('1.6'), expect_errors=True),
                   400, 'microversion.missing_field')
    assert "'hardware_type'" in detail


def test_nested_field_rejected_with_its_path(app):
    body = {'name': 'n', 'location': {'rack': 'r', 'row': 2}}
    detail = error(app.post_json('/v1/nodes', body, headers=at('1.3'),
                                 expect_errors=True),
                   400, 'microversion.field_unavailable')
    assert "'location.row'" in detail and 'from version 1.4 on' in detail
    created = app.post_json('/v1/nodes', body, headers=at('1.4')).json
    assert created['location'] == {'rack': 'r', 'row': 2}


@pytest.mark.parametrize('version', VERSIONS)
def test_enum_value_added_at_1_3(app, version):
    body = dict(_base_body(version), state='deploying')
    response = app.post_json('/v1/nodes', body, headers=at(version),
                             expect_errors=True)
    if _in_range(version, '1.3', None):
        assert response.json['state'] == 'deploying'
    else:
        detail = error(response, 400, 'microversion.value_unavailable')
        assert "'deploying'" in detail and 'from version 1.3 on' in detail


def test_value_outside_the_enum_is_400(app):
    detail = error(app.post_json('/v1/nodes', {'name': 'n', 'state': 'x'},
                                 headers=at('1.3'), expect_errors=True),
                   400, 'microversion.invalid_value')
    assert 'active, available, deploying' in detail


@pytest.mark.parametrize('body, code', [
    ({'name': 'n', 'bogus': 1}, 'microversion.unknown_field'),
    ({'name': 'n', 'uuid': 'u'}, 'microversion.read_only_field'),
    ({'name': 'n', 'location': 'r1'}, 'microversion.invalid_body'),
    ({'name': 5}, 'http.bad_request'),
    ({'driver': 'x'}, 'microversion.missing_field'),  # name is mandatory
])
def test_bad_bodies_are_json_400(app, body, code):
    error(app.post_json('/v1/nodes', body, headers=at('1.5'),
                        expect_errors=True), 400, code)


def test_body_that_is_not_json(app):
    response = app.post('/v1/nodes', b'{not json', headers=dict(
        at('1.5'), **{'Content-Type': 'application/json'}),
        expect_errors=True)
    assert 'valid JSON' in error(response, 400, 'http.bad_request')


def test_manual_check_body(app):
    assert app.post_json('/v1/plain/check', {'name': 'n', 'owner': 'o'},
                         headers=at('1.5')).json == {'ok': True}
    error(app.post_json('/v1/plain/check', {'name': 'n', 'owner': 'o'},
                        headers=at('1.4'), expect_errors=True),
          400, 'microversion.field_unavailable')


def test_406_for_services_migrating_from_ironic():
    app = webtest.TestApp(versioned_app.make_app(unavailable_status=406))
    error(app.post_json('/v1/nodes', {'name': 'n', 'owner': 'o'},
                        headers=at('1.4'), expect_errors=True),
          406, 'microversion.field_unavailable')
    error(app.patch_json('/v1/nodes/uuid-a',
                         [{'op': 'replace', 'path': '/owner', 'value': 'o'}],
                         headers=at('1.4'), expect_errors=True),
          406, 'microversion.field_unavailable')
    error(app.get('/v1/nodes?driver=ipmi', headers=at('1.1'),
                  expect_errors=True),
          406, 'microversion.query_parameter_unavailable')
    error(app.get('/v1/nodes?sort_key=owner', headers=at('1.3'),
                  expect_errors=True),
          406, 'microversion.value_unavailable')
    # Not a version question: still 400.
    error(app.get('/v1/nodes?bogus=1', headers=at('1.3'),
                  expect_errors=True), 400,
          'microversion.unknown_query_parameter')


# --- PATCH ---------------------------------------------------------------

PATCH_PATHS = {
    '/description': ('1.1', None, 'y'),
    '/location/rack': ('1.2', None, 'r9'),
    '/location/row': ('1.4', None, 7),
    '/owner': ('1.5', None, 'bob'),
    '/driver': (None, '1.5', 'redfish'),
    '/hardware_type': ('1.6', None, 'redfish'),
    '/legacy': (None, '1.6', False),
}


@pytest.mark.parametrize('version', VERSIONS)
@pytest.mark.parametrize('path', sorted(PATCH_PATHS))
def test_patch_paths(app, version, path):
    low, high, value = PATCH_PATHS[path]
    patch = [{'op': 'replace', 'path': path, 'value': value}]
    response = app.patch_json('/v1/nodes/uuid-a', patch, headers=at(version),
                              expect_errors=True)
    if _in_range(version, low, high):
        assert response.status_int == 200
        node = response.json
        for part in path.strip('/').split('/'):
            node = node[part]
        assert node == value
    else:
        detail = error(response, 400, 'microversion.field_unavailable')
        assert f'version {version}' in detail


def test_patch_from_is_checked_too(app):
    patch = [{'op': 'copy', 'from': '/owner', 'path': '/description'}]
    error(app.patch_json('/v1/nodes/uuid-a', patch, headers=at('1.4'),
                         expect_errors=True),
          400, 'microversion.field_unavailable')
    node = app.patch_json('/v1/nodes/uuid-a', patch, headers=at('1.5')).json
    assert node['description'] == 'alice'


def test_patch_value_checked_as_a_body(app):
    patch = [{'op': 'replace', 'path': '/state', 'value': 'deploying'}]
    error(app.patch_json('/v1/nodes/uuid-a', patch, headers=at('1.2'),
                         expect_errors=True),
          400, 'microversion.value_unavailable')
    patch = [{'op': 'add', 'path': '/location',
              'value': {'rack': 'r', 'row': 1}}]
    detail = error(app.patch_json('/v1/nodes/uuid-b', patch,
                                  headers=at('1.3'), expect_errors=True),
                   400, 'microversion.field_unavailable')
    assert "'location.row'" in detail


@pytest.mark.parametrize('patch, code, words', [
    ({'op': 'replace'}, 'microversion.invalid_patch', 'list of operations'),
    (['replace'], 'microversion.invalid_patch', 'JSON object'),
    ([{'op': 'frobnicate', 'path': '/name'}], 'microversion.invalid_patch',
     'frobnicate'),
    ([{'op': 'replace', 'path': '/name'}], 'microversion.invalid_patch',
     '"value"'),
    ([{'op': 'move', 'path': '/name'}], 'microversion.invalid_patch',
     '"from"'),
    ([{'op': 'replace', 'value': 1}], 'microversion.invalid_patch', '"path"'),
    ([{'op': 'replace', 'path': 'name', 'value': 1}],
     'microversion.invalid_patch', "'name'"),
    ([{'op': 'replace', 'path': '', 'value': {}}],
     'microversion.invalid_patch', 'whole resource'),
    ([{'op': 'replace', 'path': '/bogus', 'value': 1}],
     'microversion.unknown_field', "'bogus'"),
    ([{'op': 'replace', 'path': '/uuid', 'value': 'u'}],
     'microversion.read_only_field', "'uuid'"),
    ([{'op': 'remove', 'path': '/name'}], 'microversion.missing_field',
     "'name'"),
    ([{'op': 'remove', 'path': '/description'}, {'op': 'remove',
                                                  'path': '/description'}],
     'microversion.patch_failed', 'cannot be applied'),
    ([{'op': 'test', 'path': '/name', 'value': 'zzz'}],
     'microversion.patch_failed', 'cannot be applied'),
])
def test_bad_patches(app, patch, code, words):
    detail = error(app.patch_json('/v1/nodes/uuid-a', patch,
                                  headers=at('1.6'), expect_errors=True),
                   400, code)
    assert words in detail


def test_patch_remove_mandatory_only_where_it_exists(app):
    patch = [{'op': 'remove', 'path': '/hardware_type'}]
    error(app.patch_json('/v1/nodes/uuid-a', patch, headers=at('1.6'),
                         expect_errors=True), 400, 'microversion.missing_field')
    patch = [{'op': 'remove', 'path': '/driver'}]
    node = app.patch_json('/v1/nodes/uuid-a', patch, headers=at('1.5')).json
    assert 'driver' not in node


def test_patch_leaves_fields_of_newer_versions_alone(app):
    """An old client's patch keeps what newer clients set."""
    node = app.patch_json('/v1/nodes/uuid-a',
                          [{'op': 'replace', 'path': '/name', 'value': 'z'}],
                          headers=at('1.0')).json
    assert set(node) == {'uuid', 'name', 'state', 'driver', 'legacy'}
    latest = app.get('/v1/nodes/uuid-a', headers=at('1.7')).json
    assert latest['owner'] == 'alice' and latest['location']['row'] == 3


# --- query parameters ------------------------------------------------------

@pytest.mark.parametrize('version', VERSIONS)
def test_driver_query_parameter(app, version):
    response = app.get('/v1/nodes?driver=redfish', headers=at(version),
                       expect_errors=True)
    if _in_range(version, '1.2', '1.5'):
        assert [n['uuid'] for n in response.json['nodes']] == ['uuid-b']
    else:
        detail = error(response, 400,
                       'microversion.query_parameter_unavailable')
        assert "'driver'" in detail and 'from version 1.2 to 1.5' in detail


@pytest.mark.parametrize('version', VERSIONS)
def test_sort_key_value_owner(app, version):
    response = app.get('/v1/nodes?sort_key=owner', headers=at(version),
                       expect_errors=True)
    if _in_range(version, '1.4', None):
        assert response.status_int == 200
    else:
        detail = error(response, 400, 'microversion.value_unavailable')
        assert "'owner'" in detail and "'sort_key'" in detail
        assert 'from version 1.4 on' in detail


def test_query_values_outside_the_declared_set(app):
    detail = error(app.get('/v1/nodes?sort_key=zz',
                           headers=at('1.5'), expect_errors=True),
                   400, 'microversion.invalid_value')
    assert "'zz'" in detail and 'name, owner, uuid' in detail


@pytest.mark.parametrize('query', ['sort_key=owner&sort_key=name',
                                   'driver=a&driver=b'])
def test_repeated_query_parameter_is_rejected_not_collapsed(app, query):
    detail = error(app.get(f'/v1/nodes?{query}', headers=at('1.4'),
                           expect_errors=True),
                   400, 'microversion.repeated_query_parameter')
    assert query.split('=')[0] in detail and '2 times' in detail


def test_undeclared_arguments_are_parameters_of_every_version(app):
    response = app.get('/v1/nodes?sort_key=uuid', headers=at('1.0'))
    assert [n['uuid'] for n in response.json['nodes']] == ['uuid-a', 'uuid-b']


def test_unknown_query_parameters_rejected_or_ignored(app):
    detail = error(app.get('/v1/nodes?colour=red', headers=at('1.3'),
                           expect_errors=True),
                   400, 'microversion.unknown_query_parameter')
    assert "'colour'" in detail
    tolerant = webtest.TestApp(
        versioned_app.make_app(unknown_query_params='ignore'))
    body = tolerant.get('/v1/nodes?colour=red', headers=at('1.3')).json
    assert len(body['nodes']) == 2
    # Ignoring unknown names does not relax versioned ones.
    error(tolerant.get('/v1/nodes?driver=x', headers=at('1.0'),
                       expect_errors=True),
          400, 'microversion.query_parameter_unavailable')
