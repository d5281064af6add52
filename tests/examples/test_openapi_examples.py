"""The example services' OpenAPI documents against what they really serve.

Both examples have RestControllers at ``/`` and ``/v1``: the documents must
be valid and name exactly the URLs the apps answer, with the status codes,
headers and error bodies the apps really send.
"""

import json
import re

import pecan
import pytest
import webtest
from openapi_spec_validator import validate
from pecan import rest

from pecan_microversions.examples import ironic_style, watcher_style
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.routes import api_operations

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
        '/', '/v1', f'/v1/{collection}', f'/v1/{collection}/{{{item}}}']
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
