"""Load benchmark: the demo with the microversion hook against the demo without.

Two copies of the fleet demo run under the demo's real server (cheroot,
``--server-threads`` worker threads, access log off), each in its own
process so that the clients do not share its interpreter lock:

* ``hook``: the demo app exactly as ``pecan_microversions.demo.app.make_app``
  builds it, with :class:`~pecan_microversions.MicroversionHook`;
* ``bare``: the same app object with the hook taken out of Pecan's hook list
  and replaced by :class:`FixedVersion`.  The demo's controllers need a
  version on the request, so the baseline gives every request the one
  version the clients ask for (``--version``) at no negotiation cost: it sets
  ``request.api_version`` and the negotiation the hook leaves for
  controllers (see ``pecan_microversions/request.py``) to values computed
  once, reads no header and writes no response header.  Everything else
  (routing, controllers, field filtering, JSON) is the same code.

Both are sent the same requests (``GET --path`` with ``OpenStack-API-Version:
fleet <--version>``) by ``--clients`` threads, each with its own keep-alive
``http.client`` connection, in alternating rounds (hook, bare, bare, hook,
...), so drifts in the machine's speed hit both alike.  With two or more
CPUs the servers run on CPU 0 and the clients on the others (``--no-pin``
to let the scheduler place them).  ``--aa`` serves the hooked app in both
slots: the ratios it prints are the noise floor of the machine.  Each round is
``--requests`` requests.  The report gives, per app, requests per second
(over all its rounds) and the median and 99th percentile latency (over all
its requests), then the ratios hook/bare: throughput (target >= 0.97) and
latency.  Every response is checked (status 200 and, for ``hook``, the
version header); the run is bounded by ``--max-seconds``.

Run from a checkout::

    python bench/load.py                      # defaults: about a minute
    python bench/load.py --rounds 10 --requests 10000
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

NODE_PATH = '/v1/nodes/00000000-0000-0000-0000-000000000001'


# --- the servers (child processes) -----------------------------------------

def _fixed_version_hook(version_text: str) -> Any:
    from pecan.hooks import PecanHook

    from pecan_microversions.core.negotiation import VersionLimits
    from pecan_microversions.core.version import parse_version
    from pecan_microversions.demo.versions import REGISTRY
    from pecan_microversions.pecan import request as mv_request

    version = parse_version(version_text)
    limits = VersionLimits(REGISTRY.min_version, REGISTRY.max_version,
                           REGISTRY.default_version)
    negotiation = mv_request._Negotiation(limits, REGISTRY, None)

    class FixedVersion(PecanHook):
        """Every request at one version; no headers read or written."""

        priority = 10

        def on_route(self, state: Any) -> None:
            attrs = state.request.environ.setdefault(mv_request._ADHOC_KEY,
                                                     {})
            attrs[mv_request._NEGOTIATION_ATTR] = negotiation
            attrs['api_version'] = version

    return FixedVersion()


def _pecan_core(app: Any) -> Any:
    """The ``Pecan`` object inside ``make_app``'s middleware."""
    from pecan.core import Pecan

    seen = 0
    while not isinstance(app, Pecan):
        app = getattr(app, 'application', None) or getattr(app, 'app', None)
        seen += 1
        if app is None or seen > 10:
            raise RuntimeError('No Pecan application inside the demo app.')
    return app


def build_app(mode: str, version_text: str) -> Any:
    from pecan_microversions import MicroversionHook
    from pecan_microversions.demo.app import make_app

    app = make_app()
    if mode == 'bare':
        core = _pecan_core(app)
        hooks = [h for h in core.hooks if not isinstance(h, MicroversionHook)]
        if len(hooks) != len(core.hooks) - 1:
            raise RuntimeError('Expected exactly one MicroversionHook.')
        core.hooks = sorted([*hooks, _fixed_version_hook(version_text)],
                            key=lambda h: h.priority)
    return app


def serve(mode: str, version_text: str, threads: int, pin: bool) -> None:
    """Child process: serve until stdin closes; print the port first."""
    from pecan_microversions.demo.server import make_server

    if pin:
        os.sched_setaffinity(0, {0})
    server = make_server(build_app(mode, version_text), '127.0.0.1', 0,
                         threads=threads, access_log=False)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    print(server.bind_addr[1], flush=True)
    sys.stdin.read()  # the parent closes our stdin to stop us
    server.stop()
    thread.join(timeout=10)


class Server:
    def __init__(self, mode: str, args: argparse.Namespace) -> None:
        self.mode = mode
        self.process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), '--serve',
             'hook' if args.aa else mode,
             '--version', args.version,
             '--server-threads', str(args.server_threads)]
            + (['--pin'] if args.pin else ['--no-pin']),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.strip().isdigit():
            self.stop()
            raise SystemExit(f'The {mode} server did not start.')
        self.port = int(line)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


# --- the clients ------------------------------------------------------------

def run_round(port: int, args: argparse.Namespace, check_header: bool,
              deadline: float) -> tuple[float, list[float], list[str]]:
    """``(seconds, latencies, problems)`` for one round of --requests."""
    per_client = [args.requests // args.clients] * args.clients
    for i in range(args.requests % args.clients):
        per_client[i] += 1
    latencies: list[list[float]] = [[] for _ in range(args.clients)]
    problems: list[str] = []
    want = f'fleet {args.version}'
    headers = {'OpenStack-API-Version': want}
    barrier = threading.Barrier(args.clients + 1)

    def client(index: int) -> None:
        conn = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
        mine = latencies[index]
        try:
            conn.connect()
            barrier.wait(timeout=30)
            for _ in range(per_client[index]):
                if time.monotonic() > deadline:
                    problems.append('out of time')
                    return
                started = time.perf_counter()
                conn.request('GET', args.path, headers=headers)
                response = conn.getresponse()
                response.read()
                mine.append(time.perf_counter() - started)
                if response.status != 200 or (check_header and response.getheader(
                        'OpenStack-API-Version') != want):
                    problems.append(f'{response.status} '
                                    f'{response.getheader("OpenStack-API-Version")}')
        except Exception as exc:
            problems.append(repr(exc))
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True)
               for i in range(args.clients)]
    for thread in threads:
        thread.start()
    barrier.wait(timeout=30)
    started = time.perf_counter()
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()) + 30)
    elapsed = time.perf_counter() - started
    return elapsed, [x for mine in latencies for x in mine], problems


def _can_pin() -> bool:
    return hasattr(os, 'sched_setaffinity') and (os.cpu_count() or 1) >= 2


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description='Requests/s and latency of the fleet demo under its real '
                    'server, with the microversion hook and without it.')
    parser.add_argument('--clients', type=int, default=16,
                        help='concurrent client threads (default 16)')
    parser.add_argument('--requests', type=int, default=4000,
                        help='requests per round (default 4000)')
    parser.add_argument('--rounds', type=int, default=6,
                        help='rounds per app, interleaved (default 6)')
    parser.add_argument('--warmup', type=int, default=500,
                        help='unmeasured requests per app first (default 500)')
    parser.add_argument('--server-threads', type=int, default=16,
                        help='cheroot worker threads (default 16)')
    parser.add_argument('--path', default=NODE_PATH,
                        help=f'the URL path requested (default {NODE_PATH})')
    parser.add_argument('--version', default='1.8',
                        help='the version requested, and the baseline\'s '
                             'fixed version (default 1.8)')
    parser.add_argument('--max-seconds', type=float, default=600,
                        help='stop (and fail) after this long (default 600)')
    parser.add_argument('--pin', action=argparse.BooleanOptionalAction,
                        default=_can_pin(),
                        help='run the servers on CPU 0 and the clients on '
                             'the others (default: on with 2+ CPUs)')
    parser.add_argument('--aa', action='store_true',
                        help='calibration: serve the hooked app in both '
                             'slots, so the ratios show the noise floor')
    parser.add_argument('--serve', choices=['hook', 'bare'],
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.version, args.server_threads, args.pin)
        return 0
    if min(args.clients, args.requests, args.rounds) < 1:
        parser.error('--clients, --requests and --rounds must be positive')

    if args.pin:
        os.sched_setaffinity(0, set(range(1, os.cpu_count() or 2)))
    deadline = time.monotonic() + args.max_seconds
    servers = {mode: Server(mode, args) for mode in ('hook', 'bare')}
    seconds = {mode: 0.0 for mode in servers}
    latencies: dict[str, list[float]] = {mode: [] for mode in servers}
    per_round: dict[str, list[float]] = {mode: [] for mode in servers}
    count = {mode: 0 for mode in servers}
    problems: list[str] = []
    try:
        if args.warmup:
            warm = argparse.Namespace(**{**vars(args),
                                         'requests': args.warmup})
            for mode, server in servers.items():
                problems += run_round(server.port, warm, mode == 'hook',
                                      deadline)[2]
        for index in range(args.rounds):
            order = ('hook', 'bare') if index % 2 == 0 else ('bare', 'hook')
            for mode in order:
                elapsed, lat, bad = run_round(servers[mode].port, args,
                                              mode == 'hook', deadline)
                seconds[mode] += elapsed
                latencies[mode] += lat
                count[mode] += len(lat)
                per_round[mode].append(len(lat) / elapsed)
                problems += bad
            print(f'round {index + 1}/{args.rounds}: hook '
                  f'{per_round["hook"][-1]:7.0f} req/s, bare '
                  f'{per_round["bare"][-1]:7.0f} req/s', flush=True)
            if problems:
                break
    finally:
        for server in servers.values():
            server.stop()
    if problems:
        print(f'FAILED: {len(problems)} bad responses, e.g. {problems[:5]}')
        return 1

    rows = {}
    for mode in servers:
        rows[mode] = (count[mode] / seconds[mode],
                      statistics.median(latencies[mode]) * 1000,
                      percentile(latencies[mode], 0.99) * 1000)
    print()
    print(f'{args.rounds} rounds x {args.requests} requests per app, '
          f'{args.clients} clients, {args.server_threads} server threads, '
          f'GET {args.path} at {args.version}, {os.cpu_count()} CPUs'
          + (' (servers on CPU 0, clients on the others)' if args.pin else '')
          + ('; A/A CALIBRATION: "bare" is the hooked app too' if args.aa
             else ''))
    print(f'{"app":<6} {"requests/s":>11} {"median ms":>10} {"p99 ms":>8}')
    for mode, (rps, median, p99) in rows.items():
        print(f'{mode:<6} {rps:>11.0f} {median:>10.2f} {p99:>8.2f}')
    hook, bare = rows['hook'], rows['bare']
    round_ratios = [h / b for h, b in zip(per_round['hook'], per_round['bare'],
                                          strict=True)]
    print(f'{"ratio":<6} {hook[0] / bare[0]:>11.3f} {hook[1] / bare[1]:>10.3f} '
          f'{hook[2] / bare[2]:>8.3f}   (hook / bare)')
    print(f'throughput ratio per round: '
          f'{", ".join(f"{r:.3f}" for r in round_ratios)}; median '
          f'{statistics.median(round_ratios):.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
