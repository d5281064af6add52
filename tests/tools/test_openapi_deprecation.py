"""The OpenAPI documents describe the deprecation headers the deprecated
versions send (``Deprecation``, ``Sunset``, ``Link``), with the values one
version's responses carry as examples, and a deprecated version's document
marks its operations deprecated.  Before, responses carried headers no
document named."""

import datetime

import pecan
import webtest
from openapi_spec_validator import validate
from pecan import rest

from pecan_microversions import MicroversionHook, VersionRegistry, api_version
from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.responses import describe

REGISTRY = VersionRegistry(
    'gizmo', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd')],
    deprecations=[
        Deprecation('1.0', '1.1', deprecated_on=datetime.date(2025, 3, 1),
                    sunset_on=datetime.date(2027, 1, 1),
                    link='https://gizmo.example.org/deprecations'),
        Deprecation('1.2', '1.2', deprecated_on=datetime.date(2026, 1, 1))])


class GizmosController(rest.RestController):
    @describe(status=200)
    @pecan.expose('json')
    def get_all(self):
        return {'gizmos': []}


class Root:
    gizmos = GizmosController()


def app():
    return pecan.make_app(Root(), hooks=[MicroversionHook(REGISTRY)],
                          debug=False, force_canonical=False,
                          guess_content_type_from_ext=False)


def described(version):
    document = openapi_document(REGISTRY, app(), version)
    validate(document)
    return document


def sent(version):
    response = webtest.TestApp(app()).get('/gizmos', headers={
        'OpenStack-API-Version': f'gizmo {version}'})
    return {name: response.headers.getall(name)
            for name in ('Deprecation', 'Sunset', 'Link')
            if name in response.headers}


def test_a_deprecated_version_describes_what_its_responses_send():
    document = described('1.0')
    headers = document['components']['headers']
    values = sent('1.0')
    assert set(values) == {'Deprecation', 'Sunset', 'Link'}
    for name, found in values.items():
        assert headers[name]['example'] == found[0]
        assert 'sent at the deprecated versions' in headers[name][
            'description']
    operation = document['paths']['/gizmos']['get']
    assert operation['deprecated'] is True
    for answer in operation['responses'].values():
        if '$ref' not in answer:
            assert {'Deprecation', 'Sunset', 'Link'} <= set(answer['headers'])
    error = document['components']['responses']['Error']['headers']
    assert error['Sunset'] == {'$ref': '#/components/headers/Sunset'}


def test_only_the_headers_a_version_sends_are_described():
    document = described('1.2')  # no sunset, no link
    assert set(sent('1.2')) == {'Deprecation'}
    headers = document['components']['headers']
    assert 'Deprecation' in headers
    assert 'Sunset' not in headers and 'Link' not in headers
    assert document['paths']['/gizmos']['get']['deprecated'] is True


def test_a_version_not_deprecated_describes_none():
    document = described('1.3')
    assert sent('1.3') == {}
    assert not {'Deprecation', 'Sunset', 'Link'} & set(
        document['components']['headers'])
    assert 'deprecated' not in document['paths']['/gizmos']['get']


def test_the_combined_document_describes_them_without_deprecating_all():
    document = described(None)
    headers = document['components']['headers']
    assert {'Deprecation', 'Sunset', 'Link'} <= set(headers)
    assert 'example' not in headers['Deprecation']
    assert '1.0' in headers['Deprecation']['description']
    assert '1.2' in headers['Deprecation']['description']
    operation = document['paths']['/gizmos']['get']
    assert 'deprecated' not in operation
    assert 'Deprecation' in operation['responses']['200']['headers']


def test_the_combined_document_deprecates_operations_by_their_range():
    class Old:
        @describe(status=200)
        @api_version(REGISTRY, '1.0', '1.1')
        @pecan.expose('json')
        def index(self):
            return {}

    class New:
        @describe(status=200)
        @api_version(REGISTRY, '1.3')
        @pecan.expose('json')
        def index(self):
            return {}

    root = type('Root', (), {'old': Old(), 'new': New()})()
    application = pecan.make_app(root, hooks=[MicroversionHook(REGISTRY)])
    document = openapi_document(REGISTRY, application, None)
    validate(document)
    old = document['paths']['/old/']['get']
    new = document['paths']['/new/']['get']
    assert old['deprecated'] is True
    assert 'Deprecation' in old['responses']['200']['headers']
    assert 'deprecated' not in new
    assert 'Deprecation' not in new['responses']['200']['headers']
