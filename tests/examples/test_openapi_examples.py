"""The example services' OpenAPI documents against what they really serve.

Both examples have RestControllers at ``/`` and ``/v1``: the documents must
be valid and name exactly the URLs the apps answer, with the status codes,
headers and error bodies the apps really send.
"""

import json
import re

import jsonschema
import pecan
import pytest
import webtest
from openapi_spec_validator import validate
from pecan import rest

from pecan_microversions import MicroversionHook, VersionRegistry
from pecan_microversions.core.rendering import api_wg_errors, wsme_fault
from pecan_microversions.examples import ironic_style, watcher_style
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.routes import api_operations

REGISTRY = VersionRegistry('demo', [('1.0', 'Initial version.')])
EXAMPLES = {
    'ironic_style': (ironic_style, 'nodes', {'driver': 'fake'},
                     lambda v: {'X-OpenStack-Ironic-API-Version': v}),
    'watcher_style': (watcher_style, 'audits',
                      {'audit_type': 'ONESHOT', 'goal': 'g'},
                      lambda v: {'OpenStack-API-Version': f'infra-optim {v}'}),
}


def _created(client, collection, body, headers):
    response = client.post(f'/v1/{collection}', json.dumps(body),
                           headers={**headers,
                                    'Content-Type': 'application/json'})
    return response.json['uuid']


@pytest.mark.parametrize('name', sorted(EXAMPLES))
def test_documented_paths_are_the_served_ones(name):
    module, collection, body, headers_of = EXAMPLES[name]
    app = module.make_app()
    top = str(module.REGISTRY.max_version)
    for version in [None, *module.REGISTRY.versions]:
        validate(openapi_document(module.REGISTRY, app, version))
    document = openapi_document(module.REGISTRY, app, top)
    item = 'ident' if name == 'ironic_style' else 'uuid'
    assert sorted(document['paths']) == [
        '/', '/v1', f'/v1/{collection}', f'/v1/{collection}/detail',
        f'/v1/{collection}/{{{item}}}']
    client = webtest.TestApp(app)
    headers = headers_of(top)
    ident = _created(client, collection, body, headers)
    for template, operations in document['paths'].items():
        names = [p['name'] for p in operations['get']['parameters']
                 if p.get('in') == 'path']
        assert len(names) == len(set(names)) == template.count('{')
        url = re.sub(r'\{[^}]+\}', ident, template)
        assert client.get(url, headers=headers).status_int == 200


class _Leaf(rest.RestController):
    @pecan.expose('json')
    def get_all(self, thing_id, id):
        return {'thing': thing_id, 'id': id}


class _Parts(rest.RestController):
    leaves = _Leaf()

    @pecan.expose('json')
    def get_one(self, thing, id):  # the same name as its parent's id
        return {'thing': thing, 'part': id}


class _Things(rest.RestController):
    parts = _Parts()

    @pecan.expose('json')
    def get_one(self, id):
        return {'thing': id}


class _NoItem(rest.RestController):
    @pecan.expose('json')
    def post(self):
        return {}


class _Under(rest.RestController):
    @pecan.expose('json')
    def get_all(self):
        return {'under': True}


class _NoItemParent(rest.RestController):
    under = _Under()

    @pecan.expose('json')
    def delete(self, ident):
        return {}


class _Root(rest.RestController):
    things = _Things()
    plain = _NoItemParent()

    @pecan.expose('json')
    def get(self):
        return {}


def test_rest_sub_controllers_are_walked_as_pecan_routes():
    paths = {o.path: o.path_params
             for o in api_operations(pecan.make_app(_Root()))}
    assert paths == {
        '/': (),
        '/plain/{ident}': ('ident',),
        '/plain/under': (),  # no get_one: reached by name, not by id
        '/things/{id}': ('id',),
        '/things/{id}/parts/{id_2}': ('id', 'id_2'),
        '/things/{id}/parts/{id_2}/leaves': ('id', 'id_2'),
    }
    client = webtest.TestApp(pecan.make_app(_Root()))
    assert client.get('/plain/under').json == {'under': True}
    assert client.get('/things/a/parts/b/leaves').json == {'thing': 'a',
                                                           'id': 'b'}


def _validator(document, schema):
    return jsonschema.Draft202012Validator(
        {**schema, 'components': document['components']})


def _check_error(document, response):
    """The error body matches the documented error schema, the text of an
    ``error_message`` envelope its ``contentSchema``."""
    assert str(response.status_int) in document['responses']
    errors = document['components']['schemas']['Errors']
    _validator(document, {'$ref': '#/components/schemas/Errors'}
               ).validate(response.json)
    inner = errors['properties']['error_message']['contentSchema']
    _validator(document, inner).validate(
        json.loads(response.json['error_message']))


@pytest.mark.parametrize('name', sorted(EXAMPLES))
def test_documented_statuses_and_errors_are_the_served_ones(name):
    module, collection, body, headers_of = EXAMPLES[name]
    app = module.make_app()
    client = webtest.TestApp(app)
    top = str(module.REGISTRY.max_version)
    document = openapi_document(module.REGISTRY, app, top)
    item = next(p for p in document['paths'] if p.count('{') == 1)
    headers = headers_of(top)
    posted = client.post(f'/v1/{collection}', json.dumps(body),
                         headers={**headers,
                                  'Content-Type': 'application/json'})
    post = document['paths'][f'/v1/{collection}']['post']['responses']
    assert [s for s in post if s < '400'] == [str(posted.status_int)]
    deleted = client.delete(f'/v1/{collection}/{posted.json["uuid"]}',
                            headers=headers)
    delete = document['paths'][item]['delete']['responses']
    assert deleted.status_int == 204 and deleted.body == b''
    assert [s for s in delete if s < '400'] == ['204']
    assert 'content' not in delete['204']
    missing = client.get(f'/v1/{collection}/nope', headers=headers,
                         expect_errors=True)  # the application's error
    assert missing.status_int == 404
    _check_error({**document['paths'][item]['get'],
                  'components': document['components']}, missing)
    low = client.post(  # the library's error: a field below its version
        f'/v1/{collection}', json.dumps(
            {**body, 'owner' if name == 'ironic_style' else 'strategy': 'x'}),
        headers={**headers_of('1.3'), 'Content-Type': 'application/json'},
        expect_errors=True)
    assert low.status_int == 406
    _check_error({**document['paths'][f'/v1/{collection}']['post'],
                  'components': document['components']}, low)
    served = client.get('/v1', headers=headers)
    assert list(document['paths']['/v1']['get']['responses'])[0] == str(
        served.status_int)


def _plain_app(renderer):
    class Things:
        @pecan.expose('json')
        def index(self):
            return {}

        @pecan.expose('json', generic=True)
        def create(self):
            return {}

        @create.when(method='POST')
        def create_post(self):
            pecan.response.status = 202
            return {}

    class Root:
        things = Things()

    return pecan.make_app(Root(), hooks=[MicroversionHook(
        REGISTRY, error_renderer=renderer)])


def test_plain_methods_promise_no_status_and_accept_any_json_body():
    document = openapi_document(REGISTRY, _plain_app(api_wg_errors), '1.0')
    validate(document)
    post = document['paths']['/things/create']['post']
    assert post['requestBody'] == {'required': False, 'content': {
        'application/json': {'schema': {}}}}
    assert [s for s in post['responses'] if not s.startswith('4')] == ['2XX']
    served = webtest.TestApp(_plain_app(api_wg_errors)).post_json(
        '/things/create', {'any': ['json']})
    assert served.status_int == 202  # not the 200 a document would claim
    assert 'requestBody' not in document['paths']['/things/']['get']


def test_error_schema_follows_the_hooks_renderer():
    def own(report):
        return {'oops': report.detail}

    for renderer, key in ((api_wg_errors, 'errors'),
                          (wsme_fault, 'faultstring'), (own, 'oops')):
        app = _plain_app(renderer)
        document = openapi_document(REGISTRY, app, '1.0')
        validate(document)
        refused = webtest.TestApp(app).get(
            '/things/', headers={'OpenStack-API-Version': 'demo 9.9'},
            expect_errors=True)
        assert refused.status_int == 406 and key in refused.json
        schema = document['components']['schemas']['Errors']
        assert schema == {'type': 'object', 'description': (
            "An error body written by the service's own renderer.")} if (
            renderer is own) else key in schema['required']
        _validator(document, schema).validate(refused.json)
    explicit = openapi_document(REGISTRY, app, '1.0',
                                error_body={'type': 'object'})
    assert explicit['components']['schemas']['Errors'] == {'type': 'object'}
