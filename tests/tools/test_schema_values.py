"""Schemas of field values: a list field's ``values=``, ``decimal.Decimal``,
JSON-patch operations and the version a body schema is asked for; each
checked against what the service itself accepts and answers."""

import json

import jsonschema
import pecan
import pytest
import webtest
from openapi_spec_validator import validate
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    VersionRegistry,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.core.errors import InvalidVersion, UnknownVersionError
from pecan_microversions.demo.types import Node
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.tools.cli import main
from pecan_microversions.tools.openapi import openapi_document
from pecan_microversions.tools.schema_parts import DECIMAL_PATTERN
from pecan_microversions.tools.schemas import (
    MalformedVersionError,
    body_schema,
    validate_body,
)
from pecan_microversions.tools.testing import (
    Sample,
    field_violations,
    version_headers,
)
from pecan_microversions.wsme.checking import JsonPatchOperation
from tests import described_apps as apps
from tests.tools.test_contract_values import serving


def component(document, name):
    return jsonschema.Draft202012Validator(
        {'$ref': f'#/components/schemas/{name}',
         'components': document['components']},
        format_checker=jsonschema.FormatChecker())


@pytest.mark.parametrize('version', ['1.0', '1.1'])
def test_list_field_values_are_what_each_item_may_be(version):
    app = apps.make_tags()
    document = openapi_document(apps.TAGS, app, version)
    validate(document)
    tags = document['components']['schemas']['Tagged']['properties']['tags']
    assert tags == {'type': ['array', 'null'], 'items': {
        'type': 'string',
        'enum': ['red'] if version == '1.0' else ['blue', 'red']}}
    schema = component(document, 'Tagged')
    client = webtest.TestApp(app)
    for body in ({'tags': ['red']}, {'tags': ['blue']}, {'tags': ['red', 'x']},
                 {'tags': [None]}, {'tags': None}, {'tags': []},
                 {'tags': 'red'}):
        answer = client.post_json('/tagged', body, expect_errors=True,
                                  headers=version_headers(apps.TAGS, version))
        assert schema.is_valid(body) == (answer.status_int < 300), (
            body, answer.status_int, answer.body)
        try:
            validate_body(apps.Tagged, body, version)
        except Exception:  # noqa: BLE001 - only whether it passes matters
            assert answer.status_int >= 400, body
        else:
            assert answer.status_int < 300, body


def test_combined_list_field_values_carry_their_ranges():
    document = openapi_document(apps.TAGS, apps.make_tags())
    validate(document)
    tags = document['components']['schemas']['Tagged']['properties']['tags']
    assert tags['items'] == {'type': 'string', 'enum': ['blue', 'red'],
                             'x-openstack': {'values': {
                                 'blue': {'min-ver': '1.1'}}}}


def test_field_contract_checks_each_item_of_a_list_field():
    registry = apps.TAGS
    sample = [Sample('/tagged/x', 'tagged')]
    assert field_violations(webtest.TestApp(apps.make_tags()), registry,
                            sample, '1.1') == []
    assert field_violations(serving({'tags': ['red', 'blue']}), registry,
                            sample, '1.1') == []
    (problem,) = field_violations(serving({'tags': ['red', 'blue']}),
                                  registry, sample, '1.0')
    assert "has value item 'blue', which version 1.0 does not have" in problem


def test_a_decimal_is_described_as_the_service_writes_and_reads_it():
    app = apps.make_prices()
    document = openapi_document(apps.PRICES, app, '1.0')
    validate(document)
    client = webtest.TestApp(app)
    answer = client.get('/priced/x').json
    assert answer['price'] == '1.50'  # str(value), as WSME writes it
    assert component(document, 'Priced').is_valid(answer)
    price = document['components']['schemas']['Priced']['properties'][
        'price']
    assert price['anyOf'][0] == {'type': 'string', 'format': 'decimal',
                                 'pattern': DECIMAL_PATTERN}
    assert {'type': 'number', 'writeOnly': True} in price['anyOf']
    request = jsonschema.Draft202012Validator(body_schema(apps.Priced, '1.0'))
    for body in ({'price': '2.5'}, {'price': 2.5}, {'price': None},
                 {'price': [2]}, {'price': {'a': 1}}, {'price': 'abc'},
                 {'price': ''}, {'price': '1.2.3'}, {'price': '-1e3'},
                 {'price': '.5'}, {'price': 'NaN'}, {'price': '-Infinity'}):
        served = client.post_json('/priced', body, expect_errors=True)
        assert request.is_valid(body) == (served.status_int < 300), body
        if served.status_int < 300:  # what the service writes back
            assert component(document, 'Priced').is_valid(served.json), (
                served.json)
    # WSME also reads a few spellings it never writes: not described
    assert client.post_json('/priced', {'price': ' 1_0 '}).json == {
        'price': '10'}
    assert not request.is_valid({'price': ' 1_0 '})
    response = body_schema(apps.Priced, '1.0', request=False)
    assert response['$defs']['Priced']['properties']['price'] == price


RATE_BODIES = [{'rate': value} for value in (
    '1.5', 1.5, 2.5, '2.5', 0.1, '0.1', 2, None, 'abc', True, [1.5])] + [
    {'step': value} for value in (
        '1.5', 1.5, '0.1', 0.1, None, 'abc', '2', 2.5, '1.50')]


@pytest.mark.parametrize('version', ['1.0', '1.1'])
def test_decimal_values_are_what_the_service_reads_and_writes(version):
    app = apps.make_rates()
    client = webtest.TestApp(app)
    headers = version_headers(apps.RATES, version)
    document = openapi_document(apps.RATES, app, version)
    validate(document)
    json.dumps(document)  # values are JSON, not Decimal objects
    request = jsonschema.Draft202012Validator(
        body_schema(apps.Rated, version))
    response = component(document, 'Rated')
    assert response.is_valid(client.get('/rated/x', headers=headers).json)
    for body in RATE_BODIES:
        answer = client.post_json('/rated', body, headers=headers,
                                  expect_errors=True)
        accepted = answer.status_int < 300
        if body != {'step': '1.50'}:  # read as 1.5: not listed, not wrong
            assert request.is_valid(body) == accepted, (body, answer.body)
        assert accepted or not request.is_valid(body), body
        if accepted and body != {'step': '1.50'}:
            assert response.is_valid(answer.json), answer.json
        try:
            validate_body(apps.Rated, body, version)
        except Exception:  # noqa: BLE001 - only whether it passes matters
            assert not accepted or body == {'step': '1.50'}, body
        else:
            assert accepted, body
    # WSME's Enum reads another spelling of a value, and the value keeps
    # it: the documents list each value as declared (see openapi.rst)
    assert client.post_json('/rated', {'step': '1.50'}, headers=headers
                            ).json == {'step': '1.50'}


def test_decimal_values_are_written_as_json():
    rate = openapi_document(apps.RATES, apps.make_rates(), '1.1')[
        'components']['schemas']['Rated']['properties']['rate']
    assert rate == {'anyOf': [
        # responses write str(value), which a request may send back; a
        # number equal to a value may be sent too
        {'type': 'string', 'format': 'decimal', 'enum': ['0.1', '1.5', '2.5']},
        {'type': 'number', 'enum': [1.5, 2.5], 'writeOnly': True},
        {'type': 'null'}]}
    step = body_schema(apps.Rated, '1.0')['$defs']['Rated']['properties'][
        'step']
    assert step == {'anyOf': [
        {'type': 'string', 'format': 'decimal', 'enum': ['0.1', '1.5']},
        {'type': 'number', 'enum': [1.5]}, {'type': 'null'}]}


def test_a_decimal_value_no_number_equals_is_sent_as_its_string():
    assert body_schema(apps.Tenth, '1.0')['$defs']['Tenth']['properties'][
        'rate'] == {'type': ['string', 'null'], 'format': 'decimal',
                    'enum': ['0.1', None]}
    client = webtest.TestApp(apps.make_rates())
    # the float 0.1 is not the decimal 0.1; its text is
    assert client.post_json('/tenth', {'rate': 0.1},
                            expect_errors=True).status_int == 400
    assert client.post_json('/tenth', {'rate': '0.1'}).json == {'rate': '0.1'}
    assert client.post_json('/tenth', {'rate': None}).json == {'rate': None}


def test_the_command_writes_decimal_values(capsys):
    for version in ('1.0', '1.1', None):
        code = main(['openapi', 'tests.described_apps:RATES',
                     *([version] if version else []), '--app',
                     'tests.described_apps:make_rates'])
        out, err = capsys.readouterr()
        assert (code, err) == (0, '')
        validate(json.loads(out))


@pytest.mark.parametrize('version', ['1.01', 'latest', 'x', 1.5])
@pytest.mark.parametrize('error', [UnknownVersionError, InvalidVersion,
                                   MalformedVersionError])
def test_a_malformed_version_is_an_unknown_and_an_invalid_version(version,
                                                                  error):
    # UnknownVersionError as documented; InvalidVersion as raised before
    with pytest.raises(error, match='^version: '):
        body_schema(Node, version)
    with pytest.raises(error):
        body_schema(apps.Priced, version)
    with pytest.raises(error):
        body_schema(apps.Priced, version, registry=apps.PRICES)
    with pytest.raises(error):
        validate_body(Node, {}, version)


def test_a_well_formed_unknown_version_is_no_invalid_version():
    with pytest.raises(UnknownVersionError) as caught:
        body_schema(Node, '9.9')
    assert not isinstance(caught.value, InvalidVersion)


def test_the_version_of_a_plain_type_is_checked_against_a_registry():
    assert body_schema(apps.Priced, '9.9')['$ref'] == '#/$defs/Priced'
    with pytest.raises(UnknownVersionError, match='not in the prices history'):
        body_schema(apps.Priced, '9.9', registry=apps.PRICES)
    with pytest.raises(UnknownVersionError):
        validate_body(apps.Priced, {}, '9.9', registry=apps.PRICES)


def test_a_wsme_patch_operation_requires_what_its_op_uses():
    operations = jsonschema.Draft202012Validator(
        body_schema([JsonPatchOperation], '1.0', registry=DEMO))
    assert operations.is_valid([{'op': 'replace', 'path': '/a', 'value': 1},
                                {'op': 'remove', 'path': '/a'},
                                {'op': 'test', 'path': '/a', 'value': None},
                                {'op': 'move', 'path': '/a', 'from': '/b'}])
    for operation in ({'op': 'replace', 'path': '/a'},
                      {'op': 'add', 'path': '/a'},
                      {'op': 'test', 'path': '/a'},
                      {'op': 'copy', 'path': '/a'},
                      {'op': 'move', 'path': '/a', 'from': None},
                      # WSME refuses a member it does not know
                      {'op': 'remove', 'path': '/a', 'extra': 1}):
        assert not operations.is_valid([operation]), operation


def test_a_value_json_cannot_hold_is_a_usage_error(capsys):
    code = main(['openapi', 'tests.described_apps:ODD', '1.0', '--app',
                 'tests.described_apps:make_odd'])
    out, err = capsys.readouterr()
    assert (code, out) == (2, '')
    assert err == ('pecan-microversions openapi: The result cannot be '
                   'written as JSON: Object of type complex is not JSON '
                   'serializable.\n')


def test_null_as_absent_is_in_a_wsme_request_schema():
    # The hook reads null for a field of other versions as absent; the
    # request schema refused it as an unknown property.
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')],
                               null_as_absent=True)

    @versioned_resource(registry, 'thing')
    class Thing(wtypes.Base):
        name = wtypes.text
        gone = versioned(wtypes.text, max_version='1.0')

    class Things(rest.RestController):
        @versioned_wsexpose(Thing, body=Thing, status_code=201)
        def post(self, thing):
            return thing

    root = type('Root', (), {'things': Things()})()
    app = webtest.TestApp(pecan.make_app(root, hooks=[
        MicroversionHook(registry)], debug=False))
    at = {'OpenStack-API-Version': 'shelf 1.1'}
    for body, status in (({'name': 'n', 'gone': None}, 201),
                         ({'name': 'n', 'gone': 'x'}, 400)):
        app.post_json('/things', body, headers=at, status=status)
        accepted = True
        try:
            validate_body(Thing, body, '1.1')
        except APIError:
            accepted = False
        assert accepted == (status == 201)
