"""keystoneauth1 and openstacksdk against the demo under its real server."""

from keystoneauth1 import adapter, noauth, session
from openstack import utils as sdk_utils


def _adapter(url, **kwargs):
    sess = session.Session(auth=noauth.NoAuth())
    return adapter.Adapter(sess, service_type='fleet', endpoint_override=url,
                           **kwargs)


def test_discovery_reports_the_range(live_demo):
    data = _adapter(live_demo).get_endpoint_data()
    assert data.min_microversion == (1, 0)
    assert data.max_microversion == (1, 9)
    assert data.api_version == (1, 0)
    assert data.url.rstrip('/') == live_demo + '/v1'


def test_client_knowing_up_to_1_99_settles_on_1_9(live_demo):
    assert sdk_utils.maximum_supported_microversion(
        _adapter(live_demo), '1.99') == '1.9'


def test_client_knowing_less_keeps_its_own_maximum(live_demo):
    assert sdk_utils.maximum_supported_microversion(
        _adapter(live_demo), '1.3') == '1.3'


def test_requests_carry_the_microversion(live_demo):
    ada = _adapter(live_demo)
    response = ada.get('/v1/', microversion='1.4')
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.4'
    assert 'OpenStack-API-Version' in response.headers['Vary']


def test_latest_answers_1_9(live_demo):
    response = _adapter(live_demo).get('/v1/', microversion='latest')
    assert response.headers['OpenStack-API-Version'] == 'fleet 1.9'


def test_unsupported_version_is_406_for_the_client(live_demo):
    response = _adapter(live_demo).get('/v1/', microversion='1.10',
                                       raise_exc=False)
    assert response.status_code == 406
    error = response.json()['errors'][0]
    assert (error['min_version'], error['max_version']) == ('1.0', '1.9')
