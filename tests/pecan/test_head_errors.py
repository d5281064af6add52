"""A HEAD gets exactly the GET's status and headers, without a body, for
every error the library or the application can produce: version errors,
routing errors, 405s, 415s, body errors, and whatever a controller raises
or returns (WebOb errors, ``pecan.abort``, WSME faults, ``APIError``,
unexpected exceptions), in ``RestController`` and generic controllers,
``wsexpose`` and plain ``pecan.expose`` methods, with ``app_errors``
``'render'`` and ``'keep'``; under webtest and a real server.

``Content-Length`` is the GET body's length (RFC 9110 forbids any other
value on a HEAD's answer): one byte more when a detail named ``HEAD``
where the GET's named ``GET``, 0 when WebOb left a page unwritten."""

import http.client
import json
import urllib.parse

import pecan
import pytest
import webob.exc
import webtest
import wsme.exc
from pecan.rest import RestController
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import (
    APIError,
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    versioned_wsexpose,
)
from pecan_microversions.core.rendering import ErrorReport, api_wg_errors

REGISTRY = VersionRegistry('gizmo', [('1.0', 'a'), ('1.1', 'b')])
STANDARD = 'OpenStack-API-Version'


class Gizmo(wtypes.Base):
    name = wtypes.text


def _fail(kind):
    """Raise (or return) the error named ``kind``; None for no error."""
    if kind == 'conflict':
        raise webob.exc.HTTPConflict()
    if kind == 'conflict-detail':
        raise webob.exc.HTTPConflict(detail='The gizmo is locked.')
    if kind == 'conflict-body':
        raise webob.exc.HTTPConflict(json_body={'mine': 'yes'})
    if kind == 'returned-conflict':
        return webob.exc.HTTPConflict()
    if kind == 'returned-conflict-body':
        return webob.exc.HTTPConflict(json_body={'mine': 'yes'})
    if kind == 'unavailable':
        raise webob.exc.HTTPServiceUnavailable(
            detail='db at 10.0.0.1 is down', headers={'Retry-After': '5'})
    if kind == 'returned-unavailable':
        return webob.exc.HTTPServiceUnavailable(detail='db at 10.0.0.1')
    if kind == 'abort':
        pecan.abort(403, 'Not your gizmo.')
    if kind == 'abort-500':
        pecan.abort(500, 'secret internals')
    if kind == 'client-side':
        raise wsme.exc.ClientSideError('Bad gizmo name.')
    if kind == 'api-error':
        raise APIError('No such gizmo.', status=404,
                       error_code='gizmo.not_found')
    if kind == 'api-error-503':
        raise APIError('secret: db at 10.0.0.1', status=503,
                       error_code='gizmo.unavailable')
    if kind == 'crash':
        raise RuntimeError('secret boom')
    if kind == 'own-body':
        pecan.response.status = 404
        pecan.response.json = {'message': 'no such gizmo'}
        return pecan.response
    if kind == 'redirect':
        pecan.redirect('/plain/', code=302)
    return None


class Gizmos(VersionedRestController):
    @versioned_wsexpose(Gizmo, wtypes.text)
    def get_one(self, kind):
        return _fail(kind) or Gizmo(name=kind)

    @versioned_wsexpose(Gizmo, body=Gizmo, status_code=201)
    def post(self, gizmo):
        return gizmo


class PlainGizmos(VersionedRestController):
    @pecan.expose('json')
    def get_one(self, kind):
        return _fail(kind) or {'name': kind}


class ItemsOnly(VersionedRestController):
    """Neither URL answers GET (or HEAD): a 405 for both."""

    @pecan.expose('json')
    def put(self, ident):
        return {}


class Actions(VersionedRestController):
    """An item answers GET; its action only POST."""

    _custom_actions = {'reboot': ['POST']}

    @pecan.expose('json')
    def get_one(self, ident):
        return {'ident': ident}

    @pecan.expose('json')
    def reboot(self, how):
        return {'reboot': how}


class Generic:
    @pecan.expose(generic=True, template='json')
    def index(self, kind='none'):
        return _fail(kind) or {'kind': kind}

    @index.when(method='POST', template='json')
    def index_post(self):
        return {}


class PostOnly:
    """A generic controller that refuses GET (and HEAD with it)."""

    @pecan.expose(generic=True, template='json')
    def index(self):
        pecan.abort(405, headers={'Allow': 'POST'})

    @index.when(method='POST', template='json')
    def index_post(self):
        return {}


class Plain:
    @pecan.expose('json')
    def index(self, kind='none'):
        return _fail(kind) or {'kind': kind}

    @wsexpose(Gizmo, wtypes.text)
    def ws(self, kind='none'):
        return _fail(kind) or Gizmo(name=kind)

    @versioned_wsexpose(Gizmo, body=Gizmo)
    def body(self, gizmo):
        return gizmo


class Root:
    gizmos = Gizmos()
    plain_gizmos = PlainGizmos()
    items_only = ItemsOnly()
    actions = Actions()
    generic = Generic()
    post_only = PostOnly()
    plain = Plain()


def make_app(app_errors):
    return pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY, app_errors=app_errors)],
        debug=False, force_canonical=False)


FORM = {'Content-Type': 'application/x-www-form-urlencoded'}
#: (path, request headers, body): the library's own errors.
LIBRARY = [
    ('/gizmos/x', {STANDARD: 'gizmo 1.01'}, b''),           # 400 version
    ('/gizmos/x', {STANDARD: 'gizmo 9.9'}, b''),            # 406 version
    ('/nowhere', {}, b''),                                  # 404 routing
    ('/gizmos/x/y/z', {}, b''),                             # 404 below an item
    ('/gizmos', {}, b''),                                   # 405, Allow: POST
    ('/items_only', {}, b''),                               # 405
    ('/items_only/x', {}, b''),                             # 405, Allow: PUT
    ('/actions/x/reboot', {}, b''),                         # 405, the URL's
    ('/post_only/', {}, b''),                               # 405 (generic)
    ('/gizmos/x', {'Content-Type': 'text/xml; charset=bogus'}, b''),  # 415
    ('/gizmos/x?_method=delete', {}, b''),                  # 400 override
    ('/plain/body', FORM, b'name=x'),                       # 400 form body
    ('/plain/body', {'Content-Type': 'text/csv'}, b'x'),    # 415 body
    ('/plain/body', {'Content-Type': 'application/json'}, b'{"name": 1'),
    ('/plain/ws?unknown=1', {}, b''),                       # 400 WSME
    ('/plain/%ff', {}, b''),                                # 400 not UTF-8
]
KINDS = ['conflict', 'conflict-detail', 'conflict-body', 'returned-conflict',
         'returned-conflict-body', 'unavailable', 'returned-unavailable',
         'abort', 'abort-500', 'client-side', 'api-error', 'api-error-503',
         'crash', 'own-body', 'redirect']
#: What cannot be returned from a WSME method: its result is the datatype.
_RETURNED = {'returned-conflict', 'returned-conflict-body',
             'returned-unavailable', 'own-body'}
APPLICATION = [(f'{base}{kind}', {}, b'')
               for base in ('/plain_gizmos/', '/generic/?kind=',
                            '/plain/?kind=')
               for kind in KINDS] + [
              (f'{base}{kind}', {}, b'')
              for base in ('/gizmos/', '/plain/ws?kind=')
              for kind in KINDS if kind not in _RETURNED]
CASES = LIBRARY + APPLICATION
#: With 'keep', an exception a plain method raises reaches the WSGI server.
_UNHANDLED = {'client-side', 'crash'}


def _unhandled(app_errors, path):
    return app_errors == 'keep' and not any(
        base in path for base in ('/gizmos/', '/plain/ws')) and any(
        path.endswith(f'={kind}') or path.endswith(f'/{kind}')
        for kind in _UNHANDLED)


def _headers(pairs):
    return sorted((name.lower(), value) for name, value in pairs
                  if name.lower() != 'date')


def _check(case, get, head):
    """HEAD's answer is GET's: status, every header, no body."""
    (get_status, get_headers, get_body) = get
    (head_status, head_headers, head_body) = head
    assert head_status == get_status, case
    assert head_body == b'', case
    assert _headers(head_headers) == _headers(get_headers), case
    length = dict(_headers(get_headers)).get('content-length')
    assert length is None or int(length) == len(get_body), case


_APPS: dict = {}


def _app(app_errors):
    """One app per mode, shared by the cases."""
    if app_errors not in _APPS:
        _APPS[app_errors] = webtest.TestApp(make_app(app_errors))
    return _APPS[app_errors]


#: Every case in both modes, but those 'keep' leaves to the WSGI server (an
#: exception from a plain method: no response to compare).
MODE_CASES = [(mode, *case) for mode in ('render', 'keep') for case in CASES
              if not _unhandled(mode, case[0])]


@pytest.mark.parametrize(
    'app_errors, path, headers, body', MODE_CASES,
    ids=[f'{c[0]} {c[1]}' + (' ' + c[2].get('Content-Type', '')
                             if c[2] else '') for c in MODE_CASES])
def test_head_gets_the_gets_status_and_headers(app_errors, path, headers,
                                               body):
    answers = [_app(app_errors).request(
        path, method=method, headers=headers, body=body, expect_errors=True)
        for method in ('GET', 'HEAD')]
    get, head = ((a.status_int, a.headerlist, a.body) for a in answers)
    assert get[0] >= 300, 'every case is an error (or a redirect)'
    _check(path, get, head)


def _over_http(base, method, path, headers, body):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port,
                                            timeout=10)
    try:
        connection.request(method, path, body=body or None, headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.getheaders(), answer.read()
    finally:
        connection.close()


@pytest.mark.parametrize('mode', ['render', 'keep'])
def test_head_gets_the_gets_status_and_headers_over_a_real_server(
        serve, mode):
    base = serve(make_app(mode))
    for path, headers, body in CASES:
        get = _over_http(base, 'GET', path, headers, body)
        head = _over_http(base, 'HEAD', path, headers, body)
        assert get[0] >= 300, path
        _check((mode, path), get, head)


@pytest.mark.parametrize('mode', ['render', 'keep'])
def test_a_refusal_names_get_for_a_head_the_url_refuses_with_get(mode):
    # The detail is the GET's, as the length says: the HEAD's body would
    # have been it.
    app = webtest.TestApp(make_app(mode))
    for path in ('/gizmos', '/items_only/x', '/actions/x/reboot',
                 '/post_only/'):
        refused = app.get(path, status=405)
        assert b'GET' in refused.body and b'HEAD' not in refused.body
        assert app.head(path, status=405).headers['Content-Length'] == str(
            len(refused.body))


def test_a_head_a_url_refuses_while_it_answers_get_names_head():
    # A plain RestController answers GET but refuses HEAD: that refusal is
    # the HEAD's own (Allow names GET), and its detail says HEAD.
    class Things(RestController):
        @pecan.expose('json')
        def get_all(self):
            return []

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))
    assert app.get('/things').json == []
    head = app.head('/things', status=405)
    assert head.headers['Allow'] == 'GET'
    own = api_wg_errors(ErrorReport(
        405, 'http.method_not_allowed', 'Method Not Allowed',
        'The method HEAD is not allowed for this URL.', None, {}))
    assert head.headers['Content-Length'] == str(len(json.dumps(own)))


@pytest.mark.parametrize('mode', ['render', 'keep'])
def test_a_webob_page_sent_to_a_head_has_the_gets_type_and_length(mode):
    # WebOb writes an HTTP error's (or redirect's) page when it sends it,
    # but not for a HEAD, to which it said Content-Length: 0, text/html.
    app = webtest.TestApp(make_app(mode))
    for path, status in [('/plain/?kind=redirect', 302),
                         ('/plain/?kind=conflict', 409)]:
        if mode == 'render' and status == 409:
            continue  # rendered in the error format instead
        get = app.get(path, status=status)
        head = app.head(path, status=status)
        assert get.content_type == 'text/plain' and get.body
        assert head.content_type == 'text/plain'
        assert head.headers['Content-Length'] == str(len(get.body))
