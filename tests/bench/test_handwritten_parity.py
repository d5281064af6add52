"""The benchmark's baseline answers exactly as the demo does.

``bench/versus_handwritten.py`` compares the demo with the hand-written app
in ``bench/handwritten``; the comparison is fair only while both send the
same bytes.  Each benchmarked request (``bench/cases.py``), and a few more
that exercise version negotiation, is sent to both apps over identically
seeded stores that make the same uuids and timestamps.
"""

import ast
import datetime
import itertools
import json
import pathlib
import uuid

import pytest
import webtest

from bench.cases import CASES, NODES, PATCHED, SHOWN, Case
from bench.handwritten import make_app as make_handwritten
from pecan_microversions.demo.app import make_app as make_demo
from pecan_microversions.demo.store import NodeStore

COMPARED_HEADERS = ['OpenStack-API-Version', 'OpenStack-API-Minimum-Version',
                    'OpenStack-API-Maximum-Version', 'Vary', 'Content-Type',
                    'Content-Length', 'Location', 'Allow',
                    'X-OpenStack-Fleet-API-Version']
# Versions every benchmarked request is also sent at, and more requests:
# negotiation (no header, latest, legacy header, malformed) and errors.
OTHER_VERSIONS = [f'1.{minor}' for minor in range(10)]
EXTRA = [
    Case('no-header', 'GET', f'/v1/nodes/{SHOWN}', '', 200),
    Case('latest', 'GET', '/v1/nodes', 'latest', 200),
    Case('malformed', 'GET', '/v1/nodes', '1.08', 400),
    Case('too-high', 'GET', '/v1/nodes', '2.0', 406),
    Case('unknown-node', 'GET', '/v1/nodes/nope', '1.8', 404),
    Case('unknown-patch', 'PATCH', '/v1/nodes/nope', '1.8', 404, b'[]',
         'application/json'),
    Case('patch-before-1.3', 'PATCH', f'/v1/nodes/{PATCHED}', '1.2', 405,
         b'[]', 'application/json'),
    Case('post-1.0', 'POST', '/v1/nodes', '1.0', 200,
         b'{"name": "n", "driver": "ipmi"}', 'application/json'),
    Case('page', 'GET', '/v1/nodes?limit=7&sort_dir=desc', '1.8', 200),
    Case('next-page', 'GET', '/v1/nodes?limit=7&sort_key=owner'
         f'&marker={PATCHED}', '1.8', 200),
    Case('filtered', 'GET', '/v1/nodes?driver=redfish&sort_key=name', '1.5',
         200),
]


def deterministic_store():
    counter = itertools.count(1000)
    moments = itertools.count()
    start = datetime.datetime(2026, 6, 1, tzinfo=datetime.timezone.utc)
    return NodeStore.seeded(
        NODES, new_uuid=lambda: str(uuid.UUID(int=next(counter))),
        clock=lambda: start + datetime.timedelta(
            microseconds=next(moments) * 1001))


@pytest.fixture
def apps():
    return (webtest.TestApp(make_demo(store=deterministic_store())),
            webtest.TestApp(make_handwritten(deterministic_store())))


def send(app, case, version=None):
    version = case.version if version is None else version
    headers = {} if not version else {
        'OpenStack-API-Version': f'fleet {version}'}
    if case.content_type:
        headers['Content-Type'] = case.content_type
    response = app.request(case.path, method=case.method, headers=headers,
                           body=case.body or b'', expect_errors=True)
    return (response.status_int,
            {name: response.headers.get(name) for name in COMPARED_HEADERS},
            response.body)


def assert_same(apps, case, version=None):
    demo, handwritten = (send(app, case, version) for app in apps)
    assert demo == handwritten
    return demo


@pytest.mark.parametrize('case', CASES, ids=lambda c: c.name)
def test_benchmarked_requests_answer_alike(apps, case):
    status, headers, body = assert_same(apps, case)
    assert status == case.status
    assert headers['OpenStack-API-Version'] == 'fleet ' + (
        case.version if status != 406 else '1.0')
    document = json.loads(body)
    if case.path == '/v1/nodes' and case.method == 'GET':
        assert len(document['nodes']) == NODES
    if status == 406:
        assert document['errors'][0]['code'] == 'microversion.not_acceptable'
    # Twice: the second answer reflects the first one's write in both.
    assert_same(apps, case)


@pytest.mark.parametrize('version', OTHER_VERSIONS)
@pytest.mark.parametrize('case', [c for c in CASES if c.status != 406],
                         ids=lambda c: c.name)
def test_benchmarked_requests_alike_at_other_versions(apps, case, version):
    if case.name == 'post' and int(version.split('.')[1]) < 6:
        case = case._replace(body=case.body.replace(b'hardware_type',
                                                    b'driver'))
    if version == '1.9' and case.body:  # the owner is an object from 1.9
        case = case._replace(body=case.body.replace(
            b'"bench"', b'{"name": "bench", "domain": "lab"}'))
    assert_same(apps, case, version)


@pytest.mark.parametrize('case', EXTRA, ids=lambda c: c.name)
def test_negotiation_and_errors_alike(apps, case):
    status, _, body = assert_same(apps, case)
    assert status == case.status
    assert ('errors' in json.loads(body)) == (status >= 400)


def test_legacy_header_alike(apps):
    responses = [app.get(f'/v1/nodes/{SHOWN}',
                         headers={'X-OpenStack-Fleet-API-Version': '1.4'})
                 for app in apps]
    assert responses[0].body == responses[1].body
    for name in COMPARED_HEADERS:
        assert responses[0].headers.get(name) == responses[1].headers.get(
            name)
    assert responses[1].headers['X-OpenStack-Fleet-API-Version'] == '1.4'


def test_writes_reach_both_stores_alike(apps):
    post, patch = (c for c in CASES if c.method in ('POST', 'PATCH'))
    for case in (post, patch, post):
        assert_same(apps, case)
    listing = CASES[1]
    _, _, body = assert_same(apps, listing)
    nodes = json.loads(body)['nodes']
    assert len(nodes) == NODES + 2
    patched = next(n for n in nodes if n['uuid'] == PATCHED)
    assert patched['description'] == 'Patched by the benchmark.'


def test_baseline_uses_only_the_demo_store_from_the_library():
    root = pathlib.Path(__file__).parents[2] / 'bench' / 'handwritten'
    imported = set()
    for path in root.glob('*.py'):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    library = {m for m in imported if m.startswith('pecan_microversions')}
    assert library == {'pecan_microversions.demo.store'}
    assert 'wsme' not in {m.split('.')[0] for m in imported}


def test_owner_edit_that_would_drop_a_domain_alike(apps):
    # 1.9 sets a domain 1.8 cannot show; a 1.8 owner edit is then a 409 in
    # both, and a 1.8 edit of another field keeps the domain in both.
    domain = Case('domain', 'PATCH', f'/v1/nodes/{PATCHED}', '1.9', 200,
                  b'[{"op": "replace", "path": "/owner", "value": '
                  b'{"name": "x", "domain": "corp"}}]', 'application/json')
    owner = Case('owner', 'PATCH', f'/v1/nodes/{PATCHED}', '1.8', 409,
                 b'[{"op": "replace", "path": "/owner", "value": "y"}]',
                 'application/json')
    name = Case('name', 'PATCH', f'/v1/nodes/{PATCHED}', '1.8', 200,
                b'[{"op": "replace", "path": "/name", "value": "z"}]',
                'application/json')
    for case in (domain, owner, name):
        status, _, _ = assert_same(apps, case)
        assert status == case.status
    shown = Case('shown', 'GET', f'/v1/nodes/{PATCHED}', '1.9', 200)
    assert json.loads(assert_same(apps, shown)[2])['owner'] == {
        'name': 'x', 'domain': 'corp'}


@pytest.mark.parametrize('owner, status', [
    (b'{"name": "o", "domain": ""}', 400),
    (b'{"name": "o", "domain": 5}', 400),
    (b'{"name": "o", "domain": null}', 201),
    (b'{"name": null}', 400),
    (b'{"name": 5}', 400),
])
def test_owner_domains_alike(apps, owner, status):
    # Null is the default domain in both; "" and a number are the same 400,
    # as are a null or non-text name.
    post = Case('post-owner', 'POST', '/v1/nodes', '1.9', status,
                b'{"name": "n", "hardware_type": "ipmi", "owner": '
                + owner + b'}', 'application/json')
    replace = Case('patch-owner', 'PATCH', f'/v1/nodes/{PATCHED}', '1.9',
                   status if status == 400 else 200,
                   b'[{"op": "replace", "path": "/owner", "value": '
                   + owner + b'}]', 'application/json')
    rename = Case('rename', 'PATCH', f'/v1/nodes/{PATCHED}', '1.8', 200,
                  b'[{"op": "replace", "path": "/owner", "value": "y"}]',
                  'application/json')
    for case in (post, replace, rename):
        got, _, _ = assert_same(apps, case)
        assert got == case.status


@pytest.mark.parametrize('version, owner', [
    ('1.4', b'{"name": "y", "domain": "evil"}'),  # 1.9's object, too early
    ('1.8', b'{"name": "x", "domain": "evil"}'),
    ('1.8', b'""'),
    ('1.8', b'"' + b'x' * 256 + b'"'),
    ('1.9', b'"bob"'),                             # 1.8's string, too late
    ('1.9', b'{"name": ""}'),
    ('1.9', b'{"name": 5}'),
    ('1.9', b'{"name": "x", "extra": 1}'),
    ('1.9', b'{"domain": "d"}'),
])
def test_owners_a_version_refuses_alike(apps, version, owner):
    """The baseline refuses what the demo refuses, with the same answer:
    no version writes an owner of another version's shape."""
    field = 'hardware_type' if version >= '1.6' else 'driver'
    post = Case('post-owner', 'POST', '/v1/nodes', version, 400,
                b'{"name": "n", "%s": "ipmi", "owner": %s}'
                % (field.encode(), owner), 'application/json')
    replace = Case('patch-owner', 'PATCH', f'/v1/nodes/{PATCHED}', version,
                   400, b'[{"op": "replace", "path": "/owner", "value": '
                   + owner + b'}]', 'application/json')
    for case in (post, replace):
        got, _, _ = assert_same(apps, case)
        assert got == 400


@pytest.mark.parametrize('content_type', ['application/json',
                                          'application/json-patch+json'])
@pytest.mark.parametrize('body', [
    b'[{"op": "replace", "path": "/name", "value": "a", "value": "b"}]',
    b'[{"op": "replace", "path": "/description", "value": NaN}]',
    b'[{"op": "replace", "path": "/name", "value": "a"}',
])
def test_patches_json_loads_would_misread_alike(apps, content_type, body):
    """Two values for one key, NaN or broken JSON: the same 400 from both
    apps, nothing stored."""
    case = Case('patch-json', 'PATCH', f'/v1/nodes/{PATCHED}', '1.9', 400,
                body, content_type)
    got, _, _ = assert_same(apps, case)
    assert got == 400


def test_a_patch_not_in_utf_8_alike(apps):
    # (As application/json the baseline leaves it to Pecan, whose 400
    # while routing does not say why.)
    case = Case('patch-latin', 'PATCH', f'/v1/nodes/{PATCHED}', '1.9', 400,
                b'[{"op": "replace", "path": "/name", "value": "\xff"}]',
                'application/json-patch+json')
    got, _, _ = assert_same(apps, case)
    assert got == 400


@pytest.mark.parametrize('body', [
    b'{"name": "n", "hardware_type": "x", "name": "m"}',
    b'{"name": "n", "hardware_type": "x", "description": Infinity}',
    b'{"name": "n", "hardware_type": "x"',
])
def test_creations_json_loads_would_misread_alike(apps, body):
    case = Case('post-json', 'POST', '/v1/nodes', '1.9', 400, body,
                'application/json')
    got, _, _ = assert_same(apps, case)
    assert got == 400
