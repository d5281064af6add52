"""What a second hostile review found in the fixes of the first one."""

from __future__ import annotations

import pecan
import pytest
import webtest
from pecan import rest

from pecan_microversions import (
    MicroversionHook,
    VersionRegistry,
    param,
    query_params,
)
from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.store import NodeStore
from tests.hostile.contract_app import App

SEED = '00000000-0000-0000-0000-000000000001'


def fleet(version):
    return {'OpenStack-API-Version': f'fleet {version}'}


@pytest.fixture
def demo():
    store = NodeStore.seeded()
    return webtest.TestApp(make_app(store=store)), store


@pytest.mark.parametrize('path', [f'/v1/nodes/{SEED}/states/extra',
                                  '/v1/nodes/nope/states/a/b'])
def test_url_that_answers_no_method_is_404_not_405_without_allow(demo, path):
    app, _ = demo
    answers = {}
    for method in ('GET', 'HEAD', 'POST', 'DELETE'):
        response = app.request(path, method=method, headers=fleet('1.6'),
                               expect_errors=True)
        assert response.status_int == 404, (method, response.body)
        answers[method] = response.headers['Content-Length']
    assert answers['HEAD'] == answers['GET']


@pytest.mark.parametrize('content_type', ['text/xml',
                                          'text/xml; charset=utf-16'])
def test_utf16_xml_with_an_entity_declaration_is_refused(content_type):
    gadgets = App()
    document = ('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE g '
                '[<!ENTITY e "injected">]><gadget><name>&e;</name></gadget>')
    response = gadgets.client.post(
        '/gadgets', document.encode('utf-16'), content_type=content_type,
        headers={'OpenStack-API-Version': 'gadget 1.3'}, expect_errors=True)
    assert response.status_int == 400
    assert response.json['errors'][0]['code'] == 'microversion.invalid_body'
    assert gadgets.received == []


def _things():
    registry = VersionRegistry('thing', [('1.0', 'a'), ('1.1', 'b')])
    received = []

    class Things(rest.RestController):
        @query_params(registry, 'PUT /things/{ident}', fields=param('1.1'))
        @pecan.expose('json')
        def put(self, ident, fields=None):
            received.append(ident)
            return {'ident': ident}

        @query_params(registry, 'DELETE /things/{ident}')
        @pecan.expose('json')
        def delete(self, ident, **kwargs):
            received.append(ident)
            return {'ident': ident}

    class Root:
        things = Things()

    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False,
        force_canonical=False)), received


@pytest.mark.parametrize('method', ['PUT', 'DELETE'])
@pytest.mark.parametrize('body,content_type', [
    (b'ident=y', 'application/x-www-form-urlencoded'),
    (b'{"ident": "y"}', 'application/json'),
])
def test_body_value_for_a_path_argument_of_a_plain_method_is_refused(
        method, body, content_type):
    app, received = _things()
    headers = {'OpenStack-API-Version': 'thing 1.1',
               'Content-Type': content_type}
    response = app.request('/things/x', method=method, body=body,
                           headers=headers, expect_errors=True)
    assert response.status_int == 400, response.body
    assert response.json['errors'][0]['code'] == \
        'microversion.invalid_arguments'
    assert received == []
    same = body.replace(b'y', b'x')
    assert app.request('/things/x', method=method, body=same,
                       headers=headers).json == {'ident': 'x'}


@pytest.mark.parametrize('content_type, delete', [
    # WebOb parses a multipart body of a DELETE even empty: its boundary
    # is still checked.
    ('multipart/form-data', 400),
    # No body, nothing reads the charset twice: no method is refused it
    # (the DELETE reaches the URL, which does not answer it).
    ('text/html; charset=utf-8; charset=utf-8', 405)])
def test_bodiless_get_is_not_judged_by_parsing_rules(demo, content_type,
                                                     delete):
    app, _ = demo
    headers = dict(fleet('1.9'), **{'Content-Type': content_type})
    for method in ('GET', 'HEAD'):
        assert app.request('/v1/nodes', method=method,
                           headers=headers).status_int == 200
    response = app.request(f'/v1/nodes/{SEED}', method='DELETE',
                           headers=headers, expect_errors=True)
    assert response.status_int == delete


def test_form_charset_webob_fails_on_is_refused_for_any_method(demo):
    app, _ = demo
    headers = dict(fleet('1.9'), **{
        'Content-Type': 'application/x-www-form-urlencoded; charset=latin1'})
    response = app.get('/v1/nodes', headers=headers, expect_errors=True)
    assert response.status_int == 415


def test_space_before_the_parameters_is_still_json(demo):
    app, store = demo
    response = app.post('/v1/nodes', b'{"name": "n", "hardware_type": "i"}',
                        headers=dict(fleet('1.9'), **{
                            'Content-Type': 'application/json ; charset=utf-8'}))
    assert response.status_int == 201
    assert len(store.list()) == 4


def test_ignore_mode_json_body_keeps_its_known_arguments():
    gadgets = App(unknown_query_params='ignore')
    response = gadgets.client.request(
        '/gadgets', method='GET', body=b'{"q": "x", "bogus": 1}',
        headers={'OpenStack-API-Version': 'gadget 1.3',
                 'Content-Type': 'application/json'})
    assert response.status_int == 200
    assert gadgets.received == [('query', '1.3', {'q': 'x'})]


# -- the third review ---------------------------------------------------------

@pytest.mark.parametrize('method', ['OPTIONS', 'PROPFIND'])
def test_multipart_without_boundary_on_any_parsed_method_is_400(demo,
                                                                method):
    # WebOb parses a form or multipart body for every method but GET/HEAD.
    app, _ = demo
    response = app.request('/v1/nodes', method=method, expect_errors=True,
                           headers=dict(fleet('1.9'), **{
                               'Content-Type': 'multipart/form-data'}))
    assert response.status_int == 400
    assert response.json['errors'][0]['code'] == \
        'microversion.invalid_content_type'


@pytest.mark.parametrize('encoding', ['Shift_JIS', 'EUC-JP', 'Big5'])
def test_xml_in_an_encoding_expat_does_not_read_is_400(demo, encoding):
    app, store = demo
    document = (f'<?xml version="1.0" encoding="{encoding}"?>'
                '<node><name>x</name><driver>i</driver></node>')
    response = app.post('/v1/nodes', document.encode(encoding),
                        headers=dict(fleet('1.1'), **{
                            'Content-Type': 'text/xml'}), expect_errors=True)
    assert response.status_int == 400
    assert response.json['errors'][0]['code'] == 'microversion.invalid_body'
    assert len(store.list()) == 3


def test_path_segment_into_a_body_is_404_where_the_url_names_nothing():
    from wsme import types as wtypes

    from pecan_microversions import versioned_resource, versioned_wsexpose

    registry = VersionRegistry('svc', [('1.0', 'a')])

    @versioned_resource(registry, 'thing')
    class Thing(wtypes.Base):
        name = wtypes.text

    class Things(rest.RestController):
        @versioned_wsexpose(Thing, wtypes.text)
        def get_one(self, uuid):
            return Thing(name=uuid)

        @versioned_wsexpose(Thing, wtypes.text, body=Thing)
        def put(self, uuid, body):
            return body

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    # /things/u1/extra is no item URL: 404, not a 405 whose Allow would
    # list PUT itself.
    response = app.put('/things/u1/extra', b'{"name": "n"}',
                       content_type='application/json', expect_errors=True)
    assert response.status_int == 404
    assert app.put('/things/u1', b'{"name": "n"}',
                   content_type='application/json').json == {'name': 'n'}


def test_partly_hidden_check_ignores_what_up_only_adds_or_normalizes():
    from pecan_microversions import Retype
    from pecan_microversions.core.errors import RequestError
    from pecan_microversions.core.schema import Schema, field
    from pecan_microversions.core.version import Version

    registry = VersionRegistry('svc', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {
        'size': field(changes=[Retype(str, float, max_version='1.0')]),
        'owner': field(changes=[Retype(
            lambda o: o.get('name'), lambda n: {'name': n, 'domain': 'd'},
            max_version='1.0')]),
    })
    old = Version(1, 0)
    patch = [{'op': 'replace', 'path': '/size', 'value': '2'}]
    assert schema.patch_newest({'size': 1}, patch, old) == {'size': 2.0}
    patch = [{'op': 'replace', 'path': '/owner', 'value': 'y'}]
    assert schema.patch_newest({'owner': {'name': 'x'}}, patch, old) == {
        'owner': {'name': 'y', 'domain': 'd'}}
    with pytest.raises(RequestError) as info:  # a domain 1.0 cannot see
        schema.patch_newest({'owner': {'name': 'x', 'domain': 'e'}}, patch,
                            old)
    assert info.value.code == 409


def test_list_item_edited_after_a_removal_keeps_its_own_hidden_fields():
    from wsme import types as wtypes

    from pecan_microversions import Retype, versioned, versioned_resource
    from pecan_microversions.core.version import Version
    from pecan_microversions.wsme.conversion import patch_newest

    registry = VersionRegistry('svc', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'part')
    class Part(wtypes.Base):
        label = wtypes.text
        secret = versioned(wtypes.text, min_version='1.1')
        size = versioned(float, changes=[Retype(  # converted: a merge
            str, float, max_version='1.0', type_name='string',
            datatype=wtypes.text)])

    @versioned_resource(registry, 'gadget')
    class Gadget(wtypes.Base):
        parts = [Part]

    Gadget.nested_types = (Part,)
    newest = {'parts': [{'label': 'A', 'secret': 'sa', 'size': 1.0},
                        {'label': 'B', 'secret': 'sb', 'size': 2.0}]}
    patched = patch_newest(Gadget, newest, [
        {'op': 'remove', 'path': '/parts/0'},
        {'op': 'replace', 'path': '/parts/0/label', 'value': 'B2'}],
        Version(1, 0))
    assert patched['parts'] == [{'label': 'B2', 'secret': 'sb', 'size': 2.0}]
