"""Shared fixtures."""

import pytest
import webtest

from tests import example_app  # noqa: I001


@pytest.fixture
def app():
    """The example widget service under webtest."""
    return webtest.TestApp(example_app.make_app())


@pytest.fixture
def store():
    """A fresh fleet demo store, seeded with its three nodes."""
    from pecan_microversions.demo.store import NodeStore
    return NodeStore.seeded()


@pytest.fixture
def api(store):
    """The fleet demo under webtest, over the ``store`` fixture's store."""
    from pecan_microversions.demo.app import make_app
    return webtest.TestApp(make_app(store=store))


@pytest.fixture
def serve():
    """Serve a WSGI app with a real cheroot server on a free local port.

    ``serve(app)`` returns the base URL (``http://127.0.0.1:<port>``);
    ``access_log=True`` logs each request.  The servers stop at the end of
    the test.
    """
    import threading

    from pecan_microversions.demo.server import make_server

    started = []

    def start(wsgi_app, access_log=False):
        server = make_server(wsgi_app, '127.0.0.1', 0, threads=4,
                             access_log=access_log)
        server.prepare()
        thread = threading.Thread(target=server.serve, daemon=True)
        thread.start()
        started.append((server, thread))
        host, port = server.bind_addr[:2]
        return f'http://{host}:{port}'

    yield start
    for server, thread in started:
        server.stop()
        thread.join(timeout=10)
