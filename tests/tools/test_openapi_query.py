"""Query parameters with declared values: one value or, repeated, an array
of values, each value's ``enum`` the text the query string carries; read
as OpenAPI says (``form``, exploded) they are valid exactly where the
service answers."""

import urllib.parse

import jsonschema
import pytest
import webtest
from openapi_spec_validator import validate

from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.testing import version_headers
from tests import described_apps as apps

QUERIES = ['', 'tag=a', 'tag=a&tag=b', 'tag=b', 'tag=c', 'tag=a&tag=c',
           'tag=a,b', 'tag=', 'one=x', 'one=z', 'one=x&one=y', 'count=1',
           'count=3', 'count=x', 'count=1&count=2', 'tag=a&one=y&count=2']


def parameters(document):
    return {p['name']: p for p in document['paths']['/items']['get'][
        'parameters'] if p.get('in') == 'query'}


def valid(described, query):
    """Whether ``query`` is valid, read as the parameters' style says."""
    sent = urllib.parse.parse_qs(query, keep_blank_values=True)
    for name, values in sent.items():
        parameter = described.get(name)
        if parameter is None:
            return False
        schema = parameter['schema']
        if schema.get('type') == 'array':
            assert parameter['explode'] is True  # each value its own key
            value = values
        elif len(values) == 1:
            value = values[0]
        else:
            return False  # one value: a repeated key is no such value
        if not jsonschema.Draft202012Validator(schema).is_valid(value):
            return False
    return True


@pytest.mark.parametrize('version', ['1.0', '1.1'])
def test_query_values_are_valid_where_the_service_answers(version):
    app = apps.make_query()
    document = openapi_document(apps.QUERY, app, version)
    validate(document)
    described = parameters(document)
    assert described['tag']['schema'] == {'type': 'array', 'items': {
        'type': 'string', 'enum': ['a'] if version == '1.0' else ['a', 'b']}}
    assert described['one']['schema'] == {
        'type': 'array', 'maxItems': 1,
        'items': {'type': 'string', 'enum': ['x', 'y']}}
    assert described['count']['schema'] == {'type': 'string',
                                            'enum': ['1', '2']}
    client = webtest.TestApp(app)
    for query in QUERIES:
        answer = client.get(f'/items?{query}', expect_errors=True,
                            headers=version_headers(apps.QUERY, version))
        assert valid(described, query) == (answer.status_int < 300), (
            query, answer.status_int, answer.body)


def test_combined_query_values_carry_their_ranges_on_the_items():
    document = openapi_document(apps.QUERY, apps.make_query())
    validate(document)
    assert parameters(document)['tag']['schema'] == {
        'type': 'array', 'items': {
            'type': 'string', 'enum': ['a', 'b'],
            'x-openstack': {'values': {'b': {'min-ver': '1.1'}}}}}
