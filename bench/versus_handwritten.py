"""The fleet demo against a hand-written app serving the same contract.

Two apps serve ``/v1/nodes`` over identically seeded stores of 50 nodes:

* ``demo``: the fleet demo, built on pecan-microversions
  (``pecan_microversions.demo.app.make_app``);
* ``hand``: ``bench/handwritten``, the same wire contract written the way a
  service does without the library (plain dicts, explicit
  ``if version >= (1, 4)`` checks, ``json.dumps``), as Ironic's API is
  written since it dropped WSME.  ``tests/bench`` checks that both send the
  same status, version headers and body bytes for every request measured.

Each runs in its own process under the demo's real server (cheroot,
``--server-threads`` worker threads, access log off) on a loopback port.
ApacheBench drives them with ``--concurrency`` keep-alive connections (8),
for ``--seconds`` per run, through the cases of ``bench/cases.py``: the
50-node list at 1.0 and at 1.8, one node, a POST, a PATCH and a 406.  Rounds
interleave the apps (demo then hand, then hand then demo, ...), so drifts in
the machine's speed hit both alike; the report gives each app's median
requests/s per case and the ratio demo / hand-written (target: >= 0.95).
Every round starts both servers anew and warms them up (``--warmup``
seconds per app and case), so that no one process's memory layout and
hash seed weigh on the whole run (``--no-fresh``: one process per app for
the whole run).  With two or more CPUs the servers run on CPU 0 and
``ab`` on the others.
``--aa`` serves the demo in both slots: its ratios show the machine's noise.

Writes and the store: a POST adds one node per request and a PATCH changes
node 50 (its description and owner).  After every run of a writing case,
the benchmark tells that server to put its 50 seeded nodes back (a line on
the server's stdin; ``NodeStore.load``), so every run of every case starts
from the same 50 nodes and no list grows with the number of POSTs.  Within a
POST run the store grows by one node per request, which adds nothing to the
cost of a POST (one dict insertion).

Before timing, each case is sent once to both apps and their answers are
compared (status, version header, and for reads the body); during the runs
``ab`` must report no failed request and the expected status class.

Needs ApacheBench: ``apt-get install apache2-utils`` (Debian, Ubuntu),
``dnf install httpd-tools`` (Fedora, RHEL) or ``--ab PATH``.  Run from a
checkout::

    python bench/versus_handwritten.py                  # about 4 minutes
    python bench/versus_handwritten.py --rounds 3 --seconds 1 --cases show
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:  # this checkout's library, not an installed one
    sys.path.insert(0, ROOT)

from bench.cases import CASES, NODES, Case  # noqa: E402

APPS = ('demo', 'hand')
INSTALL_HINT = ('ApacheBench (ab) is needed: install it with '
                '"apt-get install apache2-utils" (Debian, Ubuntu) or '
                '"dnf install httpd-tools" (Fedora, RHEL), or give its path '
                'with --ab.')


# --- the servers (child processes) -----------------------------------------

def build_app(name: str, store: Any) -> Any:
    if name == 'demo':
        from pecan_microversions.demo.app import make_app
        return make_app(store=store)
    from bench.handwritten import make_app as make_handwritten
    return make_handwritten(store)


def serve(name: str, threads: int, pin: bool) -> None:
    """Child process: print the port, then serve until stdin closes.

    Each ``reset`` line read puts the seeded nodes back, answered ``reset``.
    """
    from pecan_microversions.demo.server import make_server
    from pecan_microversions.demo.store import NodeStore

    if pin:
        os.sched_setaffinity(0, {0})
    store = NodeStore.seeded(NODES)
    seeds = store.list()
    server = make_server(build_app(name, store), '127.0.0.1', 0,
                         threads=threads, access_log=False)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    print(server.bind_addr[1], flush=True)
    for line in sys.stdin:
        if line.strip() == 'reset':
            store.load(seeds)
            print('reset', flush=True)
    server.stop()
    thread.join(timeout=10)


class Server:
    """One app served by a child process on a loopback port."""

    def __init__(self, name: str, args: argparse.Namespace) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), '--serve',
             'demo' if args.aa else name,
             '--server-threads', str(args.server_threads)]
            + (['--pin'] if args.pin else ['--no-pin']),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self._read_line()
        if not line.strip().isdigit():
            self.stop()
            raise SystemExit(f'The {name} server did not start.')
        self.port = int(line)

    def _read_line(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def reset(self) -> None:
        """Put the seeded nodes back."""
        assert self.process.stdin is not None
        self.process.stdin.write('reset\n')
        self.process.stdin.flush()
        if self._read_line().strip() != 'reset':
            raise SystemExit(f'The {self.name} server did not reset.')

    def stop(self) -> None:
        if self.process.poll() is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


# --- checking and measuring -------------------------------------------------

def send(case: Case, port: int) -> tuple[int, Optional[str], bytes]:
    """One request: status, version header, body (ports written as PORT)."""
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    try:
        conn.request(case.method, case.path, body=case.body,
                     headers=case.headers)
        response = conn.getresponse()
        body = response.read().replace(f':{port}/'.encode(), b':PORT/')
        return (response.status, response.getheader('OpenStack-API-Version'),
                body)
    finally:
        conn.close()


def check(case: Case, servers: dict[str, Server]) -> list[str]:
    """Problems with the answers of both apps to ``case``, if any."""
    answers = {name: send(case, s.port) for name, s in servers.items()}
    if case.writes:
        for server in servers.values():
            server.reset()
    problems = [f'{case.name}: {name} answered {status}, not {case.status}'
                for name, (status, _, _) in answers.items()
                if status != case.status]
    demo, hand = answers['demo'], answers['hand']
    if demo[1] != hand[1]:
        problems.append(f'{case.name}: version headers differ: {demo[1]!r} '
                        f'and {hand[1]!r}')
    if not case.writes and demo[2] != hand[2]:  # writes: new uuid and time
        problems.append(f'{case.name}: bodies differ')
    return problems


def _number(pattern: str, output: str) -> float:
    match = re.search(pattern, output)
    return float(match.group(1)) if match else 0.0


def parse_ab(output: str) -> dict[str, float]:
    """The figures of an ``ab`` report that the benchmark uses."""
    return {
        'complete': _number(r'Complete requests:\s+(\d+)', output),
        'failed': _number(r'Failed requests:\s+(\d+)', output),
        'length_failures': _number(r'Length: (\d+)', output),
        'non_2xx': _number(r'Non-2xx responses:\s+(\d+)', output),
        'rps': _number(r'Requests per second:\s+([\d.]+)', output),
    }


def run_ab(args: argparse.Namespace, case: Case, port: int,
           body_files: dict[str, str], seconds: int) -> float:
    """Requests/s of one ``ab`` run; exits if a response was wrong."""
    command = [args.ab, '-q', '-k', '-c', str(args.concurrency),
               '-t', str(seconds),  # whole seconds only
               # -n after -t: ab's cap on requests (its buffer) for -t
               '-n', str(max(50000, int(seconds * 50000)))]
    for name, value in case.headers.items():
        if name != 'Content-Type':
            command += ['-H', f'{name}: {value}']
    if case.body is not None:
        command += ['-p', body_files[case.name], '-T', case.content_type or '']
        if case.method != 'POST':
            command += ['-m', case.method]  # after -p, which sets POST
    command.append(f'http://127.0.0.1:{port}{case.path}')
    done = subprocess.run(command, capture_output=True, text=True,
                          timeout=seconds + 60)
    figures = parse_ab(done.stdout)
    # A length "failure" is a body of another length than the first one:
    # a POST's created_at has no fraction when its microseconds are 0.
    hard_failures = figures['failed'] - figures['length_failures']
    if case.status < 300:
        wrong_status = figures['non_2xx'] > 0
    else:  # ab may count the answers cut off at the time limit here too
        wrong_status = not (figures['complete'] <= figures['non_2xx']
                            <= figures['complete'] + args.concurrency)
    if (done.returncode != 0 or not figures['complete'] or hard_failures
            or wrong_status):
        raise SystemExit(f'ab failed on {case.name} (exit {done.returncode}):'
                         f' {figures}\n{done.stdout}\n{done.stderr}')
    return figures['rps']


def _can_pin() -> bool:
    return hasattr(os, 'sched_setaffinity') and (os.cpu_count() or 1) >= 2


def parse_args(argv: Optional[list[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description='Requests/s of the fleet demo and of a hand-written app '
                    'with the same contract, under the same server and load.')
    parser.add_argument('--rounds', type=int, default=5,
                        help='measured runs per app and case, interleaved '
                             '(default 5)')
    parser.add_argument('--seconds', type=int, default=2,
                        help='length of each ab run, whole seconds '
                             '(default 2)')
    parser.add_argument('--warmup', type=int, default=1,
                        help='unmeasured seconds per app and case first, '
                             '0 for none (default 1)')
    parser.add_argument('--concurrency', type=int, default=8,
                        help='concurrent keep-alive connections (default 8)')
    parser.add_argument('--server-threads', type=int, default=16,
                        help='cheroot worker threads (default 16)')
    parser.add_argument('--cases', nargs='+', metavar='CASE',
                        choices=[c.name for c in CASES],
                        default=[c.name for c in CASES],
                        help='cases to run (default: all of '
                             f'{", ".join(c.name for c in CASES)})')
    parser.add_argument('--max-seconds', type=float, default=900,
                        help='refuse a plan longer than this (default 900)')
    parser.add_argument('--ab', default=shutil.which('ab'),
                        help='path of ApacheBench (default: ab on PATH)')
    parser.add_argument('--pin', action=argparse.BooleanOptionalAction,
                        default=_can_pin(),
                        help='servers on CPU 0, ab on the others (default: '
                             'on with 2+ CPUs)')
    parser.add_argument('--fresh', action=argparse.BooleanOptionalAction,
                        default=True,
                        help='start both servers anew (and warm them up) '
                             'for every round, so that no one process\'s '
                             'memory layout and hash seed weigh on every '
                             'round (default: on)')
    parser.add_argument('--aa', action='store_true',
                        help='calibration: serve the demo in both slots, so '
                             'the ratios show the noise floor')
    parser.add_argument('--serve', choices=APPS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        return args
    if args.ab is None or not os.access(args.ab, os.X_OK):
        parser.exit(2, INSTALL_HINT + '\n')
    if min(args.rounds, args.concurrency, args.server_threads) < 1 or (
            args.seconds <= 0 or args.warmup < 0):
        parser.error('--rounds, --concurrency, --server-threads and '
                     '--seconds must be positive')
    warmups = args.rounds if args.fresh else 1
    planned = len(args.cases) * len(APPS) * (args.rounds * args.seconds
                                             + warmups * args.warmup)
    if planned > args.max_seconds:
        parser.error(f'the plan takes about {planned:.0f} s, more than '
                     f'--max-seconds {args.max_seconds:g}')
    return args


def main(argv: Optional[list[str]] = None) -> int:
    args = parse_args(argv)
    if args.serve:
        serve(args.serve, args.server_threads, args.pin)
        return 0
    cases = [c for c in CASES if c.name in args.cases]
    if args.pin:
        os.sched_setaffinity(0, set(range(1, os.cpu_count() or 2)))
    rps: dict[str, dict[str, list[float]]] = {
        c.name: {name: [] for name in APPS} for c in cases}
    servers: dict[str, Server] = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        body_files = {}
        for case in cases:
            if case.body is not None:
                body_files[case.name] = os.path.join(tmp, case.name)
                with open(body_files[case.name], 'wb') as f:
                    f.write(case.body)

        def measure(case: Case, name: str, seconds: int) -> float:
            result = run_ab(args, case, servers[name].port, body_files,
                            seconds)
            if case.writes:
                servers[name].reset()
            return result

        try:
            for index in range(args.rounds):
                if index == 0 or args.fresh:
                    for server in servers.values():
                        server.stop()
                    servers.clear()
                    for name in APPS:
                        servers[name] = Server(name, args)
                    problems = [p for case in cases
                                for p in check(case, servers)]
                    if problems:
                        print('The apps do not answer alike:\n  '
                              + '\n  '.join(problems))
                        return 1
                    if args.warmup:
                        for case in cases:
                            for name in APPS:
                                measure(case, name, args.warmup)
                for position, case in enumerate(cases):
                    order = APPS if (index + position) % 2 == 0 else APPS[::-1]
                    for name in order:
                        rps[case.name][name].append(
                            measure(case, name, args.seconds))
                print(f'round {index + 1}/{args.rounds}: ' + ', '.join(
                    f'{c.name} {rps[c.name]["demo"][-1] / rps[c.name]["hand"][-1]:.2f}'
                    for c in cases), flush=True)
        finally:
            for server in servers.values():
                server.stop()
    report(args, cases, rps, time.monotonic() - started)
    return 0


def report(args: argparse.Namespace, cases: list[Case],
           rps: dict[str, dict[str, list[float]]], elapsed: float) -> None:
    print()
    print(f'{args.rounds} rounds x {args.seconds} s per app and case, '
          f'ab -k -c {args.concurrency}, cheroot with {args.server_threads} '
          f'threads, {NODES} nodes, {os.cpu_count()} CPUs'
          + (' (servers on CPU 0, ab on the others)' if args.pin else '')
          + (', new server processes every round' if args.fresh else '')
          + f', Python {sys.version.split()[0]}, {elapsed:.0f} s'
          + ('; A/A CALIBRATION: "hand" is the demo too' if args.aa else ''))
    print(f'{"case":<10} {"request":<34} {"demo req/s":>11} '
          f'{"hand req/s":>11} {"demo/hand":>10}  per round  {"paired":>6}')
    for case in cases:
        demo = statistics.median(rps[case.name]['demo'])
        hand = statistics.median(rps[case.name]['hand'])
        rounds = [d / h for d, h in zip(rps[case.name]['demo'],
                                        rps[case.name]['hand'], strict=True)]
        request = f'{case.method} {case.path[:20]} @{case.version}'
        print(f'{case.name:<10} {request:<34} {demo:>11.0f} {hand:>11.0f} '
              f'{demo / hand:>10.2f}  {min(rounds):.2f}-{max(rounds):.2f}'
              f'  {statistics.median(rounds):>6.2f}')
    print('demo/hand is the ratio of the medians (target: >= 0.95); paired '
          'is the median of the per-round ratios, each of two runs side by '
          'side, which a drift of the machine between rounds moves less.')


if __name__ == '__main__':
    sys.exit(main())
