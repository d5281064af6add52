"""Every document and schema returned is the caller's: changing any part
of it, however deep, changes no later one (nor the library's constants)."""

import copy

import pecan
import webtest

from pecan_microversions import MicroversionHook
from pecan_microversions.demo.app import make_app as make_demo
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.tools.openapi import OpenAPIEndpoint, openapi_document
from pecan_microversions.tools.responses import (
    API_WG_ERRORS,
    WSME_FAULT,
    error_schema,
)
from pecan_microversions.tools.schema_parts import PATCH_RULES
from pecan_microversions.tools.schemas import body_schema
from pecan_microversions.wsme.checking import JsonPatchOperation
from tests import described_apps as apps

PRISTINE = copy.deepcopy((PATCH_RULES, dict(API_WG_ERRORS),
                          dict(WSME_FAULT)))


def assert_constants_intact():
    assert (PATCH_RULES, dict(API_WG_ERRORS), dict(WSME_FAULT)) == PRISTINE


def vandalise(value):
    """Change every dict and list inside ``value``, in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            vandalise(item)
        value['vandalised'] = True
    elif isinstance(value, list):
        for item in list(value):
            vandalise(item)
        value.append('vandalised')


def test_a_patch_operation_schema_is_a_fresh_copy():
    first = body_schema([JsonPatchOperation], '1.0', registry=DEMO)
    expected = copy.deepcopy(first)
    vandalise(first)
    assert body_schema([JsonPatchOperation], '1.0', registry=DEMO) == expected
    assert_constants_intact()


def test_a_document_is_a_fresh_copy():
    app = make_demo()
    for version in ('1.5', None):
        first = openapi_document(DEMO, app, version)
        expected = copy.deepcopy(first)
        assert first['components']['schemas']['PatchOperation']['allOf']
        vandalise(first)
        assert openapi_document(DEMO, app, version) == expected
    error_body = {'type': 'object', 'properties': {'e': {'type': 'string'}}}
    given = copy.deepcopy(error_body)
    vandalise(openapi_document(DEMO, app, '1.5', error_body=error_body))
    assert error_body == given
    assert_constants_intact()


def test_an_error_schema_is_a_fresh_copy():
    first = error_schema(make_demo())
    vandalise(first)
    assert error_schema(make_demo()) == PRISTINE[1]
    assert_constants_intact()


class DescribedRoot(apps.FloorRoot):
    def __init__(self):
        self.endpoint = OpenAPIEndpoint(apps.FLOOR, self)

    @pecan.expose('json')
    def openapi(self):
        return self.endpoint.respond()


def test_the_endpoints_documents_are_fresh_copies():
    root = DescribedRoot()
    client = webtest.TestApp(pecan.make_app(
        root, hooks=[MicroversionHook(apps.FLOOR)], debug=False))
    served = client.get('/openapi').json
    first = root.endpoint.document('1.3')
    expected = copy.deepcopy(first)
    vandalise(first)
    assert root.endpoint.document('1.3') == expected
    assert client.get('/openapi').json == served
    assert_constants_intact()
