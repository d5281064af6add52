"""The combined document describes every served version: each part merged
with the versions it exists at, nothing from versions no longer served; and
a version the service refuses has no document."""

import jsonschema
import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.schemas import body_schema
from pecan_microversions.tools.testing import version_headers
from tests import described_apps as apps


@pytest.fixture(scope='module')
def shapes():
    app = apps.make_shapes()
    document = openapi_document(apps.SHAPES, app)
    validate(document)
    return document, webtest.TestApp(app)


def validator(document, schema):
    return jsonschema.Draft202012Validator(
        {**schema, 'components': document['components']})


def at(version):
    return version_headers(apps.SHAPES, version)


def test_each_versions_response_body_is_described(shapes):
    document, client = shapes
    answer = document['paths']['/shapes/{ident}']['get']['responses']['200']
    assert 'x-openstack' not in answer  # 200 at every version
    schema = answer['content']['application/json']['schema']
    assert schema == {'anyOf': [
        {'$ref': '#/components/schemas/ShapeV1',
         'x-openstack': {'max-ver': '1.1'}},
        {'$ref': '#/components/schemas/ShapeV2',
         'x-openstack': {'min-ver': '1.2'}}]}
    served = client.get('/shapes/x', headers=at('1.2')).json
    assert served == {'name': 'x', 'size': 3}
    assert validator(document, schema).is_valid(served)


def test_query_values_are_the_union_with_their_ranges(shapes):
    document, client = shapes
    (sort,) = [p for p in document['paths']['/shapes']['get']['parameters']
               if p.get('name') == 'sort']
    assert sort['x-openstack'] == {'min-ver': '1.1'}
    assert sort['schema'] == {'type': 'string', 'enum': ['name', 'size'],
                              'x-openstack': {'values': {
                                  'size': {'min-ver': '1.2'}}}}
    for version, value, ok in (('1.0', 'name', False), ('1.1', 'name', True),
                               ('1.1', 'size', False), ('1.2', 'size', True)):
        answer = client.get(f'/shapes?sort={value}', headers=at(version),
                            expect_errors=True)
        assert (answer.status_int == 200) == ok, (version, value)


def test_a_body_valid_at_several_versions_is_valid(shapes):
    document, client = shapes
    post = document['paths']['/shapes']['post']
    schema = post['requestBody']['content']['application/json']['schema']
    assert 'oneOf' not in schema
    assert [v['x-openstack'] for v in schema['anyOf']] == [
        {'max-ver': '1.0'}, {'min-ver': '1.1'}]
    for version in ('1.0', '1.2'):
        assert client.post_json('/shapes', {'name': 'x'},
                                headers=at(version)).status_int == 201
    assert validator(document, schema).is_valid({'name': 'x'})


def test_what_exists_at_some_versions_only_carries_its_range(shapes):
    document, client = shapes
    responses = document['paths']['/shapes']['post']['responses']
    assert responses['201']['headers']['X-Old']['x-openstack'] == {
        'max-ver': '1.0'}
    assert 'x-openstack' not in responses['201']['headers'][
        'OpenStack-API-Version']
    conflict = responses['409']  # a reference could not carry the range
    assert conflict['x-openstack'] == {'max-ver': '1.0'}
    assert conflict['content'] == document['components']['responses'][
        'Error']['content']
    assert responses['400'] == {'$ref': '#/components/responses/Error'}
    assert 'X-Old' in client.post_json('/shapes', {'name': 'x'},
                                       headers=at('1.0')).headers
    assert 'X-Old' not in client.post_json('/shapes', {'name': 'x'},
                                           headers=at('1.1')).headers


def test_an_unserved_version_has_no_document():
    app = apps.make_floor()
    client = webtest.TestApp(app)
    for version in ('1.0', '1.1'):
        assert client.get('/floored/x', headers=version_headers(
            apps.FLOOR, version), expect_errors=True).status_int == 406
        with pytest.raises(UnknownVersionError, match=(
                f'Version {version} is not served: floor answers 1.2 to '
                '1.3')):
            openapi_document(apps.FLOOR, app, version)
    validate(openapi_document(apps.FLOOR, app, '1.2'))


def test_an_operators_cap_is_a_served_range():
    app = apps.make_floor(max_version='1.2')
    client = webtest.TestApp(app)
    assert client.get('/floored/x', headers=version_headers(
        apps.FLOOR, '1.3'), expect_errors=True).status_int == 406
    with pytest.raises(UnknownVersionError, match='answers 1.2 to 1.2'):
        openapi_document(apps.FLOOR, app, '1.3')
    document = openapi_document(apps.FLOOR, app)
    validate(document)
    assert document['info']['x-openstack'] == {'min-ver': '1.2',
                                               'max-ver': '1.2'}
    fields = document['components']['schemas']['Floored']['properties']
    assert sorted(fields) == ['mid', 'name']  # new: from 1.3


def test_the_combined_document_has_only_what_is_served():
    app = apps.make_floor()
    document = openapi_document(apps.FLOOR, app)
    validate(document)
    assert document['info']['x-openstack'] == {'min-ver': '1.2',
                                               'max-ver': '1.3'}
    # DELETE exists at 1.0 and 1.1 only
    assert sorted(document['paths']['/floored/{ident}']) == ['get']
    fields = document['components']['schemas']['Floored']['properties']
    assert sorted(fields) == ['mid', 'name', 'new']
    assert 'x-openstack' not in fields['mid']  # at every served version
    assert fields['new']['x-openstack'] == {'min-ver': '1.3'}
    combined = body_schema(apps.Floored, None)['$defs']['Floored']
    assert sorted(combined['properties']) == ['mid', 'name', 'new']
