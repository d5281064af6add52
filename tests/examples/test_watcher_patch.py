"""The Watcher-style example: a refused patch leaves the audit as it was."""

import json

import pytest
import webtest

from pecan_microversions.examples import watcher_style

HEADERS = {'OpenStack-API-Version': 'infra-optim 1.1'}


@pytest.fixture()
def api():
    return webtest.TestApp(watcher_style.make_app())


@pytest.mark.parametrize('value', [123, '', 'x' * 64, ['a']])
def test_an_invalid_value_is_refused_and_nothing_is_stored(api, value):
    uuid = api.post_json('/v1/audits', {'audit_type': 'ONESHOT', 'goal': 'g',
                                        'name': 'a'}, headers=HEADERS
                         ).json['uuid']
    response = api.patch_json(f'/v1/audits/{uuid}', [
        {'op': 'replace', 'path': '/name', 'value': value}],
        headers=HEADERS, expect_errors=True)
    assert response.status_int == 400
    assert "'name'" in response.json['error_message']
    # The stored audit is unchanged, and still readable.
    shown = api.get(f'/v1/audits/{uuid}', headers=HEADERS)
    assert shown.json['name'] == 'a'
    api.patch_json(f'/v1/audits/{uuid}', [
        {'op': 'replace', 'path': '/name', 'value': 'b'}], headers=HEADERS)
    assert api.get(f'/v1/audits/{uuid}', headers=HEADERS).json['name'] == 'b'


def test_a_patch_may_be_sent_as_json_patch(api):
    uuid = api.post_json('/v1/audits', {'audit_type': 'ONESHOT', 'goal': 'g',
                                        'name': 'a'}, headers=HEADERS
                         ).json['uuid']
    response = api.patch(f'/v1/audits/{uuid}', json.dumps(
        [{'op': 'replace', 'path': '/name', 'value': 'b'}]), headers={
        **HEADERS, 'Content-Type': 'application/json-patch+json'})
    assert response.json['name'] == 'b'
