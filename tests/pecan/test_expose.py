"""versioned_wsexpose on a small Pecan app."""

import datetime

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    JsonPatchOperation,
    MicroversionHook,
    VersionRegistry,
)
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.pecan.expose import versioned_wsexpose
from pecan_microversions.wsme.fields import versioned, versioned_resource

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')]
REGISTRY = VersionRegistry('shelf', HISTORY)


@versioned_resource(REGISTRY, 'box')
class Box(wtypes.Base):
    name = wtypes.text
    colour = versioned(wtypes.text, min_version='1.1')
    size = versioned(int, max_version='1.1')


SEEN = []


class BoxesController(rest.RestController):

    @versioned_wsexpose(Box, wtypes.text)
    def get_one(self, name):
        return Box(name=name, colour='red', size=3)

    @versioned_wsexpose([Box])
    def get_all(self):
        return [Box(name='a', colour='red', size=1)]

    @versioned_wsexpose(Box, body=Box, status_code=201)
    def post(self, box):
        SEEN.append(box)
        return box

    @versioned_wsexpose(Box, wtypes.text, body=[JsonPatchOperation],
                        patch_of=Box)
    def patch(self, name, patch):
        SEEN.append([op.path for op in patch])
        return Box(name=name, colour='blue', size=9)


class CountersController(rest.RestController):
    """Path arguments of several types, and defaults."""

    @versioned_wsexpose(wtypes.text, int, wtypes.text, datetime.date)
    def get_one(self, number, order='asc', day=None):
        return f'{number!r} {order!r} {day!r}'


class Root:
    boxes = BoxesController()
    counters = CountersController()


@pytest.fixture(scope='module')
def app():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


def error(response, status, code):
    assert response.status_int == status
    (body,) = response.json['errors']
    assert body['code'] == code
    return body['detail']


@pytest.mark.parametrize('version, keys', [
    ('1.0', {'name', 'size'}),
    ('1.1', {'name', 'colour', 'size'}),
    ('1.2', {'name', 'colour'}),
])
def test_return_value_is_filtered(app, version, keys):
    assert set(app.get('/boxes/b', headers=at(version)).json) == keys
    (item,) = app.get('/boxes', headers=at(version)).json
    assert set(item) == keys


def test_body_is_checked_against_the_version(app):
    SEEN.clear()
    detail = error(app.post_json('/boxes', {'name': 'b', 'colour': 'red'},
                                 headers=at('1.0'), expect_errors=True),
                   400, 'microversion.field_unavailable')
    assert "'colour'" in detail and '1.0' in detail
    error(app.post_json('/boxes', {'name': 'b', 'size': 1},
                        headers=at('1.2'), expect_errors=True),
          400, 'microversion.field_unavailable')
    error(app.post_json('/boxes', {'name': 'b', 'shape': 'x'},
                        expect_errors=True),
          400, 'microversion.unknown_field')
    assert SEEN == []  # the method never ran
    response = app.post_json('/boxes', {'name': 'b', 'colour': 'red'},
                             headers=at('1.2'))
    assert response.status_int == 201
    assert response.json == {'name': 'b', 'colour': 'red'}
    assert SEEN[-1].colour == 'red'


@pytest.mark.parametrize('body', [b'', b'null'])
def test_missing_body_is_400(app, body):
    response = app.post('/boxes', body, headers=dict(
        at('1.1'), **{'Content-Type': 'application/json'}),
        expect_errors=True)
    detail = error(response, 400, 'microversion.missing_body')
    assert detail.startswith('This request needs a')


def test_patch_of_checks_operations(app):
    SEEN.clear()
    error(app.patch_json('/boxes/b', [{'op': 'replace', 'path': '/colour',
                                       'value': 'x'}],
                         headers=at('1.0'), expect_errors=True),
          400, 'microversion.field_unavailable')
    error(app.patch_json('/boxes/b', [{'op': 'replace', 'path': '/nope',
                                       'value': 'x'}],
                         headers=at('1.2'), expect_errors=True),
          400, 'microversion.unknown_field')
    error(app.patch_json('/boxes/b', {'op': 'replace'}, headers=at('1.2'),
                         expect_errors=True),
          400, 'microversion.invalid_patch')
    assert SEEN == []
    body = app.patch_json('/boxes/b', [{'op': 'replace', 'path': '/colour',
                                        'value': 'x'}],
                          headers=at('1.2')).json
    assert body == {'name': 'b', 'colour': 'blue'}
    assert SEEN == [['/colour']]


def test_unbound_versioned_type_fails_at_import():
    class Loose(wtypes.Base):
        name = wtypes.text
        extra = versioned(wtypes.text, min_version='1.1')

    class Holder(wtypes.Base):
        items = [Loose]

    def method(self, value=None):
        return value

    for types in ((Loose,), (Holder,), (None, Loose), ({str: Holder},)):
        with pytest.raises(InvalidDeclarationError) as info:
            versioned_wsexpose(*types)(method)
        assert 'Loose has versioned attributes but is not bound' in str(
            info.value)
    with pytest.raises(InvalidDeclarationError):
        versioned_wsexpose(None, body=Loose)(lambda self, loose: None)
    with pytest.raises(InvalidDeclarationError):
        versioned_wsexpose(None, wtypes.text, body=[JsonPatchOperation],
                           patch_of=Loose)(lambda self, a, patch: None)


@pytest.mark.parametrize('version', ['1.8', '1.9'])
def test_a_json_body_is_parsed_once(api, monkeypatch, version):
    """The library parses the body once (at 1.8 converting it up without
    writing it out for WSME to parse again); WSME builds the argument from
    that.  Pecan's routing reads ``request.json`` on its own, for any app."""
    import json
    import sys

    parsed = []
    real_decode = json.JSONDecoder.decode

    def counting_decode(self, text, *args, **kwargs):
        caller = sys._getframe(1)
        if caller.f_globals['__name__'] == 'json':  # json.loads: its caller
            caller = caller.f_back
        if caller.f_globals['__name__'] != 'webob.request':
            parsed.append(text)
        return real_decode(self, text, *args, **kwargs)

    monkeypatch.setattr(json.JSONDecoder, 'decode', counting_decode)
    owner = 'alice' if version == '1.8' else {'name': 'alice'}
    response = api.post_json(
        '/v1/nodes', {'name': 'once', 'hardware_type': 'ipmi',
                      'owner': owner},
        headers={'OpenStack-API-Version': f'fleet {version}'})
    monkeypatch.undo()
    assert response.status_int == 201
    assert response.json['owner'] == owner if version == '1.8' else {
        'name': 'alice', 'domain': 'default'}
    assert len(parsed) == 1


@pytest.mark.parametrize('path, expected', [
    ('/counters/7', "7 'asc' None"),
    ('/counters/7/desc', "7 'desc' None"),
    ('/counters/7/desc/2026-01-02', "7 'desc' datetime.date(2026, 1, 2)"),
])
def test_path_arguments_and_defaults_reach_the_method_as_wsme_reads_them(
        app, path, expected):
    assert app.get(path, headers=at('1.2')).json == expected


@pytest.mark.parametrize('path', ['/counters/seven', '/counters/7/a/soon'])
def test_a_path_argument_wsme_cannot_read_is_a_400(app, path):
    response = app.get(path, headers=at('1.2'), expect_errors=True)
    assert response.status_int == 400


PATCH_TYPE = 'application/json-patch+json'


def _patch(app, body, content_type, version='1.2'):
    return app.patch('/boxes/b', body, headers=dict(
        at(version), **{'Content-Type': content_type}), expect_errors=True)


@pytest.mark.parametrize('content_type', [
    PATCH_TYPE, f'{PATCH_TYPE}; charset=utf-8'])
def test_a_patch_may_be_sent_as_json_patch(app, content_type):
    SEEN.clear()
    response = _patch(app, b'[{"op": "replace", "path": "/colour", '
                           b'"value": "x"}]', content_type)
    assert response.status_int == 200
    assert SEEN == [['/colour']]


@pytest.mark.parametrize('body, status, code', [
    (b'[{"op": "replace", "path": "/colour", "value": "x"}]', 400,
     'microversion.field_unavailable'),       # colour is new at 1.1
    (b'[{"op": "replace", "path": "/nope", "value": "x"}]', 400,
     'microversion.unknown_field'),
    (b'{"op": "replace"}', 400, 'microversion.invalid_patch'),
    (b'[{"op": "replace", "op": "add", "path": "/name", "value": "x"}]',
     400, 'microversion.invalid_body'),
    (b'[{', 400, 'http.bad_request'),
])
def test_a_json_patch_body_is_checked_as_a_json_one(app, body, status, code):
    SEEN.clear()
    as_json = _patch(app, body, 'application/json', '1.0')
    as_patch = _patch(app, body, PATCH_TYPE, '1.0')
    error(as_patch, status, code)
    assert as_patch.json == as_json.json
    assert SEEN == []


def test_json_patch_is_not_read_for_other_bodies(app):
    response = app.post('/boxes', b'{"name": "b"}', headers=dict(
        at('1.2'), **{'Content-Type': PATCH_TYPE}), expect_errors=True)
    assert PATCH_TYPE not in error(response, 415,
                                   'microversion.unsupported_media_type'
                                   ).split(', not ')[0]
    refused = _patch(app, b'[]', 'application/merge-patch+json')
    assert PATCH_TYPE in error(refused, 415,
                               'microversion.unsupported_media_type')
