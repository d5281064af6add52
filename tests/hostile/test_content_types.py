"""Content-Type parameters that WebOb reads while Pecan routes.

Pecan reads ``request.params`` while routing any request but a GET, so
WebOb parses a form or ``multipart/form-data`` body before any controller
runs: it refuses a charset other than UTF-8 with a ``DeprecationWarning``
and Python's form parser a missing or invalid boundary with a
``ValueError``, both a 500.  The hook must refuse them first, with a 4xx in
the JSON errors format, on any URL and method, reading the charset as WebOb
reads it (the first one, double quotes stripped before spaces) and refusing
a charset named twice rather than guessing which one counts.  Pecan also
decodes a JSON body while routing, and answers one that is not UTF-8 with
its own 400 that does not say why: the hook names the problem first.
"""

from __future__ import annotations

import pytest

from tests.hostile.contract_app import App

FORM = 'application/x-www-form-urlencoded'
MULTIPART = 'multipart/form-data'


def _part(headers: bytes = b'', value: bytes = b'b') -> bytes:
    return (b'--XyZ\r\nContent-Disposition: form-data; name="a"\r\n'
            + headers + b'\r\n' + value + b'\r\n--XyZ--\r\n')


REFUSED = [
    # WebOb reads the first charset, a parameter parser the last
    (f'{FORM}; charset=latin1; charset=utf-8', b'node.name=a', 400,
     'microversion.invalid_content_type', 'more than once'),
    (f'{FORM}; charset=utf-8; charset=latin1', b'node.name=a', 400,
     'microversion.invalid_content_type', 'more than once'),
    ('application/json; charset=latin1; charset=utf-8', b'{}', 400,
     'microversion.invalid_content_type', 'more than once'),
    # single quotes are not HTTP's quotes: WebOb keeps them
    (f"{FORM}; charset='utf-8'", b'node.name=a', 415,
     'microversion.unsupported_charset', "'utf-8'"),
    # WebOb strips the quotes before the space: it reads '"utf-8'
    (f'{FORM}; charset= "utf-8"', b'node.name=a', 400,
     'microversion.invalid_content_type', 'charset parameter'),
    (f'{FORM}; charset="utf-8" ', b'node.name=a', 400,
     'microversion.invalid_content_type', 'charset parameter'),
    # a charset WebOb does not see, or one only WebOb sees
    (f'{FORM}; charset =latin1', b'node.name=a', 400,
     'microversion.invalid_content_type', 'charset parameter'),
    (f'{FORM}; x="a;charset=latin1"', b'node.name=a', 400,
     'microversion.invalid_content_type', 'charset parameter'),
    # WebOb parses a POST body without a media type as a form
    ('; charset=latin1', b'a=b', 415, 'microversion.unsupported_charset',
     'latin1'),
    (f'{MULTIPART}; boundary=XyZ; charset=latin1', _part(), 415,
     'microversion.unsupported_charset', 'latin1'),
    (MULTIPART, _part(), 400, 'microversion.invalid_content_type',
     'boundary'),
    (f'{MULTIPART}; boundary=', b'x', 400,
     'microversion.invalid_content_type', 'boundary'),
    (f'{MULTIPART}; boundary=""', b'x', 400,
     'microversion.invalid_content_type', 'boundary'),
    (f'{MULTIPART}; boundary=X\xe9', b'x', 400,
     'microversion.invalid_content_type', 'boundary'),
    (f'{MULTIPART}; boundary={"a" * 202}', b'x', 400,
     'microversion.invalid_content_type', 'boundary'),
    (f'{MULTIPART}; boundary=XyZ; boundary=', _part(), 400,
     'microversion.invalid_content_type', 'more than once'),
    # parts that Python's form parser fails on
    (f'{MULTIPART}; boundary=XyZ',
     _part(b'Content-Type: text/plain; charset=x-nowhere\r\n'), 400,
     'microversion.invalid_content_type', 'x-nowhere'),
    (f'{MULTIPART}; boundary=XyZ', _part(b'Content-Type: multipart/mixed\r\n'),
     400, 'microversion.invalid_content_type', 'boundary'),
    # JSON bodies Pecan decodes while routing
    ('application/json', b'{"name": "\xff"}', 400,
     'microversion.invalid_body', 'JSON body is not UTF-8'),
    ('application/javascript', b'{"name": "\xe9"}', 400,
     'microversion.invalid_body', 'JSON body is not UTF-8'),
    ('application/json; charset=utf-8', b'\xff\xfe{}', 400,
     'microversion.invalid_body', 'JSON body is not UTF-8'),
]


@pytest.mark.parametrize('content_type, body, status, code, named', REFUSED)
@pytest.mark.parametrize('method', ['POST', 'PUT', 'PATCH', 'DELETE'])
@pytest.mark.parametrize('path', ['/v1/nodes', '/v1/', '/nowhere'])
def test_content_type_is_a_4xx_before_routing(api, store, path, method,
                                              content_type, body, status,
                                              code, named):
    before = store.list()
    response = api.request(path, method=method, body=body, headers={
        'OpenStack-API-Version': 'fleet 1.2', 'Content-Type': content_type},
        expect_errors=True)
    assert response.status_int == status, (response.status,
                                           response.body[:300])
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert (error['status'], error['code']) == (status, code)
    assert named in error['detail']
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.2'
    assert store.list() == before


@pytest.mark.parametrize('content_type, body', [
    (f'{FORM}; charset="utf-8"', b'node.name=a&node.driver=ipmi'),
    (f'{FORM}; charset=UTF-8', b'node.name=a&node.driver=ipmi'),
    (f'{FORM};charset=utf8', b'node.name=a&node.driver=ipmi'),
    ('application/json; charset="utf-8"', b'{"name": "a", "driver": "ipmi"}'),
])
def test_one_utf8_charset_in_either_form_is_served(api, store, content_type,
                                                   body):
    response = api.post('/v1/nodes', body, headers={
        'OpenStack-API-Version': 'fleet 1.0', 'Content-Type': content_type})
    assert response.json['name'] == 'a'
    assert len(store.list()) == 4


@pytest.mark.parametrize('boundary', ['XyZ', '"XyZ"'])
def test_multipart_with_a_boundary_reaches_the_media_type_check(api,
                                                                boundary):
    # Past the hook: the method's own 415 for a body WSME does not read.
    response = api.post('/v1/nodes', _part(), headers={
        'OpenStack-API-Version': 'fleet 1.0',
        'Content-Type': f'{MULTIPART}; boundary={boundary}'},
        expect_errors=True)
    assert response.status_int == 415
    assert response.json['errors'][0]['code'] == \
        'microversion.unsupported_media_type'


@pytest.mark.parametrize('content_type, status', [
    (f'{FORM}; charset=latin1; charset=utf-8', 400),
    (f"{FORM}; charset='utf-8'", 415),
    (f'{FORM}; charset= "utf-8"', 400),
])
def test_gadget_service_refuses_the_charset_before_any_controller(
        content_type, status):
    app = App()
    app.reset()
    response = app.client.post('/gadgets', 'gadget.name=n', headers={
        'Content-Type': content_type, 'OpenStack-API-Version': 'gadget 1.0'},
        expect_errors=True)
    assert response.status_int == status
    assert response.json['errors'][0]['status'] == status
    assert app.received == []


@pytest.mark.parametrize('method', ['GET', 'HEAD'])
@pytest.mark.parametrize('charset', ['x-nowhere', '\x00'])
def test_a_get_naming_a_charset_python_lacks_is_a_415(api, method, charset):
    # A NUL made codecs.lookup raise ValueError, not LookupError: a 500.
    response = api.request('/v1/nodes', method=method, headers={
        'OpenStack-API-Version': 'fleet 1.2',
        'Content-Type': f'application/json; charset={charset}'},
        expect_errors=True)
    assert response.status_int == 415
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.2'


SEED = '00000000-0000-0000-0000-000000000001'
#: Content types with no body to decode: nothing reads the charset.
BODILESS_SERVED = ['application/json; charset=latin-1',
                   'application/json; charset=latin1; charset=utf-8',
                   'application/merge-patch+json; charset=utf-16',
                   "text/plain; charset='utf-8'",
                   'application/javascript; charset=iso-8859-1']


@pytest.mark.parametrize('content_type', BODILESS_SERVED)
@pytest.mark.parametrize('method', ['GET', 'HEAD'])
def test_a_bodiless_read_is_not_refused_for_its_charset(api, method,
                                                        content_type):
    response = api.request(f'/v1/nodes/{SEED}', method=method, headers={
        'OpenStack-API-Version': 'fleet 1.2', 'Content-Type': content_type})
    assert response.status_int == 200


@pytest.mark.parametrize('content_type', BODILESS_SERVED)
@pytest.mark.parametrize('method', ['DELETE', 'POST', 'PUT', 'PATCH',
                                    'OPTIONS'])
def test_any_bodiless_method_reaches_its_url_whatever_the_charset(
        api, store, method, content_type):
    # Past the checks before routing: the URL's own answer (the demo's
    # node URL answers GET, HEAD and, from 1.3, PATCH, whose method judges
    # the media type and needs a JSON body).
    before = store.list()
    response = api.request(f'/v1/nodes/{SEED}', method=method, headers={
        'OpenStack-API-Version': 'fleet 1.3', 'Content-Type': content_type},
        expect_errors=True)
    error = response.json['errors'][0]
    assert error['code'] != 'microversion.unsupported_charset'
    assert error['code'] != 'microversion.invalid_content_type'
    if method == 'PATCH':
        assert error['code'] in ('microversion.invalid_body',
                                 'fleet.unsupported_media_type'), error
    else:
        assert response.status_int == 405, error
        assert 'GET, HEAD' in response.headers['Allow']
    assert store.list() == before


@pytest.mark.parametrize('content_type, status, code', [
    # WebOb refuses a form in another charset than UTF-8 even empty ...
    (f'{FORM}; charset=latin1', 415, 'microversion.unsupported_charset'),
    ('; charset=latin1', 415, 'microversion.unsupported_charset'),
    (f'{MULTIPART}; boundary=XyZ; charset=latin1', 415,
     'microversion.unsupported_charset'),
    # ... a charset Python lacks, to decode even an empty JSON body ...
    ('application/json; charset=x-nowhere', 415,
     'microversion.unsupported_charset'),
    # ... and parses an empty multipart body, boundary needed.
    (MULTIPART, 400, 'microversion.invalid_content_type'),
])
@pytest.mark.parametrize('method', ['DELETE', 'POST', 'PUT', 'PATCH'])
def test_a_bodiless_request_is_refused_what_webob_fails_on(
        api, method, content_type, status, code):
    response = api.request(f'/v1/nodes/{SEED}', method=method, headers={
        'OpenStack-API-Version': 'fleet 1.3', 'Content-Type': content_type},
        expect_errors=True)
    assert response.status_int == status, response.body
    assert response.json['errors'][0]['code'] == code


def test_ironic_style_delete_without_a_body_names_any_charset():
    import webtest

    from pecan_microversions.examples.ironic_style import make_app
    app = webtest.TestApp(make_app())
    headers = {'X-OpenStack-Ironic-API-Version': '1.6'}
    uuid = app.post_json('/v1/nodes', {'driver': 'ipmi'},
                         headers=headers).json['uuid']
    response = app.delete(f'/v1/nodes/{uuid}', headers=dict(headers, **{
        'Content-Type': 'application/json; charset=latin-1'}))
    assert response.status_int == 204
    assert app.get(f'/v1/nodes/{uuid}', headers=headers,
                   expect_errors=True).status_int == 404
