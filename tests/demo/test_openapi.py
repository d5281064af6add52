"""The demo's OpenAPI documents, fetched over HTTP from its real server.

Each version's document is validated with openapi-spec-validator, and its
schemas are checked against what the same server answers at that version:
the node a GET returns validates against the document's ``Node`` schema and
carries exactly its properties.
"""

import json
import threading
import urllib.error
import urllib.request

import jsonschema
import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.server import make_server
from pecan_microversions.demo.types import Node
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.testing import version_headers
from pecan_microversions.wsme.fields import visible_fields

VERSIONS = [str(v) for v in REGISTRY.versions]
NODE = '/v1/nodes/00000000-0000-0000-0000-000000000001'


def fetch(base, path, version=None):
    headers = {} if version is None else version_headers(REGISTRY, version)
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, json.load(exc)


def schema_of(document, name):
    """A JSON Schema for ``#/components/schemas/<name>`` of ``document``."""
    return {'$ref': f'#/components/schemas/{name}',
            'components': document['components']}


@pytest.fixture(scope='module')
def served():
    """Every version's document, as the live server answers it."""
    server = make_server(make_app(), '127.0.0.1', 0, access_log=False)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    host, port = server.bind_addr[:2]
    base = f'http://{host}:{port}'
    documents = {}
    try:
        for version in VERSIONS:
            status, headers, document = fetch(base, '/v1/openapi.json',
                                              version)
            assert status == 200
            assert headers['OpenStack-API-Version'] == f'fleet {version}'
            node = fetch(base, NODE, version)[2]
            listing = fetch(base, '/v1/nodes', version)[2]
            documents[version] = (document, node, listing)
        yield base, documents
    finally:
        server.stop()
        thread.join(timeout=10)


@pytest.mark.parametrize('version', VERSIONS)
def test_each_version_document_is_valid_openapi(served, version):
    base, documents = served
    document = documents[version][0]
    validate(document)
    assert document['openapi'] == '3.1.0'
    assert document['info']['version'] == version
    assert document['servers'] == [{'url': base}]


@pytest.mark.parametrize('version', VERSIONS)
def test_node_schema_describes_the_served_node(served, version):
    document, node, listing = served[1][version]
    schema = schema_of(document, 'Node')
    jsonschema.validate(node, schema)
    jsonschema.validate(listing, schema_of(document, 'NodeCollection'))
    properties = document['components']['schemas']['Node']['properties']
    assert set(properties) == set(node) == visible_fields(Node, version)


@pytest.mark.parametrize('version', VERSIONS)
def test_operations_follow_the_history(served, version):
    paths = served[1][version][0]['paths']
    at = tuple(int(x) for x in version.split('.'))
    assert ('patch' in paths['/v1/nodes/{uuid}']) == (at >= (1, 3))
    assert ('/v1/nodes/{uuid}/states' in paths) == (at <= (1, 6))
    post = paths['/v1/nodes']['post']['responses']
    assert ('201' if at >= (1, 5) else '200') in post
    assert ('200' if at >= (1, 5) else '201') not in post
    query = {p['name']: p for p in paths['/v1/nodes']['get']['parameters']
             if p.get('in') == 'query'}
    expected = set()
    if (1, 2) <= at <= (1, 5):
        expected.add('driver')
    if at >= (1, 2):
        expected |= {'sort_key', 'sort_dir'}
    if at >= (1, 4):
        expected.add('owner')
    if at >= (1, 6):
        expected.add('hardware_type')
    if at >= (1, 8):
        expected |= {'limit', 'marker'}
    assert set(query) == expected
    if 'sort_key' in query:
        assert query['sort_key']['schema']['enum'] == (
            ['created_at', 'name', 'owner'] if at >= (1, 4)
            else ['created_at', 'name'])


def test_without_a_header_the_default_version_is_described(live_demo):
    status, headers, document = fetch(live_demo, '/v1/openapi.json')
    assert status == 200
    assert document['info']['version'] == str(REGISTRY.default_version)
    status, _, document = fetch(live_demo, '/v1/openapi.json', 'latest')
    assert document['info']['version'] == str(REGISTRY.max_version)


def test_an_unsupported_version_gets_the_error_format(live_demo):
    request = urllib.request.Request(
        live_demo + '/v1/openapi.json',
        headers={'OpenStack-API-Version': 'fleet 9.9'})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    assert caught.value.code == 406
    (error,) = json.load(caught.value)['errors']
    assert error['code'] == 'microversion.not_acceptable'


def test_discovery_document_links_the_openapi_document(live_demo):
    links = fetch(live_demo, '/v1/')[2]['version']['links']
    assert {'rel': 'describedby', 'type': 'application/openapi+json',
            'href': live_demo + '/v1/openapi.json'} in links


def test_combined_document_carries_the_ranges():
    document = openapi_document(REGISTRY, make_app())
    validate(document)
    paths = document['paths']
    assert paths['/v1/nodes/{uuid}']['patch']['x-openstack'] == {
        'min-ver': '1.3'}
    assert paths['/v1/nodes/{uuid}/states']['get']['x-openstack'] == {
        'max-ver': '1.6'}  # from the first version: no min-ver
    assert 'x-openstack' not in paths['/v1/nodes']['post']  # 1.0 to 1.9
    assert 'x-openstack' not in paths['/v1/nodes']['get']
    query = {p['name']: p for p in paths['/v1/nodes']['get']['parameters']
             if p.get('in') == 'query'}
    assert query['driver']['x-openstack'] == {'min-ver': '1.2',
                                              'max-ver': '1.5'}
    assert query['sort_key']['schema']['x-openstack'] == {
        'values': {'owner': {'min-ver': '1.4'}}}
    responses = paths['/v1/nodes']['post']['responses']
    assert responses['200']['x-openstack'] == {'max-ver': '1.4'}
    assert responses['201']['x-openstack'] == {'min-ver': '1.5'}
    node = document['components']['schemas']['Node']
    assert node['properties']['description']['x-openstack'] == {
        'min-ver': '1.1'}
    assert node['properties']['driver']['x-openstack'] == {'max-ver': '1.5'}
    assert 'x-openstack' not in node['properties']['name']
    # a field that exists only at some versions is not required in the
    # combined document
    assert node['required'] == ['name']


def test_patch_and_post_are_described_as_served(api):
    document = openapi_document(REGISTRY, make_app(), '1.5')
    validate(document)
    patch = document['paths']['/v1/nodes/{uuid}']['patch']
    content = patch['requestBody']['content']
    assert sorted(content) == ['application/json',
                               'application/json-patch+json']
    operations = jsonschema.Draft202012Validator(
        {**content['application/json-patch+json']['schema'],
         'components': document['components']})
    headers = {'OpenStack-API-Version': 'fleet 1.5'}
    body = [{'op': 'replace', 'path': '/name', 'value': 'renamed'}]
    assert operations.is_valid(body)
    answered = patch['responses']['200']['content']['application/json']
    assert answered['schema'] == {'$ref': '#/components/schemas/Node'}
    for media_type in content:
        answer = api.patch(NODE, json.dumps(body), headers={
            **headers, 'Content-Type': media_type})
        assert str(answer.status_int) in patch['responses']
        # the patched node, as the version's Node schema describes it
        jsonschema.validate(answer.json, {**answered['schema'],
                                          'components': document['components']})
        assert set(answer.json) == set(
            document['components']['schemas']['Node']['properties'])
    refused = api.patch(NODE, json.dumps(body), headers={
        **headers, 'Content-Type': 'text/plain'}, expect_errors=True)
    assert refused.status_int == 415
    assert '415' in patch['responses']
    jsonschema.validate(refused.json, schema_of(document, 'Errors'))
    post = document['paths']['/v1/nodes']['post']['responses']['201']
    assert 'Location' in post['headers']
    created = api.post_json('/v1/nodes', {'name': 'n', 'driver': 'ipmi'},
                            headers=headers)
    assert created.status_int == 201
    assert created.headers['Location'] == created.json['links'][0]['href']


def test_the_409_of_an_old_version_patch_is_described(api):
    """Renaming at 1.8 an owner held in another domain is a 409: the
    document lists it, with the error body it has."""
    created = api.post_json('/v1/nodes', {
        'name': 'n', 'hardware_type': 'ipmi',
        'owner': {'name': 'o', 'domain': 'other'}},
        headers={'OpenStack-API-Version': 'fleet 1.9'})
    refused = api.patch(
        f'/v1/nodes/{created.json["uuid"]}',
        json.dumps([{'op': 'replace', 'path': '/owner', 'value': 'carol'}]),
        headers={'OpenStack-API-Version': 'fleet 1.8',
                 'Content-Type': 'application/json'}, expect_errors=True)
    assert refused.status_int == 409
    document = openapi_document(REGISTRY, make_app(), '1.8')
    assert '409' in document['paths']['/v1/nodes/{uuid}']['patch'][
        'responses']
    jsonschema.validate(refused.json, schema_of(document, 'Errors'))


@pytest.mark.parametrize('version', ['1.3', '1.9'])
def test_patch_operations_are_described_as_the_service_reads_them(version):
    """RFC 6902: members an operation does not use are ignored; ``value``
    is required by add, replace and test, a ``from`` string by copy and
    move.  The schema accepts exactly the operations the service does."""
    document = openapi_document(REGISTRY, make_app(), version)
    validate(document)
    content = document['paths']['/v1/nodes/{uuid}']['patch']['requestBody'][
        'content']
    for media_type in content:
        schema = jsonschema.Draft202012Validator(
            {**content[media_type]['schema'],
             'components': document['components']})
        for operation in (
                {'op': 'replace', 'path': '/name', 'value': 'x', 'extra': 1},
                {'op': 'replace', 'path': '/name', 'value': 'x', 'from': None},
                {'op': 'test', 'path': '/name', 'value': 'node-0'},
                {'op': 'copy', 'from': '/name', 'path': '/description'},
                {'op': 'remove', 'path': '/description', 'value': 1},
                {'op': 'replace', 'path': '/name'},
                {'op': 'add', 'path': '/description'},
                {'op': 'test', 'path': '/name'},
                {'op': 'copy', 'path': '/description'},
                {'op': 'move', 'from': None, 'path': '/description'},
                {'op': 'explode', 'path': '/name'}):
            service = webtest.TestApp(make_app())  # node-0 untouched
            answer = service.patch(NODE, json.dumps([operation]), headers={
                **version_headers(REGISTRY, version),
                'Content-Type': media_type}, expect_errors=True)
            assert schema.is_valid([operation]) == (
                answer.status_int == 200), (operation, answer.body)


@pytest.mark.parametrize('version', ['1.3', None])
def test_the_old_name_of_the_patch_operation_schema_is_kept(version):
    """Documents named the demo's patch operations ``JsonPatchOperation``;
    now ``PatchOperation``.  Clients may refer to the old name: for one
    release it is a deprecated reference to the new one."""
    document = openapi_document(REGISTRY, make_app(), version)
    validate(document)
    schemas = document['components']['schemas']
    assert schemas['JsonPatchOperation'] == {
        '$ref': '#/components/schemas/PatchOperation', 'deprecated': True,
        'description': 'The name of PatchOperation before this release, '
                       'kept for one release: refer to PatchOperation.'}
    for name in ('JsonPatchOperation', 'PatchOperation'):
        schema = jsonschema.Draft202012Validator(
            {'$ref': f'#/components/schemas/{name}',
             'components': document['components']})
        assert schema.is_valid({'op': 'remove', 'path': '/a', 'extra': 1})
        assert not schema.is_valid({'op': 'add', 'path': '/a'})


def test_no_old_name_where_the_patch_operations_do_not_exist():
    document = openapi_document(REGISTRY, make_app(), '1.2')  # no PATCH
    assert not {'JsonPatchOperation', 'PatchOperation'} & set(
        document['components']['schemas'])
