"""Compiled views give WSME's bytes: a differential test at every version.

Each generated object is built twice; one copy goes through the library's
old path (``filter_response``, then WSME's ``encode_result`` as
``wsmeext.pecan`` renders JSON), the other through the compiled view.
"""

import datetime
import decimal
import enum
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wsme import types as wtypes
from wsme.rest.json import encode_result

from pecan_microversions import VersionRegistry, filter_response
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import versioned, versioned_resource
from pecan_microversions.wsme.readers import reader
from pecan_microversions.wsme.views import encode, view

REGISTRY = VersionRegistry('views', [(f'1.{i}', f'Version {i}.')
                                     for i in range(6)])
VERSIONS = REGISTRY.versions
COLOUR = wtypes.Enum(str, 'red', 'green', 'blue')


class Tag(wtypes.Base):
    """A plain (unbound) nested type."""

    label = wtypes.text
    weight = float


class Address(wtypes.Base):
    """A plain type big enough for a dict in shape to be shared."""

    street = wtypes.text
    city = wtypes.text
    postcode = wtypes.text
    country = wtypes.text


@versioned_resource(REGISTRY, 'part')
class Part(wtypes.Base):
    serial = wtypes.text
    made = versioned(datetime.date, '1.1')
    at = versioned(datetime.time, '1.2', '1.4')
    blob = versioned(wtypes.binary, '1.3')
    tags = versioned([Tag], '1.2')


@versioned_resource(REGISTRY, 'thing')
class Thing(wtypes.Base):
    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    count = int
    ratio = float
    flag = bool
    price = versioned(decimal.Decimal, '1.1')
    created = wtypes.wsattr(datetime.datetime, name='created_at')
    colour = versioned(COLOUR, '1.2', default='red')
    raw = versioned(bytes, max_version='1.3')
    old_name = versioned(wtypes.text, max_version='1.2')
    new_name = versioned(wtypes.text, '1.3', replaces='old_name')
    part = versioned(Part, '1.1')
    parts = [Part]
    extra = {wtypes.text: wtypes.text}
    by_key = versioned({wtypes.text: Part}, '1.4')
    counts = [int]
    tag = Tag


@versioned_resource(REGISTRY, 'thing_collection')
class ThingCollection(wtypes.Base):
    things = [Thing]
    next = versioned(wtypes.text, '1.5')


def _maybe(strategy):
    """Unset (not given), None, or a value."""
    return st.one_of(st.just(wtypes.Unset), st.none(), strategy)


TEXT = st.text(max_size=8)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
DATES = st.dates()
TIMES = st.times()
DATETIMES = st.datetimes(timezones=st.one_of(st.none(), st.timezones()))
DECIMALS = st.decimals(allow_nan=False, allow_infinity=False, places=3)
ASCII = st.binary(max_size=8).map(lambda b: b.hex().encode('ascii'))

TAGS = st.builds(lambda **kw: ('Tag', kw), label=_maybe(TEXT),
                 weight=_maybe(FLOATS))
PARTS = st.builds(lambda **kw: ('Part', kw), serial=_maybe(TEXT),
                  made=_maybe(DATES), at=_maybe(TIMES),
                  blob=_maybe(st.binary(max_size=12)),
                  tags=_maybe(st.lists(TAGS, max_size=2)))
THINGS = st.builds(
    lambda **kw: ('Thing', kw), uuid=_maybe(TEXT),
    count=_maybe(st.integers()), ratio=_maybe(FLOATS),
    flag=_maybe(st.booleans()), price=_maybe(DECIMALS),
    created=_maybe(DATETIMES), colour=_maybe(st.sampled_from(sorted(COLOUR.values))),
    raw=_maybe(ASCII), old_name=_maybe(TEXT), new_name=_maybe(TEXT),
    part=_maybe(PARTS), parts=_maybe(st.lists(PARTS, max_size=2)),
    extra=_maybe(st.dictionaries(TEXT, TEXT, max_size=2)),
    by_key=_maybe(st.dictionaries(TEXT, PARTS, max_size=2)),
    counts=_maybe(st.lists(st.integers(), max_size=3)), tag=_maybe(TAGS))
COLLECTIONS = st.builds(lambda **kw: ('ThingCollection', kw),
                        things=st.lists(THINGS, max_size=3),
                        next=_maybe(TEXT))
TYPES = {'Tag': Tag, 'Part': Part, 'Thing': Thing,
         'ThingCollection': ThingCollection}


def build(spec):
    """A fresh WSME object (tree) from a generated description."""
    if isinstance(spec, tuple):
        name, fields = spec
        obj = TYPES[name]()
        for key, value in fields.items():
            if value is not wtypes.Unset:
                setattr(obj, key, build(value))
        return obj
    if isinstance(spec, list):
        return [build(item) for item in spec]
    if isinstance(spec, dict):
        return {key: build(value) for key, value in spec.items()}
    return spec


def wsme_bytes(value, datatype, version):
    return encode_result(filter_response(value, version), datatype)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(spec=COLLECTIONS, version=st.sampled_from(VERSIONS))
def test_collection_matches_wsme(spec, version):
    assert (encode(build(spec), ThingCollection, version)
            == wsme_bytes(build(spec), ThingCollection, version))


@settings(max_examples=60, deadline=None)
@given(spec=st.lists(THINGS, max_size=3))
def test_every_version_of_a_list_matches_wsme(spec):
    for version in VERSIONS:
        assert (encode(build(spec), wtypes.ArrayType(Thing), version)
                == wsme_bytes(build(spec), wtypes.ArrayType(Thing), version))


@settings(max_examples=60, deadline=None)
@given(spec=st.dictionaries(TEXT, PARTS, max_size=3))
def test_dict_of_objects_matches_wsme(spec):
    datatype = wtypes.DictType(wtypes.text, Part)
    for version in VERSIONS:
        assert (encode(build(spec), datatype, version)
                == wsme_bytes(build(spec), datatype, version))


@pytest.mark.parametrize('version', VERSIONS, ids=str)
def test_hand_written_thing(version):
    """One fully set object, and what each version must show of it."""
    def make():
        return Thing(uuid='u', count=3, ratio=0.5, flag=True,
                     price=decimal.Decimal('1.50'),
                     created=datetime.datetime(2026, 1, 2, 3, 4, 5),
                     colour='blue', raw=b'ab', old_name='n',
                     part=Part(serial='s', made=datetime.date(2026, 1, 2),
                               at=datetime.time(1, 2), blob=b'\x00\xff',
                               tags=[Tag(label='x', weight=None)]),
                     parts=[], extra={'k': 'v'}, counts=None, tag=None)
    data = view(Thing, version)(make())
    assert data == __import__('json').loads(wsme_bytes(make(), Thing, version))
    assert ('price' in data) == (version >= Version(1, 1))
    assert ('new_name' in data) == (version >= Version(1, 3))
    assert ('old_name' in data) == (version <= Version(1, 2))
    if version >= Version(1, 3):
        assert data['new_name'] == 'n'  # the rename carries the value
        assert data['part']['blob'] == 'AP8=\n'
    assert data['created_at'] == '2026-01-02T03:04:05'
    assert 'counts' in data and data['counts'] is None


def test_view_leaves_the_object_unchanged():
    thing = Thing(old_name='n', raw=b'x')
    view(Thing, Version(1, 5))(thing)
    assert thing.old_name == 'n' and thing.raw == b'x'


def test_subclass_instance_matches_wsme():
    class SpecialTag(Tag):
        note = wtypes.text

    for version in VERSIONS:
        def make():
            return Thing(tag=SpecialTag(label='s', note='n'))
        assert encode(make(), Thing, version) == wsme_bytes(make(), Thing,
                                                            version)


def test_unknown_version_is_refused():
    with pytest.raises(UnknownVersionError):
        view(Thing, Version(9, 9))


class Tree(wtypes.Base):
    name = wtypes.text


Tree.children = [Tree]
wtypes.registry.reregister(Tree)


def test_self_referencing_type_matches_wsme():
    def make():
        return Tree(name='a', children=[Tree(name='b', children=[]),
                                        Tree(name='c')])
    assert encode(make(), Tree, VERSIONS[0]) == wsme_bytes(make(), Tree,
                                                           VERSIONS[0])


def build_dicts(spec):
    """The same tree as :func:`build`, objects as dicts of public names."""
    if isinstance(spec, tuple):
        name, fields = spec
        names = {a.key: a.name for a in wtypes.list_attributes(TYPES[name])}
        return {names[key]: build_dicts(value) for key, value in
                fields.items() if value is not wtypes.Unset}
    if isinstance(spec, list):
        return [build_dicts(item) for item in spec]
    if isinstance(spec, dict):
        return {key: build_dicts(value) for key, value in spec.items()}
    return spec


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(spec=COLLECTIONS, version=st.sampled_from(VERSIONS))
def test_plain_dicts_give_the_objects_bytes(spec, version):
    assert (encode(build_dicts(spec), ThingCollection, version)
            == encode(build(spec), ThingCollection, version))


def test_plain_dict_rename_and_hiding():
    data = {'old_name': 'n', 'raw': b'x', 'colour': 'blue', 'count': 1}
    assert view(Thing, Version(1, 5))(data) == {
        'count': 1, 'colour': 'blue', 'new_name': 'n'}
    assert view(Thing, Version(1, 0))(data) == {
        'count': 1, 'raw': 'x', 'old_name': 'n'}


def test_list_spelling_is_compiled_once():
    assert view([Thing], VERSIONS[2]) is view([Thing], VERSIONS[2])
    assert view([Thing], VERSIONS[2])([{'count': 2}]) == [{'count': 2,
                                                           'colour': 'red'}]


def test_wsme_internals_the_views_read():
    """compat's data-holder reads match WSME's descriptors (pins WSME)."""
    from pecan_microversions.compat import NO_VALUES, dataholder, plain_attribute

    fresh = Tag()
    assert dataholder(fresh) is NO_VALUES
    assert getattr(NO_VALUES, 'label', wtypes.Unset) is wtypes.Unset
    tag = Tag(label='x')
    assert dataholder(tag).label == 'x' == tag.label
    attrs = {a.key: a for a in wtypes.list_attributes(Thing)}
    assert plain_attribute(attrs['count'])
    assert not plain_attribute(attrs['price'])  # VersionedAttr.__get__
    assert attrs['price'].plain_read and not attrs['colour'].plain_read
    # Strings and enums are written as they are (their tobasetype).
    value = object()
    assert COLOUR.tobasetype(value) is value
    assert wtypes.StringType(max_length=3).tobasetype(value) is value


def test_a_plain_dict_already_in_shape_is_shared():
    address_view = view(Address, VERSIONS[0])
    ready = {'street': 'a', 'city': 'b', 'postcode': 'c', 'country': 'd'}
    assert address_view(ready) is ready
    reordered = dict(reversed(ready.items()))
    assert address_view(reordered) is not reordered
    assert list(address_view(reordered)) == list(ready)
    extra = dict(ready, secret='s')
    assert address_view(extra) == ready
    # A small type's dict is copied: cheaper than checking it.
    tag_view = view(Tag, VERSIONS[0])
    small = {'label': 'x', 'weight': 1.5}
    assert tag_view(small) == small and tag_view(small) is not small
    reordered = {'weight': 1.5, 'label': 'x'}
    assert list(tag_view(reordered)) == ['label', 'weight']
    assert tag_view({'label': wtypes.Unset, 'weight': 2.0}) == {'weight': 2.0}
    assert tag_view({'label': 'x'}) == {'label': 'x'}


class Badge(wtypes.Base):
    """A small plain type with a default: inlined in views holding it."""

    text = wtypes.wsattr(wtypes.text, default='none')
    size = int


class SpecialBadge(Badge):
    """A subclass: written the generic way, even inside a list."""


@versioned_resource(REGISTRY, 'badged')
class Badged(wtypes.Base):
    badge = Badge
    badges = versioned([Badge], '1.1')


BADGE_VALUES = st.fixed_dictionaries({}, optional={
    'text': st.one_of(st.none(), TEXT), 'size': st.one_of(
        st.none(), st.integers(-3, 3))})
BADGES = st.tuples(st.sampled_from(['dict', 'object', 'subclass']),
                   BADGE_VALUES)


def _badge(kind_and_values, as_dicts):
    kind, values = kind_and_values
    if kind == 'dict' and as_dicts:
        return dict(values)
    return (SpecialBadge if kind == 'subclass' else Badge)(**values)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(badge=st.one_of(st.none(), BADGES),
       badges=st.one_of(st.none(), st.lists(BADGES, max_size=3)))
def test_small_nested_types_read_inline_match_wsme(badge, badges):
    """A small type's dicts are read inside the view holding it (one
    object, a list mixing dicts, objects and subclass objects, None, a
    missing key's default): the same bytes as WSME's objects."""
    def made(as_dicts):
        made = {}
        if badge is not None:
            made['badge'] = _badge(badge, as_dicts)
        if badges is not None:
            made['badges'] = [_badge(b, as_dicts) for b in badges]
        return made if as_dicts else Badged(**made)

    for version in VERSIONS:  # filter_response changes the object
        expected = wsme_bytes(made(False), Badged, version)
        assert encode(made(False), Badged, version) == expected, version
        assert encode(made(True), Badged, version) == expected, version


def test_a_small_nested_dict_gets_its_defaults():
    data = {'badge': {'size': 2}, 'badges': [{'text': 'a'}, {}, None]}
    assert view(Badged, VERSIONS[1])(data) == {
        'badge': {'text': 'none', 'size': 2},
        'badges': [{'text': 'a'}, {'text': 'none'}, None]}
    assert view(Badged, VERSIONS[0])(data) == {
        'badge': {'text': 'none', 'size': 2}}


def test_an_attribute_whose_key_is_a_keyword_is_written():
    """A type built with ``type()`` may have a key such as ``class``; the
    generated view reads it with ``getattr`` (it once failed to compile)."""
    keyed = versioned_resource(REGISTRY, 'keyed')(type('Keyed', (wtypes.Base,), {
        'class': versioned(wtypes.text, '1.1', default='none'), 'size': int}))
    for version in VERSIONS:
        obj = keyed(size=1)
        expected = wsme_bytes(keyed(size=1), keyed, version)
        assert encode(obj, keyed, version) == expected, version
        assert encode({'size': 1}, keyed, version) == expected, version


class Odd(wtypes.Base):
    """Attributes that hold values of Python types WSME passes through."""

    name = wtypes.text
    number = int
    ratio = float
    data = {wtypes.text: wtypes.text}
    items = [wtypes.text]


class _Label(str):
    pass


class _Level(enum.IntEnum):
    HIGH = 3


def _cyclic():
    value = {'a': 1}
    value['self'] = value
    return value


def _outcome(function, *args):
    """What ``function(*args)`` returns, or the class of what it raises."""
    try:
        return function(*args)
    except Exception as exc:  # noqa: BLE001 - compared below
        return type(exc)


@pytest.mark.parametrize('value', [
    _Label('x\u00e9\n"'), _Level.HIGH, True, False, None, 2 ** 70, -0.0,
    float('nan'), float('inf'), 1e300, '\ud83d\ude00', ('a', 'b'),
    {1: 'int key', None: 'none key', 2.5: 'float key'}, object(),
    {str(i): i for i in range(12)}, list(range(12)), [{'a': [1, 2]}, None],
    {'a': {'b': [True, 1.5]}, 'c': None}, _cyclic()])
def test_the_json_writer_writes_what_json_dumps_writes(value):
    """Values a service may put in a plain dict, of types ``json.dumps``
    writes specially (or refuses): the writer's text is the view's."""
    compiled = view(Odd, VERSIONS[0])
    assert callable(compiled.text)
    for key in ('name', 'number', 'ratio', 'data', 'items'):
        expected = _outcome(lambda data: json.dumps(compiled(data)),
                            {key: value})
        assert _outcome(encode, {key: value}, Odd, VERSIONS[0]) == expected, (
            key, value)


def test_an_object_with_two_attributes_of_one_name_has_no_json_writer():
    class Twice(wtypes.Base):
        first = wtypes.wsattr(wtypes.text, name='same')
        second = wtypes.wsattr(wtypes.text, name='same')

    compiled = view(Twice, VERSIONS[0])
    assert not hasattr(compiled, 'text')
    value = Twice(first='a', second='b')
    assert encode(value, Twice, VERSIONS[0]) == json.dumps(compiled(value))


def _no_key_twice(pairs):
    keys = [key for key, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)


def test_a_small_type_with_two_attributes_of_one_name_is_not_inlined():
    class Pair(wtypes.Base):
        first = wtypes.wsattr(wtypes.text, name='same')
        second = wtypes.wsattr(wtypes.text, name='same')

    class Holder(wtypes.Base):
        inner = Pair
        many = [Pair]

    for value in ({'inner': {'same': 'a'}}, {'many': [{'same': 'a'}]},
                  Holder(inner=Pair(first='a'), many=[Pair(second='b')])):
        text = encode(value, Holder, VERSIONS[0])
        assert text == json.dumps(view(Holder, VERSIONS[0])(value))
        json.loads(text, object_pairs_hook=_no_key_twice)


@pytest.mark.parametrize('name', [1, 2.5, True])
def test_a_public_name_that_is_not_text_is_written_as_json_writes_keys(name):
    # WSME takes any name; json.dumps writes a dict's key 1 as "1".
    named = type('Named', (wtypes.Base,), {
        'a': wtypes.wsattr(wtypes.text, name=name), 'b': int})
    value = named(a='x', b=1)
    text = encode(value, named, VERSIONS[0])
    assert text == json.dumps(view(named, VERSIONS[0])(value))
    assert json.loads(text) == {json.dumps({name: 0})[2:-5]: 'x', 'b': 1}


def test_an_attribute_named_with_a_compatibility_character_is_its_own():
    # Python reads the identifier 'ﬁle' in source as 'file' (NFKC).
    key = '\ufb01le'
    registry = VersionRegistry('nfkc', [('1.0', 'First.'), ('1.1', 'More.')])
    named = versioned_resource(registry, 'named')(type('Named', (
        wtypes.Base,), {key: versioned(wtypes.text, default='d'),
                        'file': versioned(wtypes.text, '1.1')}))
    first = registry.versions[0]
    expected = encode_result(filter_response(named(**{key: 'x'}), first),
                             named)
    assert encode(named(**{key: 'x'}), named, first) == expected
    read = reader(named)({key: 'y'})
    assert getattr(read, key) == 'y' and read.file is wtypes.Unset
