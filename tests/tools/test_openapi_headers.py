"""The version headers: the legacy request headers a registry reads, and
every header a response carries, on successes and errors alike; and a
registry that is not the app's is refused."""

import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.core.errors import RegistryError
from pecan_microversions.demo.app import make_app as make_demo
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.examples import ironic_style, watcher_style
from pecan_microversions.tools.openapi import OpenAPIEndpoint, openapi_document
from pecan_microversions.tools.routes import find_root

#: Headers of every HTTP response, not the version's.
_TRANSPORT = {'Content-Type', 'Content-Length'}
CASES = [(DEMO, make_demo, '/v1/nodes', 'X-OpenStack-Fleet-API-Version'),
         (ironic_style.REGISTRY, ironic_style.make_app, '/v1/nodes',
          'X-OpenStack-Ironic-API-Version')]


def documented(document, response):
    if '$ref' in response:
        response = document['components']['responses'][
            response['$ref'].rsplit('/', 1)[1]]
    return set(response['headers'])


@pytest.mark.parametrize('registry,make_app,path,legacy', CASES,
                         ids=['demo', 'ironic'])
def test_every_response_header_is_documented(registry, make_app, path,
                                             legacy):
    app = make_app()
    client = webtest.TestApp(app)
    version = str(registry.max_version)
    document = openapi_document(registry, app, version)
    validate(document)
    operation = document['paths'][path]['get']
    assert {'$ref': f'#/components/parameters/{legacy.replace("-", "")}'} in (
        operation['parameters'])
    parameter = document['components']['parameters'][legacy.replace('-', '')]
    assert (parameter['name'], parameter['in']) == (legacy, 'header')
    for headers, url in (
            ({'OpenStack-API-Version': f'{registry.service_type} {version}'},
             path),
            ({legacy: version}, path),
            ({legacy: version}, path + '/nope'),
            ({'OpenStack-API-Version': f'{registry.service_type} 9.9'},
             path)):
        answer = client.get(url, headers=headers, expect_errors=True)
        status = str(answer.status_int)
        described = documented(document, operation['responses'][status])
        sent = set(answer.headers) - _TRANSPORT
        assert sent <= described, (status, sent - described)
        optional = {legacy} if legacy not in headers else set()
        assert described - optional <= sent, (status, described - sent)
    error = document['components']['responses']['Error']['headers']
    assert 'Vary' in error and 'OpenStack-API-Maximum-Version' in error


def test_a_legacy_header_names_the_version_wanted():
    app = ironic_style.make_app()
    legacy = 'X-OpenStack-Ironic-API-Version'
    answer = webtest.TestApp(app).get('/v1/nodes', headers={legacy: '1.3'})
    assert answer.headers['OpenStack-API-Version'] == 'baremetal 1.3'
    document = openapi_document(ironic_style.REGISTRY, app)
    validate(document)
    headers = document['components']['headers']
    for name in (legacy, 'X-OpenStack-Ironic-API-Minimum-Version',
                 'X-OpenStack-Ironic-API-Maximum-Version'):
        assert name.replace('-', '') in headers


def test_the_registry_must_be_the_apps():
    with pytest.raises(RegistryError, match=(
            r'The app negotiates with another registry \(<VersionRegistry '
            r'fleet 1.0-1.9>\) than the one given \(<VersionRegistry '
            r'infra-optim 1.0-1.5>\)')):
        openapi_document(watcher_style.REGISTRY, make_demo(), '1.0')
    endpoint = OpenAPIEndpoint(watcher_style.REGISTRY, make_demo())
    with pytest.raises(RegistryError):
        endpoint.document('1.0')
    # a root controller has no hook to compare: its registry is trusted
    validate(openapi_document(DEMO, find_root(make_demo()), '1.0'))
