"""One regression test per finding of the security review (issue 11).

Each test sends the request, or makes the declaration, that got around the
version contract, and checks that it no longer does: a clear 4xx (or an
import-time ``RegistryError``), nothing stored, nothing handed to the
controller.
"""

from __future__ import annotations

import http.client
import json

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    RegistryError,
    VersionRegistry,
    apply_patch,
    check_patch,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from tests.hostile.contract_app import SEED, SEED_DOCUMENT, App


def fleet(version: str) -> dict[str, str]:
    return {'OpenStack-API-Version': f'fleet {version}'}


def gadget(version: str) -> dict[str, str]:
    return {'OpenStack-API-Version': f'gadget {version}'}


def assert_error(response, *statuses: int) -> dict:
    """A 4xx in the JSON errors format, with the version headers."""
    assert response.status_int in statuses, (response.status,
                                             response.body[:500])
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert error['status'] == response.status_int
    assert 'OpenStack-API-Version' in response.headers
    assert 'openstack-api-version' in response.headers['Vary'].lower()
    return error


@pytest.fixture(params=['reject', 'ignore'])
def gadgets(request):
    return App(request.param)


# -- bodies in other content types -------------------------------------------

@pytest.mark.parametrize('body', [
    'node.name=a&node.driver=ipmi&node.hardware_type=x&node.description=d',
    'node.name=a&node.driver=ipmi&node.hardware_type=x',
])
def test_form_body_cannot_set_fields_of_later_versions(api, store, body):
    before = store.list()
    response = api.post('/v1/nodes', body, headers=fleet('1.0'),
                        content_type='application/x-www-form-urlencoded',
                        expect_errors=True)
    error = assert_error(response, 400, 415)
    assert 'not available at version 1.0' in error['detail']
    assert store.list() == before


def test_form_body_cannot_set_a_retyped_field(api, store):
    """``owner`` is an object from 1.9 (a name before): only JSON bodies are
    converted between its types, so a form key for it is refused."""
    before = store.list()
    response = api.post('/v1/nodes', 'node.name=a&node.driver=ipmi'
                        '&node.owner=mallory', headers=fleet('1.4'),
                        content_type='application/x-www-form-urlencoded',
                        expect_errors=True)
    error = assert_error(response, 400, 415)
    assert 'node.owner' in error['detail']
    assert store.list() == before


@pytest.mark.parametrize('content_type', ['text/xml', 'application/xml'])
def test_xml_body_cannot_set_fields_of_later_versions(gadgets, content_type):
    body = ('<gadget><name>x</name><colour>red</colour><size>1</size>'
            '</gadget>')
    response = gadgets.client.post('/gadgets', body, headers=gadget('1.0'),
                                   content_type=content_type,
                                   expect_errors=True)
    assert_error(response, 400, 415)
    assert gadgets.received == []


def test_xml_body_cannot_set_enum_values_of_later_versions(gadgets):
    body = '<gadget><name>x</name><mode>eco</mode></gadget>'
    response = gadgets.client.post('/gadgets', body, headers=gadget('1.1'),
                                   content_type='text/xml',
                                   expect_errors=True)
    assert_error(response, 400, 415)
    assert gadgets.received == []


def test_form_body_enum_value_and_nested_field(gadgets):
    response = gadgets.client.post(
        '/gadgets', 'gadget.name=x&gadget.mode=eco&gadget.main.grade=g',
        headers=gadget('1.1'),
        content_type='application/x-www-form-urlencoded', expect_errors=True)
    assert_error(response, 400, 415)
    assert gadgets.received == []


def test_multipart_body_cannot_set_fields_of_later_versions(gadgets):
    response = gadgets.client.post(
        '/gadgets', {'gadget.name': 'x', 'gadget.colour': 'red'},
        headers=gadget('1.0'), upload_files=[('f', 'f.txt', b'x')],
        expect_errors=True)
    assert_error(response, 400, 415)
    assert gadgets.received == []


# -- arguments taken by name from the query string ---------------------------

def test_query_string_argument_cannot_carry_fields_of_later_versions(gadgets):
    response = gadgets.client.put(
        '/gadgets/x?gadget.name=x&gadget.size=4&gadget.mode=eco', '',
        headers=gadget('1.0'), expect_errors=True)
    assert_error(response, 400, 406)
    assert gadgets.received == []


def test_dunder_body_query_parameter_is_not_a_way_around(gadgets):
    document = json.dumps({'gadget': {'name': 'x', 'colour': 'red'}})
    response = gadgets.client.put(
        '/gadgets/x?__body__=' + document, '', headers=gadget('1.0'),
        content_type='application/json', expect_errors=True)
    assert_error(response, 400)
    assert gadgets.received == []


def test_dunder_body_in_a_form_body(gadgets):
    response = gadgets.client.put(
        '/gadgets/x', {'__body__': json.dumps({'gadget': {'name': 'x'}}),
                       'gadget.name': 'y'}, headers=gadget('1.0'),
        expect_errors=True)
    assert_error(response, 400)
    assert gadgets.received == []


def test_dunder_body_on_a_list(gadgets):
    response = gadgets.client.get(
        '/gadgets?__body__=' + json.dumps({'colour': 'red'}),
        headers=dict(gadget('1.0'), **{'Content-Type': 'application/json'}),
        expect_errors=True)
    assert_error(response, 400)
    assert gadgets.received == []


# -- WSME's list and dotted query syntaxes ----------------------------------

@pytest.mark.parametrize('query', ['tag[0]=a', 'tag=a', 'flt.label=x',
                                   'flt.grade=x'])
def test_list_and_dotted_query_syntax_outside_their_versions(gadgets, query):
    response = gadgets.client.get(f'/gadgets?{query}', headers=gadget('1.0'),
                                  expect_errors=True)
    assert_error(response, 400)
    assert gadgets.received == []


@pytest.mark.parametrize('query, expected', [
    ('tag[0]=a&tag[1]=b', {'tag': ['a', 'b']}),
    ('flt.label=x', {'flt': {'label': 'x'}}),
])
def test_list_and_dotted_query_syntax_within_their_versions(gadgets, query,
                                                           expected):
    response = gadgets.client.get(f'/gadgets?{query}', headers=gadget('1.3'))
    assert response.status_int == 200
    assert gadgets.received == [('query', '1.3', expected)]


@pytest.mark.parametrize('query', ['tag[0]=c', 'tag[0]=a&tag[1]=c',
                                   'tag=a&tag=c'])
def test_list_query_values_outside_their_versions(gadgets, query):
    # tag exists from 1.2, its value c from 1.4
    response = gadgets.client.get(f'/gadgets?{query}', headers=gadget('1.3'),
                                  expect_errors=True)
    assert_error(response, 400)
    assert gadgets.received == []


def test_json_body_on_a_get_cannot_pass_query_parameters(gadgets):
    response = gadgets.client.request(
        '/gadgets', method='GET', headers=gadget('1.0'),
        body=json.dumps({'colour': 'red', 'size': 5}).encode(),
        content_type='application/json', expect_errors=True)
    assert_error(response, 400, 415)
    assert gadgets.received == []


# -- JSON patch copy and move ----------------------------------------------

def test_patch_copy_of_a_later_value_into_a_field(gadgets):
    # /main/kind holds "gear" (from 1.3); at 1.2 it cannot be copied into
    # /parts/0/kind, where 1.2 allows only bolt and nut.
    response = gadgets.client.patch_json(
        f'/gadgets/{SEED}',
        [{'op': 'copy', 'from': '/main/kind', 'path': '/parts/0/kind'}],
        headers=gadget('1.2'), expect_errors=True)
    assert_error(response, 400, 406)
    assert gadgets.store[SEED] == SEED_DOCUMENT


def test_patch_move_of_a_later_value_into_a_field(gadgets):
    response = gadgets.client.patch_json(
        f'/gadgets/{SEED}',
        [{'op': 'move', 'from': '/parts/1', 'path': '/main'}],
        headers=gadget('1.2'), expect_errors=True)
    assert_error(response, 400, 406)
    assert gadgets.store[SEED] == SEED_DOCUMENT


def test_patch_move_cannot_take_a_mandatory_field_away(gadgets):
    patch = [{'op': 'move', 'from': '/name', 'path': '/colour'}]
    with pytest.raises(APIError) as raised:
        check_patch(gadgets.Gadget, patch, gadgets.registry.versions[1])
    assert raised.value.code == 400
    assert 'name' in str(raised.value.detail)


def test_apply_patch_checks_a_copied_value_at_its_target(gadgets):
    patch = [{'op': 'copy', 'from': '/main/kind', 'path': '/parts/0/kind'}]
    with pytest.raises(APIError):
        apply_patch(gadgets.Gadget, SEED_DOCUMENT, patch,
                    gadgets.registry.versions[2])
    # at 1.3, gear exists: the same copy is fine
    patched = apply_patch(gadgets.Gadget, SEED_DOCUMENT, patch,
                          gadgets.registry.versions[3])
    assert patched['parts'][0]['kind'] == 'gear'


def test_demo_patch_move_of_name(api, store):
    before = store.list()
    response = api.patch_json(
        '/v1/nodes/00000000-0000-0000-0000-000000000001',
        [{'op': 'move', 'from': '/name', 'path': '/description'}],
        headers=fleet('1.3'), expect_errors=True)
    error = assert_error(response, 400)
    assert error['code'] == 'microversion.missing_field'
    assert store.list() == before


# -- charsets --------------------------------------------------------------

@pytest.mark.parametrize('content_type, body', [
    ('application/json; charset=latin-1',
     '{"name": "\xe9", "driver": "ipmi"}'.encode('latin-1')),
    ('application/json', '{"name": "\xe9", "driver": "ipmi"}'.encode('latin-1')),
    ('application/json; charset=x-unknown-9', b'{"name": "a", "driver": "x"}'),
    ('application/json; charset=utf-16',
     '{"name": "a", "driver": "x"}'.encode('utf-16')),
    ('application/x-www-form-urlencoded; charset=x-unknown-9',
     b'node.name=a&node.driver=x'),
    ('application/x-www-form-urlencoded', b'node.name=%E9&node.driver=x'),
])
def test_charsets_are_4xx_not_500(api, store, content_type, body):
    before = store.list()
    response = api.post('/v1/nodes', body, headers=fleet('1.0'),
                        content_type=content_type, expect_errors=True)
    if response.status_int < 400:  # a well-formed UTF-8 form body may pass
        assert response.status_int == 200 and 'x-unknown' not in content_type
        return
    assert_error(response, 400, 415)
    assert store.list() == before


# -- the hook and odd responses --------------------------------------------

def _small_app(controller):
    registry = VersionRegistry('tiny', [('1.0', 'a'), ('1.1', 'b')])
    return webtest.TestApp(pecan.make_app(
        controller, hooks=[MicroversionHook(registry)], debug=False,
        force_canonical=False))


class _Gone(Exception):
    code = 499


class _OddRoot:
    @pecan.expose('json')
    def odd(self):
        pecan.response.status = 499
        return {'faultcode': 'Client', 'faultstring': 'client went away'}

    @pecan.expose('json')
    def varies(self):
        pecan.response.headers.add('Vary', 'Accept')
        pecan.response.headers.add('Vary', 'Accept-Language')
        return {}

    @pecan.expose('json')
    def varies_error(self):
        pecan.response.headers.add('Vary', 'Accept')
        pecan.response.headers.add('Vary', 'Accept-Language')
        pecan.response.status = 409
        return {'faultcode': 'Client', 'faultstring': 'conflict'}


def test_unknown_status_with_a_fault_body_keeps_the_version_headers():
    response = _small_app(_OddRoot()).get('/odd', expect_errors=True)
    assert response.status_int == 499
    assert response.headers['OpenStack-API-Version'] == 'tiny 1.0'
    (error,) = response.json['errors']
    assert error['status'] == 499
    assert error['detail'] == 'client went away'


@pytest.mark.parametrize('path', ['/varies', '/varies_error'])
def test_several_vary_headers_are_merged(path):
    response = _small_app(_OddRoot()).get(path, expect_errors=True)
    tokens = [t.strip().lower() for v in response.headers.getall('Vary')
              for t in v.split(',')]
    assert sorted(tokens) == ['accept', 'accept-language',
                              'openstack-api-version']


# -- underscore header variants under the demo's server -------------------

def test_demo_server_ignores_underscore_header_variants(serve):
    from pecan_microversions.demo.app import make_app
    base = serve(make_app())
    host, port = base.rsplit('/', 1)[1].split(':')
    for headers in ([('OpenStack_API_Version', 'fleet 1.8')],
                    [('OpenStack-API-Version', 'fleet 1.2'),
                     ('OpenStack_API_Version', 'fleet 1.8')],
                    [('X_OpenStack_Fleet_API_Version', '1.8')]):
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.putrequest('GET', '/v1/')
        for name, value in headers:
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        response.read()
        expected = 'fleet 1.2' if len(headers) == 2 else 'fleet 1.0'
        assert response.status == 200
        assert response.getheader('OpenStack-API-Version') == expected
        connection.close()


# -- declaration mistakes, refused at import -------------------------------

def _registry():
    return VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                     ('1.2', 'c')])


def test_two_attributes_with_one_json_name():
    with pytest.raises(RegistryError, match=r"Book.title.*Book.heading.*'title'"):
        @versioned_resource(_registry(), 'book')
        class Book(wtypes.Base):
            title = wtypes.wsattr(wtypes.text)
            heading = versioned(wtypes.text, min_version='1.1', name='title')


def test_values_on_a_list_of_enum_values():
    registry = _registry()

    @versioned_resource(registry, 'book')
    class Book(wtypes.Base):
        tags = versioned([wtypes.Enum(str, 'new', 'old', 'rare')],
                         values={'rare': '1.1'})

    class Root(rest.RestController):
        @versioned_wsexpose(Book, body=Book)
        def post(self, book):
            return book

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    ok = app.post_json('/', {'tags': ['new', 'old']},
                       headers={'OpenStack-API-Version': 'shelf 1.0'})
    assert ok.json == {'tags': ['new', 'old']}
    refused = app.post_json('/', {'tags': ['new', 'rare']},
                            headers={'OpenStack-API-Version': 'shelf 1.0'},
                            expect_errors=True)
    assert refused.status_int == 400
    assert 'rare' in refused.json['errors'][0]['detail']
    assert app.post_json('/', {'tags': ['rare']},
                         headers={'OpenStack-API-Version': 'shelf 1.1'}
                         ).json == {'tags': ['rare']}


@pytest.mark.parametrize('datatype, values', [
    (int, {'1': '1.1'}),
    (wtypes.text, {1: '1.1'}),
    (int, {True: '1.1'}),
    ([wtypes.text], {2: '1.1'}),
])
def test_values_keys_of_the_wrong_type(datatype, values):
    with pytest.raises(RegistryError, match=r'Shelf.*size'):
        @versioned_resource(_registry(), 'shelf')
        class Shelf(wtypes.Base):
            size = versioned(datatype, values=values)


def test_mandatory_and_readonly_on_a_bounded_field():
    with pytest.raises(RegistryError, match=r'Shelf.*serial'):
        @versioned_resource(_registry(), 'shelf')
        class Shelf(wtypes.Base):
            serial = versioned(wtypes.text, min_version='1.1', mandatory=True,
                               readonly=True)


def _bound_shelf(registry):
    @versioned_resource(registry, 'shelf')
    class Shelf(wtypes.Base):
        name = wtypes.wsattr(wtypes.text)
        secret = versioned(wtypes.text, min_version='1.1')
    return Shelf


def test_returning_an_undecorated_subclass_is_filtered_not_a_500():
    registry = _registry()
    shelf = _bound_shelf(registry)

    class SpecialShelf(shelf):
        def describe(self):
            return self.name

    class Root(rest.RestController):
        @versioned_wsexpose(shelf)
        def get_all(self):
            return SpecialShelf(name='n', secret='s')

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    assert app.get('/', headers={'OpenStack-API-Version': 'shelf 1.0'}
                   ).json == {'name': 'n'}
    assert app.get('/', headers={'OpenStack-API-Version': 'shelf 1.1'}
                   ).json == {'name': 'n', 'secret': 's'}


def test_undecorated_subclass_adding_attributes_is_refused_at_import():
    registry = _registry()
    shelf = _bound_shelf(registry)

    class WideShelf(shelf):
        width = versioned(int, min_version='1.2')

    with pytest.raises(RegistryError, match=r'WideShelf.*width'):
        versioned_wsexpose(shelf)(lambda self: None)
