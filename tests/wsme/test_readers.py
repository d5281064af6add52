"""Compiled readers give what WSME's ``fromjson`` gives: a differential test.

Every generated JSON value is read twice, by ``wsme.rest.json.fromjson`` and
by the compiled reader; both must build the same object (every attribute,
set or not) or raise the same error, message and field name included.
"""

import datetime
import decimal

import pytest
import wsme.exc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wsme import types as wtypes
from wsme.rest.json import fromjson

from pecan_microversions import VersionRegistry, versioned, versioned_resource
from pecan_microversions.demo.types import Node
from pecan_microversions.wsme.readers import reader

REGISTRY = VersionRegistry('readers', [('1.0', 'First.'), ('1.1', 'Next.')])


class Celsius(wtypes.UserType):
    """A user type WSME's ``fromjson`` was extended for."""

    basetype = float
    name = 'celsius'


CELSIUS = Celsius()


@fromjson.when_object(CELSIUS)
def _celsius_fromjson(datatype, value):
    if value is None:
        return None
    return round(float(value) - 273.15, 2)


class Leaf(wtypes.Base):
    word = wtypes.text
    size = int


class Special(wtypes.Base):
    """A complex type read by its own ``fromjson`` function."""

    word = wtypes.text


@fromjson.when_object(Special)
def _special_fromjson(datatype, value):
    return Special(word=f'special {value}')


class Every(wtypes.Base):
    """Each datatype WSME reads from JSON, once."""

    text = wtypes.text
    raw = bytes
    binary = wtypes.binary
    whole = int
    real = float
    flag = bool
    price = decimal.Decimal
    day = datetime.date
    hour = datetime.time
    moment = datetime.datetime
    colour = wtypes.Enum(str, 'red', 'green')
    short = wtypes.StringType(min_length=1, max_length=3)
    small = wtypes.IntegerType(minimum=0, maximum=9)
    heat = CELSIUS
    leaf = Leaf
    leaves = [Leaf]
    by_name = {wtypes.text: Leaf}
    numbers = {int: wtypes.ArrayType(int)}
    special = Special
    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    must = wtypes.wsattr(wtypes.text, mandatory=True)
    public = wtypes.wsattr(wtypes.text, name='public-name')


class Tree(wtypes.Base):
    label = wtypes.text


Tree.children = wtypes.wsattr([Tree])
wtypes.registry.reregister(Tree)


@versioned_resource(REGISTRY, 'gadget')
class Gadget(wtypes.Base):
    """Versioned attributes: a default to hide, a rename, a range."""

    name = wtypes.text
    note = versioned(wtypes.text, '1.1', default='none')
    old = versioned(wtypes.text, max_version='1.0')
    new = versioned(wtypes.text, '1.1', replaces='old')
    count = versioned(int, '1.1', mandatory=True)


class Upper(wtypes.StringType):
    """A string type of the service's own: its validate converts."""

    def validate(self, value):
        return super().validate(value).upper()


class Stored(wtypes.Base):
    """Text attributes the readers store directly, and look-alikes they
    must leave to WSME's descriptors."""

    plain = wtypes.text
    bounded = wtypes.StringType(min_length=2, max_length=3)
    at_most = wtypes.StringType(max_length=2)
    patterned = wtypes.StringType(pattern='^r')
    colour = wtypes.Enum(str, 'red', 'green')
    number = wtypes.Enum(int, 1, 2)
    upper = Upper(max_length=3)
    hidden = versioned(wtypes.StringType(max_length=3), '1.1', default='x')
    shown = versioned(wtypes.Enum(str, 'red', 'ab'), '1.1')


class Guarded(wtypes.Base):
    """A class with a ``__setattr__`` of its own sees every value."""

    word = wtypes.text
    label = wtypes.StringType(max_length=3)

    def __setattr__(self, name, value):
        if isinstance(value, str):
            value = value + '!'
        super().__setattr__(name, value)


class Checked(wtypes.Base):
    """A complex type with a ``validate`` of its own: WSME calls it for the
    object read, then again when the object is set on an attribute."""

    word = wtypes.text

    @classmethod
    def validate(cls, value):
        value.word = (value.word or '') + '+'
        return value


class Equal(wtypes.Base):
    """A complex type whose equality WSME's ``validate_value`` meets."""

    word = wtypes.text

    def __eq__(self, other):
        return other is None or isinstance(other, wtypes.UnsetType)

    __hash__ = None


class Holding(wtypes.Base):
    """Attributes of complex types, stored as read or not."""

    leaf = Leaf
    checked = Checked
    equal = Equal


TYPES = [Every, Leaf, Tree, Gadget, Node, [Leaf], {wtypes.text: Leaf},
         wtypes.text, int, CELSIUS, Special, Stored, Guarded, Holding]

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-20, 20),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.sampled_from(['', 'red', 'ab', '12', '2026-01-02',
                                     '03:04:05', '2026-01-02T03:04:05',
                                     'true', 'off', '1.5', 'x' * 5]))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(st.sampled_from(['word', 'size', 'label', 'x', '1']),
                    inner, max_size=3)), max_leaves=8)
KEYS = ['text', 'raw', 'binary', 'whole', 'real', 'flag', 'price', 'day',
        'hour', 'moment', 'colour', 'short', 'small', 'heat', 'leaf',
        'leaves', 'by_name', 'numbers', 'special', 'uuid', 'must',
        'public-name', 'public', 'word', 'size', 'label', 'children', 'name',
        'note', 'old', 'new', 'count', 'hardware_type', 'owner',
        'description', 'unknown', 'plain', 'bounded', 'at_most',
        'patterned', 'number', 'upper', 'hidden', 'shown', 'checked',
        'equal']
OBJECTS = st.dictionaries(st.sampled_from(KEYS), JSON, max_size=6)
VALUES = st.one_of(OBJECTS, JSON,
                   st.lists(OBJECTS, max_size=2),
                   st.dictionaries(st.sampled_from(['a', 'b']), OBJECTS,
                                   max_size=2))


def _state(value):
    """Everything observable of a read value, for comparison."""
    if isinstance(value, wtypes.Base):
        attributes = wtypes.list_attributes(type(value))
        return (type(value).__name__,
                tuple((a.key, _state(getattr(value, a.key)))
                      for a in attributes),
                tuple(sorted((k, repr(v)) for k, v in vars(value).items()
                             if k != '_wsme_dataholder')))
    if isinstance(value, list):
        return [_state(v) for v in value]
    if isinstance(value, dict):
        return {k: _state(v) for k, v in value.items()}
    return (type(value).__name__, value)


def _outcome(read):
    try:
        return 'value', _state(read())
    except Exception as exc:  # noqa: BLE001 - compared below
        return ('error', type(exc).__name__, str(exc),
                getattr(exc, 'faultstring', None),
                getattr(exc, 'fieldname', None))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(TYPES))), VALUES)
def test_the_same_value_or_the_same_error_as_fromjson(index, value):
    datatype = wtypes.registry.resolve_type(TYPES[index])
    assert _outcome(lambda: reader(datatype)(value)) == _outcome(
        lambda: fromjson(datatype, value))


GOOD = {'text': 't', 'raw': 'r', 'binary': 'YWJj', 'whole': '7',
        'real': 2, 'flag': 'true', 'price': '1.50', 'day': '2026-01-02',
        'hour': '03:04:05', 'moment': '2026-01-02T03:04:05',
        'colour': 'red', 'short': 'ab', 'small': 3, 'heat': 300,
        'leaf': {'word': 'w', 'size': 1}, 'leaves': [{'size': 2}],
        'by_name': {'k': {'word': 'v'}}, 'numbers': {'1': [2, '3']},
        'special': 'x', 'must': 'm', 'public-name': 'p'}


def test_every_datatype_read_as_fromjson_reads_it():
    expected = fromjson(Every, GOOD)
    got = reader(Every)(GOOD)
    assert _state(got) == _state(expected)
    assert got.heat == 26.85 and got.special.word == 'special x'
    assert got.numbers == {1: [2, 3]} and got.public == 'p'
    assert got.moment == datetime.datetime(2026, 1, 2, 3, 4, 5)


@pytest.mark.parametrize('body, error, message', [
    ({**GOOD, 'uuid': 'u'}, wsme.exc.InvalidInput, 'Cannot set read only'),
    ({k: v for k, v in GOOD.items() if k != 'must'}, wsme.exc.InvalidInput,
     'Mandatory field missing'),
    ({**GOOD, 'short': 'toolong'}, wsme.exc.InvalidInput, 'short'),
    ({**GOOD, 'leaf': {'word': 'w', 'bad': 1}}, wsme.exc.UnknownAttribute,
     'leaf'),
    ({**GOOD, 'leaves': 'no'}, ValueError, 'Value not a valid list'),
    ({**GOOD, 'day': 'soon'}, ValueError, ''),
])
def test_errors_are_fromjsons(body, error, message):
    with pytest.raises(error) as expected:
        fromjson(Every, body)
    with pytest.raises(error) as got:
        reader(Every)(body)
    assert message in f'{got.value} {getattr(got.value, "fieldname", "")}'
    assert str(got.value) == str(expected.value)
    assert getattr(got.value, 'fieldname', None) == getattr(
        expected.value, 'fieldname', None)


def test_a_nested_unknown_attribute_names_its_whole_path():
    body = {'children': [{'children': [{'nope': 1}]}]}
    with pytest.raises(wsme.exc.UnknownAttribute) as got:
        reader(Tree)(body)
    assert got.value.fieldname == 'children.children'
    assert got.value.faultstring == (
        'Unknown attribute for argument children.children: nope')


def test_a_reader_is_compiled_once():
    assert reader(Every) is reader(Every)
    assert reader(Tree)({'children': [{'label': 'x'}]}).children[0].label \
        == 'x'


@pytest.mark.parametrize('cls, body, expected', [
    (Stored, {'plain': 'p', 'bounded': 'abc', 'colour': 'red',
              'upper': 'ab', 'patterned': 'rx', 'hidden': 'ab',
              'shown': 'red'},
     {'plain': 'p', 'bounded': 'abc', 'colour': 'red', 'upper': 'AB',
      'patterned': 'rx', 'hidden': 'ab', 'shown': 'red'}),
    (Guarded, {'word': 'w', 'label': 'ab'}, {'word': 'w!', 'label': 'ab!'}),
])
def test_values_stored_directly_are_what_the_descriptors_store(
        cls, body, expected):
    got = reader(cls)(body)
    assert {k: getattr(got, k) for k in expected} == expected
    assert _state(got) == _state(fromjson(cls, body))


@pytest.mark.parametrize('key, value, message', [
    ('bounded', 'a', 'minimum character requirement of 2'),
    ('bounded', 'abcd', 'maximum character requirement of 3'),
    ('at_most', 'abc', 'maximum character requirement of 2'),
    ('colour', 'blue', 'Value should be one of'),
    ('patterned', 'x', 'Value should match the pattern'),
    ('number', 3, 'Value should be one of'),
    ('plain', 5, "Wrong type. Expected '<class 'str'>'"),
    ('upper', 'abcd', 'maximum character requirement of 3'),
])
def test_values_not_stored_directly_are_refused_as_wsme_refuses_them(
        key, value, message):
    with pytest.raises(wsme.exc.InvalidInput) as expected:
        fromjson(Stored, {key: value})
    with pytest.raises(wsme.exc.InvalidInput) as got:
        reader(Stored)({key: value})
    assert message in str(got.value)
    assert str(got.value) == str(expected.value)


LOWERED = wtypes.StringType(max_length=20)
ALIASED = wtypes.Enum(str, 'active', 'ACTIVE', 'error')


@fromjson.when_object(LOWERED)
def _lowered(datatype, value):
    return None if value is None else value.strip().lower()


@fromjson.when_object(ALIASED)
def _aliased(datatype, value):
    return None if value is None else value.lower()


class Extended(wtypes.Base):
    """``fromjson`` extended for a StringType and an Enum: their values are
    the extension's, never stored as sent."""

    name = LOWERED
    state = ALIASED


def test_a_datatype_fromjson_was_extended_for_is_read_by_the_extension():
    body = {'name': '  Foo ', 'state': 'ACTIVE'}
    got = reader(Extended)(body)
    assert (got.name, got.state) == ('foo', 'active')
    assert _state(got) == _state(fromjson(Extended, body))


def test_limits_and_values_changed_after_the_first_read_are_the_new_ones():
    colour = wtypes.Enum(str, 'red', 'green')
    short = wtypes.StringType(max_length=10)

    class Changing(wtypes.Base):
        tint = colour
        word = short

    assert reader(Changing)({'tint': 'red', 'word': 'abcdef'}).tint == 'red'
    colour.values = {'blue'}
    short.max_length = 3
    for body in ({'tint': 'red'}, {'word': 'abcdef'}):
        with pytest.raises(wsme.exc.InvalidInput) as expected:
            fromjson(Changing, body)
        with pytest.raises(wsme.exc.InvalidInput) as got:
            reader(Changing)(body)
        assert str(got.value) == str(expected.value)


class _Restart(wtypes.wsattr):
    """An attribute whose setter starts the object's values afresh."""

    def __set__(self, instance, value):
        instance._wsme_dataholder = instance._wsme_DataHolderClass()
        super().__set__(instance, value)


class Restarting(wtypes.Base):
    """The restarting attribute is read before a text attribute."""

    atemplate = _Restart(wtypes.text)
    zname = wtypes.text


def test_a_value_read_after_a_setter_replaced_the_holder_is_kept():
    body = {'atemplate': 't', 'zname': 'n'}
    assert [a.key for a in wtypes.list_attributes(Restarting)] == [
        'atemplate', 'zname']
    got = reader(Restarting)(body)
    assert (got.atemplate, got.zname) == ('t', 'n')
    assert _state(got) == _state(fromjson(Restarting, body))


def test_objects_are_validated_as_wsme_validates_them():
    body = {'leaf': {'word': 'w'}, 'checked': {'word': 'c'},
            'equal': {'word': 'e'}}
    got, expected = reader(Holding)(body), fromjson(Holding, body)
    assert got.checked.word == expected.checked.word == 'c++'  # twice
    assert got.equal is not None and got.leaf.word == 'w'
    assert _state(got) == _state(expected)
