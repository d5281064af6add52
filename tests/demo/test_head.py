"""HEAD over the demo's real server: the GET answer's status and headers,
no body, at every version."""

import http.client
import urllib.parse

import pytest

from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.testing import version_headers

NODE = '/v1/nodes/00000000-0000-0000-0000-000000000001'
PATHS = ['/', '/v1/', '/v1/openapi.json', '/v1/nodes', '/v1/nodes?limit=1',
         '/v1/?x=1', NODE, NODE + '/states', '/v1/nodes/nope',
         '/v1/nodes?_method=delete', NODE + '?_method=patch']  # 400s


def _request(base, method, path, version):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port,
                                            timeout=10)
    try:
        connection.request(method, path,
                           headers=version_headers(REGISTRY, version))
        response = connection.getresponse()
        body = response.read()
        headers = {k: v for k, v in response.getheaders() if k != 'Date'}
        return response.status, headers, body
    finally:
        connection.close()


@pytest.mark.parametrize('version', [str(v) for v in REGISTRY.versions])
def test_head_answers_like_get_over_cheroot(live_demo, version):
    for path in PATHS:
        got = _request(live_demo, 'GET', path, version)
        head = _request(live_demo, 'HEAD', path, version)
        assert head[2] == b'', path
        assert head[0] == got[0], path
        assert head[1] == got[1], path  # Content-Length too
        assert head[1]['OpenStack-API-Version'] == f'fleet {version}'


def test_head_outside_a_resource_range_is_its_404(live_demo):
    status, headers, body = _request(live_demo, 'HEAD', NODE + '/states',
                                     '1.7')
    assert (status, body) == (404, b'')
    assert headers['OpenStack-API-Version'] == 'fleet 1.7'
