"""How much the MicroversionHook adds to a minimal Pecan request.

Three WSGI applications serve the same minimal controller (``GET /`` answering
``{}`` as JSON):

* ``pecan``: Pecan alone, no hooks;
* ``hook``: the same Pecan app with :class:`MicroversionHook`;
* ``mvparse``: the same Pecan app behind microversion-parse's
  ``MicroversionMiddleware``, which does less work (no caps, no minimum and
  maximum headers, no legacy headers, no JSON errors, no routing errors);
* two floors, to show where the hook's cost goes: ``any_hook``, the app
  with a Pecan hook that does nothing (what Pecan charges for any hook), and
  ``headers``, a hook that only appends the same four response headers the
  hook writes, precomputed (what emitting them costs in Pecan and WebOb).
  The hook's cost above ``headers`` is the library's own work.

Each application is driven in-process: a WSGI environ dict is built and
``app(environ, start_response)`` called, so the figures are framework cost,
not sockets.  The three are measured in interleaved rounds (the order rotates
every round) and the per-request median of each is compared.

Each process lays the applications out in memory its own way, which moves
the cache behaviour and so the ratios by about half a percent from one run
to the next; ``--processes P`` measures in P fresh processes, one after the
other, and gives the median of their results as well.

Run ``python bench/hook_overhead.py [--rounds N] [--requests M]
[--processes P]``.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

import pecan
from microversion_parse.middleware import MicroversionMiddleware
from pecan.hooks import PecanHook

from pecan_microversions import MicroversionHook, VersionRegistry

REGISTRY = VersionRegistry(
    'widget',
    [('1.0', 'Initial version.'),
     ('1.1', 'Adds colour.'),
     ('1.2', 'Adds size.'),
     ('1.3', 'Adds weight.')],
    legacy_headers=['X-OpenStack-Widget-API-Version'])


class RootController:

    @pecan.expose('json')
    def index(self) -> dict:
        return {}


def _pecan_app(hooks: list[Any]) -> Callable[..., Iterable[bytes]]:
    return pecan.make_app(RootController(), hooks=hooks, debug=False,
                          force_canonical=False,
                          guess_content_type_from_ext=False)


class _AnyHook(PecanHook):
    """A hook that does nothing: Pecan's cost for having a hook."""


class _HeadersOnly(PecanHook):
    """Appends the four headers the hook writes, and nothing else."""

    _PAIRS = (('OpenStack-API-Version', 'widget 1.2'),
              ('OpenStack-API-Minimum-Version', '1.0'),
              ('OpenStack-API-Maximum-Version', '1.3'),
              ('Vary', 'OpenStack-API-Version, '
                       'X-OpenStack-Widget-API-Version'))

    def after(self, state: Any) -> None:
        state.response.headerlist.extend(self._PAIRS)


def build_apps() -> dict[str, Callable[..., Iterable[bytes]]]:
    """The three applications, by name."""
    return {
        'pecan': _pecan_app([]),
        'any_hook': _pecan_app([_AnyHook()]),
        'headers': _pecan_app([_HeadersOnly()]),
        'hook': _pecan_app([MicroversionHook(REGISTRY)]),
        'mvparse': MicroversionMiddleware(
            _pecan_app([]), 'widget', [str(v) for v in REGISTRY.versions]),
    }


def make_environ(version_header: str | None) -> dict[str, Any]:
    """A fresh WSGI environ for ``GET /`` as a WSGI server would build it."""
    environ = {
        'REQUEST_METHOD': 'GET',
        'SCRIPT_NAME': '',
        'PATH_INFO': '/',
        'QUERY_STRING': '',
        'SERVER_NAME': '127.0.0.1',
        'SERVER_PORT': '8080',
        'SERVER_PROTOCOL': 'HTTP/1.1',
        'HTTP_HOST': '127.0.0.1:8080',
        'HTTP_ACCEPT': 'application/json',
        'wsgi.version': (1, 0),
        'wsgi.url_scheme': 'http',
        'wsgi.input': io.BytesIO(b''),
        'wsgi.errors': sys.stderr,
        'wsgi.multithread': False,
        'wsgi.multiprocess': False,
        'wsgi.run_once': False,
    }
    if version_header is not None:
        environ['HTTP_OPENSTACK_API_VERSION'] = version_header
    return environ


def _start_response(status: str, headers: list, exc_info: Any = None) -> None:
    return None


def call(app: Callable[..., Iterable[bytes]], environ: dict[str, Any]
         ) -> bytes:
    """One request; the body, after closing the app_iter as servers do."""
    result = app(environ, _start_response)
    try:
        return b''.join(result)
    finally:
        close = getattr(result, 'close', None)
        if close is not None:
            close()


def check(apps: dict[str, Callable[..., Iterable[bytes]]],
          version_header: str | None) -> None:
    """Fail loudly if an app does not answer what the benchmark assumes."""
    for name, app in apps.items():
        seen: dict[str, Any] = {}

        def start_response(status: str, headers: list,
                           exc_info: Any = None, seen: dict = seen) -> None:
            seen['status'] = status
            seen['headers'] = dict(headers)

        body = b''.join(app(make_environ(version_header), start_response))
        if not seen['status'].startswith('200') or body != b'{}':
            raise SystemExit(f'{name}: unexpected answer {seen["status"]} '
                             f'{body!r}')
        if name not in ('pecan', 'any_hook', 'headers') and (
                version_header is not None):
            wanted = 'widget ' + version_header.split()[-1]
            got = {k.lower(): v for k, v in seen['headers'].items()}
            if got.get('openstack-api-version') != wanted:
                raise SystemExit(f'{name}: version header {got}')


def time_batch(app: Callable[..., Iterable[bytes]],
               environs: list[dict[str, Any]]) -> float:
    """Seconds per request over one batch of prepared environs."""
    started = time.perf_counter()
    for environ in environs:
        call(app, environ)
    return (time.perf_counter() - started) / len(environs)


def measure(apps: dict[str, Callable[..., Iterable[bytes]]], rounds: int,
            requests: int, version_header: str | None
            ) -> dict[str, list[float]]:
    """Per-request seconds of each app in each round (interleaved)."""
    names = list(apps)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # warm up: imports, caches, code paths
        time_batch(apps[name], [make_environ(version_header)
                                for _ in range(requests)])
    for round_no in range(rounds):
        order = names[round_no % len(names):] + names[:round_no % len(names)]
        for name in order:
            environs = [make_environ(version_header) for _ in range(requests)]
            gc.collect()
            gc.disable()
            try:
                samples[name].append(time_batch(apps[name], environs))
            finally:
                gc.enable()
    return samples


def report(title: str, samples: dict[str, list[float]]) -> float:
    """Print one scenario; return the hook's overhead as a fraction."""
    medians = {name: statistics.median(values)
               for name, values in samples.items()}
    # Paired: each round's ratio to the plain app measured in the same round,
    # so that drift (frequency scaling, other load) cancels out.
    ratios = {name: statistics.median(
        v / b for v, b in zip(values, samples['pecan'], strict=True))
        for name, values in samples.items()}
    print(f'\n{title}')
    print(f'  {"app":<9}{"median us/req":>15}{"ratio to pecan":>16}')
    for name, value in medians.items():
        print(f'  {name:<9}{value * 1e6:>15.2f}{ratios[name]:>16.4f}')
    base = medians['pecan']
    for name in ('any_hook', 'headers', 'hook', 'mvparse'):
        print(f'  {name} overhead: {(ratios[name] - 1) * 100:+.2f}% '
              f'({(medians[name] - base) * 1e6:+.2f} us/request)')
    own = statistics.median(
        h / f for h, f in zip(samples['hook'], samples['headers'],
                              strict=True))
    print(f'  hook above the headers-only floor (library code): '
          f'{(own - 1) * 100:+.2f}%')
    hook_vs_mvparse = statistics.median(
        h / m for h, m in zip(samples['hook'], samples['mvparse'],
                              strict=True))
    print(f'  hook / mvparse: {hook_vs_mvparse:.4f}')
    return ratios['hook'] - 1


SCENARIOS = [('GET / with "OpenStack-API-Version: widget 1.2"', 'widget 1.2'),
             ('GET / with no version header', None)]


def _in_processes(args: argparse.Namespace) -> float:
    """Run the measurement in ``args.processes`` fresh processes; print
    each one's overheads and their medians; return the worse median."""
    overheads: list[list[float]] = []
    for number in range(args.processes):
        out = subprocess.run(
            [sys.executable, __file__, '--rounds', str(args.rounds),
             '--requests', str(args.requests), '--processes', '1',
             '--report-json'], check=True, capture_output=True, text=True)
        found = json.loads(out.stdout.splitlines()[-1])
        overheads.append(found)
        print(f'process {number + 1}/{args.processes}: ' + ', '.join(
            f'{value * 100:+.2f}%' for value in found), flush=True)
    medians = [statistics.median(column)
               for column in zip(*overheads, strict=True)]
    for (title, _), value in zip(SCENARIOS, medians, strict=True):
        print(f'{title}: median hook overhead over {args.processes} '
              f'processes {value * 100:+.2f}%')
    return max(medians)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--rounds', type=int, default=41,
                        help='interleaved rounds per scenario '
                             '(default: %(default)s)')
    parser.add_argument('--requests', type=int, default=500,
                        help='requests per app per round '
                             '(default: %(default)s)')
    parser.add_argument('--processes', type=int, default=1,
                        help='fresh processes to measure in, one after the '
                             'other (default: %(default)s)')
    parser.add_argument('--target', type=float, default=3.0,
                        help='allowed hook overhead in percent '
                             '(default: %(default)s)')
    parser.add_argument('--report-json', action='store_true',
                        help=argparse.SUPPRESS)  # a child's last line
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error('--processes must be at least 1')
    print(f'Python {sys.version.split()[0]} on {platform.machine()}; '
          f'{args.rounds} interleaved rounds x {args.requests} requests per '
          'app; medians of per-round means and of per-round ratios.')
    if args.processes > 1:
        worst = _in_processes(args)
        label = f'Median over {args.processes} processes, worse scenario'
    else:
        apps = build_apps()
        found = []
        for title, header in SCENARIOS:
            check(apps, header)
            found.append(report(title, measure(apps, args.rounds,
                                               args.requests, header)))
        worst = max(found)
        label = 'Worst hook overhead'
    verdict = 'within' if worst * 100 <= args.target else 'OVER'
    print(f'\n{label}: {worst * 100:+.2f}%: {verdict} the '
          f'{args.target:g}% target.')
    if args.report_json and args.processes == 1:
        print(json.dumps(found))  # the last line, read by _in_processes
    return 0


if __name__ == '__main__':
    sys.exit(main())
