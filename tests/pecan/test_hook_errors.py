"""The hook's error responses: rendered once, whoever else handles them,
and labelled with the headers of the configuration the request was
negotiated under."""

import functools
import types

import pecan
import pecan.routing
import pytest
import webob
import webtest
from oslo_config import cfg
from pecan.hooks import PecanHook

from pecan_microversions import MicroversionHook, VersionRegistry
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.rendering import api_wg_errors, wsme_fault
from pecan_microversions.pecan.errors import ERROR_KEY

STANDARD = 'OpenStack-API-Version'
LEGACY = 'X-OpenStack-Gadget-API-Version'
REGISTRY = VersionRegistry('gadget', [('1.0', 'a'), ('1.1', 'b'),
                                      ('1.2', 'c')],
                           legacy_headers=[LEGACY])


class Root:
    @pecan.expose('json')
    def index(self):
        return {'version': str(pecan.request.api_version)}

    @pecan.expose('json')
    def refused(self):
        raise RequestError('Refused by framework-free code.', status=409,
                           error_code='gadget.refused')


def _logged(function):
    """A service's own decorator, made with functools.wraps."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return function(*args, **kwargs)
    return wrapper


class Described:
    @_logged
    @pecan.expose('json', route='described.json')
    def described(self):
        return {'described': True}


@pytest.fixture()
def fresh_pecan_routes():
    """Pecan remembers the classes it looked for custom routes in, bound
    methods' included, for the process: forget bound methods."""
    routing = vars(pecan.routing)
    observed = routing['__observed_controllers__']
    routes = routing['__custom_routes__']

    def forget():
        observed.discard(types.MethodType)
        for key in [k for k in routes if k[0] is types.MethodType]:
            del routes[key]
    forget()
    yield
    forget()


def _app(*hooks, **hook_options):
    hook = MicroversionHook(REGISTRY, **hook_options)
    return webtest.TestApp(pecan.make_app(Root(), hooks=[hook, *hooks],
                                          debug=False))


@pytest.mark.parametrize('renderer', [api_wg_errors, wsme_fault])
@pytest.mark.parametrize('path, headers, status', [
    ('/', {STANDARD: 'gadget 9.9'}, 406),
    ('/', {STANDARD: 'gadget 1.01'}, 400),
    ('/', {LEGACY: '9.9'}, 406),
    ('/refused', {STANDARD: 'gadget 1.1'}, 409),
])
def test_the_renderer_runs_once_per_error(renderer, path, headers, status):
    reports = []

    def counting(report):
        reports.append(report)
        return renderer(report)

    response = _app(error_renderer=counting).get(path, headers=headers,
                                                 status=status)
    assert len(reports) == 1
    assert response.json == renderer(reports[0])
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.2'


class _AnswersFirst(PecanHook):
    """An application hook whose on_error (run before the library's)
    answers every error in plain text."""

    def on_error(self, state, e):
        return webob.Response(f'{type(e).__name__}', status=406,
                              content_type='text/plain')


def test_a_version_error_another_hook_answered_keeps_the_library_body():
    response = _app(_AnswersFirst()).get(
        '/', headers={STANDARD: 'gadget 9.9'}, status=406)
    assert response.json['errors'][0]['code'] == 'microversion.not_acceptable'
    assert response.headers[STANDARD] == 'gadget 1.0'


class _Labels(PecanHook):
    """An application hook whose after (run before the library's) labels
    every response."""

    def after(self, state):
        state.response.headers['Vary'] = 'Accept'
        state.response.headers['X-Served-By'] = 'gadget-1'


@pytest.mark.parametrize('headers', [{STANDARD: 'gadget 9.9'},
                                     {LEGACY: '1.01'}])
def test_headers_another_hook_sets_on_a_version_error_are_merged(headers):
    response = _app(_Labels()).get('/', headers=headers,
                                   status=(400, 406))
    vary = [v.strip() for v in response.headers['Vary'].split(',')]
    assert vary[:2] == ['Accept', STANDARD]
    assert response.headers.getall(STANDARD) == ['gadget 1.0']
    assert response.headers['X-Served-By'] == 'gadget-1'
    assert response.json['errors'][0]['status'] == response.status_int


def test_a_request_negotiated_before_a_reload_keeps_its_limits():
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    hook = MicroversionHook(REGISTRY, conf=conf)

    class Reloading:
        @pecan.expose('json')
        def index(self):
            conf.set_override('max_version', '1.1', group='api_microversions')
            hook._reload(conf, {})  # as a config reload mid-request does
            return {}

    app = webtest.TestApp(pecan.make_app(Reloading(), hooks=[hook]))
    # 1.0 is served under both configurations: the old one labels it.
    during = app.get('/', headers={LEGACY: '1.0'})
    assert during.headers['OpenStack-API-Maximum-Version'] == '1.2'
    assert during.headers[LEGACY] == '1.0'
    after = app.get('/', headers={LEGACY: '1.1'})
    assert after.headers['OpenStack-API-Maximum-Version'] == '1.1'


class _Keeps(PecanHook):
    """Runs its after last and keeps what the request left in the environ."""

    priority = 1

    def __init__(self):
        self.environs = []

    def after(self, state):
        self.environs.append(state.request.environ)


def test_a_version_error_noted_in_the_environ_holds_no_frames():
    keeps = _Keeps()
    _app(keeps).get('/', headers={STANDARD: 'gadget 9.9'}, status=406)
    error = keeps.environs[0][ERROR_KEY]
    assert isinstance(error, RequestError) and error.code == 406
    # a traceback would keep the request's frames (and so the environ
    # itself) alive until the garbage collector ran
    assert error.__traceback__ is None


@pytest.mark.parametrize('keep', [False, True])
@pytest.mark.parametrize('path', ['/described', '/described/x'])
def test_a_method_named_by_its_python_name_not_its_route_is_a_404(
        fresh_pecan_routes, path, keep):
    # Pecan's routing raised RuntimeError ("conflicting custom path
    # segment": the wrapper's and the wrapped function's) for the bound
    # method: a 500 on a URL that names nothing.
    hook = MicroversionHook(REGISTRY, app_errors='keep' if keep else 'render')
    app = webtest.TestApp(pecan.make_app(Described(), hooks=[hook],
                                         debug=False))
    for method in ('GET', 'POST', 'DELETE'):
        got = app.request(path, method=method, headers={
            STANDARD: 'gadget 1.1'}, expect_errors=True)
        assert got.status_int == 404, got.body
        assert got.json['errors'][0]['detail'] == (
            f'{method} {path} names no resource.')
        assert got.headers[STANDARD] == 'gadget 1.1'


@pytest.mark.parametrize('guess', [True, False])
def test_a_custom_route_answers_as_in_plain_pecan(fresh_pecan_routes,
                                                  guess):
    # With Pecan guessing the content type from the extension (its
    # default), /described.json is read as /described: 404 in plain Pecan.
    app = webtest.TestApp(pecan.make_app(
        Described(), hooks=[MicroversionHook(REGISTRY)], debug=False,
        guess_content_type_from_ext=guess))
    got = app.get('/described.json', expect_errors=True)
    assert got.status_int == (404 if guess else 200), got.body


def test_the_demos_openapi_method_by_its_python_name_is_a_404(
        fresh_pecan_routes):
    from pecan_microversions.demo.app import make_app
    app = webtest.TestApp(make_app())
    assert app.get('/v1/openapi', expect_errors=True).status_int == 404
    assert app.get('/v1/openapi.json').json['openapi'].startswith('3.')
    assert app.get('/v1/openapi', expect_errors=True).status_int == 404
    # Pecan then routes <method>/openapi.json to the method's function: a
    # 400 said the argument 'self' was missing.
    got = app.get('/v1/openapi/openapi.json', expect_errors=True)
    assert got.status_int == 404, got.body


def test_conflicting_custom_routes_stay_the_500_they_are():
    # A real conflict (two methods on one path segment) is the service's
    # bug: not hidden as a 404.
    class Conflicting:
        @pecan.expose('json', route='same.json')
        def first(self):
            return {}

        @pecan.expose('json', route='same.json')
        def second(self):
            return {}

    app = webtest.TestApp(pecan.make_app(
        Conflicting(), hooks=[MicroversionHook(REGISTRY)], debug=False))
    assert app.get('/same.json', expect_errors=True).status_int == 500


class _Returning:
    """Error responses returned by the controller, not raised."""

    @pecan.expose()
    def conflict(self):
        return webob.exc.HTTPConflict(detail='The gadget is locked.')

    @pecan.expose()
    def gone(self):
        return webob.exc.HTTPMethodNotAllowed(headers={'Allow': 'GET'})

    @pecan.expose()
    def broken(self):
        return webob.exc.HTTPServiceUnavailable(
            detail='db password x', headers={'Retry-After': '30'})

    @pecan.expose()
    def written(self):
        return webob.exc.HTTPConflict(json_body={'mine': 1})

    @pecan.expose('json')
    def own(self):
        pecan.response.status = 404
        return {'message': 'no such gadget'}


@pytest.mark.parametrize('app_errors', ['render', 'keep'])
def test_an_http_error_the_controller_returns_is_rendered_as_if_raised(
        app_errors):
    app = webtest.TestApp(pecan.make_app(_Returning(), hooks=[
        MicroversionHook(REGISTRY, app_errors=app_errors)]))
    conflict = app.get('/conflict', expect_errors=True)
    gone = app.get('/gone', expect_errors=True)
    broken = app.get('/broken', expect_errors=True)
    own = app.get('/own', expect_errors=True)
    written = app.get('/written', expect_errors=True)
    for response in (conflict, gone, broken, own, written):
        assert response.headers[STANDARD] == 'gadget 1.0'
    assert own.json == {'message': 'no such gadget'}  # a body of its own
    assert written.json == {'mine': 1}
    if app_errors == 'keep':
        assert conflict.content_type == 'text/plain'
        return
    (error,) = conflict.json['errors']
    assert (error['status'], error['code']) == (409, 'http.conflict')
    assert error['detail'] == 'The gadget is locked.'
    assert gone.status_int == 405 and gone.headers['Allow'] == 'GET'
    assert gone.json['errors'][0]['code'] == 'http.method_not_allowed'
    assert broken.status_int == 503
    assert 'password' not in broken.text
    assert broken.headers['Retry-After'] == '30'


@pytest.mark.parametrize('headers, label, legacy', [
    ({STANDARD: 'gadget 1.2'}, 'gadget 1.2', None),
    ({LEGACY: '1.1'}, 'gadget 1.1', '1.1'),
    ({STANDARD: 'gadget 9.9'}, 'gadget 1.0', None),  # refused: the default
    ({}, 'gadget 1.0', None),
])
def test_a_request_pecan_fails_before_routing_is_labelled_as_asked(
        headers, label, legacy):
    # Pecan decodes the path before the hook's on_route: a path that is not
    # UTF-8 is its 400, which must still carry the version asked for.
    app = pecan.make_app(Root(), hooks=[MicroversionHook(REGISTRY)])
    request = webob.Request.blank('/')
    request.environ['PATH_INFO'] = '/index/\xff'
    request.headers.update(headers)
    response = request.get_response(app)
    assert response.status_int == 400
    assert response.headers[STANDARD] == label
    assert response.headers.get(LEGACY) == legacy
    assert response.json['errors'][0]['status'] == 400
