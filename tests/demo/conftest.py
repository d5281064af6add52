"""Fixtures: the demo app under webtest, and under its real server."""

import threading

import pytest
import webtest

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.server import make_server


@pytest.fixture
def demo():
    """A fresh demo app (fresh seeded store) under webtest."""
    return webtest.TestApp(make_app())


@pytest.fixture
def live_demo():
    """The demo served by its real multi-threaded server on a free port.

    Yields the base URL, e.g. ``http://127.0.0.1:41234``.
    """
    server = make_server(make_app(), '127.0.0.1', 0, access_log=False)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    host, port = server.bind_addr[:2]
    try:
        yield f'http://{host}:{port}'
    finally:
        server.stop()
        thread.join(timeout=10)
