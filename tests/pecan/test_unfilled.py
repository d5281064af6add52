"""A request Pecan routes to a method its URL does not fill is a 4xx.

Pecan routes ``PATCH``, ``PUT`` and ``DELETE`` on a RestController's own
URL to the item's method without its identifier, and gives a plain exposed
method only what the path and query string hold; the call then raises
``TypeError``, which Pecan answers 500.
"""

import functools
import json
import logging

import pecan
import pytest
import webtest
from oslo_config import cfg
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import (
    Computed,
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    api_version,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.demo.app import make_app

REGISTRY = VersionRegistry('unfilled', [(f'1.{i}', f'Version {i}.')
                                        for i in range(9)])
HEADERS = {'OpenStack-API-Version': 'unfilled 1.8'}


class Things(rest.RestController):
    _custom_actions = {'reboot': ['POST']}

    @pecan.expose('json')
    def get_all(self):
        return []

    @pecan.expose('json')
    def put(self, uuid):
        return {'put': uuid}

    @pecan.expose('json')
    def delete(self, uuid):
        return {'deleted': uuid}

    @api_version(REGISTRY, '1.3')
    @pecan.expose('json')
    def patch(self, uuid):
        return {'patched': uuid}

    @pecan.expose('json')
    def reboot(self, how):
        return {'reboot': how}


def with_context(function):
    """A service's decorator passing a first argument the URL does not."""
    @functools.wraps(function)
    def wrapper(self, *args, **kwargs):
        return function(self, 'context', *args, **kwargs)
    return wrapper


class Root:
    things = Things()

    @pecan.expose('json')
    @with_context
    def show(self, context, name):
        if name == 'bug':
            return len(1)  # the method's own bug, its arguments all given
        return {'context': context, 'name': name}

    @pecan.expose('json')
    def search(self, text, page, size):
        return {'text': text, 'page': page, 'size': size}

    @pecan.expose('json')
    def keyword_only(self, *, size):  # Pecan never passes ``size``
        return {}

    @pecan.expose('json')
    def broken(self):
        return len(1)  # a TypeError inside the method: a server bug


def _app(app_errors='render', root=None):
    """A test client of ``root`` (a :class:`Root`) under the hook."""
    conf = cfg.ConfigOpts()
    conf([], project='unfilled-test', default_config_files=[])
    return webtest.TestApp(pecan.make_app(
        Root() if root is None else root,
        hooks=[MicroversionHook(REGISTRY, conf=conf,
                                app_errors=app_errors)]))


def _error(response):
    (error,) = json.loads(response.body)['errors']
    return error


@pytest.mark.parametrize('app_errors', ['render', 'keep'])
@pytest.mark.parametrize('method', ['PUT', 'PATCH', 'DELETE'])
def test_item_method_on_the_collection_is_a_405(method, app_errors):
    response = _app(app_errors).request('/things', method=method,
                                        headers=HEADERS, expect_errors=True)
    assert response.status_int == 405
    assert response.headers['Allow'] == 'GET'  # reboot: not the URL's
    assert response.headers['OpenStack-API-Version'] == 'unfilled 1.8'
    error = _error(response)
    assert error['code'] == 'microversion.method_not_allowed'
    assert error['detail'] == (f'{method} /things is not allowed: {method} '
                               'needs an item of the collection in the URL.')


def test_the_item_url_still_reaches_the_methods():
    app = _app()
    assert app.put('/things/7', headers=HEADERS).json == {'put': '7'}
    assert app.patch('/things/7', headers=HEADERS).json == {'patched': '7'}
    assert app.delete('/things/7', headers=HEADERS).json == {'deleted': '7'}


@pytest.mark.parametrize('url, detail', [
    ('/search', "GET /search is missing the arguments 'text', 'page' and "
                "'size'."),
    ('/search?text=a', "GET /search is missing the arguments 'page' and "
                       "'size'."),
    ('/search/a/2', "GET /search/a/2 is missing the argument 'size'."),
    ('/things/reboot', "GET /things/reboot is missing the argument 'how'."),
])
def test_a_missing_argument_is_a_400_naming_it(url, detail):
    method = 'POST' if 'reboot' in url else 'GET'
    response = _app().request(url, method=method, headers=HEADERS,
                              expect_errors=True)
    assert response.status_int == 400
    error = _error(response)
    assert error['code'] == 'microversion.missing_argument'
    assert error['detail'] == detail.replace('GET', method)
    assert response.headers['OpenStack-API-Version'] == 'unfilled 1.8'


@pytest.mark.parametrize('url', ['/search', '/search/a/2'])
def test_head_with_a_missing_argument_sends_the_get_answers_headers(url):
    # The plain method answers HEAD as it answers GET: the same 400, whose
    # detail (and so Content-Length) names GET.
    app = _app()
    got = app.get(url, headers=HEADERS, status=400)
    head = app.head(url, headers=HEADERS, status=400)
    assert _error(got)['detail'].startswith(f'GET {url} is missing ')
    assert head.body == b''
    assert dict(head.headers) == dict(got.headers)


def test_filled_arguments_reach_the_method():
    app = _app()
    assert app.get('/show/x', headers=HEADERS).json == {
        'context': 'context', 'name': 'x'}
    assert app.get('/search/a/2?size=5', headers=HEADERS).json == {
        'text': 'a', 'page': '2', 'size': '5'}
    assert app.post('/things/reboot?how=soft', headers=HEADERS).json == {
        'reboot': 'soft'}


@pytest.mark.parametrize('url', ['/broken', '/keyword_only?size=1',
                                 '/show/bug'])
def test_the_methods_own_type_errors_stay_a_500(url, caplog):
    with caplog.at_level(logging.ERROR):
        response = _app().get(url, headers=HEADERS, expect_errors=True)
    assert response.status_int == 500
    assert _error(response)['code'] == 'http.internal_server_error'
    assert f'Unexpected error serving GET {url.split("?")[0]}' in caplog.text


@pytest.mark.parametrize('version', ['1.0', '1.3', '1.8', '1.9'])
def test_demo_patch_on_the_node_collection(version):
    response = webtest.TestApp(make_app()).patch(
        '/v1/nodes', '[]', headers={
            'OpenStack-API-Version': f'fleet {version}',
            'Content-Type': 'application/json-patch+json'},
        expect_errors=True)
    assert response.status_int == 405
    assert response.headers['Allow'] == 'GET, HEAD, POST'
    assert response.headers['OpenStack-API-Version'] == f'fleet {version}'
    assert _error(response)['code'] == 'microversion.method_not_allowed'


class Generic:
    @pecan.expose(generic=True, template='json')
    def index(self):
        return {}

    @index.when(method='POST', template='json')
    def index_post(self, name):
        return {'name': name}

    @index.when(method='PUT', template='json')
    def index_put(self):
        return len(1)  # the handler's own bug


def test_generic_handlers_are_judged_by_their_own_arguments():
    app = _app(root=Generic())
    response = app.post('/', headers=HEADERS, expect_errors=True)
    assert response.status_int == 400
    assert _error(response)['detail'] == (
        "POST / is missing the argument 'name'.")
    assert app.post('/?name=x', headers=HEADERS).json == {'name': 'x'}
    assert app.put('/', headers=HEADERS, expect_errors=True).status_int == 500


# -- TypeErrors that are the server's, whatever the routed arguments -------

@versioned_resource(REGISTRY, 'unfilled_gadget')
class Gadget(wtypes.Base):
    name = wtypes.text
    # Older versions compute ``size``; len(None) is a bug of the service.
    size = versioned(int, max_version='1.2', readonly=True,
                     changes=[Computed(lambda g: len(g.get('name')))])


def post_processed(function):
    """A decorator with a bug in what it does after the method."""
    @functools.wraps(function)
    def wrapper(self, *args, **kwargs):
        result = function(self, 'context', *args, **kwargs)
        return dict(result, size=len(result['n']))
    return wrapper


class Gadgets(rest.RestController):
    @versioned_wsexpose(Gadget, body=Gadget, status_code=201)
    def post(self, gadget):
        return Gadget(name=None)  # rendered at 1.0: size fails

    @pecan.expose('json')
    @with_context
    def get_one(self, context, uuid):
        return {'uuid': uuid, 'tags': {1, 2}}  # a set: rendering fails

    @pecan.expose('json')
    @post_processed
    def put(self, context, uuid):
        return {'n': 5}

    @api_version(REGISTRY, '1.0', '1.1')
    @pecan.expose('json')
    @with_context
    def delete(self, context, uuid):
        return {'deleted': uuid}

    @delete.version('1.2')  # type: ignore[no-redef]
    @pecan.expose('json')
    @with_context
    def delete(self, context, uuid):  # noqa: F811
        return len(uuid, 1)  # the second implementation's own bug


class OnlyDelete(rest.RestController):
    @pecan.expose('json')
    def delete(self, uuid):
        return {}


class Parts(rest.RestController):
    """``/owners/<owner>/parts``: a nested collection."""

    @pecan.expose('json')
    def get_all(self, owner):
        return []

    @pecan.expose('json')
    def put(self, owner, part):
        return {'owner': owner, 'part': part}


class Owners(rest.RestController):
    parts = Parts()

    @pecan.expose('json')
    def get_one(self, owner):
        return {}


class ServerBugs:
    gadgets = Gadgets()
    only = OnlyDelete()
    owners = Owners()


def _server_bugs_app():
    return _app(root=ServerBugs())


@pytest.mark.parametrize('method, url, version, body', [
    ('POST', '/gadgets', '1.0', b'{"name": "g"}'),  # in the rendering
    ('GET', '/gadgets/1', '1.8', None),             # the same, JSON
    ('PUT', '/gadgets/1', '1.8', None),             # in the decorator
    ('DELETE', '/gadgets/1', '1.3', None),          # the 2nd implementation
])
def test_a_type_error_after_the_call_bound_stays_a_500(
        method, url, version, body, caplog):
    # Each wrapper or method here takes other arguments than Pecan routes
    # (a body, a context a decorator adds): the call itself bound, so the
    # TypeError is the server's.
    kwargs = {} if body is None else {'body': body,
                                      'content_type': 'application/json'}
    with caplog.at_level(logging.ERROR):
        response = _server_bugs_app().request(
            url, method=method, expect_errors=True,
            headers={'OpenStack-API-Version': f'unfilled {version}'},
            **kwargs)
    assert response.status_int == 500, response.body
    assert _error(response)['code'] == 'http.internal_server_error'
    assert f'Unexpected error serving {method} {url}' in caplog.text


def test_the_first_implementation_still_answers():
    response = _server_bugs_app().delete(
        '/gadgets/1', headers={'OpenStack-API-Version': 'unfilled 1.0'})
    assert response.json == {'deleted': '1'}


def test_a_collection_answering_nothing_is_a_404():
    """Not a 405: one must list what the URL answers (an empty Allow
    would say "nothing", no Allow breaks RFC 9110)."""
    response = _server_bugs_app().delete('/only', headers=HEADERS,
                                         expect_errors=True)
    assert response.status_int == 404
    assert 'Allow' not in response.headers
    assert _error(response)['detail'] == 'DELETE /only names no resource.'


def test_a_nested_collection_is_a_405_too():
    app = _server_bugs_app()
    response = app.put('/owners/1/parts', headers=HEADERS,
                       expect_errors=True)
    assert response.status_int == 405
    assert response.headers['Allow'] == 'GET'
    assert _error(response)['code'] == 'microversion.method_not_allowed'
    assert app.put('/owners/1/parts/2', headers=HEADERS).json == {
        'owner': '1', 'part': '2'}


class _Forced(VersionedRestController):
    """``put`` takes the item from the path and ``force`` from the query."""

    @pecan.expose('json')
    def get_all(self):
        return {}

    @pecan.expose('json')
    def get_one(self, ident):
        return {'id': ident}

    @api_version(REGISTRY, '1.2')
    @pecan.expose('json')
    def put(self, ident, force):
        return {'id': ident, 'force': force}


def test_a_missing_query_argument_of_an_item_method_is_not_a_missing_item():
    """``PUT /things/t1`` without ``?force``: the URL has its item, so the
    client left out ``force`` (400), not the item (the collection's
    405); out of the method's versions it is the version's 404."""
    class Root:
        things = _Forced()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)]))
    missing = app.put('/things/t1', headers=HEADERS, expect_errors=True)
    assert missing.status_int == 400
    assert _error(missing)['code'] == 'microversion.missing_argument'
    assert "'force'" in _error(missing)['detail']
    assert app.put('/things/t1?force=1', headers=HEADERS).json == {
        'id': 't1', 'force': '1'}
    early = app.put('/things/t1?force=1', expect_errors=True,
                    headers={'OpenStack-API-Version': 'unfilled 1.1'})
    assert early.status_int == 404
    assert 'exists in versions 1.2 and later' in _error(early)['detail']
    collection = app.put('/things', headers=HEADERS, expect_errors=True)
    assert collection.status_int == 405
    assert collection.headers['Allow'] == 'GET, HEAD'


class _Exposed(VersionedRestController):
    """Item methods exposed with ``versioned_wsexpose``: WSME, not Python,
    notices the missing identifier (its 400 ``Missing argument``)."""

    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def get_one(self, ident, fields):
        return ident

    @versioned_wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
    def put(self, ident, text):
        return f'{ident}={text}'

    @api_version(REGISTRY, '1.2')
    @versioned_wsexpose(None, wtypes.text, status_code=204)
    def delete(self, ident):
        return None


@pytest.mark.parametrize('app_errors', ['render', 'keep'])
@pytest.mark.parametrize('method', ['PUT', 'DELETE'])
def test_a_wsme_item_method_on_the_collection_is_a_405(method, app_errors):
    class Root:
        things = _Exposed()

    app = _app(app_errors, Root())
    sent = {'body': b'"x"', 'content_type': 'application/json'} if (
        method == 'PUT') else {}  # a body of the PUT's, not its arguments
    refused = app.request('/things', method=method, headers=HEADERS,
                          expect_errors=True, **sent)
    assert refused.status_int == 405
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert _error(refused)['detail'] == (
        f'{method} /things is not allowed: {method} needs an item of the '
        'collection in the URL.')
    # The item's URL still reaches them; a query argument the item's URL
    # leaves out is the client's 400, not a missing item.
    assert app.put_json('/things/t1', 'x', headers=HEADERS).json == 't1=x'
    assert app.get('/things/t1?fields=a', headers=HEADERS).json == 't1'
    missing = app.get('/things/t1', headers=HEADERS, expect_errors=True)
    assert missing.status_int == 400 and 'fields' in missing.text
    early = app.delete('/things', expect_errors=True,
                       headers={'OpenStack-API-Version': 'unfilled 1.1'})
    assert early.status_int == 405 and early.headers['Allow'] == 'GET, HEAD'


class _TextBodies(VersionedRestController):
    """Plain ``wsexpose`` methods taking a text body: Pecan passes a path
    segment too many as the next argument, the body's."""

    _custom_actions = {'rename': ['POST']}

    @wsexpose([wtypes.text])
    def get_all(self):
        return []

    @api_version(REGISTRY, '1.2')
    @wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
    def put(self, ident, text):
        return f'put {ident}={text}'

    @wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
    def patch(self, ident, text):
        return f'patch {ident}={text}'

    @wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
    def rename(self, ident, text):
        return f'rename {ident}={text}'


@pytest.mark.parametrize('method, url, status, allow', [
    ('PUT', '/things/t1/rename', 405, 'POST'),
    ('PUT', '/things/t1/other', 404, None),
    ('PATCH', '/things/t1/other', 404, None),
])
def test_a_path_segment_never_reaches_a_plain_wsexpose_body(method, url,
                                                            status, allow):
    # Before, the segment filled the body argument and WSME then took the
    # body's: PUT /things/t1/other wrote as PUT /things/t1 did.
    class Root:
        things = _TextBodies()

    app = _app('render', Root())
    refused = app.request(url, method=method, headers=HEADERS,
                          body=b'"new"', content_type='application/json',
                          expect_errors=True)
    assert refused.status_int == status, refused.body
    assert refused.headers.get('Allow') == allow
    assert _error(refused)['detail'].startswith(f'{method} {url} ')
    for method, url, answer in [('PUT', '/things/t1', 'put t1=new'),
                                ('PUT', '/things/t1/', 'put t1=new'),
                                ('PATCH', '/things/t1', 'patch t1=new'),
                                ('PATCH', '/things/t1/', 'patch t1=new'),
                                ('POST', '/things/t1/rename', 'rename t1=new')]:
        assert app.request(url, method=method, headers=HEADERS, body=b'"new"',
                           content_type='application/json').json == answer


class _Named(VersionedRestController):
    """``put`` takes the item's identifier and a name, both required."""

    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text)
    def put(self, ident, name):
        return f'{ident}:{name}'


def _named_app():
    class Root:
        things = _Named()

    return _app('render', Root())


def test_arguments_a_body_gives_are_not_a_missing_item():
    # WSME reads a method's arguments from an XML (or text/javascript)
    # body too, which Pecan does not pass: the URL may lack the item.
    app = _named_app()
    assert app.put('/things', headers=HEADERS, content_type='text/xml',
                   params='<parameters><ident>x</ident><name>n</name>'
                          '</parameters>').json == 'x:n'
    assert app.put('/things', headers=HEADERS, content_type='text/javascript',
                   params='{"ident": "x", "name": "n"}').json == 'x:n'
    refused = app.put('/things', headers=HEADERS, expect_errors=True)
    assert refused.status_int == 405


@pytest.mark.parametrize('body', [{}, {'name': 'n'}])
def test_a_json_body_that_names_no_item_is_the_collections_405(body):
    app = _named_app()
    refused = app.put('/things', json.dumps(body), headers=HEADERS,
                      content_type='application/json', expect_errors=True)
    assert refused.status_int == 405
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert app.put('/things', json.dumps({'name': 'n', **body, 'ident': 'x'}),
                   headers=HEADERS, content_type='application/json'
                   ).json == 'x:n'


@pytest.mark.parametrize('url, body', [
    ('/things', {'ident': 'x'}), ('/things?ident=x', None)])
def test_an_item_named_but_another_argument_missing_is_a_400(url, body):
    # Pecan passes a named identifier positionally too: the client gave
    # the item and left out another argument, not the item.
    sent = {} if body is None else {'params': json.dumps(body),
                                    'content_type': 'application/json'}
    refused = _named_app().put(url, headers=HEADERS, expect_errors=True,
                               **sent)
    assert refused.status_int == 400, refused.body
    assert 'name' in _error(refused)['detail']


class _Parts(VersionedRestController):
    """``/owners/<owner_id>/parts``: the parent's id comes from the URL."""

    @versioned_wsexpose([wtypes.text], wtypes.text)
    def get_all(self, owner_id):
        return [owner_id]

    @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text, wtypes.text)
    def put(self, owner_id, part_id, name=None):
        return f'{owner_id}/{part_id}:{name}'


class _Owners(VersionedRestController):
    parts = _Parts()

    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text)
    def get_one(self, owner_id):
        return owner_id


@pytest.mark.parametrize('url, body', [
    ('/owners/o1/parts', None), ('/owners/o1/parts?owner_id=o1', None),
    ('/owners/o1/parts', {'owner_id': 'o1', 'name': 'n'})])
def test_a_parents_id_named_again_is_no_item(url, body):
    # The parent's id is Pecan's routing argument, from the URL: naming it
    # again in the query or body does not give the part's identifier.
    class Root:
        owners = _Owners()

    app = _app('render', Root())
    sent = {} if body is None else {'params': json.dumps(body),
                                    'content_type': 'application/json'}
    refused = app.put(url, headers=HEADERS, expect_errors=True, **sent)
    assert refused.status_int == 405, refused.body
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert app.put('/owners/o1/parts/p1', headers=HEADERS).json == 'o1/p1:None'


def test_a_form_body_that_names_no_item_is_the_collections_405():
    app = _named_app()
    form = 'application/x-www-form-urlencoded'
    refused = app.put('/things', 'name=n', headers=HEADERS,
                      content_type=form, expect_errors=True)
    assert refused.status_int == 405
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert app.put('/things', 'ident=x&name=n', headers=HEADERS,
                   content_type=form).json == 'x:n'
