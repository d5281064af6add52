"""A path segment Pecan passes to a declared query parameter.

Pecan passes a ``RestController`` custom action the path segments before
its name (``GET /boxes/<x>/detail`` calls ``detail('<x>')``), and a
sub-controller its parents' identifiers, each as the next argument.  Ironic
relies on it (``GET /v1/nodes/<ident>/validate`` fills ``node``, which is
also a query parameter; ``/v1/chassis/<uuid>/nodes`` fills
``chassis_uuid``): such a URL is served, and the value is checked as the
query parameter is (its version, its values).
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


class _Parts(VersionedRestController):
    """``/boxes/<box>/parts``: a sub-resource given its parent's id."""

    @query_params(REGISTRY, 'GET /boxes/{box}/parts', box=param('1.0'))
    @versioned_wsexpose([wtypes.text], wtypes.text)
    def get_all(self, box=None):
        return [f'parts of {box}']


class _Boxes(VersionedRestController):
    _custom_actions = {'detail': ['GET'], 'validate': ['GET']}

    parts = _Parts()

    @query_params(REGISTRY, 'GET /boxes/detail', sort_key=SORT)
    @versioned_wsexpose([wtypes.text], wtypes.text, int)
    def detail(self, sort_key='name', limit=None):
        return [f'detail by {sort_key}']

    @query_params(REGISTRY, 'GET /boxes/validate', box=param('1.1'))
    @pecan.expose('json')
    def validate(self, box=None):
        return {'validated': box}

    @versioned_wsexpose(wtypes.text, wtypes.text)
    def get_one(self, ident):
        return ident


class _Root:
    boxes = _Boxes()


@pytest.fixture
def app():
    return webtest.TestApp(pecan.make_app(
        _Root(), hooks=[MicroversionHook(REGISTRY)], force_canonical=False))


NEW = {'OpenStack-API-Version': 'box 1.1'}


def test_ironic_style_urls_give_the_argument_from_the_path(app):
    # As Ironic's /v1/nodes/<ident>/validate and /v1/chassis/<uuid>/nodes.
    assert app.get('/boxes/b1/validate', headers=NEW).json == {
        'validated': 'b1'}
    assert app.get('/boxes/validate?box=b2', headers=NEW).json == {
        'validated': 'b2'}
    assert app.get('/boxes/b1/parts').json == ['parts of b1']


def test_a_value_from_the_path_is_checked_as_the_query_parameter(app):
    assert app.get('/boxes/name/detail').json == ['detail by name']
    refused = app.get('/boxes/x/detail', expect_errors=True)
    assert refused.status_int == 400
    assert refused.json['errors'][0]['code'] == 'microversion.invalid_value'
    assert 'sort_key' in refused.json['errors'][0]['detail']
    # 'size' from 1.1, whichever way it comes.
    for url in ('/boxes/size/detail', '/boxes/detail?sort_key=size'):
        early = app.get(url, expect_errors=True)
        assert early.status_int == 400
        assert early.json['errors'][0]['code'] == (
            'microversion.value_unavailable')
        assert app.get(url, headers=NEW).json == ['detail by size']
    # 'box' of validate exists from 1.1 only, from the path too.
    early = app.get('/boxes/b1/validate', expect_errors=True)
    assert early.status_int == 400
    assert early.json['errors'][0]['code'] == (
        'microversion.query_parameter_unavailable')


def test_an_items_own_identifier_still_reaches_it(app):
    assert app.get('/boxes/b1').json == 'b1'
