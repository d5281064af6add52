"""No version leaks between concurrent requests.

The demo runs under its real multi-threaded server (cheroot, 16 worker
threads).  16 client threads, each with its own keep-alive connection, send
requests at random versions (every version, ``latest``, no header, the legacy
header) and check that each response's ``OpenStack-API-Version`` and field set
are exactly those of the version that request asked for.

Size: ``PM_LEAK_REQUESTS`` requests per thread (default 200: 3,200 in all;
the long run is ``PM_LEAK_REQUESTS=3200``: 51,200).  ``PM_LEAK_SECONDS``
bounds the run (default 600 s).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import threading
import time

THREADS = 16
REQUESTS = int(os.environ.get('PM_LEAK_REQUESTS', '200'))
SECONDS = float(os.environ.get('PM_LEAK_SECONDS', '600'))
NODE = '00000000-0000-0000-0000-000000000002'
VERSIONS = [(1, m) for m in range(10)]

COMMON = {'uuid', 'name', 'created_at', 'links', 'provision_state'}


def node_fields(version: tuple[int, int]) -> set[str]:
    """The node's fields at ``version``, from the demo's contract."""
    fields = set(COMMON)
    fields.add('driver' if version <= (1, 5) else 'hardware_type')
    if version >= (1, 1):
        fields.add('description')
    if version >= (1, 4):
        fields.add('owner')
    if version <= (1, 8):
        fields.add('available')
    return fields


def pick(rng: random.Random) -> tuple[dict[str, str], tuple[int, int]]:
    """Random request headers and the version they select."""
    kind = rng.randrange(12)
    if kind == 0:
        return {}, (1, 0)
    if kind == 1:
        return {'OpenStack-API-Version': 'fleet latest'}, VERSIONS[-1]
    version = rng.choice(VERSIONS)
    text = f'{version[0]}.{version[1]}'
    if kind == 2:
        return {'X-OpenStack-Fleet-API-Version': text}, version
    if kind == 3:
        other = rng.choice(VERSIONS)
        return {'OpenStack-API-Version':
                f'fleet {other[0]}.{other[1]}, compute 2.1, FLEET {text}'}, version
    return {'OpenStack-API-Version': f'fleet {text}'}, version


def client(port: int, seed: int, deadline: float, results: list,
           problems: list) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    done = 0
    try:
        for _ in range(REQUESTS):
            if time.monotonic() > deadline:
                problems.append(f'thread {seed}: out of time after {done}')
                return
            headers, version = pick(rng)
            states = rng.randrange(5) == 0
            path = f'/v1/nodes/{NODE}' + ('/states' if states else '')
            conn.request('GET', path, headers=headers)
            response = conn.getresponse()
            body = response.read()
            done += 1
            want = f'fleet {version[0]}.{version[1]}'
            got = response.getheader('OpenStack-API-Version')
            if got != want:
                problems.append(f'{path} {headers}: header {got!r}, '
                                f'expected {want!r}')
                continue
            legacy = response.getheader('X-OpenStack-Fleet-API-Version')
            if legacy != headers.get('X-OpenStack-Fleet-API-Version'):
                problems.append(f'{path} {headers}: legacy header {legacy!r}')
                continue
            if states:
                status = 200 if version <= (1, 6) else 404
                keys = {'power_state'} if status == 200 else {'errors'}
            else:
                status, keys = 200, node_fields(version)
            if response.status != status:
                problems.append(f'{path} {headers}: {response.status}, '
                                f'expected {status}: {body[:300]!r}')
                continue
            document = json.loads(body)
            if set(document) != keys:
                problems.append(f'{path} {headers}: fields {sorted(document)},'
                                f' expected {sorted(keys)}')
    except Exception as exc:  # reported below, with the thread's progress
        problems.append(f'thread {seed}: {exc!r} after {done} requests')
    finally:
        conn.close()
        results.append(done)


def test_concurrent_requests_get_their_own_version(live_server):
    _, port = live_server
    results: list[int] = []
    problems: list[str] = []
    deadline = time.monotonic() + SECONDS
    threads = [threading.Thread(target=client, daemon=True,
                                args=(port, seed, deadline, results, problems))
               for seed in range(THREADS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()) + 30)
    elapsed = time.monotonic() - started
    assert not any(thread.is_alive() for thread in threads), 'clients hung'
    assert problems == [], (len(problems), problems[:20])
    assert sum(results) == THREADS * REQUESTS
    print(f'{sum(results)} requests from {THREADS} threads in {elapsed:.1f}s '
          f'({sum(results) / elapsed:.0f} requests/s)')


def test_contract_field_sets_differ_between_versions():
    """Guards the check above: neighbouring versions that change the node
    have different field sets, so a leaked version would be noticed."""
    assert node_fields((1, 0)) != node_fields((1, 1))
    assert node_fields((1, 3)) != node_fields((1, 4))
    assert node_fields((1, 5)) != node_fields((1, 6))
    assert node_fields((1, 8)) != node_fields((1, 9))
