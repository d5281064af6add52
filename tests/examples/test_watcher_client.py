"""python-watcherclient, as released, against the Watcher-style example
served by cheroot on a loopback port."""

import pytest
import requests
from keystoneauth1 import noauth, session
from watcherclient import exceptions as wexc
from watcherclient.common.apiclient import exceptions as api_exc
from watcherclient.v1 import client as wclient

from pecan_microversions.examples.watcher_style import make_app


@pytest.fixture
def url(serve):
    return serve(make_app())


def _client(url, version=None):
    sess = session.Session(auth=noauth.NoAuth())
    if version is None:
        return wclient.Client(endpoint=url, session=sess)
    return wclient.Client(endpoint=url, session=sess,
                          os_infra_optim_api_version=version)


def test_default_client_sends_1_5_and_sees_every_field(url):
    client = _client(url)
    audit = client.audit.create(audit_type='ONESHOT', goal='dummy',
                                force=True, strategy='basic',
                                auto_trigger=True)
    assert (audit.force, audit.strategy, audit.auto_trigger) == (
        True, 'basic', True)
    assert [a.uuid for a in client.audit.list()] == [audit.uuid]


def test_older_version_hides_newer_fields(url):
    created = _client(url).audit.create(audit_type='ONESHOT', goal='dummy',
                                        force=True, start_time='t0')
    old = _client(url, '1.0').audit.get(created.uuid)
    assert old.to_dict().keys() == {'uuid', 'audit_type', 'goal', 'state',
                                    'created_at', 'goal_name',
                                    'strategy_name'}
    assert _client(url, '1.1').audit.get(created.uuid).start_time == 't0'


def test_explicit_null_for_a_later_field_is_absent(url):
    audit = _client(url, '1.0').audit.create(audit_type='ONESHOT',
                                             goal='dummy', force=None)
    assert 'force' not in audit.to_dict()
    # Read at 1.2, where force exists: the null was dropped, not stored.
    assert _client(url, '1.2').audit.get(audit.uuid).force is False


def test_a_value_for_a_later_field_is_refused_as_unsupported(url):
    with pytest.raises(wexc.UnsupportedVersion,
                       match='Supported version range is 1.0 to 1.5'):
        _client(url, '1.0').audit.create(audit_type='ONESHOT', goal='dummy',
                                         force=True)


def test_unsupported_explicit_version(url):
    with pytest.raises(wexc.UnsupportedVersion,
                       match=r'1\.9 is not supported(.|\n)*1\.0 to 1\.5'):
        _client(url, '1.9').audit.list()


def test_application_error_message_reaches_the_user(url):
    with pytest.raises(api_exc.NotFound) as caught:
        _client(url).audit.get('f00')
    assert str(caught.value) == 'Audit f00 could not be found. (HTTP 404)'


def test_library_error_message_reaches_the_user(url):
    with pytest.raises(api_exc.BadRequest) as caught:
        _client(url, '1.3').audit.list(sort_key='nothing')
    assert "Invalid value 'nothing' for query parameter 'sort_key'" in str(
        caught.value)


def test_json_patch_through_the_client(url):
    client = _client(url, '1.1')
    audit = client.audit.create(audit_type='ONESHOT', goal='dummy')
    patched = client.audit.update(audit.uuid, [
        {'op': 'add', 'path': '/start_time', 'value': 't1'}])
    assert patched.start_time == 't1'
    with pytest.raises(wexc.UnsupportedVersion):
        _client(url, '1.0').audit.update(audit.uuid, [
            {'op': 'add', 'path': '/start_time', 'value': 't2'}])


# -- What the wire carries (the client's view rests on these) ---------------

def test_bare_major_is_1_0(url):
    response = requests.get(url + '/v1/audits', timeout=10,
                            headers={'OpenStack-API-Version': 'infra-optim 1'})
    assert response.status_code == 200
    assert response.headers['OpenStack-API-Version'] == 'infra-optim 1.0'


def test_malformed_version_is_406_with_the_range_and_a_fault(url):
    response = requests.get(url + '/v1/audits', timeout=10, headers={
        'OpenStack-API-Version': 'infra-optim 1.01'})
    assert response.status_code == 406
    assert response.headers['OpenStack-API-Minimum-Version'] == '1.0'
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.5'
    fault = response.json()['error_message']
    assert '"faultcode": "Client"' in fault and "'1.01'" in fault


def test_bare_major_with_a_leading_zero_names_what_was_sent(url):
    response = requests.get(url + '/v1/audits', timeout=10, headers={
        'OpenStack-API-Version': 'infra-optim 01'})
    assert response.status_code == 406
    fault = response.json()['error_message']
    assert "Invalid version string '01'" in fault
    assert '01.0' not in fault


def test_detailed_list_and_the_names_the_client_reads(url):
    # GET /v1/audits/detail (a 404 before), goal_name and strategy_name.
    client = _client(url)
    audit = client.audit.create(audit_type='ONESHOT', goal='dummy',
                                strategy='basic')
    assert (audit.goal_name, audit.strategy_name) == ('dummy', 'basic')
    (detailed,) = client.audit.list(detail=True)
    assert (detailed.uuid, detailed.goal_name, detailed.strategy_name) == (
        audit.uuid, 'dummy', 'basic')
    (old,) = _client(url, '1.3').audit.list(detail=True)
    assert (old.goal_name, old.strategy_name) == ('dummy', None)
    assert not hasattr(old, 'strategy')
    # Pecan passes the identifier to detail() as sort_key: checked as the
    # query parameter is, a 400 naming the value.
    with pytest.raises(api_exc.BadRequest, match='sort_key'):
        client.audit.get(f'{audit.uuid}/detail')
