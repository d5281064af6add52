"""Versioned methods and sub-resources over HTTP, in every controller style.

Each range of tests/methods_app.py is requested below, inside (at both
ends) and above; every 404/405 must carry the JSON errors body and the
version headers.
"""

import json

import pytest
import webtest

from tests import methods_app

NOT_FOUND = 'microversion.method_not_found'
NOT_ALLOWED = 'microversion.method_not_allowed'
NO_RESOURCE = 'microversion.resource_not_found'
V1_BODY = {'name': 'n'}
V2_BODY = {'name': 'n', 'colour': 'red'}


@pytest.fixture(scope='module')
def app():
    return webtest.TestApp(methods_app.make_app())


def call(app, method, path, version, body=None, **kwargs):
    headers = {'OpenStack-API-Version': f'gadget {version}'}
    headers.update(kwargs.pop('headers', {}))
    if body is not None:
        kwargs['body'] = json.dumps(body).encode()
        kwargs['content_type'] = 'application/json'
    return app.request(path, method=method, headers=headers,
                       expect_errors=True, **kwargs)


def assert_version_headers(response, version):
    assert response.headers['OpenStack-API-Version'] == f'gadget {version}'
    assert response.headers['OpenStack-API-Minimum-Version'] == '1.0'
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.6'
    assert 'OpenStack-API-Version' in response.headers['Vary']


def assert_error(response, method, version, status, code, ranges=None):
    """A 404/405 in the API-WG format with the version headers."""
    assert response.status_int == status, response.body
    assert_version_headers(response, version)
    if method == 'HEAD':
        assert response.body == b''
        return
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert error['status'] == status
    assert error['code'] == code
    if code.startswith('microversion.'):
        assert f'version {version}' in error['detail']
    if ranges is not None:
        assert f'exists in versions {ranges}' in error['detail']


# (method, path, body, version, expected): an int status for a missing
# method (with its error code) or a dict the 2xx JSON body must contain.
HELLO = '1.2 and later'
LEGACY = '1.1 to 1.3'
GREET = '1.1 to 1.2, 1.4 to 1.5'
SERVED = [
    # pecan.expose, added at 1.2
    ('GET', '/v1/hello', None, '1.2', {'hello': 'world'}),
    ('GET', '/v1/hello', None, '1.6', {'hello': 'world'}),
    ('GET', '/v1/hello/', None, '1.2', {'hello': 'world'}),
    ('GET', '/v1/hello?name=x', None, '1.3', {'hello': 'x'}),
    # pecan.expose, removed after 1.3
    ('GET', '/v1/legacy', None, '1.1', {'legacy': True}),
    ('GET', '/v1/legacy', None, '1.3', {'legacy': True}),
    # two implementations with a gap
    ('GET', '/v1/greet?name=x', None, '1.1', {'greeting': 'Hello, x'}),
    ('GET', '/v1/greet', None, '1.2', {'greeting': 'Hello, world'}),
    ('GET', '/v1/greet?name=x', None, '1.4', {'message': 'Hi x', 'name': 'x'}),
    ('GET', '/v1/greet', None, '1.5', {'name': 'world'}),
    # generic controller
    ('GET', '/v1/gadget', None, '1.1', {'gadget': 'get'}),
    ('GET', '/v1/gadget/', None, '1.1', {'gadget': 'get'}),
    ('GET', '/v1/gadget', None, '1.6', {'gadget': 'get'}),
    ('POST', '/v1/gadget', None, '1.2', {'gadget': 'post'}),
    ('POST', '/v1/gadget', None, '1.4', {'gadget': 'post'}),
    ('DELETE', '/v1/gadget', None, '1.0', {'gadget': 'delete'}),
    # RestController with wsexpose
    ('GET', '/v1/things', None, '1.0', [{'name': 'a', 'served_by': 'get_all'}]),
    ('GET', '/v1/things/', None, '1.6', [{'name': 'a', 'served_by': 'get_all'}]),
    ('GET', '/v1/things/x', None, '1.1', {'served_by': 'get_one'}),
    ('GET', '/v1/things/x/', None, '1.1', {'served_by': 'get_one'}),
    ('GET', '/v1/things/x', None, '1.6', {'served_by': 'get_one'}),
    ('POST', '/v1/things', V1_BODY, '1.0', {'served_by': 'post 1.0'}),
    ('POST', '/v1/things', V1_BODY, '1.4', {'served_by': 'post 1.0'}),
    ('POST', '/v1/things', V2_BODY, '1.5', {'served_by': 'post 1.5',
                                            'colour': 'red'}),
    ('POST', '/v1/things', V2_BODY, '1.6', {'served_by': 'post 1.5'}),
    ('PUT', '/v1/things/x', V1_BODY, '1.2', {'served_by': 'put x'}),
    ('PUT', '/v1/things/x', V1_BODY, '1.4', {'served_by': 'put x'}),
    ('PATCH', '/v1/things/x', V1_BODY, '1.3', {'served_by': 'patch x'}),
    ('PATCH', '/v1/things/x', V1_BODY, '1.6', {'served_by': 'patch x'}),
    ('GET', '/v1/things/detail', None, '1.2', [{'served_by': 'detail'}]),
    ('GET', '/v1/things/detail', None, '1.6', [{'served_by': 'detail'}]),
    ('POST', '/v1/things/x/rename', V1_BODY, '1.3', {'served_by': 'rename x'}),
    ('POST', '/v1/things/x/rename', V1_BODY, '1.5', {'served_by': 'rename x'}),
    # sub-resource as an attribute of a RestController
    ('GET', '/v1/things/x/parts', None, '1.3', ['x-wheel', 'x-bolt']),
    ('GET', '/v1/things/x/parts/', None, '1.5', ['x-wheel', 'x-bolt']),
    ('GET', '/v1/things/x/parts/p', None, '1.3', 'x/p'),
    # sub-resource from _lookup, and a versioned method inside it
    ('GET', '/v1/shelves/a/', None, '1.2', {'shelf': 'a'}),
    ('GET', '/v1/shelves/a/', None, '1.4', {'shelf': 'a'}),
    ('GET', '/v1/shelves/a/books', None, '1.3', {'books': ['b1']}),
    ('GET', '/v1/shelves/a/books', None, '1.4', {'books': ['b1']}),
    # custom _route: a versioned method and a sub-resource
    ('GET', '/v1/routed/q', None, '1.2', {'shown': ['q']}),
    ('GET', '/v1/routed/q/r', None, '1.4', {'shown': ['q', 'r']}),
    ('GET', '/v1/routed/extra/', None, '1.3', {'extra': True}),
    ('GET', '/v1/routed/extra/', None, '1.6', {'extra': True}),
]

MISSING = [
    # (method, path, body, version, status, code, ranges)
    ('GET', '/v1/hello', None, '1.0', 404, NOT_FOUND, HELLO),
    ('GET', '/v1/hello', None, '1.1', 404, NOT_FOUND, HELLO),
    ('GET', '/v1/hello/', None, '1.1', 404, NOT_FOUND, HELLO),
    ('HEAD', '/v1/hello', None, '1.1', 404, NOT_FOUND, HELLO),
    ('OPTIONS', '/v1/hello', None, '1.1', 404, NOT_FOUND, HELLO),
    ('POST', '/v1/hello', None, '1.1', 404, NOT_FOUND, HELLO),
    ('GET', '/v1/legacy', None, '1.0', 404, NOT_FOUND, LEGACY),
    ('GET', '/v1/legacy', None, '1.4', 404, NOT_FOUND, LEGACY),
    ('GET', '/v1/legacy/', None, '1.4', 404, NOT_FOUND, LEGACY),
    ('HEAD', '/v1/legacy', None, '1.4', 404, NOT_FOUND, LEGACY),
    ('OPTIONS', '/v1/legacy/', None, '1.6', 404, NOT_FOUND, LEGACY),
    ('GET', '/v1/greet', None, '1.0', 404, NOT_FOUND, GREET),
    ('GET', '/v1/greet', None, '1.3', 404, NOT_FOUND, GREET),
    ('GET', '/v1/greet', None, '1.6', 404, NOT_FOUND, GREET),
    ('GET', '/v1/gadget', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('GET', '/v1/gadget/', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('HEAD', '/v1/gadget', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('OPTIONS', '/v1/gadget', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('POST', '/v1/gadget', None, '1.1', 405, NOT_ALLOWED, '1.2 to 1.4'),
    ('POST', '/v1/gadget', None, '1.5', 405, NOT_ALLOWED, '1.2 to 1.4'),
    ('GET', '/v1/things/x', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('GET', '/v1/things/x/', None, '1.0', 404, NOT_FOUND, '1.1 and later'),
    ('PUT', '/v1/things/x', V1_BODY, '1.1', 405, NOT_ALLOWED, '1.2 to 1.4'),
    ('PUT', '/v1/things/x', V1_BODY, '1.5', 405, NOT_ALLOWED, '1.2 to 1.4'),
    ('PATCH', '/v1/things/x', V1_BODY, '1.2', 404, NOT_FOUND, '1.3 and later'),
    ('DELETE', '/v1/things/x', None, '1.6', 404, NOT_FOUND, '1.0 to 1.5'),
    ('DELETE', '/v1/things/x/', None, '1.6', 404, NOT_FOUND, '1.0 to 1.5'),
    ('GET', '/v1/things/detail', None, '1.1', 404, NOT_FOUND, '1.2 and later'),
    ('GET', '/v1/things/detail/', None, '1.1', 404, NOT_FOUND, '1.2 and later'),
    ('POST', '/v1/things/x/rename', V1_BODY, '1.2', 404, NOT_FOUND,
     '1.3 to 1.5'),
    ('POST', '/v1/things/x/rename', V1_BODY, '1.6', 404, NOT_FOUND,
     '1.3 to 1.5'),
    ('GET', '/v1/shelves/a/books', None, '1.2', 404, NOT_FOUND,
     '1.3 and later'),
    ('GET', '/v1/routed/q', None, '1.1', 404, NOT_FOUND, '1.2 to 1.4'),
    ('HEAD', '/v1/routed/q', None, '1.5', 404, NOT_FOUND, '1.2 to 1.4'),
    ('OPTIONS', '/v1/routed/q/', None, '1.5', 404, NOT_FOUND, '1.2 to 1.4'),
]

RESOURCE_MISSING = [
    # (method, path, version): outside the sub-resource's range
    ('GET', '/v1/things/x/parts', '1.2'),
    ('GET', '/v1/things/x/parts/', '1.2'),
    ('GET', '/v1/things/x/parts/p', '1.2'),
    ('POST', '/v1/things/x/parts', '1.2'),
    ('HEAD', '/v1/things/x/parts', '1.2'),
    ('OPTIONS', '/v1/things/x/parts', '1.2'),
    ('GET', '/v1/things/x/parts', '1.6'),
    ('GET', '/v1/things/x/parts/p', '1.6'),
    ('GET', '/v1/shelves/a/', '1.1'),
    ('GET', '/v1/shelves/a', '1.1'),
    ('GET', '/v1/shelves/a/', '1.5'),
    ('HEAD', '/v1/shelves/a/', '1.5'),
    ('OPTIONS', '/v1/shelves/a/', '1.5'),
    ('GET', '/v1/shelves/a/books', '1.1'),
    ('GET', '/v1/shelves/a/books', '1.5'),
    ('GET', '/v1/routed/extra/', '1.2'),
    ('GET', '/v1/routed/extra', '1.0'),
    ('DELETE', '/v1/routed/extra/', '1.2'),
]


def _matches(expected, actual):
    if isinstance(expected, dict):
        return all(actual.get(k) == v for k, v in expected.items())
    if isinstance(expected, list) and expected and isinstance(expected[0],
                                                              dict):
        return len(expected) == len(actual) and all(
            _matches(e, a) for e, a in zip(expected, actual, strict=True))
    return expected == actual


@pytest.mark.parametrize('method,path,body,version,expected', SERVED)
def test_served_inside_range(app, method, path, body, version, expected):
    response = call(app, method, path, version, body)
    assert 200 <= response.status_int < 300, response.body
    assert _matches(expected, response.json), response.json
    assert_version_headers(response, version)


@pytest.mark.parametrize('method,path,body,version,status,code,ranges',
                         MISSING)
def test_method_missing_outside_range(app, method, path, body, version, status,
                                      code, ranges):
    response = call(app, method, path, version, body)
    assert_error(response, method, version, status, code, ranges)


@pytest.mark.parametrize('method,path,version', RESOURCE_MISSING)
def test_sub_resource_missing_outside_range(app, method, path, version):
    response = call(app, method, path, version)
    assert_error(response, method, version, 404, NO_RESOURCE)
    if method != 'HEAD':
        detail = response.json['errors'][0]['detail']
        assert detail.startswith(f'{method} {path} is not available')


def test_missing_method_detail_names_request_and_ranges(app):
    response = call(app, 'GET', '/v1/greet', '1.3')
    assert response.json['errors'][0]['detail'] == (
        'GET /v1/greet is not available in version 1.3: it exists in '
        'versions 1.1 to 1.2, 1.4 to 1.5.')


def test_sub_resource_detail_names_the_resource(app):
    response = call(app, 'GET', '/v1/things/x/parts', '1.6')
    assert response.json['errors'][0]['detail'] == (
        'GET /v1/things/x/parts is not available in version 1.6: '
        '/v1/things/{id}/parts exists in versions 1.3 to 1.5.')


@pytest.mark.parametrize('version,allow', [
    ('1.0', 'DELETE'),               # GET (the default handler) from 1.1
    ('1.1', 'DELETE, GET, HEAD'),
    ('1.5', 'DELETE, GET, HEAD'),
])
def test_generic_405_allow_lists_handlers_at_the_version(app, version, allow):
    response = call(app, 'POST', '/v1/gadget', version)
    assert_error(response, 'POST', version, 405, NOT_ALLOWED)
    assert response.headers['Allow'] == allow


@pytest.mark.parametrize('version,allow', [
    ('1.1', 'DELETE, GET, HEAD'),    # PATCH from 1.3; HEAD answered as GET
    ('1.5', 'DELETE, GET, HEAD, PATCH'),
])
def test_rest_405_allow_lists_item_methods_at_the_version(app, version, allow):
    response = call(app, 'PUT', '/v1/things/x', version, V1_BODY)
    assert_error(response, 'PUT', version, 405, NOT_ALLOWED)
    assert response.headers['Allow'] == allow


#: What each URL of ThingsController answers, by version: Allow's value.
URL_METHODS = {
    '/v1/things': {'1.0': 'GET, HEAD, POST', '1.3': 'GET, HEAD, POST',
                   '1.6': 'GET, HEAD, POST'},
    '/v1/things/x': {'1.0': 'DELETE', '1.3': 'DELETE, GET, HEAD, PATCH, PUT',
                     '1.6': 'GET, HEAD, PATCH'},
    '/v1/things/x/rename': {'1.0': None, '1.3': 'POST', '1.6': None},
    # More segments than the item's methods take: names nothing.
    '/v1/things/x/unknown': {'1.0': None, '1.3': None, '1.6': None},
    '/v1/things/x/parts/y/z': {'1.0': None, '1.3': None, '1.6': None},
}


@pytest.mark.parametrize('path', ['/v1/things', '/v1/things/x'])
@pytest.mark.parametrize('version', ['1.0', '1.3', '1.6'])
def test_rest_options_never_reaches_methods(app, path, version):
    # RestController has no OPTIONS handler: Pecan answers 405 itself, and
    # VersionedRestController lists what this URL answers at the version
    # (not every method the controller has at some URL).
    response = call(app, 'OPTIONS', path, version)
    assert_error(response, 'OPTIONS', version, 405, 'http.method_not_allowed')
    assert response.headers['Allow'] == URL_METHODS[path][version]


@pytest.mark.parametrize('path', sorted(URL_METHODS))
@pytest.mark.parametrize('version', ['1.0', '1.3', '1.6'])
def test_every_405_at_a_url_lists_what_it_answers(app, path, version):
    # Whichever method was refused, and whoever refused it (Pecan, a
    # versioned method's missing_status=405, an item method called on the
    # collection), Allow is the same: exactly the methods answered there.
    answered, refused = set(), set()
    for method in ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE',
                   'OPTIONS']:
        body = None if method not in ('POST', 'PUT', 'PATCH') else (
            V2_BODY if (method, version) == ('POST', '1.6') else V1_BODY)
        response = call(app, method, path, version, body)
        if response.status_int == 405:
            refused.add(response.headers.get('Allow'))
        elif response.status_int < 400:
            answered.add(method)
    expected = URL_METHODS[path][version]
    # A URL that answers no method at the version names nothing: 404, as a
    # 405 must list what it answers (RFC 9110).
    assert refused == ({expected} if expected else set())
    assert answered == set((expected or '').split(', ')) - {''}


@pytest.mark.parametrize('path', ['/v1/things', '/v1/things/x'])
@pytest.mark.parametrize('override', ['DELETE', 'put'])
def test_get_overridden_to_delete_or_put_is_a_400_naming_the_parameter(
        app, path, override):
    # Pecan refuses ``GET ?_method=DELETE`` (and PUT) with a 405 naming no
    # method (RFC 9110 requires Allow; an empty one once made it a 500).
    # The hook refuses it first, for the parameter: a 400.
    response = call(app, 'GET', f'{path}?_method={override}', '1.3')
    assert response.status_int == 400
    assert_version_headers(response, '1.3')
    (error,) = response.json['errors']
    assert error['code'] == 'microversion.invalid_method_override'
    assert '_method' in error['detail']
    assert 'Allow' not in response.headers


@pytest.mark.parametrize('path', ['/v1/things', '/v1/things/x'])
@pytest.mark.parametrize('version', ['1.0', '1.3', '1.6'])
def test_rest_head_is_answered_like_get(app, path, version):
    got = call(app, 'GET', path, version)
    head = call(app, 'HEAD', path, version)
    assert head.status_int == got.status_int
    assert head.body == b''
    assert dict(head.headers) == dict(got.headers)


@pytest.mark.parametrize('path, version', sorted(
    {(row[1], row[3]) for row in MISSING if row[0] == 'HEAD'}
    | {(row[1], row[2]) for row in RESOURCE_MISSING if row[0] == 'HEAD'}))
def test_head_outside_a_range_sends_the_get_answers_headers(app, path,
                                                             version):
    # Content-Length included: the error's detail names GET, whose
    # handler answered the HEAD, not the method sent.
    got = call(app, 'GET', path, version)
    head = call(app, 'HEAD', path, version)
    assert got.status_int >= 400 and head.status_int == got.status_int
    assert got.json['errors'][0]['detail'].startswith(f'GET {path} ')
    assert dict(head.headers) == dict(got.headers)


def test_head_inside_range_reaches_plain_method(app):
    response = call(app, 'HEAD', '/v1/hello', '1.2')
    assert response.status_int == 200
    assert_version_headers(response, '1.2')


def test_unversioned_generic_handler_exists_at_every_version(app):
    for version in ('1.0', '1.3', '1.6'):
        response = call(app, 'DELETE', '/v1/gadget', version)
        assert response.json == {'gadget': 'delete'}


# -- Status code and header changes at a version ------------------------------

@pytest.mark.parametrize('version', ['1.0', '1.4'])
def test_wsme_post_before_1_5_is_200_without_location(app, version):
    response = call(app, 'POST', '/v1/things', version, V1_BODY)
    assert response.status_int == 200
    assert 'Location' not in response.headers


@pytest.mark.parametrize('version', ['1.5', '1.6'])
def test_wsme_post_from_1_5_is_201_with_location(app, version):
    response = call(app, 'POST', '/v1/things', version, V2_BODY)
    assert response.status_int == 201
    assert response.headers['Location'] == 'http://localhost/v1/things/n'
    assert_version_headers(response, version)


def test_wsme_body_schema_follows_the_version(app):
    # 1.5 requires colour; before 1.5 colour is unknown.
    old = call(app, 'POST', '/v1/things', '1.4', V2_BODY)
    assert old.status_int == 400
    assert 'colour' in old.json['errors'][0]['detail']
    new = call(app, 'POST', '/v1/things', '1.5', V1_BODY)
    assert new.status_int == 400
    assert 'colour' in new.json['errors'][0]['detail']
    assert_version_headers(new, '1.5')


@pytest.mark.parametrize('version,status,location', [
    ('1.0', 200, None),
    ('1.4', 200, None),
    ('1.5', 201, 'http://localhost/v1/widgets/w'),
    ('1.6', 201, 'http://localhost/v1/widgets/w'),
])
def test_pecan_post_status_and_location_by_branch(app, version, status,
                                                  location):
    response = call(app, 'POST', '/v1/widgets', version, {'name': 'w'})
    assert response.status_int == status
    assert response.headers.get('Location') == location
    assert response.json == {'name': 'w'}


def test_generic_handler_sets_its_own_status(app):
    assert call(app, 'POST', '/v1/gadget', '1.3').status_int == 201


# -- Branching inside a method ------------------------------------------------

@pytest.mark.parametrize('version,era,late', [
    ('1.0', 'early', False), ('1.2', 'early', False),
    ('1.3', 'middle', False), ('1.4', 'middle', False),
    ('1.5', 'late', True), ('1.6', 'late', True),
])
def test_version_branch_inside_a_method(app, version, era, late):
    response = call(app, 'GET', '/v1/branch', version)
    assert response.json == {'era': era, 'at_least_1_5': late}


def test_latest_selects_newest_implementation(app):
    response = call(app, 'POST', '/v1/things', 'latest', V2_BODY)
    assert response.status_int == 201
    assert response.json['served_by'] == 'post 1.5'


def test_default_version_is_used_without_a_header(app):
    response = app.get('/v1/hello', expect_errors=True)
    assert_error(response, 'GET', '1.0', 404, NOT_FOUND, HELLO)
    assert app.get('/v1/legacy', expect_errors=True).status_int == 404


def test_force_canonical_redirect_does_not_hide_range():
    # With Pecan's default force_canonical, /v1/shelves/a redirects to the
    # slash form only inside the range.
    app = webtest.TestApp(methods_app.make_app(force_canonical=True))
    inside = call(app, 'GET', '/v1/shelves/a', '1.2')
    assert inside.status_int == 302
    outside = call(app, 'GET', '/v1/shelves/a', '1.1')
    assert_error(outside, 'GET', '1.1', 404, NO_RESOURCE)


@pytest.mark.parametrize('method, version', [
    ('PATCH', '1.0'), ('PATCH', '1.2'),   # patch: 1.3 and later
    ('PUT', '1.0'), ('PUT', '1.6'),       # put (405 outside): 1.2 to 1.4
    ('DELETE', '1.6'),                    # delete: 1.0 to 1.5
])
def test_item_method_outside_its_range_on_the_collection_is_its_405(
        app, method, version):
    # The collection URL answers none of them at any version: the 405 of
    # the URL, not a 404 (or 405) saying the method exists in others.
    response = call(app, method, '/v1/things', version, V1_BODY)
    assert response.status_int == 405
    assert_version_headers(response, version)
    assert response.headers['Allow'] == 'GET, HEAD, POST'
    (error,) = response.json['errors']
    assert error['code'] == NOT_ALLOWED
    detail = error['detail']
    assert 'exists in' not in detail
    assert f'{method} needs an item of the collection' in detail


@pytest.mark.parametrize('method, path, version', [
    ('PUT', '/v1/things/x/unknown', '1.0'),  # the body is no path segment
    ('PUT', '/v1/things/x/unknown', '1.6'),
])
def test_versioned_method_a_url_never_takes_is_a_plain_404(app, method,
                                                           path, version):
    response = call(app, method, path, version, V1_BODY)
    assert_error(response, method, version, 404, 'http.not_found')
    assert 'Allow' not in response.headers
    assert 'exists in' not in response.json['errors'][0]['detail']


@pytest.mark.parametrize('version, allow', [('1.0', 'DELETE'),
                                            ('1.6', 'GET, HEAD, PATCH')])
def test_an_action_without_its_item_gets_the_405_of_that_url(app, version,
                                                             allow):
    # rename needs the item; /v1/things/rename is an item's URL for the
    # methods Pecan routes there without the action (DELETE it at 1.0).
    response = call(app, 'POST', '/v1/things/rename', version, V1_BODY)
    assert response.status_int == 405
    assert_version_headers(response, version)
    assert response.headers['Allow'] == allow
    (error,) = response.json['errors']
    assert error['code'] == NOT_ALLOWED
    assert 'exists in' not in error['detail']
    assert call(app, 'DELETE', '/v1/things/rename', '1.0').status_int == 204


@pytest.mark.parametrize('method, version, ranges', [
    ('PATCH', '1.2', '1.3 and later'), ('DELETE', '1.6', '1.0 to 1.5'),
    ('POST', '1.0', '1.3 to 1.5')])
def test_versioned_method_of_an_item_still_names_its_ranges(app, method,
                                                            version, ranges):
    path = '/v1/things/x/rename' if method == 'POST' else '/v1/things/x'
    response = call(app, method, path, version, V1_BODY)
    assert_error(response, method, version, 404, NOT_FOUND, ranges)
