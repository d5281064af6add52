"""The demo's cheroot server: its access log closes what the app returns
(PEP 3333), on a real server on a loopback port."""

import logging
import threading
import urllib.error
import urllib.request

import pytest


class _Body:
    """A WSGI result that records its close(), and may fail midway."""

    def __init__(self, fail: bool) -> None:
        self.fail = fail
        self.closed = threading.Event()

    def __iter__(self):
        yield b'one '
        if self.fail:
            raise RuntimeError('the body failed')
        yield b'two'

    def close(self):
        self.closed.set()


@pytest.mark.parametrize('fail', [False, True])
def test_access_log_closes_the_apps_result(serve, caplog, fail):
    body = _Body(fail)

    def app(environ, start_response):
        start_response('200 OK', [('Content-Type', 'text/plain')])
        return body

    url = serve(app, access_log=True) + '/'
    with caplog.at_level(logging.INFO, logger='pecan_microversions.demo'):
        if fail:
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(url + 'x', timeout=10)
        else:
            with urllib.request.urlopen(url + 'x', timeout=10) as response:
                assert response.read() == b'one two'
        assert body.closed.wait(5)
    assert any('"GET /x" 200' in record.getMessage()
               for record in caplog.records)
