"""python-ironicclient, as released, against the Ironic-style example
served by cheroot on a loopback port: its five ways to choose a version,
and what it shows of an error."""

import pytest
import requests
from ironicclient import exc
from ironicclient.v1 import client as iclient
from keystoneauth1 import noauth, session

from pecan_microversions.examples.ironic_style import make_app


@pytest.fixture
def url(serve):
    return serve(make_app())


def _client(url, version, **kwargs):
    return iclient.Client(url, session=session.Session(auth=noauth.NoAuth()),
                          os_ironic_api_version=version, **kwargs)


def test_latest_negotiates_the_maximum(url):
    client = _client(url, 'latest')
    node = client.node.create(driver='ipmi', owner='ops')
    assert client.current_api_version == '1.6'
    assert client.http_client.api_version_select_state == 'negotiated'
    assert node.owner == 'ops'


def test_a_list_of_versions_picks_the_highest_served(url):
    client = _client(url, ['1.2', '1.4', '1.9'])
    client.node.list()
    assert client.current_api_version == '1.4'


def test_a_list_with_no_served_version_is_refused(url):
    with pytest.raises(exc.UnsupportedVersion, match='1.1 to 1.6'):
        _client(url, ['1.7', '1.9']).node.list()


def test_retries_lower_after_a_406(url):
    # The client's default (1.9) with downgrade allowed: a 406, then 1.6.
    client = _client(url, '1.9', allow_api_version_downgrade=True)
    assert client.node.list() == []
    assert client.current_api_version == '1.6'
    assert client.http_client.api_version_select_state == 'negotiated'


def test_an_explicit_unsupported_version_is_refused_with_the_range(url):
    with pytest.raises(exc.UnsupportedVersion) as caught:
        _client(url, '1.9').node.list()
    assert 'Requested API version 1.9 is not supported' in str(caught.value)
    assert 'Supported version range is 1.1 to 1.6' in ' '.join(
        str(caught.value).split())


def test_an_application_error_message_is_shown(url):
    with pytest.raises(exc.NotFound) as caught:
        _client(url, '1.6').node.get('nowhere')
    assert str(caught.value) == 'Node nowhere could not be found. (HTTP 404)'


def test_a_library_error_message_is_shown(url):
    with pytest.raises(exc.NotFound) as caught:
        _client(url, '1.5').node.delete('nowhere')
    assert ('DELETE /v1/nodes/nowhere is not available in version 1.5'
            in str(caught.value))


def test_fields_follow_the_version(url):
    created = _client(url, '1.4').node.create(driver='ipmi', name='n1',
                                              owner='ops')
    old = _client(url, '1.1').node.get(created.uuid)
    assert 'name' not in old.to_dict() and 'owner' not in old.to_dict()
    assert _client(url, '1.4').node.get('n1').owner == 'ops'


def test_patch_through_the_client(url):
    client = _client(url, '1.3')
    node = client.node.create(driver='ipmi')
    patched = client.node.update(node.uuid, [
        {'op': 'add', 'path': '/description', 'value': 'rack 4'}])
    assert patched.description == 'rack 4'
    # A field of a later version is refused as unsupported (406).
    with pytest.raises(exc.UnsupportedVersion):
        client.node.update(node.uuid, [
            {'op': 'add', 'path': '/owner', 'value': 'x'}])


def test_delete_from_1_6(url):
    client = _client(url, '1.6')
    node = client.node.create(driver='ipmi')
    client.node.delete(node.uuid)
    assert client.node.list() == []


# -- What the wire carries ---------------------------------------------------

def test_every_response_carries_the_legacy_range(url):
    response = requests.get(url + '/v1', timeout=10)
    assert response.status_code == 200
    assert response.headers['X-OpenStack-Ironic-API-Minimum-Version'] == '1.1'
    assert response.headers['X-OpenStack-Ironic-API-Maximum-Version'] == '1.6'
    assert response.headers['X-OpenStack-Ironic-API-Version'] == '1.1'


def test_malformed_version_is_406(url):
    response = requests.get(url + '/v1/nodes', timeout=10, headers={
        'X-OpenStack-Ironic-API-Version': '1.x'})
    assert response.status_code == 406
    assert response.headers['X-OpenStack-Ironic-API-Maximum-Version'] == '1.6'
    assert "'1.x'" in response.json()['error_message']


def test_detailed_list(url):
    # GET /v1/nodes/detail, a 404 before.
    client = _client(url, '1.6')
    node = client.node.create(driver='ipmi', name='n1', owner='ops')
    (detailed,) = client.node.list(detail=True)
    assert (detailed.uuid, detailed.name, detailed.owner) == (
        node.uuid, 'n1', 'ops')
    (older,) = _client(url, '1.3').node.list(detail=True)
    assert not hasattr(older, 'owner')  # owner is 1.4's
    with pytest.raises(exc.NotFound):
        client.http_client.json_request('GET', f'/v1/nodes/{node.uuid}/detail')
