"""Pecan's ``_method`` override never turns a GET or HEAD into a change.

Pecan routes a ``RestController`` request by its ``_method`` parameter and
refuses only GET to DELETE or PUT: ``HEAD ?_method=delete`` ran the delete
handler, and ``GET ?_method=post`` the post handler.
"""

import pecan
import pytest
import webtest
from pecan import rest

from pecan_microversions import MicroversionHook, VersionRegistry

CALLED = []


class _Things(rest.RestController):
    """A plain RestController: the hook guards it as well."""

    @pecan.expose('json')
    def get_one(self, ident, **kw):
        return {'got': ident}

    @pecan.expose('json')
    def post(self, **kw):
        CALLED.append('post')
        return {'posted': True}

    @pecan.expose('json')
    def patch(self, ident, **kw):
        CALLED.append('patch')
        return {'patched': ident}

    @pecan.expose('json')
    def delete(self, ident, **kw):
        CALLED.append('delete')
        return {'deleted': ident}


@pytest.fixture
def app():
    class Root:
        things = _Things()

    CALLED.clear()
    return webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
        VersionRegistry('thing', [('1.0', 'a')]))], force_canonical=False))


@pytest.mark.parametrize('method', ['GET', 'HEAD'])
@pytest.mark.parametrize('path, override', [
    ('/things/t1', 'delete'), ('/things/t1', 'PATCH'), ('/things', 'post'),
    ('/things/t1', 'put'), ('/things/t1?_method=get&x=1', 'delete'),
    ('/things/t1?%5Fmethod=get&x=1', 'delete')])
def test_a_safe_request_is_never_overridden_into_a_change(app, method, path,
                                                          override):
    separator = '&' if '?' in path else '?'
    response = app.request(f'{path}{separator}_method={override}',
                           method=method, expect_errors=True)
    # A 400 naming the parameter: a 405 would have to list the URL's
    # methods in Allow, GET among them, the very method refused.
    assert response.status_int == 400
    assert 'Allow' not in response.headers
    assert response.headers['OpenStack-API-Version'] == 'thing 1.0'
    assert CALLED == []
    if method == 'GET':
        error = response.json['errors'][0]
        assert error['code'] == 'microversion.invalid_method_override'
        assert error['detail'].startswith('The _method query parameter ')
        assert override.upper() in error['detail']


def test_get_and_head_overrides_and_post_overrides_still_route(app):
    assert app.get('/things/t1?_method=GET').json == {'got': 't1'}
    assert app.head('/things/t1?_method=get').status_int == 200
    assert app.post('/things/t1?_method=delete').json == {'deleted': 't1'}
    assert app.post('/things/t1', {'_method': 'patch'}).json == {
        'patched': 't1'}
    assert CALLED == ['delete', 'patch']


@pytest.mark.parametrize('query', [
    '%5Fmethod=patch', '_%6Dethod=delete', 'x=1;_method=patch',
    '_method=get&_method=delete'])
def test_the_override_is_read_as_pecan_reads_it(app, query):
    # Percent-encoded keys and ";" separators reach Pecan as "_method";
    # of several values, Pecan takes the last.
    response = app.get(f'/things/t1?{query}', expect_errors=True)
    assert response.status_int == 400, response.body
    assert CALLED == []


def test_a_safe_last_override_is_no_change(app):
    assert app.get('/things/t1?_method=delete&_method=get').json == {
        'got': 't1'}
