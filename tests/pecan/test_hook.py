"""The hook against the example widget service (versions 1.0 to 1.3).

Negotiation table, legacy header, repeated headers (in-process and through a
real server), headers and JSON errors on every kind of response.
"""

import http.client
import json
import logging
import urllib.parse

import pecan
import pytest
import webob.exc
import webtest
from oslo_config import cfg

from pecan_microversions import (
    MicroversionHook,
    Version,
    VersionRegistry,
    get_limits,
    get_version,
)
from tests import example_app

STANDARD = 'OpenStack-API-Version'
LEGACY = 'X-OpenStack-Widget-API-Version'
ACCEPTS = [None, 'application/json', 'text/html', 'application/xml', '*/*',
           'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8']


def environ_for(value):
    """The WSGI environ a server builds for ``OpenStack-API-Version: value``.

    Values are str decoded as latin-1, as PEP 3333 servers do (repeated
    headers arrive joined with ``", "``).
    """
    return {} if value is None else {'HTTP_OPENSTACK_API_VERSION': value}


def assert_version_headers(response, served, minimum='1.0', maximum='1.3'):
    headers = response.headers
    assert headers.getall(STANDARD) == [f'widget {served}']
    assert headers.getall('OpenStack-API-Minimum-Version') == [minimum]
    assert headers.getall('OpenStack-API-Maximum-Version') == [maximum]
    vary = [v.strip().lower() for v in headers['Vary'].split(',')]
    assert STANDARD.lower() in vary


def assert_error_body(response, status, code=None, **members):
    assert response.status_int == status
    assert response.content_type == 'application/json'
    body = response.json
    assert list(body) == ['errors']
    assert len(body['errors']) == 1
    error = body['errors'][0]
    assert error['status'] == status
    assert error['title'] == http.client.responses[status]
    assert isinstance(error['detail'], str) and error['detail']
    if code is not None:
        assert error['code'] == code
    for name, value in members.items():
        assert error[name] == value
    return error


# --- the negotiation table -------------------------------------------------

#: OpenStack-API-Version value (None: no header) -> (status, version served).
#: For 400/406 the version is the one the response headers name: the default.
TABLE = [
    (None, 200, '1.0'),
    ('', 200, '1.0'),
    ('compute 2.1', 200, '1.0'),              # another service only
    ('compute 2.1, volume 3.0', 200, '1.0'),
    ('widgets 1.2', 200, '1.0'),              # not this service
    ('widget', 400, '1.0'),                   # service with no version
    ('  widget  ', 400, '1.0'),
    ('widget , ,', 400, '1.0'),
    ('widget 1.2, widget', 200, '1.2'),       # an entry with one wins
    ('widget 1.2,', 200, '1.2'),              # empty entries are ignored
    (', ,widget 1.2, ,', 200, '1.2'),
    ('widget 1.0', 200, '1.0'),
    ('widget 1.1', 200, '1.1'),
    ('widget 1.2', 200, '1.2'),
    ('widget 1.3', 200, '1.3'),
    ('WIDGET 1.2', 200, '1.2'),               # service type, any case
    ('Widget 1.2', 200, '1.2'),
    ('wIdGeT 1.1', 200, '1.1'),
    ('widget   1.2', 200, '1.2'),             # extra spaces are trimmed
    ('widget\t1.2', 200, '1.2'),
    ('widget latest', 200, '1.3'),
    ('widget LATEST', 200, '1.3'),
    ('widget Latest', 200, '1.3'),
    ('widget lAtEsT', 200, '1.3'),
    ('WIDGET LATEST', 200, '1.3'),
    # several entries: the last one for this service wins
    ('compute 2.1, widget 1.2', 200, '1.2'),
    ('widget 1.2, compute 2.1', 200, '1.2'),
    ('widget 1.1, widget 1.2', 200, '1.2'),
    ('widget 1.2, widget 1.1', 200, '1.1'),
    ('widget 1.1,widget 1.3', 200, '1.3'),
    ('widget 1.1, compute 2.1, WIDGET latest', 200, '1.3'),
    ('widget 9.9, widget 1.1', 200, '1.1'),   # an earlier bad one is ignored
    ('widget 1.01, widget 1.1', 200, '1.1'),
    ('widget 1.1, widget 9.9', 406, '1.0'),   # the last one is judged
    ('widget 1.1, widget 1.01', 400, '1.0'),
    ('compute 2.1, widget 1.x', 400, '1.0'),
    # malformed: 400
    ('widget 1', 400, '1.0'),
    ('widget 1.2.3', 400, '1.0'),
    ('widget 1.01', 400, '1.0'),
    ('widget 01.1', 400, '1.0'),
    ('widget 1.-1', 400, '1.0'),
    ('widget 1.1_0', 400, '1.0'),
    ('widget 1.+1', 400, '1.0'),
    ('widget -1.1', 400, '1.0'),
    ('widget 1.', 400, '1.0'),
    ('widget .1', 400, '1.0'),
    ('widget a.b', 400, '1.0'),
    ('widget v1.2', 400, '1.0'),
    ('widget 1.2 beta', 400, '1.0'),
    ('widget latest1', 400, '1.0'),
    ('widget late', 400, '1.0'),
    ('widget 1.²', 400, '1.0'),                        # latin-1 digit
    ('widget ١.٢'.encode().decode('latin-1'), 400, '1.0'),  # UTF-8 bytes
    ('widget 1.' + '1' * 63, 400, '1.0'),              # 65 characters
    ('widget 1,2', 400, '1.0'),      # "widget 1" is the last widget entry
    # well formed, not served: 406
    ('widget 0.0', 406, '1.0'),
    ('widget 0.9', 406, '1.0'),
    ('widget 1.4', 406, '1.0'),
    ('widget 2.0', 406, '1.0'),
    ('widget 99999999999999999999.0', 406, '1.0'),
    ('widget 1.' + '1' * 62, 406, '1.0'),              # 64 characters
]


@pytest.mark.parametrize('value, status, served', TABLE)
def test_negotiation_table(app, value, status, served):
    response = app.get('/v1/echo', extra_environ=environ_for(value),
                       status='*')
    assert response.status_int == status
    assert_version_headers(response, served)
    assert response.headers['Vary'] == f'{STANDARD}, {LEGACY}'
    assert LEGACY not in response.headers
    if status == 200:
        assert response.json == {'version': served}
    else:
        code = {400: 'microversion.invalid',
                406: 'microversion.not_acceptable'}[status]
        error = assert_error_body(response, status, code,
                                  min_version='1.0', max_version='1.3')
        assert 'request_id' not in error
        if status == 406:
            requested = value.rsplit(',', 1)[-1].split()[-1]
            assert f'Version {requested} is not supported' in error['detail']
            assert '1.0 to 1.3' in error['detail']


@pytest.mark.parametrize('value, status, served',
                         [row for row in TABLE if row[0] is not None
                          and row[0].isascii() and '\t' not in row[0]])
def test_negotiation_table_as_a_client_sends_it(app, value, status, served):
    """The same rows through webtest's headers= rather than the environ."""
    response = app.get('/v1/echo', headers={STANDARD: value}, status='*')
    assert response.status_int == status
    assert response.headers[STANDARD] == f'widget {served}'


@pytest.mark.parametrize('accept', ACCEPTS)
@pytest.mark.parametrize('value, status, code', [
    ('widget 1.01', 400, 'microversion.invalid'),
    ('widget 7.0', 406, 'microversion.not_acceptable'),
])
def test_version_errors_are_json_whatever_the_accept_header(
        app, accept, value, status, code):
    headers = {STANDARD: value}
    if accept is not None:
        headers['Accept'] = accept
    response = app.get('/v1/echo', headers=headers, status='*')
    assert_error_body(response, status, code, min_version='1.0',
                      max_version='1.3')
    assert_version_headers(response, '1.0')


def test_version_error_on_an_unrouted_path_is_the_version_error(app):
    response = app.get('/nowhere', headers={STANDARD: 'widget 1.01'},
                       status=400)
    assert_error_body(response, 400, 'microversion.invalid')


def test_version_is_on_the_request_before_routing(app):
    """``_lookup`` reads pecan.request.api_version while routing."""
    old = app.get('/v1/shapes/current')
    assert old.json == {'shape': 'old', 'version': '1.0'}
    new = app.get('/v1/shapes/current', headers={STANDARD: 'widget 1.2'})
    assert new.json == {'shape': 'new', 'version': '1.2'}
    latest = app.get('/v1/shapes/current',
                     headers={STANDARD: 'widget latest'})
    assert latest.json == {'shape': 'new', 'version': '1.3'}
    assert_version_headers(latest, '1.3')
    missing = app.get('/v1/shapes/other', headers={STANDARD: 'widget 1.2'},
                      status=404)
    assert_error_body(missing, 404, 'http.not_found')
    assert_version_headers(missing, '1.2')


def test_version_is_a_version_value(app):
    seen = {}

    class Root:
        @pecan.expose('json')
        def index(self):
            seen['attr'] = pecan.request.api_version
            seen['get'] = get_version()
            seen['limits'] = get_limits()
            return {}

    test_app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(example_app.REGISTRY)]))
    test_app.get('/', headers={STANDARD: 'widget 1.2'})
    assert seen['attr'] == seen['get'] == Version(1, 2)
    assert isinstance(seen['get'], Version)
    assert (seen['limits'].min_version, seen['limits'].max_version,
            seen['limits'].default_version) == ((1, 0), (1, 3), (1, 0))


def test_get_version_outside_the_hook_raises():
    class Root:
        @pecan.expose('json')
        def index(self):
            with pytest.raises(RuntimeError, match='MicroversionHook'):
                get_version()
            with pytest.raises(RuntimeError, match='MicroversionHook'):
                get_limits()
            return {'checked': True}

    assert webtest.TestApp(pecan.make_app(Root())).get('/').json == {
        'checked': True}



# --- legacy header ----------------------------------------------------------

@pytest.mark.parametrize('headers, status, served', [
    ({LEGACY: '1.2'}, 200, '1.2'),
    ({LEGACY: 'latest'}, 200, '1.3'),
    ({LEGACY: 'LATEST'}, 200, '1.3'),
    ({LEGACY: ' 1.1 '}, 200, '1.1'),
    ({LEGACY: '1.1, 1.2'}, 200, '1.2'),         # last value wins
    ({LEGACY: '1.2,'}, 200, '1.2'),              # empty values are ignored,
    ({LEGACY: '1.2, ,\t'}, 200, '1.2'),          # as in the standard header
    ({LEGACY: ', 1.1'}, 200, '1.1'),
    ({LEGACY: ''}, 400, '1.0'),                 # a header with no version
    ({LEGACY: ','}, 400, '1.0'),
    ({LEGACY: ' , , '}, 400, '1.0'),
    ({LEGACY: '', STANDARD: 'compute 2.1'}, 400, '1.0'),
    ({LEGACY: '1.01'}, 400, '1.0'),
    ({LEGACY: '2.0'}, 406, '1.0'),
    ({LEGACY: '1.2', STANDARD: 'compute 2.1'}, 200, '1.2'),
    ({LEGACY: '1.2', STANDARD: 'widget'}, 200, '1.2'),
])
def test_legacy_header(app, headers, status, served):
    response = app.get('/v1/echo', headers=headers, status='*')
    assert response.status_int == status
    assert_version_headers(response, served)
    assert response.headers.getall(LEGACY) == [served]
    assert response.headers['Vary'] == f'{STANDARD}, {LEGACY}'
    if status == 200:
        assert response.json == {'version': served}
    else:
        assert_error_body(response, status, min_version='1.0',
                          max_version='1.3')


def test_legacy_header_name_is_case_insensitive(app):
    response = app.get('/v1/echo',
                       headers={'x-openstack-widget-api-version': '1.1'})
    assert response.json == {'version': '1.1'}
    assert response.headers[LEGACY] == '1.1'


@pytest.mark.parametrize('standard, served', [
    ('widget 1.1', '1.1'),
    ('widget latest', '1.3'),
])
def test_standard_header_for_this_service_beats_legacy(app, standard, served):
    response = app.get('/v1/echo', headers={STANDARD: standard, LEGACY: '1.2'})
    assert response.json == {'version': served}
    assert LEGACY not in response.headers
    assert response.headers['Vary'] == f'{STANDARD}, {LEGACY}'


def test_legacy_header_on_an_error_response(app):
    response = app.get('/nowhere', headers={LEGACY: '1.2'}, status=404)
    assert_error_body(response, 404)
    assert_version_headers(response, '1.2')
    assert response.headers[LEGACY] == '1.2'
    assert response.headers['Vary'] == f'{STANDARD}, {LEGACY}'


def test_legacy_header_added_to_an_existing_vary(app):
    response = app.get('/v1/vary', headers={LEGACY: '1.1'})
    assert response.headers['Vary'] == f'Accept-Encoding, {STANDARD}, {LEGACY}'


def test_registry_without_legacy_headers_ignores_them():
    registry = VersionRegistry('widget', [('1.0', 'a'), ('1.1', 'b')])

    class Root:
        @pecan.expose('json')
        def index(self):
            return {'version': str(pecan.request.api_version)}

    test_app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)]))
    response = test_app.get('/', headers={LEGACY: '1.1'})
    assert response.json == {'version': '1.0'}
    assert LEGACY not in response.headers


# --- repeated headers through a real server -----------------------------------

def _raw_get(base_url, path, header_values):
    """GET with the standard header sent once per value, on the wire."""
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    try:
        connection.putrequest('GET', path)
        for value in header_values:
            connection.putheader(STANDARD, value)
        connection.putheader('Accept', 'application/json')
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.getheaders(), response.read()
    finally:
        connection.close()


@pytest.mark.parametrize('values, status, served', [
    (['widget 1.1', 'widget 1.2'], 200, '1.2'),
    (['widget 1.2', 'widget 1.1'], 200, '1.1'),
    (['widget 1.2', 'compute 2.1'], 200, '1.2'),
    (['compute 2.1', 'widget latest'], 200, '1.3'),
    (['compute 2.1', 'volume 3.0'], 200, '1.0'),
    (['widget 1.1, compute 2.1', 'widget 1.3, volume 3.0'], 200, '1.3'),
    (['widget 1.1', 'widget 9.9'], 406, '1.0'),
    (['widget 9.9', 'compute 2.1'], 406, '1.0'),
    (['widget 9.9', 'widget 1.1'], 200, '1.1'),
    (['widget 1.1', 'widget 1.01'], 400, '1.0'),
])
def test_repeated_headers_over_a_real_server(serve, values, status, served):
    base = serve(example_app.make_app())
    code, headers, body = _raw_get(base, '/v1/echo', values)
    assert code == status
    versions = [v for k, v in headers if k.lower() == STANDARD.lower()]
    assert versions == [f'widget {served}']
    if status == 200:
        assert json.loads(body) == {'version': served}
    else:
        assert json.loads(body)['errors'][0]['status'] == status


# --- every response carries the headers -------------------------------------

def test_success_headers(app):
    response = app.get('/v1/echo', headers={STANDARD: 'widget 1.2'})
    assert_version_headers(response, '1.2')
    assert response.headers['Vary'] == f'{STANDARD}, {LEGACY}'



@pytest.mark.parametrize('value', [None, 'widget 1.2'])
def test_on_route_leaves_the_headers_after_appends_on_the_state(value):
    """The usual request's headers travel on Pecan's per-request routing
    state, under the name ``after`` reads (else every request would take
    the general way: right, but slower)."""
    from pecan.core import RoutingState

    from pecan_microversions.pecan import hook as hook_module
    hook = MicroversionHook(example_app.REGISTRY)
    request = pecan.Request.blank('/', environ=environ_for(value))
    state = RoutingState(request, pecan.Response(), None)
    hook.on_route(state)
    served = '1.0' if value is None else '1.2'
    pairs, _, merged = getattr(state, hook_module._HEADERS_ATTR)
    assert ('OpenStack-API-Version', f'widget {served}') in pairs
    assert 'vary' in merged
    hook.after(state)
    assert state.response.headers['OpenStack-API-Version'] == (
        f'widget {served}')
    assert state.response.headerlist[:len(pairs)] == list(pairs)


@pytest.mark.parametrize('headers,served,echoed', [
    ({}, '1.0', None),
    ({STANDARD: 'widget 1.2'}, '1.2', None),
    ({LEGACY: '1.1'}, '1.1', '1.1'),
    ({STANDARD: 'widget 9.9'}, '1.0', None),  # refused first, not by us
])
def test_headers_when_an_earlier_hook_refuses_before_ours(headers, served,
                                                          echoed):
    """Pecan runs ``after`` even when our ``on_route`` never ran: the
    version the client asked for (the default for a bad one) is on the
    error."""
    class Refuse(pecan.hooks.PecanHook):
        priority = 1  # before ours

        def on_route(self, state):
            raise webob.exc.HTTPForbidden()

    app = webtest.TestApp(pecan.make_app(
        example_app.RootController(), debug=False,
        hooks=[Refuse(), MicroversionHook(example_app.REGISTRY)]))
    response = app.get('/v1/echo', headers=headers, status=403)
    assert_version_headers(response, served)
    assert response.headers.get(LEGACY) == echoed

@pytest.mark.parametrize('accept', ACCEPTS)
@pytest.mark.parametrize('path', ['/nowhere', '/v1/nowhere', '/v1/x/y/z'])
def test_routing_404(app, accept, path):
    headers = {STANDARD: 'widget 1.1'}
    if accept is not None:
        headers['Accept'] = accept
    response = app.get(path, headers=headers, status=404)
    assert_error_body(response, 404, 'http.not_found')
    assert_version_headers(response, '1.1')


@pytest.mark.parametrize('method', ['post', 'put', 'delete', 'patch'])
def test_rest_controller_405_keeps_allow(app, method):
    response = getattr(app, method)('/v1/readonly',
                                    headers={STANDARD: 'widget 1.3'},
                                    status=405)
    error = assert_error_body(response, 405, 'http.method_not_allowed')
    assert 'request_id' not in error
    assert response.headers['Allow'] == 'GET'
    assert_version_headers(response, '1.3')
    assert app.get('/v1/readonly').json == {'read': 'only'}


def test_wsexpose_rest_controller_405_keeps_allow(app):
    response = app.post('/v1/things', status=405)
    assert_error_body(response, 405, 'http.method_not_allowed')
    assert response.headers['Allow'] == 'GET'
    assert_version_headers(response, '1.0')


@pytest.mark.parametrize('accept', [None, 'application/json', '*/*'])
def test_exception_in_a_plain_controller(app, accept, caplog):
    headers = {STANDARD: 'widget 1.2'}
    if accept is not None:
        headers['Accept'] = accept
    with caplog.at_level(logging.ERROR, logger='pecan_microversions.pecan.hook'):
        response = app.get('/v1/crash', headers=headers, status=500)
    error = assert_error_body(response, 500, 'http.internal_server_error')
    assert 'logged' in error['detail']
    assert b'boom' not in response.body
    assert b'Traceback' not in response.body
    assert b'RuntimeError' not in response.body
    assert_version_headers(response, '1.2')
    # ... and the server's log has what the client was not shown.
    assert any('boom' in (r.exc_text or '') or
               (r.exc_info and 'boom' in str(r.exc_info[1]))
               for r in caplog.records)


@pytest.mark.parametrize('accept', [None, 'application/json',
                                    'application/xml', 'text/xml', '*/*'])
def test_exception_in_a_wsexpose_method(app, accept):
    headers = {STANDARD: 'widget 1.1'}
    if accept is not None:
        headers['Accept'] = accept
    response = app.get('/v1/things/crash', headers=headers, status=500)
    error = assert_error_body(response, 500, 'http.internal_server_error')
    assert 'logged' in error['detail']
    assert b'boom' not in response.body
    assert b'faultstring' not in response.body
    assert b'Traceback' not in response.body
    assert_version_headers(response, '1.1')


@pytest.mark.parametrize('accept', [None, 'application/json',
                                    'application/xml', 'text/xml'])
def test_wsme_client_side_error(app, accept):
    headers = {} if accept is None else {'Accept': accept}
    response = app.get('/v1/things/wsme-client-error', headers=headers,
                       status=400)
    error = assert_error_body(response, 400, 'http.bad_request')
    assert error['detail'] == 'Bad thing name.'
    assert b'faultcode' not in response.body
    assert_version_headers(response, '1.0')


def test_pecan_abort_in_a_plain_controller(app):
    response = app.get('/v1/gone', headers={STANDARD: 'widget 1.2'},
                       status=410)
    error = assert_error_body(response, 410, 'http.gone')
    assert error['detail'] == 'It went away.'
    assert_version_headers(response, '1.2')


def test_pecan_abort_in_a_wsexpose_method(app):
    response = app.get('/v1/things/abort', headers={STANDARD: 'widget 1.2'},
                       status=403)
    error = assert_error_body(response, 403, 'http.forbidden')
    assert error['detail'] == 'Not your thing.'
    assert_version_headers(response, '1.2')


def test_api_error_in_a_plain_controller(app):
    response = app.get('/v1/busy', headers={STANDARD: 'widget 1.3'},
                       status=409)
    error = assert_error_body(response, 409, 'widget.busy')
    assert error == {'status': 409, 'code': 'widget.busy',
                     'title': 'Conflict', 'detail': 'Widget is busy.'}
    assert response.headers['Retry-After'] == '5'
    assert_version_headers(response, '1.3')


@pytest.mark.parametrize('name, status, code, detail', [
    ('missing', 404, 'widget.not_found', 'No such thing.'),
    ('conflict', 409, 'widget.busy', 'Thing is busy.'),
])
@pytest.mark.parametrize('accept', [None, 'application/json',
                                    'application/xml'])
def test_api_error_in_a_wsexpose_method(app, name, status, code, detail,
                                        accept):
    headers = {STANDARD: 'widget 1.1'}
    if accept is not None:
        headers['Accept'] = accept
    response = app.get(f'/v1/things/{name}', headers=headers, status=status)
    error = assert_error_body(response, status, code)
    assert error['detail'] == detail
    assert_version_headers(response, '1.1')
    if name == 'conflict':
        assert response.headers['Retry-After'] == '5'


def test_wsexpose_success(app):
    response = app.get('/v1/things/bolt', headers={STANDARD: 'widget 1.1'})
    assert response.json == {'name': 'bolt'}
    assert_version_headers(response, '1.1')


def test_redirect_keeps_location_and_gets_headers(app):
    response = app.get('/v1/moved', headers={STANDARD: 'widget 1.1'},
                       status=302)
    assert response.headers['Location'].endswith('/v1/echo')
    assert_version_headers(response, '1.1')


@pytest.mark.parametrize('path, headers, status, served', [
    ('/v1/echo', {STANDARD: 'widget 1.2'}, 200, '1.2'),
    ('/v1/echo', {STANDARD: 'widget 1.01'}, 400, '1.0'),
    ('/v1/echo', {STANDARD: 'widget 4.0'}, 406, '1.0'),
    ('/nowhere', {STANDARD: 'widget 1.1'}, 404, '1.1'),
    ('/v1/crash', {}, 500, '1.0'),
    ('/v1/nowhere', {LEGACY: '1.3'}, 404, '1.3'),
    ('/v1/things/bolt', {LEGACY: '1.3'}, 405, '1.3'),  # no head() there
])
def test_head_requests(app, path, headers, status, served):
    response = app.head(path, headers=headers, status=status)
    assert response.body == b''
    assert_version_headers(response, served)
    assert response.content_type == 'application/json'


@pytest.mark.parametrize('path, headers, status', [
    ('/v1/echo', {STANDARD: 'widget 1.01'}, 400),
    ('/v1/echo', {STANDARD: 'widget 1.9'}, 406),
    ('/v1/nowhere', {}, 404),
    ('/v1/readonly', {}, 405),
    ('/v1/crash', {}, 500),
    ('/v1/things/crash', {}, 500),
    ('/v1/things/wsme-client-error', {}, 400),
    ('/v1/things/missing', {}, 404),
    ('/v1/busy', {}, 409),
    ('/v1/gone', {}, 410),
])
def test_request_id_in_errors(app, path, headers, status):
    method = app.post if path == '/v1/readonly' else app.get
    response = method(path, headers=headers, status=status,
                      extra_environ={'openstack.request_id': 'req-1234'})
    assert_error_body(response, status, request_id='req-1234')
    without = method(path, headers=headers, status=status)
    assert 'request_id' not in without.json['errors'][0]


def test_existing_vary_is_kept(app):
    response = app.get('/v1/vary', headers={STANDARD: 'widget 1.1'})
    assert response.headers.getall('Vary') == [
        f'Accept-Encoding, {STANDARD}, {LEGACY}']
    assert_version_headers(response, '1.1')


def test_vary_star_is_left_alone(app):
    response = app.get('/v1/vary_star', headers={STANDARD: 'widget 1.1'})
    assert response.headers.getall('Vary') == ['*']
    assert response.headers[STANDARD] == 'widget 1.1'


def test_vary_star_is_left_alone_with_a_legacy_header(app):
    response = app.get('/v1/vary_star', headers={LEGACY: '1.1'})
    assert response.headers.getall('Vary') == ['*']
    assert response.headers[LEGACY] == '1.1'


def test_headers_a_controller_set_are_replaced_not_duplicated():
    class Root:
        @pecan.expose('json')
        def index(self):
            pecan.response.headers[STANDARD] = 'widget 0.1'
            pecan.response.headers['OpenStack-API-Maximum-Version'] = '9.9'
            pecan.response.headers['Vary'] = 'openstack-api-version'
            return {}

    test_app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(example_app.REGISTRY)]))
    response = test_app.get('/', headers={STANDARD: 'widget 1.2'})
    assert_version_headers(response, '1.2')
    assert response.headers.getall('Vary') == [
        f'openstack-api-version, {LEGACY}']


# --- operator configuration seen by requests --------------------------------

def _configured_app(**options):
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    hook = MicroversionHook(example_app.REGISTRY, conf=conf)
    for name, value in options.items():
        conf.set_override(name, value, group='api_microversions')
    hook._reload(conf, {})  # what a mutate_config_files() call does
    return webtest.TestApp(pecan.make_app(example_app.RootController(),
                                          hooks=[hook]))


def test_configured_default_version():
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    from pecan_microversions import register_opts
    register_opts(conf)
    conf.set_override('default_version', '1.2', group='api_microversions')
    test_app = webtest.TestApp(example_app.make_app(conf=conf))
    response = test_app.get('/v1/echo')
    assert response.json == {'version': '1.2'}
    assert_version_headers(response, '1.2')
    bad = test_app.get('/v1/echo', headers={STANDARD: 'widget 1.01'},
                       status=400)
    assert_version_headers(bad, '1.2')


def test_registry_default_version():
    registry = VersionRegistry('widget', [('1.0', 'a'), ('1.1', 'b'),
                                          ('1.2', 'c')],
                               default_version='1.1')

    class Root:
        @pecan.expose('json')
        def index(self):
            return {'version': str(pecan.request.api_version)}

    test_app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)]))
    assert test_app.get('/').json == {'version': '1.1'}
    assert test_app.get('/', headers={STANDARD: 'widget 1.0'}).json == {
        'version': '1.0'}


def test_operator_cap():
    test_app = _configured_app(max_version='1.2')
    assert test_app.get('/v1/echo',
                        headers={STANDARD: 'widget latest'}).json == {
        'version': '1.2'}
    response = test_app.get('/v1/echo', headers={STANDARD: 'widget 1.3'},
                            status=406)
    assert_error_body(response, 406, 'microversion.not_acceptable',
                      min_version='1.0', max_version='1.2')
    assert_version_headers(response, '1.0', maximum='1.2')


def test_operator_floor_raises_the_default():
    test_app = _configured_app(min_version='1.1')
    response = test_app.get('/v1/echo')
    assert response.json == {'version': '1.1'}
    assert_version_headers(response, '1.1', minimum='1.1')
    low = test_app.get('/v1/echo', headers={STANDARD: 'widget 1.0'},
                       status=406)
    assert_error_body(low, 406, min_version='1.1', max_version='1.3')
