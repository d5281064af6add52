"""Serving a WSGI app with cheroot: one log line per request, clean stop."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Optional

import cheroot.server
from cheroot import wsgi

LOG = logging.getLogger('pecan_microversions.demo')


class _AccessLog:
    """WSGI middleware that logs one line per request when it completes."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        started = time.perf_counter()
        seen: dict[str, str] = {}

        def recording_start_response(status: str, headers: list[tuple[str, str]],
                                     exc_info: Any = None) -> Any:
            seen['status'] = status.split(' ', 1)[0]
            for name, value in headers:
                if name.lower() == 'openstack-api-version':
                    seen['version'] = value
            return start_response(status, headers, exc_info)

        try:
            result = self.app(environ, recording_start_response)
            try:
                return list(result)
            finally:  # PEP 3333: the server (we, here) calls close()
                close = getattr(result, 'close', None)
                if close is not None:
                    close()
        finally:
            path = environ.get('PATH_INFO', '')
            if environ.get('QUERY_STRING'):
                path += '?' + environ['QUERY_STRING']
            LOG.info('%s "%s %s" %s [%s] %.1fms',
                     environ.get('REMOTE_ADDR', '-'),
                     environ.get('REQUEST_METHOD'), path,
                     seen.get('status', '-'), seen.get('version', '-'),
                     (time.perf_counter() - started) * 1000)


def _join_repeated_version_headers() -> None:
    """Have cheroot join a repeated ``OpenStack-API-Version`` with ", ".

    The header is a comma-separated list (one entry per service), so a client
    may send it several times; cheroot joins repeated headers only for the
    names in its ``comma_separated_headers`` and otherwise keeps the last
    line alone, losing the other services' entries.
    """
    name = b'Openstack-Api-Version'  # as cheroot title-cases header names
    headers = cheroot.server.comma_separated_headers  # type: ignore[attr-defined]
    if name not in headers:
        headers.append(name)


class _DashOnlyGateway(wsgi.Gateway_10):
    """cheroot's WSGI 1.0 gateway, dropping header names with ``_``.

    A WSGI server maps both ``OpenStack-API-Version`` and
    ``OpenStack_API_Version`` to ``HTTP_OPENSTACK_API_VERSION``; a proxy or
    cache in front, and ``Vary``, know only the first.  Dropping the
    underscore spelling (as nginx and Apache do by default) keeps the version
    a request is served at the one that ``Vary`` names.
    """

    def get_environ(self) -> Any:
        request = self.req
        request.inheaders = {name: value for name, value
                             in request.inheaders.items() if b'_' not in name}
        return super().get_environ()


def make_server(app: Callable[..., Any], host: str, port: int,
                threads: int = 16, access_log: bool = True,
                name: str = 'fleet-demo') -> wsgi.Server:
    """A multi-threaded cheroot server for ``app``, not yet started.

    It joins repeated ``OpenStack-API-Version`` headers and ignores request
    headers whose names contain ``_`` (see ``doc/source/security.rst``).
    """
    _join_repeated_version_headers()
    server = wsgi.Server((host, port), _AccessLog(app) if access_log else app,
                         numthreads=threads, server_name=name)
    server.gateway = _DashOnlyGateway
    return server


def serve(app: Callable[..., Any], host: str, port: int,
          ready: threading.Event | None = None,
          name: str = 'fleet demo') -> None:
    """Serve until SIGINT or SIGTERM, then stop cleanly."""
    server = make_server(app, host, port, name=name.replace(' ', '-'))

    def stop(signum: int, frame: Any) -> None:
        LOG.info('Signal %d received; stopping.', signum)
        threading.Thread(target=server.stop, daemon=True).start()

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    server.prepare()
    host, port = server.bind_addr[:2]
    if ':' in host:  # an IPv6 address is bracketed in a URL (RFC 3986)
        host = f'[{host}]'
    LOG.info('%s listening on http://%s:%d/', name, host, port)
    if ready is not None:
        ready.set()
    server.serve()
    LOG.info('Stopped.')


def run_command(prog: str, description: str, make_app: Callable[[], Any],
                argv: Optional[list[str]] = None,
                name: str = 'fleet demo') -> int:
    """``--host`` and ``--port`` from ``argv``, then serve ``make_app()``
    until a signal; the exit status (1 when the address is taken)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument('--host', default='127.0.0.1',
                        help='address to listen on (default: %(default)s)')
    parser.add_argument('--port', type=int, default=8080,
                        help='port to listen on, 0 for any free one '
                             '(default: %(default)s)')
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(asctime)s %(levelname)s %(name)s %(message)s')
    try:
        serve(make_app(), args.host, args.port, name=name)
    except OSError as exc:
        LOG.error('Cannot listen on %s:%d: %s. If the port is taken, choose '
                  'another with --port (for example --port 8081, or --port 0 '
                  'for any free port).', args.host, args.port, exc)
        return 1
    return 0
