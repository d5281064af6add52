"""Hostile bodies and query strings against the demo's nodes API.

Every request below is wrong for the version it names: wrong JSON types,
unknown fields, fields from another version, deeply nested JSON, bytes that
are not JSON, invalid JSON patch documents, limits and markers out of range,
unknown sort keys.  Each must answer a 4xx with the JSON errors body and the
version headers, and leave the store exactly as it was.  The controls at the
end show that the same requests, made valid, do change the store, so the
"unchanged" check can fail.
"""

from __future__ import annotations

import json

import pytest

from pecan_microversions.demo.store import NodeStore
from pecan_microversions.demo.versions import REGISTRY

SEED = '00000000-0000-0000-0000-000000000001'
NODE = f'/v1/nodes/{SEED}'
MISSING = '00000000-0000-0000-0000-0000000000ff'
DEEP = 10_000


def nested(depth: int) -> str:
    return '[' * depth + ']' * depth


def deep_object(depth: int) -> str:
    return '{"a": ' * depth + '1' + '}' * depth


def driver_key(version: str) -> str:
    return 'driver' if int(version.split('.')[1]) < 6 else 'hardware_type'


def create(version: str, **fields) -> dict:
    body = {'name': 'new-node', driver_key(version): 'ipmi'}
    body.update(fields)
    return body


def case(id_, method, path, version, body=None, raw=None,
         content_type='application/json'):
    """One hostile request; ``body`` is JSON-encoded, ``raw`` sent as is."""
    if body is not None:
        raw = json.dumps(body).encode()
    elif isinstance(raw, str):
        raw = raw.encode('utf-8')
    return pytest.param(method, path, version, raw, content_type, id=id_)


PATCH_TYPE = 'application/json-patch+json'

CREATE_CASES = [
    # Not JSON, or not an object.
    case('create-empty-body', 'POST', '/v1/nodes', '1.8', raw=b''),
    case('create-truncated', 'POST', '/v1/nodes', '1.8', raw='{"name": "a"'),
    case('create-not-utf8', 'POST', '/v1/nodes', '1.8', raw=b'\xff\xfe{}'),
    case('create-null', 'POST', '/v1/nodes', '1.8', raw='null'),
    case('create-list', 'POST', '/v1/nodes', '1.8', body=[create('1.8')]),
    case('create-string', 'POST', '/v1/nodes', '1.8', body='node'),
    case('create-number', 'POST', '/v1/nodes', '1.8', raw='1e999'),
    case('create-nan', 'POST', '/v1/nodes', '1.8',
         raw='{"name": NaN, "hardware_type": "ipmi"}'),
    case('create-overflowing-number', 'POST', '/v1/nodes', '1.1',
         raw='{"name": "a", "driver": "ipmi", "description": -1e999}'),
    case('create-lone-surrogate', 'POST', '/v1/nodes', '1.8',
         raw='{"name": "n\\ud800", "hardware_type": "ipmi"}'),
    case('create-duplicate-keys', 'POST', '/v1/nodes', '1.0',
         raw='{"name": "a", "driver": "ipmi", "name": 7}'),
    case('create-text-plain', 'POST', '/v1/nodes', '1.8',
         body=create('1.8'), content_type='text/plain'),
    case('create-form', 'POST', '/v1/nodes', '1.8', raw='name=a&driver=b',
         content_type='application/x-www-form-urlencoded'),
    # Deeply nested.
    case('create-deep-list', 'POST', '/v1/nodes', '1.8', raw=nested(DEEP)),
    case('create-deep-object', 'POST', '/v1/nodes', '1.8',
         raw=deep_object(DEEP)),
    case('create-deep-name', 'POST', '/v1/nodes', '1.8',
         raw='{"hardware_type": "ipmi", "name": ' + nested(DEEP) + '}'),
    case('create-deep-description', 'POST', '/v1/nodes', '1.1',
         raw='{"driver": "ipmi", "name": "a", "description": '
             + deep_object(DEEP) + '}'),
    # Wrong types and values.
    case('create-name-int', 'POST', '/v1/nodes', '1.0', body=create('1.0', name=7)),
    case('create-name-list', 'POST', '/v1/nodes', '1.0',
         body=create('1.0', name=['a'])),
    case('create-name-object', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', name={'a': 1})),
    case('create-name-null', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', name=None)),
    case('create-name-bool', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', name=True)),
    case('create-name-empty', 'POST', '/v1/nodes', '1.8', body=create('1.8', name='')),
    case('create-name-256', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', name='n' * 256)),
    case('create-name-1mb', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', name='n' * 1_000_000)),
    case('create-driver-int', 'POST', '/v1/nodes', '1.0',
         body={'name': 'a', 'driver': 5}),
    case('create-hardware-type-list', 'POST', '/v1/nodes', '1.6',
         body={'name': 'a', 'hardware_type': ['ipmi']}),
    case('create-description-int', 'POST', '/v1/nodes', '1.1',
         body=create('1.1', description=5)),
    case('create-owner-object', 'POST', '/v1/nodes', '1.4',
         body=create('1.4', owner={'id': 1})),
    # Required fields missing.
    case('create-no-name', 'POST', '/v1/nodes', '1.0', body={'driver': 'ipmi'}),
    case('create-no-driver', 'POST', '/v1/nodes', '1.0', body={'name': 'a'}),
    case('create-empty-object', 'POST', '/v1/nodes', '1.8', body={}),
    # Unknown and out-of-version fields.
    case('create-unknown-field', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', colour='red')),
    case('create-description-at-1.0', 'POST', '/v1/nodes', '1.0',
         body=create('1.0', description='d')),
    case('create-owner-at-1.3', 'POST', '/v1/nodes', '1.3',
         body=create('1.3', owner='alice')),
    case('create-hardware-type-at-1.5', 'POST', '/v1/nodes', '1.5',
         body={'name': 'a', 'hardware_type': 'ipmi'}),
    case('create-driver-at-1.6', 'POST', '/v1/nodes', '1.6',
         body={'name': 'a', 'driver': 'ipmi'}),
    case('create-driver-and-hardware-type', 'POST', '/v1/nodes', '1.8',
         body={'name': 'a', 'driver': 'ipmi', 'hardware_type': 'ipmi'}),
    case('create-power-state', 'POST', '/v1/nodes', '1.8',
         body=create('1.8', power_state='power on')),
]

PATCH_CASES = [
    # Not a patch document.
    case('patch-object', 'PATCH', NODE, '1.3', body={'name': 'x'}),
    case('patch-null', 'PATCH', NODE, '1.3', raw='null'),
    case('patch-string', 'PATCH', NODE, '1.3', body='replace'),
    case('patch-not-json', 'PATCH', NODE, '1.3', raw='[{"op": '),
    case('patch-lone-surrogate', 'PATCH', NODE, '1.3',
         raw='[{"op": "replace", "path": "/name", "value": "\\udfff"}]'),
    case('patch-list-of-lists', 'PATCH', NODE, '1.3', body=[[]]),
    case('patch-list-of-null', 'PATCH', NODE, '1.3', body=[None]),
    case('patch-deep', 'PATCH', NODE, '1.3', raw=nested(DEEP)),
    case('patch-deep-value', 'PATCH', NODE, '1.3',
         raw='[{"op": "replace", "path": "/description", "value": '
             + deep_object(DEEP) + '}]'),
    case('patch-text-plain', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': 'x'}],
         content_type='text/plain'),
    # Malformed operations.
    case('patch-no-op', 'PATCH', NODE, '1.3', body=[{'path': '/name', 'value': 'x'}]),
    case('patch-unknown-op', 'PATCH', NODE, '1.3',
         body=[{'op': 'frobnicate', 'path': '/name', 'value': 'x'}]),
    case('patch-op-int', 'PATCH', NODE, '1.3',
         body=[{'op': 1, 'path': '/name', 'value': 'x'}]),
    case('patch-no-path', 'PATCH', NODE, '1.3', body=[{'op': 'replace', 'value': 'x'}]),
    case('patch-path-int', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': 5, 'value': 'x'}]),
    case('patch-path-no-slash', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': 'name', 'value': 'x'}]),
    case('patch-no-value', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name'}]),
    case('patch-move-no-from', 'PATCH', NODE, '1.3',
         body=[{'op': 'move', 'path': '/name'}]),
    case('patch-bad-escape', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/na~2me', 'value': 'x'}]),
    # Paths that may not be changed, or not at this version.
    case('patch-uuid', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/uuid', 'value': MISSING}]),
    case('patch-created-at', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/created_at', 'value': 'x'}]),
    case('patch-driver', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/driver', 'value': 'x'}]),
    case('patch-links', 'PATCH', NODE, '1.3',
         body=[{'op': 'remove', 'path': '/links'}]),
    case('patch-unknown-path', 'PATCH', NODE, '1.3',
         body=[{'op': 'add', 'path': '/colour', 'value': 'red'}]),
    case('patch-owner-at-1.3', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/owner', 'value': 'mallory'}]),
    case('patch-whole-document', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '', 'value': {}}]),
    case('patch-into-string', 'PATCH', NODE, '1.3',
         body=[{'op': 'add', 'path': '/description/x', 'value': 'y'}]),
    # Values the field does not allow.
    case('patch-name-empty', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': ''}]),
    case('patch-name-256', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': 'n' * 256}]),
    case('patch-name-int', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': 7}]),
    case('patch-name-null', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': None}]),
    case('patch-remove-name', 'PATCH', NODE, '1.3',
         body=[{'op': 'remove', 'path': '/name'}]),
    case('patch-owner-list', 'PATCH', NODE, '1.4',
         body=[{'op': 'replace', 'path': '/owner', 'value': ['a']}]),
    # A valid operation followed by a failing one changes nothing.
    case('patch-then-failing-test', 'PATCH', NODE, '1.3',
         body=[{'op': 'replace', 'path': '/name', 'value': 'changed'},
               {'op': 'test', 'path': '/name', 'value': 'not-it'}]),
    case('patch-then-bad-remove', 'PATCH', NODE, '1.4',
         body=[{'op': 'replace', 'path': '/description', 'value': 'changed'},
               {'op': 'replace', 'path': '/owner', 'value': 'changed'},
               {'op': 'remove', 'path': '/nonexistent'}]),
    case('patch-then-bad-type', 'PATCH', NODE, '1.8',
         body=[{'op': 'replace', 'path': '/name', 'value': 'changed'},
               {'op': 'replace', 'path': '/name', 'value': 7}]),
    # PATCH before it exists, and on nodes that do not exist.
    case('patch-at-1.2', 'PATCH', NODE, '1.2',
         body=[{'op': 'replace', 'path': '/name', 'value': 'x'}],
         content_type=PATCH_TYPE),
    case('patch-missing-node', 'PATCH', f'/v1/nodes/{MISSING}', '1.8',
         body=[{'op': 'replace', 'path': '/name', 'value': 'x'}]),
    case('patch-not-a-uuid', 'PATCH', '/v1/nodes/not-a-uuid', '1.8',
         body=[{'op': 'replace', 'path': '/name', 'value': 'x'}]),
]

QUERY_CASES = [
    case(f'list-{query}-at-{version}', 'GET', f'/v1/nodes?{query}', version)
    for version, query in [
        ('1.8', 'limit=0'), ('1.8', 'limit=-1'), ('1.8', 'limit=1001'),
        ('1.8', 'limit=' + '9' * 40), ('1.8', 'limit=abc'), ('1.8', 'limit=1.5'),
        ('1.8', 'limit='), ('1.8', 'limit=%201'), ('1.8', 'limit=1e3'),
        ('1.8', 'limit=0x10'), ('1.8', 'limit=%00'), ('1.8', 'limit=%D9%A1'),
        ('1.8', 'limit=1&limit=2'), ('1.7', 'limit=1'),
        ('1.8', 'marker=not-a-uuid'), ('1.8', f'marker={MISSING}'),
        ('1.8', 'marker=' + 'a' * 10_000), ('1.7', f'marker={SEED}'),
        ('1.8', 'sort_key=power_state'), ('1.8', 'sort_key=uuid%27--'),
        ('1.8', 'sort_key='), ('1.3', 'sort_key=owner'), ('1.1', 'sort_key=name'),
        ('1.8', 'sort_dir=up'), ('1.8', 'sort_dir=ASC%00'), ('1.1', 'sort_dir=asc'),
        ('1.8', 'sort_key=name&sort_key=created_at'),
        ('1.1', 'driver=ipmi'), ('1.6', 'driver=ipmi'), ('1.5', 'hardware_type=ipmi'),
        ('1.8', 'colour=red'), ('1.8', 'x=' + 'y' * 100_000),
    ]
]


def snapshot(store: NodeStore) -> list[dict]:
    return store.list()


def send(api, method, path, version, raw, content_type):
    headers = {'OpenStack-API-Version': f'fleet {version}'}
    kwargs = {}
    if raw is not None:
        kwargs = {'body': raw, 'content_type': content_type}
    return api.request(path, method=method, headers=headers,
                       expect_errors=True, **kwargs)


@pytest.mark.parametrize('method, path, version, raw, content_type',
                         CREATE_CASES + PATCH_CASES + QUERY_CASES)
def test_hostile_request_is_a_4xx_and_changes_nothing(
        api, store, method, path, version, raw, content_type):
    before = snapshot(store)
    response = send(api, method, path, version, raw, content_type)
    assert 400 <= response.status_int < 500, (response.status,
                                              response.body[:500])
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert error['status'] == response.status_int
    assert error['code'] and error['title'] and error['detail']
    assert response.headers['OpenStack-API-Version'] == f'fleet {version}'
    assert response.headers['OpenStack-API-Minimum-Version'] == '1.0'
    assert response.headers['OpenStack-API-Maximum-Version'] == str(
        REGISTRY.max_version)
    assert 'openstack-api-version' in response.headers['Vary'].lower()
    assert snapshot(store) == before


# -- controls: the same requests, made valid, do change the store -----------

@pytest.mark.parametrize('version', ['1.0', '1.5', '1.6', '1.8'])
def test_control_valid_create_changes_the_store(api, store, version):
    before = snapshot(store)
    response = send(api, 'POST', '/v1/nodes', version,
                    json.dumps(create(version)).encode(), 'application/json')
    assert response.status_int in (200, 201)
    assert len(snapshot(store)) == len(before) + 1


def test_control_a_whole_surrogate_pair_is_one_character(api, store):
    raw = b'{"name": "n\\ud83d\\ude00", "hardware_type": "ipmi"}'
    response = send(api, 'POST', '/v1/nodes', '1.8', raw, 'application/json')
    assert response.status_int == 201, response.body[:500]
    assert response.json['name'] == 'n\U0001f600'


@pytest.mark.parametrize('content_type', ['application/json', PATCH_TYPE])
def test_control_valid_patch_changes_the_store(api, store, content_type):
    before = snapshot(store)
    body = [{'op': 'replace', 'path': '/name', 'value': 'changed'},
            {'op': 'test', 'path': '/name', 'value': 'changed'}]
    response = send(api, 'PATCH', NODE, '1.3', json.dumps(body).encode(),
                    content_type)
    assert response.status_int == 200, response.body[:500]
    assert response.json['name'] == 'changed'
    assert snapshot(store) != before


@pytest.mark.parametrize('query', ['limit=1', 'limit=1000', f'marker={SEED}',
                                   'sort_key=owner&sort_dir=desc',
                                   'hardware_type=ipmi'])
def test_control_valid_queries_at_1_8(api, query):
    response = send(api, 'GET', f'/v1/nodes?{query}', '1.8', None, None)
    assert response.status_int == 200, response.body[:500]
    assert isinstance(response.json['nodes'], list)
