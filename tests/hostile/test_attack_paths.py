"""Ways around the version contract that the security review did not name.

Custom actions, ``_lookup`` sub-controllers, URL path segments, HEAD and
OPTIONS, multipart, JSON duplicate keys, DTDs, huge and deeply nested
inputs, form bodies on a GET, non-UTF-8 query strings, query parameters of
plain ``pecan.expose`` methods sent in a body, and a JSON-only service.
Each must be a clear 4xx (never a 5xx) and reach no controller.
"""

from __future__ import annotations

import json

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionRegistry,
    param,
    query_params,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from tests.hostile.contract_app import App


def gadget(version: str, **headers: str) -> dict[str, str]:
    return dict({'OpenStack-API-Version': f'gadget {version}'}, **headers)


def assert_refused(response, *statuses: int) -> dict:
    assert response.status_int in statuses, (response.status,
                                             response.body[:400])
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert error['status'] == response.status_int
    return error


@pytest.fixture(params=['reject', 'ignore'])
def gadgets(request):
    return App(request.param)


class _Service:
    """Custom actions, ``_lookup`` and a plain ``pecan.expose`` method."""

    def __init__(self, request_formats=('json', 'form', 'xml')):
        self.registry = registry = VersionRegistry(
            'gadget', [('1.0', 'a'), ('1.1', 'b')],
            request_formats=request_formats)
        self.received: list = []
        received = self.received

        @versioned_resource(registry, 'box')
        class Box(wtypes.Base):
            name = wtypes.wsattr(wtypes.text)
            lid = versioned(wtypes.text, min_version='1.1')

        class Lid(rest.RestController):
            def __init__(self, box):
                self.box = box

            @versioned_wsexpose(Box, body=Box)
            def put(self, body):
                received.append((self.box, body.lid))
                return body

        class Boxes(rest.RestController):
            _custom_actions = {'open': ['POST']}

            @versioned_wsexpose(Box, wtypes.text, body=Box)
            def open(self, how=None, box=None):
                received.append(('open', how, box.lid))
                return box

        class Lids(rest.RestController):
            @pecan.expose()
            def _lookup(self, name, *remainder):
                return Lid(name), remainder

        class Plain:
            @query_params(registry, 'GET /plain', lid=param('1.1'))
            @pecan.expose('json')
            def index(self, lid=None):
                received.append(('plain', lid))
                return {}

        class Root:
            boxes = Boxes()
            lids = Lids()
            plain = Plain()

        self.client = webtest.TestApp(pecan.make_app(
            Root(), hooks=[MicroversionHook(registry)], debug=False,
            force_canonical=False))


def test_custom_action_body_in_form_and_json():
    service = _Service()
    for kwargs in ({'params': 'box.name=a&box.lid=l',
                    'content_type': 'application/x-www-form-urlencoded'},
                   {'params': json.dumps({'name': 'a', 'lid': 'l'}),
                    'content_type': 'application/json'},
                   {'params': '<box><name>a</name><lid>l</lid></box>',
                    'content_type': 'text/xml'}):
        response = service.client.post('/boxes/open', headers=gadget('1.0'),
                                       expect_errors=True, **kwargs)
        assert_refused(response, 400)
    assert service.received == []
    ok = service.client.post_json('/boxes/open', {'name': 'a', 'lid': 'l'},
                                  headers=gadget('1.1'))
    assert ok.json == {'name': 'a', 'lid': 'l'}
    assert service.received == [('open', None, 'l')]


def test_lookup_subcontroller_is_checked_the_same_way():
    service = _Service()
    response = service.client.put(
        '/lids/b1', 'body.lid=l', headers=gadget('1.0'),
        content_type='application/x-www-form-urlencoded', expect_errors=True)
    assert_refused(response, 400)
    response = service.client.put_json('/lids/b1?body.lid=l', {},
                                       headers=gadget('1.0'),
                                       expect_errors=True)
    assert_refused(response, 400)
    assert service.received == []
    ok = service.client.put_json('/lids/b1', {'lid': 'l'},
                                 headers=gadget('1.1'))
    assert ok.status_int == 200
    assert service.received == [('b1', 'l')]


@pytest.mark.parametrize('request_body, content_type', [
    ('lid=l', 'application/x-www-form-urlencoded'),
    (json.dumps({'lid': 'l'}), 'application/json'),
])
def test_plain_expose_query_parameter_sent_in_a_body(request_body,
                                                     content_type):
    # Pecan passes form fields and JSON object members as arguments too.
    service = _Service()
    response = service.client.post('/plain/', request_body,
                                   headers=gadget('1.0'),
                                   content_type=content_type,
                                   expect_errors=True)
    assert_refused(response, 400)
    assert service.received == []
    service.client.post('/plain/', request_body, headers=gadget('1.1'),
                        content_type=content_type)
    assert service.received == [('plain', 'l')]


def test_plain_expose_query_parameter_from_the_path():
    service = _Service()
    response = service.client.get('/plain/index/l', headers=gadget('1.0'),
                                  expect_errors=True)
    assert_refused(response, 400, 404)
    assert service.received == []


@pytest.mark.parametrize('path', ['/gadgets/x?gadget=abc',
                                  '/gadgets/x/y?gadget.name=a',
                                  '/gadgets/x?gadget.size=' + '9' * 5000 +
                                  '&gadget.name=a'])
def test_arguments_that_do_not_convert_are_400(gadgets, path):
    response = gadgets.client.put(path, '', headers=gadget('1.3'),
                                  expect_errors=True)
    assert_refused(response, 400, 404)
    assert gadgets.received == []


@pytest.mark.parametrize('method', ['HEAD', 'GET'])
def test_head_and_get_check_query_parameters(gadgets, method):
    # Pecan routes HEAD to a RestController's get only if it has a head
    # method; either way nothing reaches the controller.
    response = gadgets.client.request('/gadgets?colour=red', method=method,
                                      headers=gadget('1.0'),
                                      expect_errors=True)
    assert response.status_int in (400, 405)
    assert gadgets.received == []


def test_options_is_a_405_with_the_json_errors_body(gadgets):
    response = gadgets.client.request('/gadgets', method='OPTIONS',
                                      headers=gadget('1.0'),
                                      expect_errors=True)
    assert_refused(response, 405)


def test_json_duplicate_keys_are_refused(gadgets):
    body = b'{"name": "a", "colour": "r", "colour": "s"}'
    response = gadgets.client.post('/gadgets', body, headers=gadget('1.1'),
                                   content_type='application/json',
                                   expect_errors=True)
    error = assert_refused(response, 400)
    assert 'colour' in error['detail']
    assert gadgets.received == []


@pytest.mark.parametrize('body', [
    b'<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa">'
    b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    b'<gadget><name>&b;</name></gadget>',
    b'<gadget><name>a</name>',
    b'<gadget><size>not a number</size><name>a</name></gadget>',
    b'<gadget><name>a</name><main>' + b'<label>' * 5000 + b'</main></gadget>',
    b'<gadget>' + b'<main>' * 10_000 + b'</main>' * 10_000 + b'</gadget>',
])
def test_hostile_xml_is_a_4xx(gadgets, body):
    response = gadgets.client.post('/gadgets', body, headers=gadget('1.3'),
                                   content_type='text/xml',
                                   expect_errors=True)
    assert_refused(response, 400)
    assert gadgets.received == []


def test_multipart_is_a_clear_415(gadgets):
    response = gadgets.client.post(
        '/gadgets', {'gadget.name': 'x'}, headers=gadget('1.3'),
        upload_files=[('f', 'f.txt', b'x')], expect_errors=True)
    error = assert_refused(response, 415)
    assert 'application/json' in error['detail']


def test_form_body_on_a_get_is_refused_not_ignored(gadgets):
    response = gadgets.client.request(
        '/gadgets', method='GET', body=b'colour=red', headers=gadget(
            '1.3', **{'Content-Type': 'application/x-www-form-urlencoded'}),
        expect_errors=True)
    assert_refused(response, 400)
    assert gadgets.received == []


@pytest.mark.parametrize('query', ['q=%E9', 'q%FF=1', 'colour=%C3'])
def test_query_string_that_is_not_utf8_is_400(gadgets, query):
    response = gadgets.client.get(f'/gadgets?{query}', headers=gadget('1.3'),
                                  expect_errors=True)
    assert_refused(response, 400)
    assert gadgets.received == []


def test_unknown_charset_before_routing_is_415():
    # Pecan reads JSON bodies while routing, before any controller.
    service = _Service()
    response = service.client.post(
        '/plain/', b'{"lid": "l"}', headers=gadget('1.1'),
        content_type='application/json; charset=x-nowhere',
        expect_errors=True)
    assert_refused(response, 415)
    assert service.received == []


def test_json_only_service_refuses_form_and_xml():
    service = _Service(request_formats=('json',))
    for body, content_type in (('box.name=a', 'application/x-www-form-'
                                'urlencoded'),
                               ('<box><name>a</name></box>', 'text/xml')):
        response = service.client.post('/boxes/open', body,
                                       headers=gadget('1.1'),
                                       content_type=content_type,
                                       expect_errors=True)
        error = assert_refused(response, 415)
        assert 'application/json' in error['detail']
    assert service.received == []
    assert service.client.post_json('/boxes/open', {'name': 'a'},
                                    headers=gadget('1.1')).json == {
        'name': 'a'}


@pytest.mark.parametrize('formats', [(), ('yaml',), 'json,xml'])
def test_request_formats_are_checked(formats):
    from pecan_microversions import RegistryError
    with pytest.raises(RegistryError):
        VersionRegistry('gadget', [('1.0', 'a')], request_formats=formats)
