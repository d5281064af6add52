"""The fleet demo's 1.9 conversions, at every version.

1.9 shows the ``cancelled`` provision state (``failed`` before), makes
``owner`` an object (its name before) and removes ``available`` (computed
from the state before).  Controllers only ever see the newest node.
"""

import json

import pytest

from pecan_microversions import APIError
from pecan_microversions.demo.types import Node
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.schemas import validate_body
from pecan_microversions.tools.testing import Sample, field_contract_test

SEED = '00000000-0000-0000-0000-000000000001'
CANCELLED = '00000000-0000-0000-0000-000000000003'
VERSIONS = [f'1.{minor}' for minor in range(10)]


def hdr(version, **extra):
    return dict({'OpenStack-API-Version': f'fleet {version}'}, **extra)


def minor(version):
    return int(version.split('.')[1])


def patch(api, version, ops, uuid=SEED, **kwargs):
    return api.patch(f'/v1/nodes/{uuid}', json.dumps(ops),
                     headers=hdr(version, **{
                         'Content-Type': 'application/json'}), **kwargs)


# Keys, values and types at every version (strict, complete, values).
test_nodes_follow_history = field_contract_test(
    REGISTRY,
    [Sample('/v1/nodes', 'node', collection='nodes'),
     Sample(f'/v1/nodes/{CANCELLED}', 'node')],
    app_fixture='api', strict=True, complete=True)


@pytest.mark.parametrize('version', VERSIONS)
def test_cancelled_is_failed_before_1_9(api, version):
    node = api.get(f'/v1/nodes/{CANCELLED}', headers=hdr(version)).json
    assert node['provision_state'] == ('cancelled' if minor(version) >= 9
                                       else 'failed')


@pytest.mark.parametrize('version', VERSIONS)
def test_available_is_computed_before_1_9(api, version):
    nodes = api.get('/v1/nodes', headers=hdr(version)).json['nodes']
    if minor(version) >= 9:
        assert all('available' not in n for n in nodes)
    else:
        assert [n['available'] for n in nodes] == [True, False, False]
        assert [n['provision_state'] == 'available' for n in nodes] == [
            n['available'] for n in nodes]


@pytest.mark.parametrize('version', VERSIONS[4:])
def test_owner_is_a_name_before_1_9_and_an_object_from_1_9(api, version):
    owner = api.get(f'/v1/nodes/{SEED}', headers=hdr(version)).json['owner']
    if minor(version) >= 9:
        assert owner == {'name': 'alice', 'domain': 'default'}
    else:
        assert owner == 'alice'


@pytest.mark.parametrize('version', ['1.4', '1.8'])
def test_create_with_an_owner_name_before_1_9(api, store, version):
    body = {'name': 'n', 'owner': 'carol',
            ('driver' if minor(version) < 6 else 'hardware_type'): 'ipmi'}
    created = api.post_json('/v1/nodes', body, headers=hdr(version)).json
    assert created['owner'] == 'carol'
    assert created['available'] is True
    newest = api.get(f'/v1/nodes/{created["uuid"]}', headers=hdr('1.9')).json
    assert newest['owner'] == {'name': 'carol', 'domain': 'default'}
    assert store.get(created['uuid'])['owner_domain'] == 'default'


def test_create_with_an_owner_object_at_1_9(api):
    created = api.post_json('/v1/nodes', {
        'name': 'n', 'hardware_type': 'ipmi',
        'owner': {'name': 'carol', 'domain': 'corp'}}, headers=hdr('1.9')).json
    assert created['owner'] == {'name': 'carol', 'domain': 'corp'}
    assert api.get(f'/v1/nodes/{created["uuid"]}',
                   headers=hdr('1.8')).json['owner'] == 'carol'


@pytest.mark.parametrize('version, owner', [
    ('1.8', {'name': 'carol'}), ('1.8', 5), ('1.9', 'carol'),
    ('1.9', {'nom': 'carol'})])
def test_owner_of_the_wrong_type_for_the_version_is_400(api, store, version,
                                                         owner):
    before = store.list()
    response = api.post_json('/v1/nodes', {
        'name': 'n', 'hardware_type': 'ipmi', 'owner': owner},
        headers=hdr(version), expect_errors=True)
    assert response.status_int == 400
    assert 'owner' in response.json['errors'][0]['detail']
    assert store.list() == before


@pytest.mark.parametrize('owner', ['', 'x' * 256])
@pytest.mark.parametrize('version', ['1.4', '1.8'])
def test_an_owner_name_the_service_refuses_the_schema_refuses(
        api, store, version, owner):
    # Before 1.9 the owner is its name: the request schema gives it the
    # constraints of Owner.name, and the service names ``owner``, the
    # field the client sent, not the newest type's ``name``.
    body = {'name': 'n', ('driver' if minor(version) < 6
                          else 'hardware_type'): 'ipmi', 'owner': owner}
    with pytest.raises(APIError):
        validate_body(Node, body, version)
    before = store.list()
    for response in [
            api.post_json('/v1/nodes', body, headers=hdr(version),
                          expect_errors=True),
            patch(api, version, [{'op': 'replace', 'path': '/owner',
                                  'value': owner}], expect_errors=True)]:
        assert response.status_int == 400
        error = response.json['errors'][0]
        assert error['code'] == 'microversion.invalid_value'
        assert error['detail'].startswith(
            f'Invalid value {owner!r} for field \'owner\': ')
    assert store.list() == before
    validate_body(Node, dict(body, owner='x' * 255), version)


@pytest.mark.parametrize('field', ['available', 'provision_state'])
def test_computed_and_state_fields_are_read_only(api, store, field):
    before = store.list()
    response = patch(api, '1.8', [{'op': 'replace', 'path': f'/{field}',
                                   'value': False if field == 'available'
                                   else 'active'}], expect_errors=True)
    assert response.status_int == 400
    assert 'read-only' in response.json['errors'][0]['detail']
    assert store.list() == before


def test_no_response_before_1_9_shows_cancelled(api):
    response = api.get('/v1/nodes?sort_key=name', headers=hdr('1.8'))
    assert 'cancelled' not in response.text


# -- PATCH at an old version keeps what it cannot see (issue: data loss) -----

@pytest.mark.parametrize('version', ['1.3', '1.5', '1.8'])
def test_patch_at_an_old_version_keeps_newer_and_nested_fields(api, version):
    patch(api, '1.9', [{'op': 'replace', 'path': '/owner',
                        'value': {'name': 'alice', 'domain': 'corp'}},
                       {'op': 'replace', 'path': '/description',
                        'value': 'kept'}])
    before = api.get(f'/v1/nodes/{SEED}', headers=hdr('1.9')).json
    patch(api, version, [{'op': 'replace', 'path': '/name',
                          'value': 'renamed'}])
    after = api.get(f'/v1/nodes/{SEED}', headers=hdr('1.9')).json
    assert after == dict(before, name='renamed')
    assert after['owner'] == {'name': 'alice', 'domain': 'corp'}


def test_patch_of_the_owner_name_before_1_9(api):
    response = patch(api, '1.8', [{'op': 'replace', 'path': '/owner',
                                   'value': 'dave'}])
    assert response.json['owner'] == 'dave'
    assert api.get(f'/v1/nodes/{SEED}', headers=hdr('1.9')).json['owner'] == {
        'name': 'dave', 'domain': 'default'}


@pytest.mark.parametrize('ops', [
    [{'op': 'replace', 'path': '/owner', 'value': 'dave'}],
    [{'op': 'copy', 'from': '/name', 'path': '/owner'}],
])
def test_owner_edit_before_1_9_never_drops_a_domain_it_cannot_see(api, store,
                                                                  ops):
    patch(api, '1.9', [{'op': 'replace', 'path': '/owner/domain',
                        'value': 'corp'}])
    before = store.get(SEED)
    response = patch(api, '1.8', ops, status=409)
    assert response.json['errors'][0]['code'] == \
        'microversion.partly_hidden_value'
    assert "'owner'" in response.json['errors'][0]['detail']
    assert store.get(SEED) == before
    # What 1.8 sees in full it still changes, and removing is allowed.
    patch(api, '1.8', [{'op': 'replace', 'path': '/name', 'value': 'n'}])
    assert store.get(SEED)['owner_domain'] == 'corp'
    assert patch(api, '1.8', [{'op': 'remove', 'path': '/owner'}]
                 ).json['owner'] is None


def test_patch_of_the_owner_domain_at_1_9(api, store):
    response = patch(api, '1.9', [{'op': 'replace', 'path': '/owner/domain',
                                   'value': 'corp'}])
    assert response.json['owner'] == {'name': 'alice', 'domain': 'corp'}
    assert store.get(SEED)['owner_domain'] == 'corp'


def test_patch_keeps_the_cancelled_state_shown_as_failed(api, store):
    response = patch(api, '1.8', [{'op': 'replace', 'path': '/name',
                                   'value': 'x'}], uuid=CANCELLED)
    assert response.json['provision_state'] == 'failed'
    assert store.get(CANCELLED)['provision_state'] == 'cancelled'


# -- the owner's domain at 1.9: null is the default domain, "" a 400 --------

@pytest.mark.parametrize('owner', [{'name': 'carol'},
                                   {'name': 'carol', 'domain': None}])
def test_an_owner_without_a_domain_is_in_the_default_one(api, store, owner):
    created = api.post_json('/v1/nodes', {
        'name': 'n', 'hardware_type': 'ipmi', 'owner': owner},
        headers=hdr('1.9')).json
    assert created['owner'] == {'name': 'carol', 'domain': 'default'}
    assert store.get(created['uuid'])['owner_domain'] == 'default'
    # 1.8 shows the whole owner: renaming it is no 409.
    assert patch(api, '1.8', [{'op': 'replace', 'path': '/owner',
                               'value': 'dave'}], uuid=created['uuid']
                 ).json['owner'] == 'dave'


def test_an_empty_domain_is_a_400_naming_it(api, store):
    before = store.list()
    response = api.post_json('/v1/nodes', {
        'name': 'n', 'hardware_type': 'ipmi',
        'owner': {'name': 'carol', 'domain': ''}},
        headers=hdr('1.9'), expect_errors=True)
    assert response.status_int == 400
    assert 'attribute domain' in response.json['errors'][0]['detail']
    for ops in ([{'op': 'replace', 'path': '/owner/domain', 'value': ''}],
                [{'op': 'replace', 'path': '/owner',
                  'value': {'name': 'x', 'domain': ''}}]):
        response = patch(api, '1.9', ops, status=400)
        assert response.json['errors'][0]['detail'] == (
            "Invalid value '' for field 'owner.domain': Value should have a "
            'minimum character requirement of 1')
    assert store.list() == before



@pytest.mark.parametrize('content_type', ['application/json',
                                          'application/json-patch+json'])
@pytest.mark.parametrize('body, words', [
    (b'[{"op": "replace", "path": "/name", "value": "a", "value": "b"}]',
     "the key 'value' twice"),
    (b'[{"op": "replace", "path": "/description", "value": NaN}]',
     'holds NaN'),
    (b'[' * 100_000 + b']' * 100_000, 'nested too deeply'),
])
def test_a_patch_json_loads_would_misread_is_a_400(api, store, content_type,
                                                   body, words):
    """Two values for one key are not silently the last one, and NaN
    (not JSON) is not stored to be sent back as invalid JSON."""
    before = store.get(SEED)
    answer = api.patch(f'/v1/nodes/{SEED}', body, expect_errors=True,
                       headers=hdr('1.9', **{'Content-Type': content_type}))
    assert answer.status_int == 400
    assert words in answer.json['errors'][0]['detail']
    assert store.get(SEED) == before


def test_a_created_node_with_nan_is_a_400(api):
    answer = api.post('/v1/nodes', b'{"name": "n", "hardware_type": "x", '
                      b'"description": NaN}', expect_errors=True,
                      headers=hdr('1.9', **{'Content-Type':
                                            'application/json'}))
    assert answer.status_int == 400
    assert answer.json['errors'][0]['code'] == 'microversion.invalid_body'


@pytest.mark.parametrize('version', VERSIONS)
def test_a_wrong_type_is_named_as_the_version_calls_the_field(api, version):
    # The body is converted up (driver -> hardware_type at 1.6) before WSME
    # reads it: its message must not name a field the version lacks.
    name = 'driver' if minor(version) < 6 else 'hardware_type'
    response = api.post_json('/v1/nodes', {'name': 'n', name: 5},
                             headers=hdr(version), status=400)
    detail = response.json['errors'][0]['detail']
    assert detail.startswith(f'Invalid input for field/attribute {name}.')
