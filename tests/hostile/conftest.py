"""Shared settings for the hostile-input, load and cache tests.

Sizes come from profiles so that CI runs a fast slice and a reviewer can run
the long ones (see ``doc/source/robustness.rst``):

* ``HYPOTHESIS_PROFILE``: ``dev`` (default), ``ci`` (default when ``CI`` is
  set) or ``full`` (at least 100,000 generated header values in total);
* ``PM_LEAK_REQUESTS``: requests per client thread in the no-leak test.
"""

from __future__ import annotations

import os
import threading
from collections import Counter

import pytest

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.server import make_server
from pecan_microversions.demo.store import NodeStore

#: Examples run per header test, by profile (7 tests in test_headers.py).
HEADER_EXAMPLES = {'dev': 200, 'ci': 720, 'full': 15000}
#: Generated requests per app in test_any_request.py, by profile.
REQUEST_EXAMPLES = {'dev': 300, 'ci': 1000, 'full': 20000}


def profile_name() -> str:
    name = os.environ.get('HYPOTHESIS_PROFILE') or (
        'ci' if os.environ.get('CI') else 'dev')
    if name not in HEADER_EXAMPLES:
        raise pytest.UsageError(
            f'HYPOTHESIS_PROFILE={name!r}: use one of '
            f'{", ".join(HEADER_EXAMPLES)}.')
    return name


#: Header values thrown at the hook, per test, this session.
EXAMPLES_RUN: Counter[str] = Counter()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if EXAMPLES_RUN:
        total = sum(EXAMPLES_RUN.values())
        terminalreporter.write_sep(
            '-', f'hostile headers ({profile_name()} profile): {total:,} '
                 'generated requests, by test (doc/source/robustness.rst)')
        for name, count in sorted(EXAMPLES_RUN.items()):
            terminalreporter.write_line(f'  {name}: {count:,}')


@pytest.fixture
def live_store():
    """The store behind :func:`live_server`, to read what it holds."""
    return NodeStore.seeded()


@pytest.fixture
def live_server(live_store):
    """The demo under its real multi-threaded server (16 threads, cheroot).

    Yields ``(host, port)`` on 127.0.0.1.
    """
    server = make_server(make_app(store=live_store), '127.0.0.1', 0,
                         threads=16, access_log=False)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    host, port = server.bind_addr[:2]
    try:
        yield host, port
    finally:
        server.stop()
        thread.join(timeout=10)
