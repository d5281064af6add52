"""Whole generated requests: every answer is below 500.

Each example combines an HTTP method, a path built from the app's own
segments (and foreign ones), a version header (accepted, too new, malformed
or another service's), a content type, a body (JSON values, JSON patches,
bytes that are not JSON or not UTF-8), a query string and an ``Accept``
header.  Whatever the mix, the app answers below 500.  On the fleet demo
(``app_errors='render'``) an error also has the JSON errors body with the
version headers, and a refused request leaves the store as it was.  The
Watcher-style example keeps its own error format (``app_errors='keep'``)
and the shelf app is a second ``versioned_wsexpose`` service.

Generated requests that once answered 500: ``PATCH /v1/nodes`` (Pecan
called the item's method without an identifier; see
:mod:`pecan_microversions.pecan.unfilled`) and ``GET /v1/nodes?_method=DELETE``
(Pecan's 405 for it names no method, and an empty ``Allow`` list broke the
versioned 405).

Sizes: ``HYPOTHESIS_PROFILE=ci|full|dev`` (see tests/hostile/conftest.py).
"""

from __future__ import annotations

import json

import pytest
import webtest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.store import NodeStore
from pecan_microversions.examples import watcher_style
from tests import versioned_app
from tests.hostile.conftest import REQUEST_EXAMPLES, profile_name

UUID = '00000000-0000-0000-0000-000000000001'
SEGMENTS = ['v1', 'nodes', UUID, 'states', 'openapi.json', 'audits',
            'detail', 'versions', '', 'x', '..', '%00', '%ff', '%C3%A9', ';a=b',
            'nodes.json', '1', 'v2']
PATHS = st.one_of(
    st.sampled_from(['/', '/v1', '/v1/', '/v1/nodes', '/v1/nodes/',
                     f'/v1/nodes/{UUID}', f'/v1/nodes/{UUID}/',
                     f'/v1/nodes/{UUID}/states', '/v1/openapi.json',
                     '/v1/audits', f'/v1/audits/{UUID}', '/v1/nodes/nope']),
    st.lists(st.sampled_from(SEGMENTS), max_size=5).map(
        lambda parts: '/' + '/'.join(parts)))
VERSIONS = st.one_of(st.none(), st.sampled_from([
    '{service} 1.0', '{service} 1.3', '{service} 1.5', '{service} 1.8',
    '{service} 1.9', '{service} latest', '{service} 1.10', '{service} 2.0',
    '{service} 1.01', '{service}', '{service} 1.8, {service} 1.9',
    'other 1.2', '', '{service} 1.\u0669']))
FIELDS = st.sampled_from([
    'name', 'driver', 'hardware_type', 'description', 'owner', 'domain',
    'provision_state', 'uuid', 'available', 'links', 'created_at', 'next',
    'nodes', 'goal', 'state', 'parameters', 'op', 'path', 'value', 'from'])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
    st.text(max_size=5), st.sampled_from(['ipmi', 'available', 'cancelled',
                                          'a' * 300, UUID, '1.8']))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.one_of(FIELDS, st.text(max_size=4)), inner,
                    max_size=5)), max_leaves=12)
OPERATIONS = st.lists(st.fixed_dictionaries(
    {'op': st.sampled_from(['add', 'remove', 'replace', 'move', 'copy',
                            'test', 'x']),
     'path': st.sampled_from(['/name', '/description', '/owner',
                              '/owner/name', '/owner/domain', '/driver',
                              '/hardware_type', '/links/0', '/links/-',
                              '/provision_state', '/available', '/', '',
                              '/a~1b', '/name/0', '/uuid', '/goal'])},
    optional={'value': VALUES, 'from': st.sampled_from(['/name', '/owner',
                                                        '/x'])}), max_size=3)
BODIES = st.one_of(
    st.none(), VALUES.map(lambda v: json.dumps(v).encode()),
    OPERATIONS.map(lambda v: json.dumps(v).encode()), st.binary(max_size=20),
    st.sampled_from([b'{', b'[]', b'null', b'{"name": "\\ud800"}',
                     b'\xff\xfe{}']))
CONTENT_TYPES = st.one_of(st.none(), st.sampled_from([
    'application/json', 'application/json-patch+json', 'text/plain',
    'text/xml', 'application/x-www-form-urlencoded',
    'application/json; charset=latin-1', 'multipart/form-data; boundary=x',
    'APPLICATION/JSON']))
QUERIES = st.lists(st.tuples(
    st.sampled_from(['driver', 'hardware_type', 'owner', 'limit', 'marker',
                     'sort_key', 'sort_dir', 'fields', 'name', 'goal', 'x',
                     '__body__', 'node.owner', 'limit[]', '', '_method']),
    st.sampled_from(['1', '0', '-1', 'ipmi', '', 'name', 'desc', UUID,
                     '%ff', '9' * 30, 'a%26b', 'DELETE', 'put', 'patch',
                     'post'])), max_size=3).map(
    lambda pairs: '&'.join(f'{k}={v}' for k, v in pairs))
ACCEPTS = st.one_of(st.none(), st.sampled_from([
    'application/json', 'text/html', 'application/xml', '*/*', '']))
METHODS = st.sampled_from(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD',
                           'OPTIONS', 'TRACE'])


def _demo():
    store = NodeStore.seeded()
    return webtest.TestApp(make_app(store=store)), store


APPS = {
    'fleet': _demo,
    'infra-optim': lambda: (webtest.TestApp(watcher_style.make_app()), None),
    'shelf': lambda: (webtest.TestApp(versioned_app.make_app()), None),
}


@pytest.mark.parametrize('service', list(APPS))
def test_any_request_is_answered_below_500(service):
    app, store = APPS[service]()

    profile = profile_name()

    @settings(max_examples=REQUEST_EXAMPLES[profile], deadline=None,
              suppress_health_check=list(HealthCheck), database=None,
              derandomize=profile == 'ci')
    @given(method=METHODS, path=PATHS, version=VERSIONS, body=BODIES,
           content_type=CONTENT_TYPES, query=QUERIES, accept=ACCEPTS)
    # Requests that once answered 500, run whatever the profile generates.
    @example(method='PATCH', path='/v1/nodes', version=None, body=b'[]',
             content_type='application/json', query='', accept=None)
    @example(method='DELETE', path='/v1/nodes/', version='{service} 1.8',
             body=None, content_type=None, query='', accept=None)
    @example(method='GET', path='/v1/nodes', version=None, body=None,
             content_type=None, query='_method=DELETE', accept=None)
    def check(method, path, version, body, content_type, query, accept):
        headers = {}
        if version is not None:
            headers['OpenStack-API-Version'] = version.format(
                service=service)
        if content_type is not None:
            headers['Content-Type'] = content_type
        if accept is not None:
            headers['Accept'] = accept
        request = webtest.TestRequest.blank(
            path + (f'?{query}' if query else ''), method=method,
            headers=headers)
        if body is not None:
            request.body = body
        before = None if store is None else store.list()
        response = app.do_request(request, status='*', expect_errors=True)
        assert response.status_int < 500, (method, path, query, headers,
                                           body, response.body[:300])
        if store is None or response.status_int < 400:
            return
        assert store.list() == before, 'a refused request changed the store'
        assert response.headers['OpenStack-API-Version'].startswith('fleet ')
        if method != 'HEAD':
            (error,) = json.loads(response.body)['errors']
            assert error['status'] == response.status_int
            assert error['code'] and error['detail']

    check()
