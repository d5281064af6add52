"""The discovery controllers doc/source/discovery.rst shows, run as written
under Pecan's defaults, and a POST to a URL missing its trailing slash.

The page's first code block is executed as is (with a ``REGISTRY``): what a
service copies from the documentation must answer GET and HEAD and refuse
every other method with 405 and ``Allow``, at ``/v1`` and ``/v1/`` alike.
"""

import logging
import re
import textwrap
from pathlib import Path

import pecan
import pytest
import webtest

from pecan_microversions import MicroversionHook, VersionRegistry
from pecan_microversions.core.rendering import wsme_fault

PAGE = Path(__file__).resolve().parents[2] / 'doc' / 'source' / 'discovery.rst'
REGISTRY = VersionRegistry('fleet', [('1.0', 'a'), ('1.1', 'b')])
_BLOCK = re.compile(r'\.\. code-block:: python\n\n((?:    .*\n|\n)+)')


@pytest.fixture(scope='module')
def documented():
    code = textwrap.dedent(_BLOCK.search(PAGE.read_text()).group(1))
    namespace = {'REGISTRY': REGISTRY}
    exec(compile(code, str(PAGE), 'exec'), namespace)  # noqa: S102
    return webtest.TestApp(namespace['app'])


@pytest.mark.parametrize('path', ['/', '/v1', '/v1/'])
def test_documented_discovery_answers_get_and_head(documented, path):
    body = documented.get(path).json
    assert body['versions' if path == '/' else 'version']
    assert documented.head(path).status_int == 200


@pytest.mark.parametrize('method', ['POST', 'PUT', 'PATCH', 'DELETE',
                                    'OPTIONS'])
@pytest.mark.parametrize('path', ['/', '/v1', '/v1/'])
def test_documented_discovery_refuses_other_methods(documented, caplog,
                                                    path, method):
    with caplog.at_level(logging.ERROR):
        response = documented.request(path, method=method, body=b'{}',
                                      content_type='application/json',
                                      expect_errors=True)
    assert response.status_int == 405, response.body
    assert response.headers['Allow'] == 'GET, HEAD'
    assert response.json['errors'][0]['status'] == 405
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.0'
    assert caplog.records == []


class _V1:
    """A plain object discovery endpoint: its ``index`` is ``/v1/``."""

    @pecan.expose('json')
    def index(self):
        return {'method': pecan.request.method}


class _Root:
    v1 = _V1()


def _plain(**hook):
    return webtest.TestApp(pecan.make_app(
        _Root(), hooks=[MicroversionHook(REGISTRY, **hook)]))


def test_post_without_the_trailing_slash_is_a_404_naming_the_url(caplog):
    # Pecan redirects GET /v1 to /v1/ but raises for a POST (a 500).
    with caplog.at_level(logging.ERROR):
        response = _plain().post('/v1', {'a': 'b'}, expect_errors=True)
    assert response.status_int == 404, response.body
    (error,) = response.json['errors']
    assert error['code'] == 'http.not_found'
    assert error['detail'] == ("POST /v1 names no resource: send it to "
                               "'/v1/', with a trailing slash.")
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.0'
    assert caplog.records == []


def test_post_without_the_slash_in_the_services_error_format():
    app = _plain(error_renderer=wsme_fault, app_errors='keep')
    response = app.post('/v1', expect_errors=True, extra_environ={
        'SCRIPT_NAME': '/fleet'})
    assert response.status_int == 404
    assert response.json['faultcode'] == 'Client'
    assert "'/fleet/v1/'" in response.json['faultstring']


def test_post_with_the_slash_and_get_without_it_are_unchanged():
    app = _plain()
    assert app.post('/v1/').json == {'method': 'POST'}
    assert app.get('/v1').status_int == 302
