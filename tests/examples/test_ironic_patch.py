"""The Ironic-style example (plain dicts and a Schema): patches the node
cannot take are the client's 400s (406s), never the server's 500."""

import json

import pytest
import webtest

from pecan_microversions.examples.ironic_style import make_app


def at(version):
    return {'X-OpenStack-Ironic-API-Version': version}


@pytest.fixture()
def api():
    return webtest.TestApp(make_app())


@pytest.fixture()
def uuid(api):
    return api.post_json('/v1/nodes', {
        'driver': 'ipmi', 'name': 'redfish', 'description': None,
        'properties': {'l': [1]}},
        headers=at('1.4')).json['uuid']


@pytest.mark.parametrize('patch, status, words', [
    ([{'op': 'remove', 'path': '/driver/0'}], 400, 'inside a string'),
    ([{'op': 'copy', 'from': '/properties/l/-', 'path': '/description'}],
     400, 'names no item'),
    ([{'op': 'copy', 'from': '/properties/l', 'path': '/properties/l/-'}]
     * 20, 400, 'copies more than'),
    # a value the version forbids, brought by copy instead of replace
    ([{'op': 'copy', 'from': '/name', 'path': '/power_interface'}], 406,
     "Value 'redfish' of field 'power_interface'"),
    ([{'op': 'copy', 'from': '/description', 'path': '/driver'}], 400,
     "Mandatory field 'driver'"),
])
def test_refused_patches_change_nothing(api, uuid, patch, status, words):
    before = api.get(f'/v1/nodes/{uuid}', headers=at('1.4')).json
    response = api.patch_json(f'/v1/nodes/{uuid}', patch, headers=at('1.4'),
                              expect_errors=True)
    assert response.status_int == status
    assert words in response.json['error_message']
    assert api.get(f'/v1/nodes/{uuid}', headers=at('1.4')).json == before


def test_a_copy_of_an_allowed_value_applies(api, uuid):
    api.patch_json(f'/v1/nodes/{uuid}', [
        {'op': 'add', 'path': '/description', 'value': 'fake'}],
        headers=at('1.4'))
    response = api.patch_json(f'/v1/nodes/{uuid}', [
        {'op': 'copy', 'from': '/description', 'path': '/power_interface'}],
        headers=at('1.4'))
    assert response.json['power_interface'] == 'fake'


@pytest.mark.parametrize('content_type', ['application/json',
                                          'application/json-patch+json'])
def test_a_patch_is_read_as_either_json_media_type(api, uuid, content_type):
    response = api.patch(f'/v1/nodes/{uuid}', json.dumps(
        [{'op': 'add', 'path': '/description', 'value': 'rack 4'}]),
        headers={**at('1.4'), 'Content-Type': content_type})
    assert response.json['description'] == 'rack 4'


@pytest.mark.parametrize('method, url', [('patch', '/v1/nodes/{uuid}'),
                                         ('post', '/v1/nodes')])
def test_a_json_body_not_in_utf_8_is_named_in_the_fault(api, uuid, method,
                                                        url):
    before = api.get('/v1/nodes', headers=at('1.4')).json
    response = getattr(api, method)(
        url.format(uuid=uuid), b'{"driver": "\xff"}', headers={
            **at('1.4'), 'Content-Type': 'application/json'},
        expect_errors=True)
    assert response.status_int == 400
    assert 'JSON body is not UTF-8' in response.json['error_message']
    assert api.get('/v1/nodes', headers=at('1.4')).json == before


@pytest.mark.parametrize('method, url', [('patch', '/v1/nodes/{uuid}'),
                                         ('post', '/v1/nodes')])
def test_another_media_type_is_a_415(api, uuid, method, url):
    before = api.get('/v1/nodes', headers=at('1.4')).json
    body = [{'op': 'add', 'path': '/description', 'value': 'x'}] if (
        method == 'patch') else {'driver': 'ipmi'}
    response = getattr(api, method)(
        url.format(uuid=uuid), json.dumps(body), headers={
            **at('1.4'), 'Content-Type': 'text/plain'}, expect_errors=True)
    assert response.status_int == 415
    assert 'not text/plain' in response.json['error_message']
    assert api.get('/v1/nodes', headers=at('1.4')).json == before


@pytest.mark.parametrize('content_type', ['application/json',
                                          'application/json-patch+json'])
@pytest.mark.parametrize('body, words', [
    (b'[' * 100_000 + b']' * 100_000, 'nested too deeply'),
    (b'[{"op": "add", "path": "/properties", "value": '
     + b'[' * 100_000 + b']' * 100_000 + b'}]', 'nested too deeply'),
    (b'[{"op": "replace", "path": "/name", "value": NaN}]', 'holds NaN'),
    (b'[{"op": "replace", "path": "/name", "path": "/driver", '
     b'"value": "x"}]', "the key 'path' twice"),
])
def test_a_body_json_loads_would_misread_is_a_400(api, uuid, content_type,
                                                  body, words):
    """Not a 500 (too deep), not NaN stored and sent back as invalid JSON,
    not the last of two values: a fault naming the problem."""
    before = api.get(f'/v1/nodes/{uuid}', headers=at('1.4')).json
    response = api.patch(f'/v1/nodes/{uuid}', body, expect_errors=True,
                         headers={**at('1.4'), 'Content-Type': content_type})
    assert response.status_int == 400
    assert words in json.loads(response.json['error_message'])['faultstring']
    assert api.get(f'/v1/nodes/{uuid}', headers=at('1.4')).json == before
