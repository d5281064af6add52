"""``python -m pecan_microversions.demo``: the README's first command.

Runs the real process on a free port, sends it a request, and stops it with
SIGTERM and SIGINT, as an operator's Ctrl-C or service manager would.
"""

import json
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest


def _start(*args):
    process = subprocess.Popen(
        [sys.executable, '-m', 'pecan_microversions.demo', '--port', '0',
         *args],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 30
    lines = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r'listening on (http://\S+)/', line)
        if match:
            return process, match.group(1), lines
    process.kill()
    pytest.fail('the demo did not report its address:\n' + ''.join(lines))


@pytest.mark.parametrize('stop', [signal.SIGTERM, signal.SIGINT])
def test_demo_serves_logs_and_stops_cleanly(stop):
    process, url, lines = _start()
    try:
        request = urllib.request.Request(
            url + '/v1/nodes', headers={'OpenStack-API-Version': 'fleet 1.4'})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers['OpenStack-API-Version'] == 'fleet 1.4'
            assert len(json.load(response)['nodes']) == 3
        process.send_signal(stop)
        _, rest = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    log = ''.join(lines) + rest
    assert process.returncode == 0, log
    assert re.search(r'"GET /v1/nodes" 200 \[fleet 1\.4\]', log), log
    assert 'Stopped.' in log


def test_demo_reports_a_port_it_cannot_use():
    process, url, _ = _start()
    try:
        port = url.rsplit(':', 1)[1]
        second = subprocess.run(
            [sys.executable, '-m', 'pecan_microversions.demo', '--port', port],
            capture_output=True, text=True, timeout=30)
        assert second.returncode == 1
        assert 'Cannot listen on 127.0.0.1:' + port in second.stderr
        assert 'choose another with --port' in second.stderr
    finally:
        process.terminate()
        process.communicate(timeout=20)


def test_demo_logs_an_ipv6_address_as_a_url():
    # http://::1:PORT/ is no URL; http://[::1]:PORT/ is (RFC 3986).
    process, url, _ = _start('--host', '::1')
    try:
        assert re.fullmatch(r'http://\[::1\]:\d+', url), url
        request = urllib.request.Request(
            url + '/v1/nodes', headers={'OpenStack-API-Version': 'fleet 1.4'})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers['OpenStack-API-Version'] == 'fleet 1.4'
    finally:
        process.terminate()
        process.communicate(timeout=20)
