"""The Ironic-style example: a URL or parameter its methods cannot take is
the client's 404, 405 or 400 in the service's error format, never a 500
(its own ``expose`` wrapper takes ``*args, **kwargs``, so Pecan passes it
everything the request holds)."""

import json

import pytest
import webtest

from pecan_microversions.examples.ironic_style import make_app

HEADERS = {'X-OpenStack-Ironic-API-Version': '1.6'}


@pytest.fixture()
def api():
    return webtest.TestApp(make_app())


def _fault(response):
    """The WSME fault inside the service's ``error_message`` envelope."""
    fault = json.loads(response.json['error_message'])
    assert fault['faultcode'] == 'Client'
    return fault['faultstring']


@pytest.mark.parametrize('method, url', [
    ('GET', '/v1/nodes/abc/def'),
    ('POST', '/v1/nodes/abc/def'),
    ('GET', '/v1/nodes/x/y?limit=2'),
    ('PATCH', '/v1/nodes/abc/def'),
    ('DELETE', '/v1/nodes/a/b/c'),
])
def test_extra_path_segments_are_a_404(api, method, url):
    response = api.request(url, method=method, headers=HEADERS,
                           expect_errors=True)
    assert response.status_int == 404
    assert _fault(response) == f'{method} {url.split("?")[0]} names no resource.'
    assert response.headers['X-OpenStack-Ironic-API-Version'] == '1.6'


def test_post_to_an_item_is_a_405_listing_what_it_answers(api):
    response = api.post('/v1/nodes/abc', headers=HEADERS, expect_errors=True)
    assert response.status_int == 405
    assert response.headers['Allow'] == 'DELETE, GET, HEAD, PATCH'
    assert _fault(response) == (
        'POST /v1/nodes/abc is not allowed: the URL does not take a POST.')


@pytest.mark.parametrize('method, allow', [('PATCH', 'GET, HEAD, POST'),
                                           ('DELETE', 'GET, HEAD, POST')])
def test_an_item_method_on_the_collection_is_a_405(api, method, allow):
    response = api.request('/v1/nodes', method=method, headers=HEADERS,
                           expect_errors=True)
    assert response.status_int == 405
    assert response.headers['Allow'] == allow
    assert _fault(response) == (f'{method} /v1/nodes is not allowed: '
                                f'{method} needs an item of the collection '
                                'in the URL.')


@pytest.mark.parametrize('url', ['/v1/nodes?limit=2&sort=name',
                                 '/v1/nodes/abc?sort=name'])
def test_an_unknown_query_parameter_is_a_400_naming_it(api, url):
    response = api.get(url, headers=HEADERS, expect_errors=True)
    assert response.status_int == 400
    assert _fault(response) == (
        f'GET {url.split("?")[0]} does not take the argument \'sort\' (from '
        'the query string or the form body).')


def test_the_methods_still_answer_their_own_urls(api):
    node = api.post_json('/v1/nodes', {'driver': 'ipmi', 'name': 'n1'},
                         headers=HEADERS, status=201).json
    assert api.get('/v1/nodes?limit=1', headers=HEADERS).json == {
        'nodes': [node]}
    assert api.get('/v1/nodes/n1', headers=HEADERS).json == node
    api.delete(f'/v1/nodes/{node["uuid"]}', headers=HEADERS, status=204)


@pytest.mark.parametrize('version, allow', [('1.5', 'GET, HEAD, PATCH'),
                                            ('1.6', 'DELETE, GET, HEAD, PATCH')])
def test_a_method_no_url_answers_lists_what_the_item_answers(api, version,
                                                             allow):
    """Pecan's own 405 (no ``put``) lists the item's methods at the
    version, not every handler of the controller (``POST`` is the
    collection's; ``DELETE`` exists from 1.6)."""
    created = api.post('/v1/nodes', '{"driver": "fake"}', headers=HEADERS,
                       content_type='application/json')
    url = f'/v1/nodes/{created.json["uuid"]}'
    for method in ('PUT', 'OPTIONS'):
        response = api.request(url, method=method, expect_errors=True,
                               headers={**HEADERS, 'Accept': 'application/json',
                                        'X-OpenStack-Ironic-API-Version':
                                            version})
        assert response.status_int == 405
        assert response.headers['Allow'] == allow
        assert set(response.json) == {'error_message'}
    assert api.head(url, headers=HEADERS).status_int == 200


@pytest.mark.parametrize('method', ['GET', 'DELETE', 'PATCH'])
def test_an_identifier_given_twice_is_a_400(api, method):
    """In the path and again in the query string: not a 500."""
    created = api.post('/v1/nodes', '{"driver": "fake"}', headers=HEADERS,
                       content_type='application/json')
    url = f'/v1/nodes/{created.json["uuid"]}'
    response = api.request(f'{url}?ident=x', method=method, headers=HEADERS,
                           body=b'[]' if method == 'PATCH' else b'',
                           content_type='application/json',
                           expect_errors=True)
    assert response.status_int == 400
    assert _fault(response) == (f"{method} {url} gives the argument 'ident' "
                                'twice: in the URL path and in the query '
                                'string or body.')


def test_a_method_missing_at_the_version_is_its_404_before_its_arguments(
        api):
    """DELETE exists from 1.6: at 1.1 an unknown parameter does not make
    it a 400 saying the method does not take it."""
    created = api.post('/v1/nodes', '{"driver": "fake"}', headers=HEADERS,
                       content_type='application/json')
    url = f'/v1/nodes/{created.json["uuid"]}'
    early = {'X-OpenStack-Ironic-API-Version': '1.1'}
    plain = api.delete(url, headers=early, expect_errors=True)
    extra = api.delete(f'{url}?foo=1', headers=early, expect_errors=True)
    assert plain.status_int == extra.status_int == 404
    assert _fault(extra) == _fault(plain)
    assert 'foo' in _fault(api.delete(f'{url}?foo=1', headers=HEADERS,
                                      expect_errors=True))


def test_a_repeated_limit_is_a_400(api):
    response = api.get('/v1/nodes?limit=1&limit=2', headers=HEADERS,
                       expect_errors=True)
    assert response.status_int == 400
    assert 'limit must be from 1 to' in _fault(response)


@pytest.mark.parametrize('version', ['1.1', '1.6'])
@pytest.mark.parametrize('method', ['PUT', 'OPTIONS', 'TRACE'])
def test_a_url_below_an_item_is_a_404_for_refused_methods_too(api, version,
                                                              method):
    """Every method at ``/v1/nodes/<uuid>/extra`` is a 404: the methods
    are judged by the functions the example's ``expose`` wraps, not by its
    ``*args, **kwargs`` (its 405 listed GET, PATCH, ... there)."""
    created = api.post('/v1/nodes', '{"driver": "fake"}', headers=HEADERS,
                       content_type='application/json')
    response = api.request(f'/v1/nodes/{created.json["uuid"]}/extra',
                           method=method, expect_errors=True,
                           headers={'X-OpenStack-Ironic-API-Version': version})
    assert response.status_int == 404
    assert 'Allow' not in response.headers


@pytest.mark.parametrize('method', ['GET', 'PATCH'])
def test_a_node_is_found_by_name_only_where_nodes_have_names(api, method):
    api.post_json('/v1/nodes', {'driver': 'ipmi', 'name': 'nn'},
                  headers={'X-OpenStack-Ironic-API-Version': '1.2'})
    body = {} if method == 'GET' else {
        'body': json.dumps([{'op': 'replace', 'path': '/driver',
                               'value': 'fake'}]).encode(),
        'content_type': 'application/json'}
    early = api.request('/v1/nodes/nn', method=method, expect_errors=True,
                        headers={'X-OpenStack-Ironic-API-Version': '1.1'},
                        **body)
    assert early.status_int == 404
    assert _fault(early) == 'Node nn could not be found.'
    found = api.request('/v1/nodes/nn', method=method, headers={
        'X-OpenStack-Ironic-API-Version': '1.2'}, **body)
    assert found.json['name'] == 'nn'


@pytest.mark.parametrize('query', ['name=n1', 'owner=o', 'bogus=1', 'self=1'])
def test_a_query_argument_beside_a_body_is_refused_not_ignored(api, query):
    # post and patch take the body's members as **_: without the check a
    # query argument (a later version's field, or nonsense) landed there
    # and was silently dropped.
    headers = {'X-OpenStack-Ironic-API-Version': '1.1'}
    name = query.split('=')[0]
    response = api.post_json(f'/v1/nodes?{query}', {'driver': 'fake'},
                             headers=headers, expect_errors=True)
    assert response.status_int == 400
    assert _fault(response) == (f"POST /v1/nodes does not take the argument "
                                f"{name!r} (from the query string).")
    assert api.get('/v1/nodes', headers=headers).json == {'nodes': []}
    uuid = api.post_json('/v1/nodes', {'driver': 'fake'},
                         headers=headers).json['uuid']
    response = api.patch_json(f'/v1/nodes/{uuid}?{query}', [],
                              headers=headers, expect_errors=True)
    assert response.status_int == 400
    assert f'argument {name!r}' in _fault(response)
