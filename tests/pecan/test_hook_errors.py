"""The hook's error responses: rendered once, whoever else handles them,
and labelled with the headers of the configuration the request was
negotiated under."""

import pecan
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
