"""A JSON value checked as WSME checks it in a body."""

import datetime
import decimal

import pytest
from wsme import types as wtypes

from pecan_microversions.core.errors import RequestError
from pecan_microversions.wsme.values import check_json_value

COLOUR = wtypes.Enum(str, 'red', 'green')


class Pair(wtypes.Base):
    """A plain nested type (module level: WSME keeps weak references)."""

    left = wtypes.text
    right = int


@pytest.mark.parametrize('datatype, value', [
    (wtypes.text, 'x'), (int, 3), (float, 1.5), (bool, True),
    (wtypes.StringType(min_length=1, max_length=3), 'abc'),
    (COLOUR, 'red'), (datetime.datetime, '2026-01-02T03:04:05'),
    (datetime.date, '2026-01-02'),
    (wtypes.ArrayType(wtypes.text), ['a', 'b']),
    (wtypes.DictType(wtypes.text, int), {'a': 1}), (Pair, {'left': 'l', 'right': 2}),
    (wtypes.text, None), (Pair, None)])
def test_what_wsme_accepts_passes(datatype, value):
    check_json_value(datatype, value, 'field')


@pytest.mark.parametrize('datatype, value', [
    (wtypes.text, 5), (int, 'x'),
    (wtypes.StringType(min_length=1, max_length=3), ''),
    (wtypes.StringType(min_length=1, max_length=3), 'abcd'),
    (COLOUR, 'blue'), (datetime.datetime, 'yesterday'),
    (wtypes.ArrayType(wtypes.text), 'not a list'),
    (wtypes.ArrayType(int), ['x']),
    (Pair, {'left': 'l', 'right': 'two'}), (Pair, {'other': 1}),
    (Pair, 'not an object'),
    # arithmetic errors, not ValueErrors: once a 500
    (decimal.Decimal, 'abc'), (int, float('inf'))])
def test_what_wsme_refuses_is_a_400_naming_the_field(datatype, value):
    with pytest.raises(RequestError) as raised:
        check_json_value(datatype, value, 'colour_field')
    assert raised.value.code == 400
    assert raised.value.error_code == 'microversion.invalid_value'
    assert "'colour_field'" in raised.value.detail


def test_unknown_members_of_an_object_are_named_not_wsmes_argument_none():
    with pytest.raises(RequestError) as caught:
        check_json_value(Pair, {'left': 'l', 'rel': 'x', 'href': 'y'}, 'pair')
    assert caught.value.detail == (
        "Invalid value for field 'pair': 'pair' has no href, rel.")


class _Invalid(Exception):
    code = 400


class _Level(wtypes.UserType):
    """A user type raising its own error (Ironic's types do)."""

    basetype = wtypes.text
    name = 'level'

    @staticmethod
    def frombasetype(value):
        if value not in ('low', 'high'):
            raise _Invalid(f'{value!r} is no level')
        return value


def test_a_user_types_own_error_is_a_400():
    check_json_value(_Level(), 'low', 'level')
    with pytest.raises(RequestError) as caught:
        check_json_value(_Level(), 'mid', 'level')
    assert caught.value.code == 400
    assert "'mid' is no level" in caught.value.detail


class Tag(wtypes.Base):
    """An object with a read-only member, held in lists and dicts."""

    label = wtypes.StringType(min_length=1)
    serial = wtypes.wsattr(wtypes.text, readonly=True)


class Shelf(wtypes.Base):
    name = wtypes.text
    made = wtypes.wsattr(int, readonly=True)
    tag = Tag
    tags = [Tag]
    by_key = {wtypes.text: Tag}


@pytest.mark.parametrize('value', [
    {'name': 'a', 'made': 1, 'tag': {'label': 'x', 'serial': 's'},
     'tags': [{'label': 'y', 'serial': 't'}],
     'by_key': {'k': {'label': 'z', 'serial': 'u'}}},
    {'tags': 'not a list', 'by_key': ['not', 'a', 'dict'], 'tag': 3},
])
def test_a_stored_value_is_read_without_its_read_only_members(value):
    """A stored value's read-only members, at any depth, are not the
    client's: not read (WSME refuses them in a body); the rest is."""
    if isinstance(value['tags'], str):
        with pytest.raises(RequestError):
            check_json_value(Shelf, value, 'shelf', stored=True)
        return
    check_json_value(Shelf, value, 'shelf', stored=True)
    with pytest.raises(RequestError, match='serial|made'):
        check_json_value(Shelf, value, 'shelf')
    bad = dict(value, tags=[{'label': '', 'serial': 't'}])
    with pytest.raises(RequestError, match='minimum'):
        check_json_value(Shelf, bad, 'shelf', stored=True)
    unknown = dict(value, tag={'label': 'x', 'colour': 'red'})
    with pytest.raises(RequestError, match='colour'):
        check_json_value(Shelf, unknown, 'shelf', stored=True)
