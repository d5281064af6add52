"""The side-by-side benchmark's servers, checks and ``ab`` report parsing.

No timing here: these run the script's own servers (real cheroot, one
process per app) and check what it relies on.
"""

import argparse
import json

import pytest

from bench import versus_handwritten as script
from bench.cases import CASES, NODES, PATCHED


@pytest.fixture(scope='module')
def servers():
    args = argparse.Namespace(server_threads=4, pin=False, aa=False)
    started = {}
    try:
        for name in script.APPS:
            started[name] = script.Server(name, args)
        yield started
    finally:
        for server in started.values():
            server.stop()


def listing(server):
    status, _, body = script.send(CASES[1], server.port)
    assert status == 200
    return json.loads(body)['nodes']


def test_both_apps_answer_every_case_alike_over_the_real_server(servers):
    problems = [p for case in CASES for p in script.check(case, servers)]
    assert problems == []


def test_reset_puts_the_seeded_nodes_back(servers):
    post, patch = (c for c in CASES if c.method in ('POST', 'PATCH'))
    for server in servers.values():
        seeded = listing(server)
        assert len(seeded) == NODES
        for case in (post, post, patch):
            assert script.send(case, server.port)[0] == case.status
        changed = listing(server)
        assert len(changed) == NODES + 2
        assert next(n for n in changed if n['uuid'] == PATCHED) != next(
            n for n in seeded if n['uuid'] == PATCHED)
        server.reset()
        assert listing(server) == seeded


def test_a_differing_answer_is_reported(servers):
    wrong = CASES[2]._replace(status=404)
    problems = script.check(wrong, servers)
    assert len(problems) == 2 and all('not 404' in p for p in problems)


AB_REPORT = """\
Concurrency Level:      8
Time taken for tests:   2.001 seconds
Complete requests:      4086
Failed requests:        7
   (Connect: 0, Receive: 0, Length: 5, Exceptions: 2)
Non-2xx responses:      4086
Keep-Alive requests:    4086
Requests per second:    2042.53 [#/sec] (mean)
"""


def test_ab_report_figures():
    assert script.parse_ab(AB_REPORT) == {
        'complete': 4086, 'failed': 7, 'length_failures': 5,
        'non_2xx': 4086, 'rps': 2042.53}
    clean = script.parse_ab('Complete requests:      10\n'
                            'Failed requests:        0\n'
                            'Requests per second:    5.00 [#/sec] (mean)\n')
    assert (clean['failed'], clean['non_2xx'], clean['rps']) == (0, 0, 5.0)


def test_missing_ab_is_explained(capsys):
    with pytest.raises(SystemExit) as exit_info:
        script.parse_args(['--ab', '/nonexistent/ab'])
    assert exit_info.value.code == 2
    assert 'apt-get install apache2-utils' in capsys.readouterr().err


def test_overlong_plan_is_refused(capsys, tmp_path):
    fake_ab = tmp_path / 'ab'
    fake_ab.write_text('#!/bin/sh\n')
    fake_ab.chmod(0o755)
    with pytest.raises(SystemExit):
        script.parse_args(['--ab', str(fake_ab), '--rounds', '100',
                           '--seconds', '10', '--max-seconds', '60'])
    assert 'more than --max-seconds' in capsys.readouterr().err


def test_fresh_servers_warm_up_every_round_in_the_plan(tmp_path):
    """With --fresh (the default) every round starts new servers and warms
    them up, which the plan counts; --no-fresh warms up once."""
    fake_ab = tmp_path / 'ab'
    fake_ab.write_text('#!/bin/sh\n')
    fake_ab.chmod(0o755)
    plan = ['--ab', str(fake_ab), '--rounds', '10', '--seconds', '1',
            '--warmup', '5', '--max-seconds', '300']
    assert not script.parse_args(plan + ['--no-fresh']).fresh
    with pytest.raises(SystemExit):
        script.parse_args(plan)  # 6 cases x 2 apps x (10 + 10 x 5) s


def test_report_gives_the_ratio_of_medians_and_the_paired_median(capsys):
    args = argparse.Namespace(rounds=3, seconds=1, concurrency=8,
                              server_threads=16, pin=False, fresh=True,
                              aa=False)
    rps = {'show': {'demo': [100.0, 200.0, 300.0],
                    'hand': [100.0, 100.0, 400.0]}}
    script.report(args, [c for c in CASES if c.name == 'show'], rps, 1.0)
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith('show '))
    # medians 200 / 100; rounds 1.00, 2.00, 0.75: their median is 1.00
    assert row.split()[-4:] == ['100', '2.00', '0.75-2.00', '1.00']
