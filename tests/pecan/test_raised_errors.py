"""An error the application raises is answered as the same error returned
is: a body the application wrote itself is kept (``app_errors='render'``
and ``'keep'`` alike), any other is written in the service's format with
``'render'``; and with ``'render'`` no 5xx tells the client its text,
whatever the way it came (raised, returned, aborted, WSME fault,
``APIError``, unexpected exception): the generic sentence, the text
logged."""

import http.client
import json
import logging
import urllib.parse

import pecan
import pytest
import webob.exc
import webtest
import wsme.exc
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import (
    APIError,
    MicroversionHook,
    VersionRegistry,
    versioned_wsexpose,
)
from pecan_microversions.pecan.errors import INTERNAL_ERROR

REGISTRY = VersionRegistry('gizmo', [('1.0', 'a')])


class Gizmo(wtypes.Base):
    name = wtypes.text


def _error(kind):
    if kind == 'raised':
        raise webob.exc.HTTPConflict(json_body={'mine': 'raised'})
    if kind == 'returned':
        return webob.exc.HTTPConflict(json_body={'mine': 'returned'})
    if kind == 'aborted':
        pecan.abort(409, json_body={'mine': 'aborted'})
    if kind == 'raised-text':
        raise webob.exc.HTTPConflict(body=b'locked', content_type='text/plain')
    if kind == 'raised-plain':
        raise webob.exc.HTTPConflict(detail='The gizmo is locked.')
    if kind == 'returned-plain':
        return webob.exc.HTTPConflict(detail='The gizmo is locked.')
    if kind == 'caught-then-raised':
        try:
            raise APIError('secret: shard on 10.0.0.1 is read-only',
                           status=409)
        except APIError:
            pass  # the application handles it, then answers otherwise
        raise webob.exc.HTTPConflict(json_body={'mine': kind})
    if kind == 'caught-then-returned':
        try:
            raise APIError('secret: shard on 10.0.0.1 is read-only',
                           status=409)
        except APIError:
            pass
        return webob.exc.HTTPConflict(json_body={'mine': kind})
    if kind.startswith('caught-404-then-'):
        try:  # "by uuid, then by name", as Ironic looks a node up
            raise APIError('secret: no node by uuid on 10.0.0.1',
                           status=404, error_code='gizmo.not_found')
        except APIError:
            pass
        return _error(kind[len('caught-404-then-'):])
    return _server_error(kind)


def _server_error(kind):
    if kind == 'raised-503':
        raise webob.exc.HTTPServiceUnavailable(
            detail='secret: db at 10.0.0.1', headers={'Retry-After': '30'})
    if kind == 'returned-503':
        return webob.exc.HTTPServiceUnavailable(
            detail='secret: db at 10.0.0.1', headers={'Retry-After': '30'})
    if kind == 'aborted-500':
        pecan.abort(500, 'secret: db at 10.0.0.1')
    if kind == 'client-side-500':
        raise wsme.exc.ClientSideError('secret: db at 10.0.0.1',
                                       status_code=500)
    if kind == 'api-error-503':
        raise APIError('secret: db at 10.0.0.1', status=503,
                       error_code='gizmo.unavailable',
                       headers={'Retry-After': '30'})
    if kind == 'crash':
        raise RuntimeError('secret: db at 10.0.0.1')
    if kind.startswith('client-side-status-'):  # not an error status
        status = kind[len('client-side-status-'):]
        raise wsme.exc.ClientSideError('secret: db at 10.0.0.1', status_code=(
            int(status) if status.isdigit() else None))
    if kind == 'client-side-400':
        raise wsme.exc.ClientSideError('The name is too long.')
    if kind == 'raised-503-own-json':
        raise webob.exc.HTTPServiceUnavailable(
            json_body={'secret': 'db at 10.0.0.1'})
    if kind == 'returned-503-own-json':
        return webob.exc.HTTPServiceUnavailable(
            json_body={'secret': 'db at 10.0.0.1'})
    if kind == 'aborted-500-own-text':
        pecan.abort(500, text='secret: db at 10.0.0.1')
    if kind == 'set-500-own-body':
        pecan.response.status = 500
        return {'secret': 'db at 10.0.0.1'}
    raise AssertionError(kind)


class Generic:
    @pecan.expose(generic=True, template='json')
    def index(self, kind):
        return _error(kind)


class Root:
    generic = Generic()

    @pecan.expose('json')
    def plain(self, kind):
        return _error(kind)

    @wsexpose(Gizmo, wtypes.text)
    def ws(self, kind):
        return _error(kind)

    @versioned_wsexpose(Gizmo, wtypes.text)
    def versioned(self, kind):
        return _error(kind)


def _app(app_errors):
    return pecan.make_app(Root(), hooks=[MicroversionHook(
        REGISTRY, app_errors=app_errors)], debug=False)


@pytest.fixture(params=['render', 'keep'])
def app_errors(request):
    return request.param


@pytest.mark.parametrize('accept', [None, '*/*', 'application/json, */*'])
@pytest.mark.parametrize('base', ['/plain?kind=', '/generic/?kind='])
@pytest.mark.parametrize('kind', ['raised', 'returned', 'aborted'])
def test_a_json_body_the_application_wrote_is_kept_raised_or_returned(
        app_errors, accept, base, kind):
    app = webtest.TestApp(_app(app_errors))
    headers = {'Accept': accept} if accept else {}
    got = app.get(base + kind, headers=headers, status=409)
    assert got.json == {'mine': kind}
    assert got.headers['OpenStack-API-Version'] == 'gizmo 1.0'


def test_a_text_body_the_application_wrote_is_kept_when_raised(app_errors):
    app = webtest.TestApp(_app(app_errors))
    got = app.get('/plain?kind=raised-text', status=409)
    assert (got.content_type, got.body) == ('text/plain', b'locked')


@pytest.mark.parametrize('kind', ['raised-plain', 'returned-plain'])
def test_an_error_without_a_body_of_its_own_is_rendered(kind):
    app = webtest.TestApp(_app('render'))
    (error,) = app.get('/plain?kind=' + kind, status=409).json['errors']
    assert (error['code'], error['detail']) == ('http.conflict',
                                                'The gizmo is locked.')


def test_pecan_writes_its_page_over_a_raised_error_for_a_json_client():
    # Why a raised error's own body cannot always be kept: for a client
    # that prefers JSON, Pecan replaces it before any hook runs.
    class Bare:
        @pecan.expose('json')
        def index(self):
            raise webob.exc.HTTPConflict(json_body={'mine': 'raised'})

    app = webtest.TestApp(pecan.make_app(Bare(), debug=False))
    got = app.get('/', headers={'Accept': 'application/json'}, status=409)
    assert got.json == {'code': 409, 'title': 'Conflict',
                        'description': None}


def test_a_raised_body_pecan_replaced_is_rendered_a_returned_one_kept():
    app = webtest.TestApp(_app('render'))
    json_client = {'Accept': 'application/json'}
    raised = app.get('/plain?kind=raised', headers=json_client, status=409)
    (error,) = raised.json['errors']
    assert error['code'] == 'http.conflict'
    returned = app.get('/plain?kind=returned', headers=json_client,
                       status=409)
    assert returned.json == {'mine': 'returned'}


def _over_http(base, path):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port,
                                            timeout=10)
    try:
        connection.request('GET', path)
        answer = connection.getresponse()
        return answer.status, answer.getheader('Content-Type'), answer.read()
    finally:
        connection.close()


def test_raised_and_returned_bodies_over_a_real_server(serve):
    base = serve(_app('render'))
    for kind in ('raised', 'returned', 'aborted'):
        status, content_type, body = _over_http(base, '/plain?kind=' + kind)
        assert (status, content_type) == (409, 'application/json'), kind
        assert json.loads(body) == {'mine': kind}
    status, _, body = _over_http(base, '/plain?kind=raised-503')
    assert status == 503 and b'secret' not in body
    assert json.loads(body)['errors'][0]['detail'] == INTERNAL_ERROR


SERVER_ERRORS = [
    ('/plain?kind=raised-503', 503), ('/generic/?kind=raised-503', 503),
    ('/plain?kind=returned-503', 503), ('/plain?kind=aborted-500', 500),
    ('/plain?kind=client-side-500', 500),
    ('/plain?kind=crash', 500), ('/ws?kind=raised-503', 503),
    ('/ws?kind=crash', 500),
    ('/versioned?kind=raised-503', 503),
    ('/versioned?kind=client-side-500', 500),
]


@pytest.mark.parametrize('path, status', SERVER_ERRORS)
def test_no_5xx_tells_its_text_with_render(caplog, path, status):
    app = webtest.TestApp(_app('render'))
    with caplog.at_level(logging.WARNING):
        got = app.get(path, status=status)
    assert b'secret' not in got.body and b'10.0.0.1' not in got.body
    (error,) = got.json['errors']
    assert (error['status'], error['detail']) == (status, INTERNAL_ERROR)
    assert 'secret: db at 10.0.0.1' in caplog.text  # it is logged
    if 'api-error' in path:
        assert error['code'] == 'gizmo.unavailable'  # the code stays
    # Its headers stay, but those of a WebOb error WSME made a fault of.
    if 'api-error' in path or path.startswith(('/plain?kind=raised-503',
                                               '/plain?kind=returned-503',
                                               '/generic/')):
        assert got.headers['Retry-After'] == '30'


@pytest.mark.parametrize('status', ['200', '302', '399', '600', '999',
                                    'none'])
@pytest.mark.parametrize('path', ['/plain', '/generic/'])
def test_a_client_side_error_without_an_error_status_is_a_500(caplog, path,
                                                              status):
    # The service's bug, not the client's: the hook raised ValueError
    # building the error, and the client got a bare 500 without version
    # headers.
    app = webtest.TestApp(_app('render'))
    with caplog.at_level(logging.ERROR):
        got = app.get(f'{path}?kind=client-side-status-{status}', status=500)
    assert got.json['errors'][0]['detail'] == INTERNAL_ERROR
    assert got.json['errors'][0]['code'] == 'http.internal_server_error'
    assert got.headers['OpenStack-API-Version'] == 'gizmo 1.0'
    assert b'secret' not in got.body
    assert 'not an HTTP error status' in caplog.text
    assert 'secret: db at 10.0.0.1' in caplog.text  # with its traceback


@pytest.mark.parametrize('mode', ['render', 'keep'])
@pytest.mark.parametrize('path', ['/plain?kind=api-error-503',
                                  '/ws?kind=api-error-503',
                                  '/versioned?kind=api-error-503'])
def test_an_api_errors_detail_is_sent_as_written_even_for_a_5xx(mode, path):
    # An APIError is the application's deliberate answer to the client
    # (a 503 saying what is unavailable): its detail is its own words.
    got = webtest.TestApp(_app(mode)).get(path, status=503)
    (error,) = got.json['errors']
    assert (error['detail'], error['code']) == ('secret: db at 10.0.0.1',
                                                'gizmo.unavailable')
    assert got.headers['Retry-After'] == '30'


def test_keep_leaves_the_texts_of_the_applications_5xx():
    # As documented: 'keep' leaves the application's error responses as
    # they are, a 5xx's message included; an APIError is the library's
    # to render, its detail as the application wrote it.
    app = webtest.TestApp(_app('keep'))
    page = app.get('/plain?kind=raised-503', status=503)
    assert page.content_type == 'text/plain'
    assert b'secret: db at 10.0.0.1' in page.body
    api = app.get('/plain?kind=api-error-503', status=503)
    assert api.json['errors'][0]['detail'] == 'secret: db at 10.0.0.1'


@pytest.mark.parametrize('accept', [None, '*/*', 'application/json'])
@pytest.mark.parametrize('kind', ['raised-503-own-json',
                                  'returned-503-own-json',
                                  'aborted-500-own-text',
                                  'set-500-own-body'])
def test_a_5xx_body_of_the_applications_own_is_not_sent_with_render(
        caplog, accept, kind):
    # Whatever the client accepts: a 5xx's text, in a body the application
    # wrote or not, is not the client's business.
    headers = {'Accept': accept} if accept else {}
    with caplog.at_level(logging.WARNING):
        got = webtest.TestApp(_app('render')).get(
            '/plain?kind=' + kind, headers=headers, status='*')
    assert got.status_int >= 500
    assert b'secret' not in got.body and b'10.0.0.1' not in got.body
    assert got.json['errors'][0]['detail'] == INTERNAL_ERROR
    if accept != 'application/json' or not kind.startswith(('raised',
                                                              'aborted')):
        # logged (for a raised one Pecan wrote its page over the body
        # before any hook, when the client asked for JSON)
        assert 'db at 10.0.0.1' in caplog.text


def test_keep_sends_a_5xx_body_of_the_applications_own():
    got = webtest.TestApp(_app('keep')).get(
        '/plain?kind=returned-503-own-json', status=503)
    assert got.json == {'secret': 'db at 10.0.0.1'}


@pytest.mark.parametrize('kind', ['caught-then-raised',
                                  'caught-then-returned'])
def test_an_error_the_application_caught_is_not_the_one_it_answers(
        app_errors, kind):
    got = webtest.TestApp(_app(app_errors)).get('/plain?kind=' + kind,
                                                status=409)
    assert got.json == {'mine': kind}
    assert b'secret' not in got.body


@pytest.mark.parametrize('base', ['/ws?kind=', '/versioned?kind='])
@pytest.mark.parametrize('then, status, detail', [
    ('client-side-400', 400, 'The name is too long.'),
    ('crash', 500, INTERNAL_ERROR),
])
def test_an_error_a_wsme_method_caught_is_not_the_one_it_answers(
        caplog, base, then, status, detail):
    # WSME writes its own fault for the later error; the caught APIError
    # stood for it (its 404 text sent as a 400), or, of another status,
    # left WSME's fault as it was: a 500 with the exception's text.
    with caplog.at_level(logging.WARNING):
        got = webtest.TestApp(_app('render')).get(
            base + 'caught-404-then-' + then, status=status)
    (error,) = got.json['errors']
    assert error['detail'] == detail
    assert error['code'] == ('http.bad_request' if status == 400
                             else 'http.internal_server_error')
    assert b'secret' not in got.body and b'10.0.0.1' not in got.body


@pytest.mark.parametrize('base', ['/ws?kind=', '/versioned?kind='])
def test_an_api_error_a_wsme_method_raises_is_still_its_answer(base):
    got = webtest.TestApp(_app('render')).get(base + 'api-error-503',
                                              status=503)
    assert got.json['errors'][0]['code'] == 'gizmo.unavailable'
    assert got.headers['Retry-After'] == '30'


class _Shared(APIError):
    """An APIError whose WSME fault text is its ``faultstring``."""

    faultstring = 'The gizmo is shared.'


class Gizmos:
    @wsexpose(Gizmo, wtypes.text)
    def index(self, name):
        if name == 'shared':
            raise _Shared('shared', status=409, error_code='gizmo.shared')
        raise APIError(f'Gizmo {name} could not be found.', status=404,
                       error_code='gizmo.not_found',
                       headers={'Retry-After': '5'})


@pytest.mark.parametrize('accept', ['application/json', 'application/xml'])
@pytest.mark.parametrize('name, status, code', [
    ('x\r', 404, 'gizmo.not_found'),  # XML reads the CR as a newline
    ('x', 404, 'gizmo.not_found'),
    ('shared', 409, 'gizmo.shared'),  # WSME writes its faultstring
])
@pytest.mark.parametrize('app_errors', ['render', 'keep'])
def test_an_api_error_is_known_by_the_fault_wsme_wrote_for_it(
        app_errors, accept, name, status, code):
    root = type('Root', (), {'gizmos': Gizmos()})()
    app = webtest.TestApp(pecan.make_app(root, hooks=[MicroversionHook(
        REGISTRY, app_errors=app_errors)], debug=False))
    got = app.get('/gizmos/?name=' + urllib.parse.quote(name),
                  headers={'Accept': accept}, status=status)
    assert got.json['errors'][0]['code'] == code
    if status == 404:
        assert got.headers['Retry-After'] == '5'
