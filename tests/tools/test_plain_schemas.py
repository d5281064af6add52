"""JSON Schema of plain-dict ``Schema`` resources: ``body_schema`` gave an
empty schema and ``validate_body`` passed anything (``42`` included) for
them.  A request body schema now accepts exactly what ``check_body``
accepts at each version (a differential test over generated bodies), and
the OpenAPI documents describe such resources."""

import pecan
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from pecan import rest

from pecan_microversions import APIError, Computed, MicroversionHook, ValueMap
from pecan_microversions.core.errors import RequestError, UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.core.version import Version
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.responses import describe
from pecan_microversions.tools.schemas import body_schema, validate_body

REGISTRY = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'),
                                     ('1.3', 'd')])
BOOK = Schema(REGISTRY, 'book', {
    'id': field(readonly=True),
    'title': field(mandatory=True),
    'state': field(values={'new': None, 'gone': (None, '1.1'),
                           'lent': '1.2'},
                   changes=[ValueMap({'lent': 'new'}, '1.1')]),
    'colour': field(min_version='1.2', mandatory=True,
                    values={'red': None, 'blue': None}),
    'writer': field(max_version='1.1'),
    'author': field(min_version='1.2', replaces='writer'),
    'pages': field(max_version='1.2', changes=[
        Computed(lambda book: 7, max_version='1.0')]),
    'notes': field(),
})
VERSIONS = [Version(1, n) for n in range(4)]
NAMES = [*BOOK.fields, 'extra']
VALUES = st.one_of(st.none(), st.sampled_from(['new', 'gone', 'lent', 'red',
                                               'blue', 'x', '']),
                   st.integers(-2, 2), st.booleans(),
                   st.lists(st.text(max_size=2), max_size=2),
                   st.dictionaries(st.text(max_size=2), st.integers(),
                                   max_size=2))


def _accepted(check):
    try:
        check()
    except (RequestError, APIError):
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(version=st.sampled_from(VERSIONS),
       body=st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=5))
def test_a_body_schema_accepts_what_check_body_accepts(version, body):
    by_schema = _accepted(lambda: validate_body(BOOK, body, version))
    by_check = _accepted(lambda: BOOK.check_body(dict(body), version))
    assert by_schema == by_check, (body, version)


NULLS = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')],
                        null_as_absent=True)
LAMP = Schema(NULLS, 'lamp', {'name': field(mandatory=True),
                              'gone': field(max_version='1.0'),
                              'new': field(min_version='1.1'),
                              'serial': field(readonly=True)})


@settings(max_examples=200, deadline=None)
@given(version=st.sampled_from(VERSIONS[:2]),
       body=st.dictionaries(st.sampled_from([*LAMP.fields, 'extra']),
                            st.one_of(st.none(), st.just('x')), max_size=4))
def test_null_as_absent_bodies_are_described(version, body):
    # A field of other versions may be null there (read as absent).
    by_schema = _accepted(lambda: validate_body(LAMP, body, version))
    by_check = _accepted(lambda: LAMP.check_body(dict(body), version))
    assert by_schema == by_check, (body, version)


def test_a_response_may_hold_what_the_resource_does_not_declare():
    shown = BOOK.filter({'title': 't', 'links': [{'href': 'x'}]},
                        Version(1, 0))
    assert shown['links'] == [{'href': 'x'}]
    response = body_schema(BOOK, '1.0', request=False)
    assert 'additionalProperties' not in response['$defs']['book']
    assert body_schema(BOOK, '1.0')['$defs']['book'][
        'additionalProperties'] is False


@pytest.mark.parametrize('body', [42, [], 'x', None])
def test_a_body_that_is_no_object_is_refused(body):
    with pytest.raises(APIError) as raised:
        validate_body(BOOK, body, '1.0')
    assert raised.value.error_code == 'microversion.schema_violation'


def test_each_version_has_its_fields_values_and_mandatory_ones():
    old = body_schema(BOOK, '1.1')['$defs']['book']
    assert set(old['properties']) == {'title', 'state', 'writer', 'pages',
                                      'notes'}
    assert old['required'] == ['title']
    assert old['properties']['state'] == {'enum': ['gone', 'new', None]}
    new = body_schema(BOOK, '1.2')['$defs']['book']
    assert set(new['properties']) == {'title', 'state', 'colour', 'author',
                                      'pages', 'notes'}
    assert new['required'] == ['title', 'colour']
    assert new['properties']['colour'] == {'enum': ['blue', 'red']}
    # computed at 1.0: read-only there, left out of a request
    assert 'pages' not in body_schema(BOOK, '1.0')['$defs']['book'][
        'properties']
    response = body_schema(BOOK, '1.0', request=False)['$defs']['book']
    assert response['properties']['pages'] == {'readOnly': True}
    assert response['properties']['id'] == {'readOnly': True}


def test_the_combined_schema_marks_ranges():
    combined = body_schema(BOOK, None)['$defs']['book']
    assert combined['properties']['writer']['x-openstack'] == {
        'max-ver': '1.1'}
    assert combined['properties']['colour']['x-openstack'] == {
        'min-ver': '1.2'}
    assert combined['required'] == ['title']


def test_a_version_outside_the_history_is_refused():
    with pytest.raises(UnknownVersionError):
        body_schema(BOOK, '1.7')


def test_the_openapi_documents_describe_a_plain_dict_resource():
    class Books(rest.RestController):
        @describe(status=201, body=BOOK, returns=BOOK)
        @pecan.expose('json')
        def post(self):
            return {}

    class Root:
        books = Books()

    app = pecan.make_app(Root(), hooks=[MicroversionHook(REGISTRY)])
    for version in ('1.0', '1.2', None):
        document = openapi_document(REGISTRY, app, version)
        validate(document)
    document = openapi_document(REGISTRY, app, '1.2')
    described = document['components']['schemas']['book']
    assert 'author' in described['properties']
    operation = document['paths']['/books']['post']
    body = operation['requestBody']['content']['application/json']['schema']
    assert body == {'$ref': '#/components/schemas/book'}
