"""A path segment never fills a declared query parameter.

Pecan passes a ``RestController`` custom action the path segments before
its name (``GET /audits/<x>/detail`` calls ``detail('<x>')``), and a
sub-controller its parents' identifiers, each as the next argument.  Where
that argument is one the method declares a query parameter with
``query_params`` (a collection's ``sort_key``), the URL names nothing: a
404 (or the URL's 405), never the list sorted by ``<x>``.
"""

import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    param,
    query_params,
    versioned_wsexpose,
)

REGISTRY = VersionRegistry('box', [('1.0', 'a'), ('1.1', 'b')])
SORT = param(values={'name': None, 'size': '1.1'})


class _Listed(VersionedRestController):
    """``/boxes/listed``: a collection-level sub-controller."""

    @query_params(REGISTRY, 'GET /boxes/listed', sort_key=SORT)
    @versioned_wsexpose([wtypes.text], wtypes.text, int)
    def get_all(self, sort_key='name', limit=None):
        return [f'listed by {sort_key}']


class _Boxes(VersionedRestController):
    _custom_actions = {'detail': ['GET'], 'plain': ['GET']}

    listed = _Listed()

    @query_params(REGISTRY, 'GET /boxes/detail', sort_key=SORT)
    @versioned_wsexpose([wtypes.text], wtypes.text, int)
    def detail(self, sort_key='name', limit=None):
        return [f'detail by {sort_key}']

    @query_params(REGISTRY, 'GET /boxes/plain', sort_key=SORT)
    @pecan.expose('json')
    def plain(self, sort_key='name'):
        return [f'plain by {sort_key}']

    @versioned_wsexpose(wtypes.text, wtypes.text)
    def get_one(self, ident):
        return ident


class _Root:
    boxes = _Boxes()


@pytest.fixture
def app():
    return webtest.TestApp(pecan.make_app(
        _Root(), hooks=[MicroversionHook(REGISTRY)], force_canonical=False))


@pytest.mark.parametrize('action', ['detail', 'plain'])
def test_the_collections_action_takes_its_query_parameters(app, action):
    assert app.get(f'/boxes/{action}').json == [f'{action} by name']
    assert app.get(f'/boxes/{action}?sort_key=size', headers={
        'OpenStack-API-Version': 'box 1.1'}).json == [f'{action} by size']
    assert app.get('/boxes/listed?sort_key=size', headers={
        'OpenStack-API-Version': 'box 1.1'}).json == ['listed by size']


@pytest.mark.parametrize('url', ['/boxes/name/detail', '/boxes/x/detail',
                                 '/boxes/x/y/detail', '/boxes/name/plain',
                                 '/boxes/name/listed', '/boxes/x/listed/'])
def test_a_path_segment_never_fills_a_declared_query_parameter(app, url):
    # Before, /boxes/name/detail answered the list sorted by name, and
    # /boxes/x/detail a 400 about the query parameter sort_key.
    response = app.get(url, expect_errors=True)
    assert response.status_int == 404, response.body
    (error,) = response.json['errors']
    assert error['detail'] == f'GET {url} names no resource.'


def test_an_items_own_identifier_still_reaches_it(app):
    assert app.get('/boxes/b1').json == 'b1'
