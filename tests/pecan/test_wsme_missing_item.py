"""An item method exposed with WSME's own ``wsexpose``, routed from the
collection's URL (``PUT /things``), is the collection's 405.

WSME catches the missing identifier itself and answers its 400 ``Missing
argument``: no ``TypeError`` reaches the hook, which recognises that fault
(for the argument the URL's next segment fills only) in its place.
"""

import json

import pecan
import pytest
import webtest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    api_version,
)

REGISTRY = VersionRegistry('plain', [('1.0', 'a'), ('1.1', 'b')])


class Things(VersionedRestController):
    @wsexpose([wtypes.text])
    def get_all(self):
        return []

    @wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def get_one(self, ident, fields):
        return ident

    @api_version(REGISTRY, '1.0', '1.0')
    @wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
    def put(self, ident, body):
        return f'{ident}={body}'

    @wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def patch(self, ident, name):
        return f'{ident}:{name}'

    @wsexpose(None, wtypes.text, status_code=204)
    def delete(self, ident):
        return None


class Parts(VersionedRestController):
    @wsexpose([wtypes.text], wtypes.text)
    def get_all(self, owner):
        return [owner]

    @wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def delete(self, owner, part):
        return f'{owner}/{part}'


class Owners(VersionedRestController):
    parts = Parts()

    @wsexpose(wtypes.text, wtypes.text)
    def get_one(self, owner):
        return owner


class Root:
    things = Things()
    owners = Owners()


def _app(app_errors='render'):
    return webtest.TestApp(pecan.make_app(Root(), hooks=[
        MicroversionHook(REGISTRY, app_errors=app_errors)]))


def _headers(version='1.0'):
    return {'OpenStack-API-Version': f'plain {version}'}


@pytest.mark.parametrize('app_errors', ['render', 'keep'])
@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('method', ['PUT', 'PATCH', 'DELETE'])
def test_an_item_method_on_the_collection_is_its_405(method, version,
                                                     app_errors):
    # PUT (1.0 only) was WSME's 400 ``Missing argument: "ident"`` at 1.0,
    # the dispatcher's 405 at 1.1.
    refused = _app(app_errors).request('/things', method=method,
                                       headers=_headers(version),
                                       expect_errors=True)
    assert refused.status_int == 405, refused.body
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert refused.json['errors'][0]['detail'] == (
        f'{method} /things is not allowed: {method} needs an item of the '
        'collection in the URL.')


def test_wsmes_xml_fault_is_recognised_too():
    refused = _app().delete('/things', expect_errors=True, headers={
        **_headers(), 'Accept': 'application/xml'})
    assert refused.status_int == 405, refused.body
    assert refused.headers['Allow'] == 'GET, HEAD'


def test_a_nested_item_method_on_its_collection_is_its_405():
    app = _app()
    refused = app.delete('/owners/o1/parts', headers=_headers(),
                         expect_errors=True)
    assert refused.status_int == 405, refused.body
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert app.delete('/owners/o1/parts/p1', headers=_headers()).json == (
        'o1/p1')


@pytest.mark.parametrize('request_args, missing', [
    # An argument other than the item's is left out: the client's 400.
    ({'url': '/things?ident=x', 'method': 'PATCH'}, 'name'),
    ({'url': '/things', 'method': 'PATCH', 'content_type':
      'application/json', 'body': json.dumps({'ident': 'x'}).encode()},
     'name'),
    ({'url': '/things/t1', 'method': 'PATCH'}, 'name'),
    # The item's URL, a query argument left out.
    ({'url': '/things/t1', 'method': 'GET'}, 'fields'),
])
def test_another_missing_argument_stays_wsmes_400(request_args, missing):
    request_args = dict(request_args)
    url = request_args.pop('url')
    refused = _app().request(url, headers=_headers(), expect_errors=True,
                             **request_args)
    assert refused.status_int == 400, refused.body
    assert 'Allow' not in refused.headers
    assert refused.json['errors'][0]['detail'] == (
        f'Missing argument: "{missing}"')


def test_the_item_given_by_the_query_or_the_url_is_served():
    app = _app()
    assert app.patch('/things?ident=x&name=n', headers=_headers()).json == (
        'x:n')
    assert app.put_json('/things/t1', 'v', headers=_headers()).json == 't1=v'
    assert app.get('/things/t1?fields=a', headers=_headers()).json == 't1'
