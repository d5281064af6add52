"""Each example starts with one command, serves, and stops on SIGTERM."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest


@pytest.mark.parametrize('module, header, value, echoed', [
    ('ironic_style', 'X-OpenStack-Ironic-API-Version', '1.4', '1.4'),
    ('watcher_style', 'OpenStack-API-Version', 'infra-optim 1',
     'infra-optim 1.0'),
])
def test_example_command(module, header, value, echoed):
    process = subprocess.Popen(
        [sys.executable, '-m', f'pecan_microversions.examples.{module}',
         '--port', '0'], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
        text=True, env=dict(os.environ, PYTHONUNBUFFERED='1'))
    try:
        url, lines, deadline = None, [], time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            lines.append(line)
            match = re.search(r'listening on (http://\S+)/', line)
            url = match.group(1) if match else None
        assert url, ''.join(lines)
        request = urllib.request.Request(url + '/v1', headers={header: value})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers[header] == echoed
            assert json.load(response)['version']['id'] == 'v1'
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0
