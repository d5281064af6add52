"""JSON Schema per (type, version): it accepts exactly the request bodies the
demo service accepts at that version, and its errors are the library's."""

import json

import jsonschema
import pytest

from pecan_microversions import APIError
from pecan_microversions.demo.types import Node
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.schemas import DIALECT, body_schema, validate_body
from pecan_microversions.tools.testing import version_headers

VERSIONS = [str(v) for v in REGISTRY.versions]

BODIES = [
    {'name': 'n', 'driver': 'ipmi'},
    {'name': 'n', 'hardware_type': 'ipmi'},
    {'name': 'n', 'driver': 'ipmi', 'description': 'd'},
    {'name': 'n', 'hardware_type': 'ipmi', 'description': None},
    {'name': 'n', 'driver': 'ipmi', 'owner': 'alice'},
    {'name': 'n', 'hardware_type': 'ipmi', 'owner': 'alice'},
    {'name': 'n', 'driver': 'ipmi', 'uuid': 'u'},             # read-only
    {'name': 'n', 'driver': 'ipmi', 'colour': 'red'},         # unknown
    {'name': '', 'driver': 'ipmi'},                           # too short
    {'name': 'n' * 256, 'hardware_type': 'ipmi'},             # too long
    {'driver': 'ipmi'},                                       # no name
    {'name': 'n'},                                            # no driver
    {'name': None, 'driver': 'ipmi'},                         # null name
    {'name': 'n', 'driver': None},                            # null driver
    {'name': 'n', 'hardware_type': ['ipmi']},                 # wrong type
    [],                                                       # not an object
]


def _accepted(body, version):
    try:
        validate_body(Node, body, version)
    except APIError as exc:
        assert exc.code == 400
        assert exc.error_code == 'microversion.schema_violation'
        assert exc.detail.startswith(
            f'The request body does not match the version {version} schema '
            f'at {exc.members["pointer"]}: ')
        return False
    return True


@pytest.mark.parametrize('version', VERSIONS)
def test_schema_accepts_what_the_service_accepts(api, version):
    for body in BODIES:
        response = api.post('/v1/nodes', json.dumps(body),
                            content_type='application/json',
                            headers=version_headers(REGISTRY, version),
                            expect_errors=True)
        served = response.status_int < 300
        assert _accepted(body, version) == served, (body,
                                                     response.status_int,
                                                     response.body)


def test_schema_is_a_valid_2020_12_schema_at_every_version():
    for version in [None, *VERSIONS]:
        for request in (True, False):
            schema = body_schema(Node, version, request=request)
            assert schema['$schema'] == DIALECT
            jsonschema.Draft202012Validator.check_schema(schema)


def test_request_schema_has_the_version_fields_without_read_only_ones():
    fields = body_schema(Node, '1.4')['$defs']['Node']['properties']
    assert set(fields) == {'name', 'driver', 'description', 'owner'}
    fields = body_schema(Node, '1.6', request=False)['$defs']['Node'][
        'properties']
    assert set(fields) == {'uuid', 'name', 'created_at', 'hardware_type',
                           'description', 'owner', 'provision_state',
                           'available', 'links'}
    assert fields['uuid']['readOnly'] is True


def test_error_names_the_pointer_of_the_problem():
    with pytest.raises(APIError) as caught:
        validate_body(Node, {'name': 'n', 'driver': 'x', 'owner': 3}, '1.4')
    assert caught.value.members == {'pointer': '/owner'}
    assert caught.value.to_dict()['code'] == 'microversion.schema_violation'


def test_unknown_version_is_refused():
    from pecan_microversions.core.errors import UnknownVersionError
    with pytest.raises(UnknownVersionError):
        body_schema(Node, '9.9')


def test_combined_schema_gives_each_retyped_range_its_type(api):
    from openapi_spec_validator import validate

    from pecan_microversions.demo.app import make_app
    from pecan_microversions.tools.openapi import openapi_document
    document = openapi_document(REGISTRY, make_app())
    validate(document)
    combined = jsonschema.Draft202012Validator(
        {'$ref': '#/components/schemas/Node',
         'components': document['components']})
    request = jsonschema.Draft202012Validator(body_schema(Node, None))
    owner = document['components']['schemas']['Node']['properties']['owner']
    assert [v['x-openstack'] for v in owner['anyOf']] == [
        {'min-ver': '1.4', 'max-ver': '1.8'}, {'min-ver': '1.9'}]
    for version in ('1.4', '1.6', '1.8', '1.9'):
        headers = {'OpenStack-API-Version': f'fleet {version}'}
        node = api.get('/v1/nodes/00000000-0000-0000-0000-000000000002',
                       headers=headers).json
        assert node['owner'] is not None
        assert combined.is_valid(node), version
        sent = {'name': 'n', 'owner': node['owner'],
                'driver' if version < '1.6' else 'hardware_type': 'ipmi'}
        assert request.is_valid(sent), version
        api.post_json('/v1/nodes', sent, headers=headers)
