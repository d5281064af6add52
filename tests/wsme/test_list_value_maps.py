"""A ``ValueMap`` on a list field maps each item, down and up, on every
path: responses (compiled views, JSON and text), bodies, patches, the
declaration check against ``values=``; and a plain-dict ``Schema``'s.
Before, a list was never looked up, so a 1.0 client read ``['gone']``, a
value its version does not have."""

import re

import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    ValueMap,
    Version,
    VersionedRestController,
    VersionRegistry,
    patch_newest,
    response_json,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.tools.testing import version_headers
from pecan_microversions.wsme.checking import check_body

V10, V11 = Version(1, 0), Version(1, 1)
REGISTRY = VersionRegistry('lists', [('1.0', 'a'), ('1.1', 'b')])


@versioned_resource(REGISTRY, 'thing')
class Thing(wtypes.Base):
    tags = versioned([wtypes.Enum(str, 'a', 'b', 'gone')],
                     values={'gone': '1.1'},
                     changes=[ValueMap({'gone': 'a'}, '1.0',
                                       up={'b': 'gone'})])
    tag = versioned(wtypes.Enum(str, 'a', 'b', 'gone'),
                    values={'gone': '1.1'},
                    changes=[ValueMap({'gone': 'a'}, '1.0')])


STORED = {'tags': ['gone', 'b', None], 'tag': 'gone'}
RECEIVED = []


class Things(VersionedRestController):
    @versioned_wsexpose(Thing, wtypes.text)
    def get_one(self, ident):
        return Thing(**STORED)

    @versioned_wsexpose(Thing, body=Thing, status_code=201)
    def post(self, thing):
        RECEIVED.append(thing.tags)
        return thing


class Root:
    things = Things()


def _client():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False,
        force_canonical=False))


def test_each_item_is_shown_as_the_version_knows_it():
    assert response_json(Thing, STORED, V10) == {'tags': ['a', 'b', None],
                                                 'tag': 'a'}
    assert response_json(Thing, STORED, V11) == STORED


@pytest.mark.parametrize('version, tags', [('1.0', ['a', 'b', None]),
                                           ('1.1', ['gone', 'b', None])])
def test_a_served_response_maps_each_item(version, tags):
    answer = _client().get('/things/x',
                           headers=version_headers(REGISTRY, version))
    assert answer.json['tags'] == tags


def test_each_item_sent_is_mapped_up():
    del RECEIVED[:]
    answer = _client().post_json('/things', {'tags': ['a', 'b']},
                                 headers=version_headers(REGISTRY, '1.0'))
    assert answer.status_int == 201
    assert RECEIVED == [['a', 'gone']]  # the controller's newest values
    assert answer.json['tags'] == ['a', 'a']  # shown back as 1.0 shows them


def test_an_item_the_version_lacks_is_refused():
    with pytest.raises(RequestError, match="Value 'gone' of field 'tags'"):
        check_body(Thing, {'tags': ['gone']}, V10)


def test_a_patch_keeps_items_the_version_cannot_see():
    # 1.0 shows ['gone', 'a'] as ['a', 'a']: rewritten from that view, the
    # stored 'gone' would be lost, as a retyped value's hidden part is
    with pytest.raises(APIError) as caught:
        patch_newest(Thing, {'tags': ['gone', 'a']},
                     [{'op': 'add', 'path': '/tags/-', 'value': 'a'}], V10)
    assert caught.value.code == 409
    assert patch_newest(Thing, {'tags': ['a']}, [
        {'op': 'add', 'path': '/tags/-', 'value': 'b'}], V10) == {
        'tags': ['a', 'gone']}
    assert patch_newest(Thing, {'tags': ['gone', 'a']}, [
        {'op': 'add', 'path': '/tags/-', 'value': 'gone'}], V11) == {
        'tags': ['gone', 'a', 'gone']}


def test_a_map_onto_an_item_values_forbid_is_refused():
    registry = VersionRegistry('lists2', [('1.0', 'a'), ('1.1', 'b')])
    with pytest.raises(InvalidDeclarationError, match=re.escape(
            "T.tags: a ValueMap shows 'a' as 'gone' at version 1.0, but "
            "values= does not allow 'gone' there (allowed: 'a', 'b').")):
        @versioned_resource(registry, 'thing')
        class T(wtypes.Base):
            tags = versioned([wtypes.Enum(str, 'a', 'b', 'gone')],
                             values={'gone': '1.1'},
                             changes=[ValueMap({'a': 'gone'}, '1.0')])


def test_a_plain_dict_schema_maps_each_item_too():
    registry = VersionRegistry('lists3', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {'tags': field(changes=[
        ValueMap({'gone': 'a'}, '1.0', up={'b': 'gone'})])})
    assert schema.filter({'tags': ['gone', 'x']}, V10) == {'tags': ['a', 'x']}
    assert schema.filter({'tags': ['gone', 'x']}, V11) == {
        'tags': ['gone', 'x']}
    assert schema.check_body({'tags': ['b', 'x']}, V10) == {
        'tags': ['gone', 'x']}
    assert schema.apply_patch({'tags': ['x']}, [
        {'op': 'add', 'path': '/tags/-', 'value': 'b'}], V10) == {
        'tags': ['x', 'gone']}
    with pytest.raises(RequestError) as caught:
        schema.apply_patch({'tags': ['gone']}, [
            {'op': 'add', 'path': '/tags/-', 'value': 'x'}], V10)
    assert caught.value.code == 409
