"""A shared cache keeps versions apart because of ``Vary``.

nginx (the Debian package, ``/usr/sbin/nginx``, which
``sudo sh tools/install-test-packages`` installs) runs from the test as a
caching reverse proxy in front of the demo under its real server, with its
own prefix, pid, logs and cache in ``tmp_path`` and a free 127.0.0.1 port.
The proxy caches 200 answers for a minute and does not touch ``Vary``.  The
same node URL fetched at 1.0 and at 1.1 (which adds ``description``) through
it: each second fetch is a cache HIT and still carries its own version's body
and header.

A request naming its version only in the legacy header
(``X-OpenStack-Fleet-API-Version``) is kept apart from one naming none in
the same way: every response varies on the legacy header too.

The negative control runs the same proxy with ``proxy_ignore_headers Vary``:
then the cache serves the 1.0 body to the 1.1 request, which shows that the
test can fail and that ``Vary`` is what keeps the versions apart.
"""

from __future__ import annotations

import http.client
import json
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

NGINX = '/usr/sbin/nginx'
NODE = '/v1/nodes/00000000-0000-0000-0000-000000000001'

CONFIG = """\
{user}
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log notice;
events {{ worker_connections 64; }}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy_temp;
    fastcgi_temp_path {tmp}/fastcgi_temp;
    uwsgi_temp_path {tmp}/uwsgi_temp;
    scgi_temp_path {tmp}/scgi_temp;
    proxy_cache_path {tmp}/cache levels=1:2 keys_zone=demo:1m max_size=10m
                     inactive=10m use_temp_path=off;
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://127.0.0.1:{upstream};
            proxy_http_version 1.1;
            proxy_cache demo;
            proxy_cache_valid 200 1m;
            {extra}
            add_header X-Cache-Status $upstream_cache_status always;
        }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


def _nginx_binary() -> str:
    path = NGINX if os.access(NGINX, os.X_OK) else shutil.which('nginx')
    if path is None:
        pytest.fail('nginx is not installed: run '
                    "'sudo sh tools/install-test-packages'.")
    return path


class Proxy:
    """nginx in the foreground, stopped by :meth:`stop`."""

    def __init__(self, tmp: Path, upstream: int, extra: str = '') -> None:
        self.tmp = tmp
        tmp.mkdir()
        # As root, nginx's workers would switch to "nobody", who cannot
        # write to the test's private directory; keep them as this user.
        user = (f'user {pwd.getpwuid(os.geteuid()).pw_name};'
                if os.geteuid() == 0 else '')
        for _attempt in range(3):
            self.port = _free_port()
            conf = tmp / 'nginx.conf'
            conf.write_text(CONFIG.format(user=user, tmp=tmp, port=self.port,
                                          upstream=upstream, extra=extra))
            self.process = subprocess.Popen(
                [_nginx_binary(), '-p', str(tmp), '-c', str(conf),
                 '-e', str(tmp / 'error.log'), '-g', 'daemon off;'],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if self._wait_ready():
                return
            self.stop()
        pytest.fail(f'nginx did not start: {self.log()}')

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False  # e.g. the port was taken meanwhile
            try:
                socket.create_connection(('127.0.0.1', self.port), 0.2).close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def log(self) -> str:
        path = self.tmp / 'error.log'
        return path.read_text() if path.exists() else '(no error log)'

    def get(self, path: str, version: str) -> tuple[int, dict, bytes]:
        return self.get_with(path, {'OpenStack-API-Version':
                                    f'fleet {version}'})

    def get_with(self, path: str,
                 headers: dict[str, str]) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=10)
        try:
            conn.request('GET', path, headers=headers)
            response = conn.getresponse()
            return (response.status, {k.lower(): v for k, v in
                                      response.getheaders()}, response.read())
        finally:
            conn.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture
def proxy_factory(tmp_path, live_server):
    proxies: list[Proxy] = []

    def start(extra: str = '') -> Proxy:
        proxy = Proxy(tmp_path / f'nginx{len(proxies)}', live_server[1], extra)
        proxies.append(proxy)
        return proxy

    yield start
    for proxy in proxies:
        proxy.stop()


def _fetch(proxy: Proxy, version: str,
           headers: dict[str, str] | None = None) -> tuple[str, dict, dict]:
    status, headers, body = (proxy.get(NODE, version) if headers is None
                             else proxy.get_with(NODE, headers))
    assert status == 200, (status, body, proxy.log())
    return headers['x-cache-status'], headers, json.loads(body)


def test_each_version_gets_its_own_cached_body(proxy_factory):
    proxy = proxy_factory()
    cache_old, headers_old, old = _fetch(proxy, '1.0')
    cache_new, headers_new, new = _fetch(proxy, '1.1')
    assert (cache_old, cache_new) == ('MISS', 'MISS')
    assert 'openstack-api-version' in headers_old['vary'].lower()
    assert 'description' not in old and 'description' in new
    assert headers_old['openstack-api-version'] == 'fleet 1.0'
    assert headers_new['openstack-api-version'] == 'fleet 1.1'
    for _ in range(2):
        for version, body, _first in (('1.0', old, headers_old),
                                     ('1.1', new, headers_new)):
            cache, headers, again = _fetch(proxy, version)
            assert cache == 'HIT', (version, cache, proxy.log())
            assert again == body
            assert headers['openstack-api-version'] == f'fleet {version}'


def test_negative_control_without_vary_the_cache_mixes_versions(
        proxy_factory):
    proxy = proxy_factory('proxy_ignore_headers Vary;')
    cache_old, _, old = _fetch(proxy, '1.0')
    cache_new, headers, new = _fetch(proxy, '1.1')
    assert (cache_old, cache_new) == ('MISS', 'HIT')
    assert new == old and 'description' not in new  # the wrong body
    assert headers['openstack-api-version'] == 'fleet 1.0'


LEGACY = 'X-OpenStack-Fleet-API-Version'


def test_legacy_header_gets_its_own_cached_body(proxy_factory):
    # The default version is chosen without the standard header, so it also
    # depends on the legacy header: every response must vary on it, or the
    # cache serves the default body to a request naming 1.1 the legacy way.
    proxy = proxy_factory()
    cache_old, headers_old, old = _fetch(proxy, '', {})
    cache_new, headers_new, new = _fetch(proxy, '', {LEGACY: '1.1'})
    assert (cache_old, cache_new) == ('MISS', 'MISS'), proxy.log()
    assert LEGACY.lower() in headers_old['vary'].lower()
    assert 'description' not in old and 'description' in new
    assert headers_old['openstack-api-version'] == 'fleet 1.0'
    assert headers_new['openstack-api-version'] == 'fleet 1.1'
    assert headers_new[LEGACY.lower()] == '1.1'
    for _ in range(2):
        for sent, body, version in (({}, old, '1.0'),
                                    ({LEGACY: '1.1'}, new, '1.1')):
            cache, headers, again = _fetch(proxy, '', sent)
            assert cache == 'HIT', (sent, cache, proxy.log())
            assert again == body
            assert headers['openstack-api-version'] == f'fleet {version}'
