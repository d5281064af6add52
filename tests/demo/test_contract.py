"""The fleet demo's contract: every row at the version before, at and after it.

Each test names the contract row it checks. Versions are sent with the
standard header; the legacy header is covered at the end.
"""

import pytest

SEED = '00000000-0000-0000-0000-000000000001'
SEED_2 = '00000000-0000-0000-0000-000000000002'
SEED_3 = '00000000-0000-0000-0000-000000000003'
VERSIONS = [f'1.{minor}' for minor in range(10)]
BASE_FIELDS = {'uuid', 'name', 'created_at', 'links', 'provision_state'}


def expected_fields(version):
    minor = int(version.split('.')[1])
    fields = set(BASE_FIELDS)
    fields.add('driver' if minor < 6 else 'hardware_type')
    if minor >= 1:
        fields.add('description')
    if minor >= 4:
        fields.add('owner')
    if minor < 9:
        fields.add('available')
    return fields


def hdr(version):
    return {'OpenStack-API-Version': f'fleet {version}'}


def assert_error(response, status):
    assert response.status_int == status
    assert response.content_type == 'application/json'
    error = response.json['errors'][0]
    assert error['status'] == status
    assert error['detail']
    assert response.headers['OpenStack-API-Version'].startswith('fleet ')
    return error


def driver_key(version):
    return 'driver' if int(version.split('.')[1]) < 6 else 'hardware_type'


def create_body(version, **extra):
    body = {'name': 'new-node', driver_key(version): 'ipmi'}
    body.update(extra)
    return body


# -- Discovery ------------------------------------------------------------

def test_root_document(api):
    doc = api.get('/').json
    (current,) = doc['versions']
    assert current['id'] == 'v1'
    assert (current['min_version'], current['max_version']) == ('1.0', '1.9')
    assert current['version'] == '1.9'
    assert current['status'] == 'CURRENT'
    assert current['links'][0] == {'rel': 'self',
                                   'href': 'http://localhost/v1/'}
    assert doc['default_version'] == current


@pytest.mark.parametrize('path', ['/v1', '/v1/'])
def test_versioned_document_links_to_nodes(api, path):
    version = api.get(path).json['version']
    assert version['id'] == 'v1'
    assert {'rel': 'nodes', 'href': 'http://localhost/v1/nodes'} in (
        version['links'])


# -- Fields at every version ----------------------------------------------

@pytest.mark.parametrize('version', VERSIONS)
def test_node_fields_at_every_version(api, version):
    node = api.get(f'/v1/nodes/{SEED}', headers=hdr(version)).json
    assert set(node) == expected_fields(version)
    assert node['uuid'] == SEED
    assert node['created_at'].startswith('2026-01-01T00:00:00')
    assert node['links'][0] == {
        'rel': 'self', 'href': f'http://localhost/v1/nodes/{SEED}'}


@pytest.mark.parametrize('version', VERSIONS)
def test_node_list_fields_at_every_version(api, version):
    nodes = api.get('/v1/nodes', headers=hdr(version)).json['nodes']
    assert [n['uuid'] for n in nodes] == [SEED, SEED_2, SEED_3]
    for node in nodes:
        assert set(node) == expected_fields(version)


def test_driver_renamed_hardware_type_same_value(api):
    before = api.get(f'/v1/nodes/{SEED_2}', headers=hdr('1.5')).json
    after = api.get(f'/v1/nodes/{SEED_2}', headers=hdr('1.6')).json
    assert before['driver'] == after['hardware_type'] == 'redfish'


def test_no_header_is_1_0(api):
    response = api.get(f'/v1/nodes/{SEED}')
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.0'
    assert set(response.json) == expected_fields('1.0')


def test_unknown_node_is_404(api):
    assert_error(api.get('/v1/nodes/no-such-node', expect_errors=True), 404)


# -- 1.0 create, 1.1 description -------------------------------------------

@pytest.mark.parametrize('version', ['1.0', '1.1', '1.4'])
def test_create_before_1_5_answers_200(api, store, version):
    response = api.post_json('/v1/nodes', create_body(version),
                             headers=hdr(version))
    assert response.status_int == 200
    assert 'Location' not in response.headers
    assert set(response.json) == expected_fields(version)
    assert store.get(response.json['uuid'])['name'] == 'new-node'


@pytest.mark.parametrize('body', [
    {'driver': 'ipmi'},
    {'name': 'x'},
    {'name': '', 'driver': 'ipmi'},
    {'name': 'x' * 256, 'driver': 'ipmi'},
    {'name': 42, 'driver': 'ipmi'},
    {'name': 'x', 'driver': 'ipmi', 'colour': 'red'},
    {'name': 'x', 'driver': 'ipmi', 'uuid': SEED},
])
def test_create_rejects_bad_bodies(api, store, body):
    before = store.list()
    assert_error(api.post_json('/v1/nodes', body, headers=hdr('1.4'),
                               expect_errors=True), 400)
    assert store.list() == before


def test_create_accepts_255_char_name(api):
    response = api.post_json('/v1/nodes', create_body('1.0', name='x' * 255))
    assert response.json['name'] == 'x' * 255


def test_description_rejected_at_1_0_accepted_at_1_1(api, store):
    before = store.list()
    error = assert_error(api.post_json(
        '/v1/nodes', create_body('1.0', description='d'),
        headers=hdr('1.0'), expect_errors=True), 400)
    assert 'description' in error['detail']
    assert '1.1' in error['detail']
    assert store.list() == before
    created = api.post_json('/v1/nodes', create_body('1.1', description='d'),
                            headers=hdr('1.1')).json
    assert created['description'] == 'd'


# -- 1.2 list query parameters -------------------------------------------

@pytest.mark.parametrize('query', ['driver=ipmi', 'sort_key=name',
                                   'sort_dir=desc'])
def test_list_parameters_rejected_at_1_1(api, query):
    error = assert_error(api.get(f'/v1/nodes?{query}', headers=hdr('1.1'),
                                 expect_errors=True), 400)
    assert query.split('=')[0] in error['detail']
    assert '1.2' in error['detail']


@pytest.mark.parametrize('version', ['1.2', '1.5'])
def test_driver_filter(api, version):
    nodes = api.get('/v1/nodes?driver=ipmi', headers=hdr(version)).json
    assert [n['uuid'] for n in nodes['nodes']] == [SEED, SEED_3]


@pytest.mark.parametrize('version', ['1.2', '1.3', '1.8'])
def test_sorting(api, version):
    def order(query):
        return [n['name'] for n in api.get(f'/v1/nodes?{query}',
                                           headers=hdr(version)).json['nodes']]
    assert order('sort_key=name&sort_dir=desc') == ['node-2', 'node-1',
                                                     'node-0']
    assert order('sort_key=created_at') == ['node-0', 'node-1', 'node-2']
    assert order('sort_dir=desc') == ['node-2', 'node-1', 'node-0']


@pytest.mark.parametrize('query', ['sort_key=colour', 'sort_dir=sideways',
                                   'sort_key=uuid', 'colour=red'])
def test_bad_list_parameters(api, query):
    assert_error(api.get(f'/v1/nodes?{query}', headers=hdr('1.8'),
                         expect_errors=True), 400)


# -- 1.3 PATCH ----------------------------------------------------------

def patch(api, version, ops, content_type='application/json', uuid=SEED,
          **kwargs):
    import json
    return api.patch(f'/v1/nodes/{uuid}', json.dumps(ops),
                     headers=dict(hdr(version), **{
                         'Content-Type': content_type}), **kwargs)


def test_patch_absent_before_1_3(api, store):
    before = store.list()
    response = patch(api, '1.2', [{'op': 'replace', 'path': '/name',
                                   'value': 'renamed'}], expect_errors=True)
    error = assert_error(response, 405)
    assert '1.3' in error['detail']
    assert store.list() == before


@pytest.mark.parametrize('content_type', ['application/json',
                                          'application/json-patch+json',
                                          'Application/JSON-Patch+JSON'])
@pytest.mark.parametrize('version', ['1.3', '1.8'])
def test_patch_name_and_description(api, store, version, content_type):
    response = patch(api, version, [
        {'op': 'replace', 'path': '/name', 'value': 'renamed'},
        {'op': 'add', 'path': '/description', 'value': 'patched'}],
        content_type=content_type)
    assert response.status_int == 200
    assert response.json['name'] == 'renamed'
    assert response.json['description'] == 'patched'
    assert set(response.json) == expected_fields(version)
    assert store.get(SEED)['name'] == 'renamed'


def test_patch_remove_description(api, store):
    patch(api, '1.3', [{'op': 'remove', 'path': '/description'}])
    assert store.get(SEED)['description'] is None


def test_patch_that_fails_part_way_changes_nothing(api, store):
    before = store.list()
    response = patch(api, '1.3', [
        {'op': 'replace', 'path': '/name', 'value': 'renamed'},
        {'op': 'replace', 'path': '/name', 'value': ''}], expect_errors=True)
    assert_error(response, 400)
    response = patch(api, '1.3', [
        {'op': 'replace', 'path': '/name', 'value': 'renamed'},
        {'op': 'test', 'path': '/name', 'value': 'nope'}], expect_errors=True)
    assert_error(response, 400)
    assert store.list() == before


@pytest.mark.parametrize('ops', [
    [{'op': 'replace', 'path': '/uuid', 'value': SEED_2}],
    [{'op': 'replace', 'path': '/created_at', 'value': 'x'}],
    [{'op': 'replace', 'path': '/driver', 'value': 'x'}],
    [{'op': 'remove', 'path': '/name'}],
    [{'op': 'replace', 'path': '/colour', 'value': 'red'}],
    [{'op': 'replace', 'path': '/name'}],
    [{'op': 'frobnicate', 'path': '/name', 'value': 'x'}],
    [{'path': '/name', 'value': 'x'}],
    {'op': 'replace', 'path': '/name', 'value': 'x'},
    'not a patch',
])
def test_bad_patches_are_400_and_change_nothing(api, store, ops):
    before = store.list()
    assert_error(patch(api, '1.4', ops, expect_errors=True), 400)
    assert store.list() == before


@pytest.mark.parametrize('version, field', [
    ('1.3', 'driver'), ('1.5', 'driver'),
    ('1.6', 'hardware_type'), ('1.9', 'hardware_type')])
def test_unpatchable_field_is_named_as_the_version_calls_it(api, store,
                                                             version, field):
    before = store.list()
    error = assert_error(patch(api, version, [
        {'op': 'replace', 'path': f'/{field}', 'value': 'x'}],
        expect_errors=True), 400)
    assert error['code'] == 'fleet.field_not_patchable'
    assert error['detail'].startswith(
        f"Field '{field}' cannot be changed by a patch; ")
    assert store.list() == before


def test_patch_query_parameters_are_refused_not_ignored(api, store):
    before = store.list()
    response = api.patch(f'/v1/nodes/{SEED}?dry_run=1', '[{"op": "replace", '
                         '"path": "/name", "value": "x"}]',
                         headers=dict(hdr('1.3'), **{
                             'Content-Type': 'application/json'}),
                         expect_errors=True)
    error = assert_error(response, 400)
    assert 'dry_run' in error['detail']
    assert store.list() == before


def test_patch_unknown_node_is_404(api):
    assert_error(patch(api, '1.3', [], uuid='nope', expect_errors=True), 404)


# -- 1.4 owner -----------------------------------------------------------

def test_owner_field_from_1_4(api, store):
    before = store.list()
    error = assert_error(api.post_json(
        '/v1/nodes', create_body('1.3', owner='carol'), headers=hdr('1.3'),
        expect_errors=True), 400)
    assert 'owner' in error['detail'] and '1.4' in error['detail']
    assert_error(patch(api, '1.3', [{'op': 'add', 'path': '/owner',
                                     'value': 'carol'}], expect_errors=True),
                 400)
    assert store.list() == before
    created = api.post_json('/v1/nodes', create_body('1.4', owner='carol'),
                            headers=hdr('1.4')).json
    assert created['owner'] == 'carol'
    patched = patch(api, '1.4', [{'op': 'replace', 'path': '/owner',
                                  'value': 'dave'}]).json
    assert patched['owner'] == 'dave'


def test_owner_filter_and_sort_from_1_4(api):
    assert_error(api.get('/v1/nodes?owner=alice', headers=hdr('1.3'),
                         expect_errors=True), 400)
    error = assert_error(api.get('/v1/nodes?sort_key=owner',
                                 headers=hdr('1.3'), expect_errors=True), 400)
    assert 'owner' in error['detail'] and '1.4' in error['detail']
    nodes = api.get('/v1/nodes?owner=alice', headers=hdr('1.4')).json['nodes']
    assert [n['uuid'] for n in nodes] == [SEED]
    names = [n['name'] for n in api.get(
        '/v1/nodes?sort_key=owner', headers=hdr('1.5')).json['nodes']]
    assert names[:2] == ['node-0', 'node-1']


# -- 1.5 201 Created -----------------------------------------------------

@pytest.mark.parametrize('version', ['1.5', '1.6', '1.8'])
def test_create_from_1_5_answers_201_with_location(api, version):
    response = api.post_json('/v1/nodes', create_body(version),
                             headers=hdr(version))
    assert response.status_int == 201
    uuid = response.json['uuid']
    assert response.headers['Location'] == f'http://localhost/v1/nodes/{uuid}'
    assert set(response.json) == expected_fields(version)


# -- 1.6 driver -> hardware_type ------------------------------------------

def test_hardware_type_rejected_before_1_6(api, store):
    before = store.list()
    error = assert_error(api.post_json(
        '/v1/nodes', {'name': 'x', 'hardware_type': 'ipmi'},
        headers=hdr('1.5'), expect_errors=True), 400)
    assert 'hardware_type' in error['detail'] and '1.6' in error['detail']
    assert_error(api.get('/v1/nodes?hardware_type=ipmi', headers=hdr('1.5'),
                         expect_errors=True), 400)
    assert store.list() == before


def test_driver_rejected_from_1_6(api, store):
    before = store.list()
    error = assert_error(api.post_json(
        '/v1/nodes', {'name': 'x', 'driver': 'ipmi'}, headers=hdr('1.6'),
        expect_errors=True), 400)
    assert 'driver' in error['detail'] and '1.5' in error['detail']
    assert_error(api.get('/v1/nodes?driver=ipmi', headers=hdr('1.6'),
                         expect_errors=True), 400)
    assert store.list() == before


def test_hardware_type_required_from_1_6(api):
    assert_error(api.post_json('/v1/nodes', {'name': 'x'}, headers=hdr('1.6'),
                               expect_errors=True), 400)


@pytest.mark.parametrize('version', ['1.6', '1.7'])
def test_hardware_type_create_and_filter(api, store, version):
    created = api.post_json('/v1/nodes', create_body(version),
                            headers=hdr(version)).json
    assert created['hardware_type'] == 'ipmi'
    assert store.get(created['uuid'])['driver'] == 'ipmi'
    nodes = api.get('/v1/nodes?hardware_type=redfish',
                    headers=hdr(version)).json['nodes']
    assert [n['uuid'] for n in nodes] == [SEED_2]


# -- 1.7 states removed --------------------------------------------------

@pytest.mark.parametrize('version', ['1.0', '1.6'])
def test_states_until_1_6(api, version):
    states = api.get(f'/v1/nodes/{SEED}/states', headers=hdr(version)).json
    assert states == {'power_state': 'power off'}


@pytest.mark.parametrize('version', ['1.7', '1.8'])
def test_states_gone_from_1_7(api, version):
    error = assert_error(api.get(f'/v1/nodes/{SEED}/states',
                                 headers=hdr(version), expect_errors=True),
                         404)
    assert '1.6' in error['detail']


def test_states_of_unknown_node_is_404(api):
    assert_error(api.get('/v1/nodes/nope/states', expect_errors=True), 404)


# -- 1.8 pagination ------------------------------------------------------

def test_pagination_rejected_at_1_7(api):
    for query in ['limit=1', f'marker={SEED}']:
        error = assert_error(api.get(f'/v1/nodes?{query}', headers=hdr('1.7'),
                                     expect_errors=True), 400)
        assert '1.8' in error['detail']


def test_pagination_walk(api):
    page = api.get('/v1/nodes?limit=2', headers=hdr('1.8')).json
    assert [n['uuid'] for n in page['nodes']] == [SEED, SEED_2]
    assert page['next'] == f'http://localhost/v1/nodes?limit=2&marker={SEED_2}'
    page = api.get(page['next'], headers=hdr('1.8')).json
    assert [n['uuid'] for n in page['nodes']] == [SEED_3]
    assert 'next' not in page


def test_pagination_keeps_filters_and_sort(api):
    page = api.get('/v1/nodes?limit=1&sort_dir=desc', headers=hdr('1.8')).json
    assert [n['uuid'] for n in page['nodes']] == [SEED_3]
    assert page['next'] == ('http://localhost/v1/nodes?limit=1&sort_dir=desc'
                            f'&marker={SEED_3}')
    page = api.get(page['next'], headers=hdr('1.8')).json
    assert [n['uuid'] for n in page['nodes']] == [SEED_2]


def test_pagination_keeps_what_a_json_body_gave(api):
    # limit, sort_dir from the body: the next link must page the same way.
    page = api.request('/v1/nodes', method='GET', headers=hdr('1.8'),
                       body=b'{"limit": "1", "sort_dir": "desc"}',
                       content_type='application/json').json
    assert [n['uuid'] for n in page['nodes']] == [SEED_3]
    assert page['next'] == ('http://localhost/v1/nodes?limit=1&sort_dir=desc'
                            f'&marker={SEED_3}')
    page = api.get(page['next'], headers=hdr('1.8')).json
    assert [n['uuid'] for n in page['nodes']] == [SEED_2]


def test_no_next_when_everything_fits(api):
    page = api.get('/v1/nodes?limit=3', headers=hdr('1.8')).json
    assert len(page['nodes']) == 3 and 'next' not in page
    assert 'next' not in api.get('/v1/nodes', headers=hdr('1.8')).json


@pytest.mark.parametrize('query', ['limit=0', 'limit=1001', 'limit=-1',
                                   'limit=ten', 'limit=', 'marker=nope',
                                   'limit=99999999999999999999999'])
def test_bad_pagination(api, query):
    assert_error(api.get(f'/v1/nodes?{query}', headers=hdr('1.8'),
                         expect_errors=True), 400)


def test_limit_1000_accepted(api):
    assert len(api.get('/v1/nodes?limit=1000',
                       headers=hdr('1.8')).json['nodes']) == 3


# -- Legacy header --------------------------------------------------------

def test_legacy_header(api):
    response = api.get(f'/v1/nodes/{SEED}',
                       headers={'X-OpenStack-Fleet-API-Version': '1.6'})
    assert set(response.json) == expected_fields('1.6')
    assert response.headers['X-OpenStack-Fleet-API-Version'] == '1.6'
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.6'


@pytest.mark.parametrize('path', ['/', '/v1/', '/v1/openapi.json'])
@pytest.mark.parametrize('method', ['POST', 'PUT', 'PATCH', 'DELETE',
                                    'OPTIONS'])
def test_discovery_urls_answer_405_to_other_methods(demo, path, method):
    response = demo.request(path, method=method, status=405)
    assert response.headers['Allow'] == 'GET, HEAD'
    assert response.json['errors'][0]['code'] == 'http.method_not_allowed'
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.0'


@pytest.mark.parametrize('path', ['/', '/v1/', '/v1/openapi.json'])
def test_discovery_urls_answer_get_and_head(demo, path):
    assert demo.get(path).json
    assert demo.head(path).body == b''


@pytest.mark.parametrize('path', ['/', '/v1', '/v1/', '/v1/openapi.json'])
@pytest.mark.parametrize('method', ['GET', 'HEAD'])
def test_discovery_urls_refuse_query_parameters(demo, path, method):
    # Their documents describe none; the node list refuses unknown ones too.
    response = demo.request(f'{path}?x=1', method=method, status=400)
    if method == 'GET':
        error = response.json['errors'][0]
        assert error['code'] == 'microversion.unknown_query_parameter'
        assert error['detail'] == "Unknown query parameter 'x'."


@pytest.mark.parametrize('version, ops, field', [
    ('1.3', [{'op': 'replace', 'path': '/name', 'value': 123}], 'name'),
    ('1.3', [{'op': 'replace', 'path': '/name', 'value': ''}], 'name'),
    ('1.3', [{'op': 'replace', 'path': '/name', 'value': 'x' * 256}], 'name'),
    ('1.3', [{'op': 'add', 'path': '/description', 'value': ['a']}],
     'description'),
    ('1.8', [{'op': 'replace', 'path': '/owner', 'value': 7}], 'owner'),
    ('1.9', [{'op': 'replace', 'path': '/owner',
              'value': {'name': 7, 'domain': 'd'}}], 'owner.name'),
    # a value moved in from another field is judged where it lands
    ('1.9', [{'op': 'add', 'path': '/owner', 'value': {'name': 'o'}},
             {'op': 'copy', 'from': '/owner', 'path': '/description'}],
     'description'),
])
def test_patched_values_are_checked_as_a_post_body_is(api, store, version,
                                                      ops, field):
    before = store.list()
    error = assert_error(patch(api, version, ops, expect_errors=True), 400)
    assert error['code'] == 'microversion.invalid_value'
    assert repr(field) in error['detail']
    assert store.list() == before


@pytest.mark.parametrize('path', [f'/v1/nodes/{SEED}/unknown',
                                  f'/v1/nodes/{SEED}/unknown/more',
                                  f'/v1/nodes/{SEED}/states/unknown'])
@pytest.mark.parametrize('version', ['1.0', '1.3', '1.6', '1.9'])
def test_a_url_below_an_item_naming_nothing_is_404_for_every_method(
        api, path, version):
    # Not a 405 listing the item's methods (PUT, DELETE, OPTIONS were).
    for method in ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']:
        response = api.request(path, method=method, headers=dict(
            hdr(version), **{'Content-Type': 'application/json'}),
            body=b'[]' if method in ('POST', 'PUT', 'PATCH') else b'',
            expect_errors=True)
        assert_error(response, 404)
        assert 'Allow' not in response.headers, method
    response = api.head(path, headers=hdr(version), expect_errors=True)
    assert response.status_int == 404


@pytest.mark.parametrize('path, version, allow', [
    ('/v1/nodes', '1.0', 'GET, HEAD, POST'),
    ('/v1/nodes', '1.3', 'GET, HEAD, POST'),     # PATCH is an item's
    (f'/v1/nodes/{SEED_2}', '1.0', 'GET, HEAD'),  # POST: not an operation
    (f'/v1/nodes/{SEED_2}', '1.3', 'GET, HEAD, PATCH'),
])
def test_every_405_of_a_url_sends_the_same_allow(api, path, version, allow):
    # Whichever method is refused, by Pecan (PUT, DELETE, OPTIONS) or by the
    # library (PATCH before 1.3, PATCH on the collection).
    for method in ['PUT', 'PATCH', 'DELETE', 'OPTIONS']:
        response = api.request(path, method=method, headers=dict(
            hdr(version), **{'Content-Type': 'application/json'}),
            body=b'[]', expect_errors=True)
        if method == 'PATCH' and allow.endswith('PATCH'):
            continue  # answered
        assert_error(response, 405)
        assert response.headers['Allow'] == allow, method


def test_a_method_override_is_named_as_pecan_routed_it(api):
    # POST ?_method=patch reaches patch: its 405 before 1.3 names PATCH,
    # not the POST the client sent (which the URL would not take anyway).
    import json
    response = api.post(f'/v1/nodes/{SEED}?_method=patch', json.dumps([
        {'op': 'replace', 'path': '/name', 'value': 'x'}]), headers=dict(
        hdr('1.2'), **{'Content-Type': 'application/json'}),
        expect_errors=True)
    error = assert_error(response, 405)
    assert error['detail'].startswith(f'PATCH /v1/nodes/{SEED} is not '
                                      'available in version 1.2')


def test_a_method_override_in_a_form_body_is_named_as_routed(api):
    response = api.post(f'/v1/nodes/{SEED}', '_method=patch', headers=dict(
        hdr('1.2'), **{'Content-Type': 'application/x-www-form-urlencoded'}),
        expect_errors=True)
    error = assert_error(response, 405)
    assert error['detail'].startswith(f'PATCH /v1/nodes/{SEED} is not ')
