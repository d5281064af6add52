"""``values=`` on fields JSON carries as text: decimals and dates.

The service writes a decimal as ``"1.5"`` and a date as ``"2026-01-02"``;
a client sending back what it read (or a decimal as a number) is held to
the field's values, compared as the field's type.
"""

import datetime
import decimal

import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)

REGISTRY = VersionRegistry('till', [('1.0', 'a'), ('1.1', 'b')])


@versioned_resource(REGISTRY, 'price')
class Price(wtypes.Base):
    amount = versioned(decimal.Decimal, values={
        decimal.Decimal('1.5'): None, decimal.Decimal('2.5'): '1.1'})
    day = versioned(datetime.date, values={datetime.date(2026, 1, 2): None})


class _Prices(VersionedRestController):

    @versioned_wsexpose(Price, body=Price, status_code=201)
    def post(self, price):
        return price


class _Root:
    prices = _Prices()


@pytest.fixture
def app():
    return webtest.TestApp(pecan.make_app(
        _Root(), hooks=[MicroversionHook(REGISTRY)], force_canonical=False))


NEW = {'OpenStack-API-Version': 'till 1.1'}


def test_what_the_service_writes_is_taken_back(app):
    written = app.post_json('/prices', {'amount': '1.5', 'day': '2026-01-02'})
    assert written.json == {'amount': '1.5', 'day': '2026-01-02'}
    again = app.post_json('/prices', written.json)  # sent back as read
    assert again.json == written.json
    assert app.post_json('/prices', {'amount': 1.5}).json == {'amount': '1.5'}
    assert app.post_json('/prices', {'amount': '2.5'}, headers=NEW).json == {
        'amount': '2.5'}


@pytest.mark.parametrize('body, code', [
    ({'amount': '2.5'}, 'microversion.value_unavailable'),
    ({'amount': '3.5'}, 'microversion.invalid_value'),
    ({'amount': 'abc'}, 'microversion.invalid_value'),
    ({'day': '2026-01-03'}, 'microversion.invalid_value'),
    ({'day': 'soon'}, 'microversion.invalid_value')])
def test_a_value_the_version_does_not_allow_is_refused(app, body, code):
    refused = app.post_json('/prices', body, expect_errors=True)
    assert refused.status_int == 400
    (error,) = refused.json['errors']
    assert error['code'] == code
    assert repr(next(iter(body.values()))) in error['detail']
