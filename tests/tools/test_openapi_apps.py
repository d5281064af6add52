"""OpenAPI documents of the test applications: every kind of controller the
library supports (generic controllers, custom routes and actions, versioned
sub-resources, JSON-patch bodies, nested types, values by version) gives a
valid document at every version, and the served bodies match its schemas."""

import jsonschema
import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.routes import api_operations
from pecan_microversions.tools.testing import version_headers
from tests import example_app, methods_app, versioned_app

APPS = {'example': (example_app.make_app, example_app.REGISTRY),
        'methods': (methods_app.make_app, methods_app.REGISTRY)}


@pytest.mark.parametrize('name', sorted(APPS))
def test_every_version_document_is_valid(name):
    make_app, registry = APPS[name]
    app = make_app()
    operations = api_operations(app)
    assert operations
    for version in [None, *registry.versions]:
        validate(openapi_document(registry, app, version,
                                  operations=operations))


def test_versioned_methods_appear_only_in_their_ranges():
    app = methods_app.make_app()
    paths = {version: openapi_document(methods_app.REGISTRY, app,
                                       version)['paths']
             for version in ('1.0', '1.2', '1.3', '1.4', '1.6')}
    # GET /v1/greet: 1.1 to 1.2 and 1.4 to 1.5
    assert [v for v, p in paths.items() if '/v1/greet' in p] == ['1.2', '1.4']
    # the parts sub-resource: 1.3 to 1.5
    assert [v for v, p in paths.items()
            if '/v1/things/{ident}/parts' in p] == ['1.3', '1.4']
    combined = openapi_document(methods_app.REGISTRY, app)['paths']
    assert combined['/v1/things/{ident}/parts']['get']['x-openstack'] == {
        'min-ver': '1.3', 'max-ver': '1.5'}
    assert combined['/v1/things/rename']['post']['x-openstack'] == {
        'min-ver': '1.3', 'max-ver': '1.5'}


def test_served_nodes_match_the_schema_at_every_version():
    app = versioned_app.make_app()
    registry = app.registry
    client = webtest.TestApp(app)
    for version in registry.versions:
        document = openapi_document(registry, app, version)
        validate(document)
        node = client.get('/v1/nodes/uuid-a',
                          headers=version_headers(registry, version)).json
        jsonschema.validate(node, {'$ref': '#/components/schemas/Node',
                                   'components': document['components']})
        properties = document['components']['schemas']['Node']['properties']
        assert set(node) <= set(properties)


def test_patch_body_is_a_list_of_operations():
    app = versioned_app.make_app()
    document = openapi_document(app.registry, app, '1.3')
    body = document['paths']['/v1/nodes/{uuid}']['patch']['requestBody']
    operations = {
        'type': 'array',
        'items': {'$ref': '#/components/schemas/JsonPatchOperation'}}
    # Both media types the method reads.
    assert body['content'] == {
        'application/json': {'schema': operations},
        'application/json-patch+json': {'schema': operations}}
    operation = document['components']['schemas']['JsonPatchOperation']
    assert operation['required'] == ['op', 'path']
