"""VersionedRestController's 405s: whose URL they describe, and what it
answers, as Pecan routes each HTTP method.

A 405 lists exactly what its URL answers at the version (never the refused
method); a URL answering nothing is a 404 for every method; the innermost
controller that refused the request decides.
"""

import pecan
import pytest
import webtest
from pecan import rest

from pecan_microversions import MicroversionHook, VersionRegistry
from pecan_microversions.pecan.methods import api_version
from pecan_microversions.pecan.subresources import VersionedRestController
from tests import methods_app

METHODS = ('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS')
REGISTRY = VersionRegistry('x', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')])


def answers(app, url, headers=None):
    """Each method's (status, Allow) at ``url``."""
    got = {}
    for method in METHODS:
        response = app.request(url, method=method, headers=headers or {},
                               expect_errors=True)
        got[method] = (response.status_int, response.headers.get('Allow'))
    return got


def test_a_plain_sub_controllers_405_lists_what_its_url_answers():
    # /v1/things/<id>/parts is a plain RestController (get_all, get_one)
    # below a VersionedRestController: its 405s were the parent's 404.  A
    # plain RestController answers HEAD 405 (only ours answer it as GET).
    app = webtest.TestApp(methods_app.make_app())
    headers = {'OpenStack-API-Version': 'gadget 1.4'}
    refused = {m: (405, 'GET') for m in METHODS if m != 'GET'}
    for url in ('/v1/things/t1/parts', '/v1/things/t1/parts/p'):
        assert answers(app, url, headers) == {'GET': (200, None), **refused}
    # More segments than its handlers take: that URL names nothing.
    assert answers(app, '/v1/things/t1/parts/p/q', headers) == {
        m: (404, None) for m in METHODS}


class Ports(rest.RestController):
    @pecan.expose('json')
    def get_all(self):
        return ['p1']


class Nodes(VersionedRestController):
    _custom_actions = {'power': ['PUT'], 'vif': ['DELETE']}
    ports = Ports()

    @pecan.expose('json')
    def get_one(self, ident):
        return {'id': ident}

    @pecan.expose('json')
    def delete(self, ident):
        return {'deleted': ident}

    @api_version(REGISTRY, '1.2', missing_status=405)
    @pecan.expose('json')
    def put_power(self, ident):
        return {'powered': ident}

    @pecan.expose('json')
    def delete_vif(self, ident):
        return {'unplugged': ident}


class Settings(VersionedRestController):
    delete = 'soft'  # a setting named like a handler, not one

    @pecan.expose('json')
    def get_one(self, ident):
        return {'id': ident}


class Root:
    nodes = Nodes()
    settings = Settings()


@pytest.fixture(scope='module')
def app():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)]))


def test_a_sub_controller_below_the_collection_keeps_its_405(app):
    # Pecan reaches /nodes/ports from the methods' routing (not as an
    # item's sub-resource), then rewrites Allow with the parent's methods.
    assert answers(app, '/nodes/ports') == {
        'GET': (200, None), **{m: (405, 'GET') for m in METHODS[1:]}}


def test_a_setting_named_like_a_handler_is_no_handler(app):
    # It was handed to getargspec: a 500 instead of the 405.
    assert answers(app, '/settings/s') == {
        'GET': (200, None), 'HEAD': (200, None),
        **{m: (405, 'GET, HEAD') for m in METHODS[2:]}}


@pytest.mark.parametrize('version, put', [('1.1', 404), ('1.2', 200)])
def test_put_and_delete_actions_are_named_first_in_the_path(app, version,
                                                            put):
    # Pecan routes PUT and DELETE actions as /<action>/<id> (GET and POST
    # ones as /<id>/<action>): POST /nodes/power/n1 is refused there.
    headers = {'OpenStack-API-Version': f'x {version}'}
    power = answers(app, '/nodes/power/n1', headers)
    allow = 'PUT' if put == 200 else None
    status = 405 if allow else 404
    assert {m: power[m] for m in ('POST', 'PUT', 'PATCH', 'OPTIONS')} == {
        'POST': (status, allow), 'PUT': (put, None),
        'PATCH': (status, allow), 'OPTIONS': (status, allow)}
    vif = answers(app, '/nodes/vif/n1', headers)
    assert vif['DELETE'] == (200, None)
    assert vif['PUT'] == (405, 'DELETE')


@pytest.mark.parametrize('url', ['/nodes/n1/power', '/nodes/n1/vif'])
def test_an_action_after_the_item_names_nothing_for_put_and_delete(app,
                                                                   url):
    # Not the refused method's 405 (Allow: PUT on a PUT).
    headers = {'OpenStack-API-Version': 'x 1.2'}
    assert answers(app, url, headers) == {m: (404, None) for m in METHODS}


@pytest.mark.parametrize('url, method', [('/nodes/power/n1', 'PUT'),
                                         ('/nodes/vif/n1', 'DELETE')])
def test_every_other_method_on_an_action_url_is_its_405(app, url, method):
    # Pecan routed GET (and HEAD, DELETE, ...) to the item's handler with a
    # segment too many, and answered its own bare 404.
    headers = {'OpenStack-API-Version': 'x 1.2'}
    assert answers(app, url, headers) == {
        m: (200, None) if m == method else (405, method) for m in METHODS}


def test_an_action_outside_its_versions_leaves_its_url_naming_nothing(app):
    got = app.get('/nodes/power/n1', headers={
        'OpenStack-API-Version': 'x 1.1'}, expect_errors=True)
    assert got.status_int == 404
    assert got.json['errors'][0]['detail'] == (
        'GET /nodes/power/n1 names no resource.')


@pytest.mark.parametrize('version, status, allow', [
    ('1.0', 404, None), ('1.3', 405, 'POST'), ('1.6', 404, None)])
def test_a_get_on_a_post_action_of_wsexpose_methods(version, status, allow):
    # /v1/things/<id>/rename answers POST from 1.3 to 1.5 only.
    app = webtest.TestApp(methods_app.make_app())
    for method in ('GET', 'HEAD'):
        got = app.request('/v1/things/t1/rename', method=method, headers={
            'OpenStack-API-Version': f'gadget {version}'}, expect_errors=True)
        assert (got.status_int, got.headers.get('Allow')) == (status, allow)
    assert app.get('/v1/things/t1/rename', headers={
        'OpenStack-API-Version': f'gadget {version}'}, expect_errors=True
    ).json['errors'][0]['code'] == ('microversion.method_not_allowed'
                                    if allow else 'http.not_found')


class LookedUpPorts(VersionedRestController):
    @pecan.expose('json')
    def get_all(self):
        return []

    @pecan.expose('json')
    def post(self):
        return {}


class LookingUpNodes(VersionedRestController):
    @pecan.expose('json')
    def get_one(self, ident):
        return {'id': ident}

    @pecan.expose()
    def _lookup(self, ident, sub, *remainder):
        if sub == 'ports':  # Ironic's way to /nodes/<id>/ports
            return LookedUpPorts(), remainder


def test_a_sub_controller_from_lookup_lists_its_own_methods():
    # Pecan's abort() appends the parent's frames (it routes _lookup
    # inside an except): the 405 was judged at the parent's URL, and went
    # out without Allow.
    class LookupRoot:
        nodes = LookingUpNodes()

    app = webtest.TestApp(pecan.make_app(
        LookupRoot(), hooks=[MicroversionHook(REGISTRY)], debug=False))
    assert answers(app, '/nodes/n1/ports') == {
        m: (200, None) if m in ('GET', 'HEAD', 'POST') else
        (405, 'GET, HEAD, POST') for m in METHODS}
    assert answers(app, '/nodes/n1/ports/p1') == {
        m: (404, None) for m in METHODS}


def test_a_405_never_lists_the_method_it_refuses():
    # Pecan routes an empty segment to the item's handler: GET /things//
    # got a 405 whose Allow listed GET.
    app = webtest.TestApp(methods_app.make_app())
    got = answers(app, '/v1/things//', {'OpenStack-API-Version': 'gadget 1.0'})
    assert got['GET'] == (404, None) and got['HEAD'] == (404, None)
    assert got['PUT'] == (405, 'GET, HEAD, POST')


def test_a_sub_controllers_405_never_lists_the_method_it_refuses():
    from pecan_microversions.demo.app import make_app
    app = webtest.TestApp(make_app())
    url = '/v1/nodes/00000000-0000-0000-0000-000000000001/states'
    headers = {'OpenStack-API-Version': 'fleet 1.3'}
    assert answers(app, url + '//', headers)['GET'] == (404, None)
    assert answers(app, url, headers)['GET'] == (200, None)
    assert answers(app, url + '//', headers)['PUT'] == (405, 'GET, HEAD')


def test_a_versioned_head_of_its_own_is_allowed_in_its_versions_only():
    # A controller with its own head answers HEAD with it, not as GET:
    # before the head's version a 405's Allow must not list HEAD.
    class Nodes(VersionedRestController):
        @pecan.expose('json')
        def get_all(self):
            return {'nodes': []}

        @api_version(REGISTRY, '1.2', missing_status=405)
        @pecan.expose()
        def head(self):
            pecan.response.headers['X-Count'] = '0'
            return ''

    class Root:
        nodes = Nodes()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)]))
    old = answers(app, '/nodes', {'OpenStack-API-Version': 'x 1.1'})
    assert old['GET'] == (200, None)
    assert {m: old[m] for m in METHODS if m != 'GET'} == {
        m: (405, 'GET') for m in METHODS if m != 'GET'}
    new = answers(app, '/nodes', {'OpenStack-API-Version': 'x 1.2'})
    assert new['HEAD'][0] == 204 and new['GET'] == (200, None)
    assert new['PUT'] == (405, 'GET, HEAD')


class NestedParts(VersionedRestController):
    @pecan.expose('json')
    def get_all(self, owner):
        return {'owner': owner}

    @pecan.expose('json')
    def get_one(self, owner, part):
        return {'owner': owner, 'part': part}

    @pecan.expose('json')
    def post(self, owner):
        return {'posted_for': owner}

    @api_version(REGISTRY, '1.1', missing_status=405)
    @pecan.expose('json')
    def put(self, owner, part):
        return {'put': part}


class Owners(VersionedRestController):
    parts = NestedParts()

    @pecan.expose('json')
    def get_one(self, owner):
        return {'owner': owner}


@pytest.mark.parametrize('version, allow', [('1.0', 'GET, HEAD'),
                                            ('1.1', 'GET, HEAD, PUT')])
def test_a_nested_items_405s_list_what_its_url_answers(version, allow):
    # Pecan drops its note of the parents' identifiers (o1) once routing is
    # done: the 405s raised when the method is called (a versioned put
    # outside its versions, post given the item) counted one segment too
    # few: PUT listed POST, and POST was a 404.
    class NestedRoot:
        owners = Owners()

    app = webtest.TestApp(pecan.make_app(
        NestedRoot(), hooks=[MicroversionHook(REGISTRY)]))
    headers = {'OpenStack-API-Version': f'x {version}'}
    served = allow.split(', ')
    assert answers(app, '/owners/o1/parts/p1', headers) == {
        m: (200, None) if m in served else (405, allow) for m in METHODS}
    # The collection's own URL, for comparison.
    assert answers(app, '/owners/o1/parts', headers) == {
        m: (200, None) if m in ('GET', 'HEAD', 'POST') else
        (405, 'GET, HEAD, POST') for m in METHODS}


def test_a_nested_items_extra_segment_is_refused_like_a_top_level_ones():
    # PUT /<item>/<segment> would fill the body argument with the segment:
    # the parents' identifiers count too, at routing and at the call.
    from wsme import types as wtypes

    from pecan_microversions import versioned_wsexpose

    class Parts(VersionedRestController):
        @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text,
                            wtypes.text)
        def get_one(self, owner, part, detail=None):
            return part

        @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text,
                            body=wtypes.text)
        def put(self, owner, part, body):
            return body

    class Things(VersionedRestController):
        @versioned_wsexpose(wtypes.text, wtypes.text, wtypes.text)
        def get_one(self, thing, detail=None):
            return thing

        @versioned_wsexpose(wtypes.text, wtypes.text, body=wtypes.text)
        def put(self, thing, body):
            return body

    class Owners(VersionedRestController):
        parts = Parts()

        @versioned_wsexpose(wtypes.text, wtypes.text)
        def get_one(self, owner):
            return owner

    class BodyRoot:
        owners = Owners()
        things = Things()

    app = webtest.TestApp(pecan.make_app(
        BodyRoot(), hooks=[MicroversionHook(REGISTRY)]))
    for url in ('/things/t1/extra', '/owners/o1/parts/p1/extra'):
        got = app.put_json(url, 'x', expect_errors=True)
        assert (got.status_int, got.headers.get('Allow')) == (
            405, 'GET, HEAD'), url
    assert app.put_json('/owners/o1/parts/p1', 'x').json == 'x'
