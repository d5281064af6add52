"""Null list items and dict values: the JSON Schemas say what the service
does.  WSME reads and writes a null item of any type (an object's too) as
``None``, and the request checks take it, but the schemas refused it: a
body the service stored (201) failed the request schema, and the response
failed its own response schema.  ``values=`` on a list refuses a null item
in both."""

import jsonschema
import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    Version,
    VersionedRestController,
    VersionRegistry,
    response_json,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.tools.schemas import body_schema, validate_body
from pecan_microversions.tools.testing import version_headers
from pecan_microversions.wsme.checking import check_body

REGISTRY = VersionRegistry('nulls', [('1.0', 'a'), ('1.1', 'b')])


@versioned_resource(REGISTRY, 'part')
class Part(wtypes.Base):
    label = wtypes.text
    size = versioned(int, '1.1')


@versioned_resource(REGISTRY, 'thing')
class Thing(wtypes.Base):
    parts = [Part]
    byname = {wtypes.text: Part}
    counts = [int]
    names = [wtypes.text]
    kinds = [wtypes.Enum(str, 'x', 'y')]
    sizes = {wtypes.text: int}
    tags = versioned([wtypes.text], values={'red': None, 'blue': '1.1'})


class Things(VersionedRestController):
    @versioned_wsexpose(Thing, body=Thing, status_code=201)
    def post(self, thing):
        return thing


class Root:
    things = Things()


BODIES = [
    {'parts': [None]}, {'parts': [{}, None]}, {'byname': {'k': None}},
    {'byname': {'k': {'label': None}}}, {'counts': [None, 1]},
    {'names': [None]}, {'kinds': [None, 'x']}, {'sizes': {'k': None}},
    {'tags': [None]}, {'tags': ['red', None]}, {'parts': [None],
                                                'tags': ['red']},
    {'counts': ['x']}, {'kinds': ['z']}, {'parts': [1]},
    {'byname': {'k': 'x'}}, {'parts': None}, {'byname': None},
]


def _accepted(call):
    try:
        call()
    except APIError:
        return False
    return True


@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('body', BODIES)
def test_the_schemas_take_what_the_service_takes(version, body):
    client = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False,
        force_canonical=False))
    answer = client.post_json('/things', body, expect_errors=True,
                              headers=version_headers(REGISTRY, version))
    assert answer.status_int < 500, answer.body
    served = answer.status_int < 300
    assert _accepted(lambda: validate_body(Thing, body, version)) == served, (
        answer.body)
    if served:  # as check_body judges it; the response passes the
        # version's response schema
        check_body(Thing, body, Version.parse(version))
        response = jsonschema.Draft202012Validator(
            body_schema(Thing, version, request=False))
        assert list(response.iter_errors(answer.json)) == []
        assert response.is_valid(response_json(Thing, body,
                                               Version.parse(version)))


def test_items_and_values_are_nullable_in_the_schema():
    properties = body_schema(Thing, '1.0', request=False)['$defs']['Thing'][
        'properties']
    assert properties['parts']['items'] == {
        'anyOf': [{'$ref': '#/$defs/Part'}, {'type': 'null'}]}
    assert properties['byname']['additionalProperties'] == {
        'anyOf': [{'$ref': '#/$defs/Part'}, {'type': 'null'}]}
    assert properties['counts']['items'] == {'type': ['integer', 'null']}
    assert properties['kinds']['items'] == {'type': ['string', 'null'],
                                            'enum': ['x', 'y', None]}
    assert properties['tags']['items'] == {'type': 'string', 'enum': ['red']}
