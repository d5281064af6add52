"""Compiled views of types that change representation: a differential test.

A type declaring ``changes=`` (value maps, retypes, renames, computed
fields) used to be written by ``from_newest``: WSME's ``tojson`` of the
newest object, then ``Conversion.down``.  Its compiled view must give the
same data at every version, for objects and for the equivalent plain
dicts, nested converted types (in an object, a list and a dict) included.
"""

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wsme import types as wtypes

from pecan_microversions import (
    Computed,
    Retype,
    ValueMap,
    VersionRegistry,
    versioned,
    versioned_resource,
)
from pecan_microversions.demo.types import Node, NodeCollection, Owner
from pecan_microversions.demo.versions import REGISTRY as FLEET
from pecan_microversions.wsme.conversion import from_newest
from pecan_microversions.wsme.views import encode, view

REGISTRY = VersionRegistry('convviews', [(f'1.{i}', f'Version {i}.')
                                         for i in range(6)])
VERSIONS = REGISTRY.versions
STATES = ('idle', 'busy', 'gone')


class Size(wtypes.Base):
    """A plain type, the newest type of a retyped field."""

    value = int
    unit = wtypes.text


def _size_down(size):
    return f'{size.get("value")}{size.get("unit") or ""}'


def _size_up(text):
    return {'value': int(text.rstrip('kMG') or 0), 'unit': text[-1:]}


@versioned_resource(REGISTRY, 'gear')
class Gear(wtypes.Base):
    """Nested in Machine; maps a value up to 1.2."""

    label = wtypes.text
    state = versioned(wtypes.Enum(str, *STATES), values={'gone': '1.3'},
                      changes=[ValueMap({'gone': 'idle'}, max_version='1.2')])
    spin = versioned(int, '1.2')


@versioned_resource(REGISTRY, 'machine')
class Machine(wtypes.Base):
    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    first = versioned(wtypes.text, max_version='1.1')
    second = versioned(wtypes.text, '1.2', '1.3', replaces='first')
    third = versioned(wtypes.text, '1.4', replaces='second')
    made = wtypes.wsattr(datetime.datetime, name='made_at')
    state = versioned(wtypes.Enum(str, *STATES),
                      changes=[ValueMap({'gone': 'busy'}, max_version='1.3')])
    size = versioned(Size, '1.1', changes=[
        Retype(_size_down, _size_up, max_version='1.4', type_name='string',
               datatype=wtypes.text)])
    idle = versioned(bool, max_version='1.3', readonly=True, changes=[
        Computed(lambda m: m.get('state') == 'idle')])
    gear = Gear
    gears = versioned([Gear], '1.1')
    by_name = versioned({wtypes.text: Gear}, '1.2')
    note = versioned(wtypes.text, '1.5', default='none')


@versioned_resource(REGISTRY, 'machine_collection')
class MachineCollection(wtypes.Base):
    machines = [Machine]
    next = versioned(wtypes.text, '1.3')


def _maybe(strategy):
    return st.one_of(st.just(wtypes.Unset), st.none(), strategy)


TEXT = st.text(max_size=6)
GEARS = st.fixed_dictionaries({
    'label': _maybe(TEXT), 'state': _maybe(st.sampled_from(STATES)),
    'spin': _maybe(st.integers(-5, 5))})
SIZES = st.fixed_dictionaries({'value': _maybe(st.integers(0, 99)),
                               'unit': _maybe(st.sampled_from(['k', 'M']))})
MACHINES = st.fixed_dictionaries({
    'uuid': _maybe(TEXT), 'third': _maybe(TEXT),
    'made': _maybe(st.datetimes()), 'state': _maybe(st.sampled_from(STATES)),
    'size': _maybe(SIZES), 'gear': _maybe(GEARS),
    'gears': _maybe(st.lists(GEARS, max_size=3)),
    'by_name': _maybe(st.dictionaries(TEXT, GEARS, max_size=2)),
    'note': _maybe(TEXT)})
COLLECTIONS = st.fixed_dictionaries({
    'machines': st.lists(MACHINES, max_size=3), 'next': _maybe(TEXT)})


def _object(cls, spec):
    """A WSME object of ``cls`` from a generated spec (Unset: not given)."""
    made = {}
    for key, value in spec.items():
        if value is wtypes.Unset:
            continue
        datatype = getattr(cls, key).datatype
        if isinstance(datatype, wtypes.ArrayType) and value:
            value = [_object(datatype.item_type, v) for v in value]
        elif isinstance(datatype, wtypes.DictType) and value:
            value = {k: _object(datatype.value_type, v)
                     for k, v in value.items()}
        elif wtypes.iscomplex(datatype) and value is not None:
            value = _object(datatype, value)
        made[key] = value
    return cls(**made)


def _names(cls, spec):
    """The same value as a plain dict keyed by public names."""
    if not isinstance(spec, dict):
        return spec
    out = {}
    for key, value in spec.items():
        if value is wtypes.Unset:
            continue
        attribute = getattr(cls, key)
        datatype = attribute.datatype
        if isinstance(datatype, wtypes.ArrayType) and value:
            value = [_names(datatype.item_type, v) for v in value]
        elif isinstance(datatype, wtypes.DictType) and value:
            value = {k: _names(datatype.value_type, v)
                     for k, v in value.items()}
        elif wtypes.iscomplex(datatype) and value is not None:
            value = _names(datatype, value)
        out[attribute.name] = value
    return out


def _as_json(data):
    return json.dumps(data)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(COLLECTIONS)
def test_every_version_matches_from_newest(spec):
    _check_every_version(MachineCollection, spec)


def _check_every_version(cls, spec):
    """The compiled view of the object and of the plain dict ``spec``
    makes give ``from_newest``'s JSON at every version."""
    obj = _object(cls, spec)
    plain = _names(cls, spec)
    for version in VERSIONS:
        expected = _as_json(from_newest(cls, obj, version))
        compiled = view(cls, version)
        assert _as_json(compiled(obj)) == expected, version
        assert _as_json(compiled(plain)) == expected, version
        # The JSON writer gives the same text without the view's dicts.
        assert encode(obj, cls, version) == expected, version
        assert encode(plain, cls, version) == expected, version


def test_a_hand_written_machine():
    machine = Machine(uuid='u', third='T', state='gone',
                      size=Size(value=4, unit='k'),
                      gears=[Gear(label='g', state='gone', spin=3)])
    at = {v: view(Machine, REGISTRY.known_version(v))(machine)
          for v in ('1.0', '1.3', '1.5')}
    assert at['1.0'] == {'uuid': 'u', 'first': 'T', 'state': 'busy',
                         'idle': False}
    assert at['1.3'] == {'uuid': 'u', 'second': 'T', 'state': 'busy',
                         'size': '4k', 'idle': False,
                         'gears': [{'label': 'g', 'state': 'gone',
                                    'spin': 3}]}
    assert view(Machine, REGISTRY.known_version('1.2'))(machine)['gears'] == [
        {'label': 'g', 'state': 'idle', 'spin': 3}]
    assert at['1.5'] == {'uuid': 'u', 'third': 'T', 'state': 'gone',
                         'size': {'value': 4, 'unit': 'k'},
                         'gears': [{'label': 'g', 'state': 'gone',
                                    'spin': 3}], 'note': 'none'}


def test_computed_fields_read_the_newest_json():
    # ``idle`` is computed from the newest state, not the one shown.
    shown = view(Machine, REGISTRY.known_version('1.0'))
    assert shown({'state': 'idle'})['idle'] is True
    assert shown({'state': 'gone'}) == {'state': 'busy', 'idle': False}


def test_a_subclass_goes_the_generic_way():
    class Special(Machine):
        pass

    machine = Special(uuid='s', state='gone')
    version = REGISTRY.known_version('1.0')
    assert view(Machine, version)(machine) == from_newest(
        Machine, machine, version)


@pytest.mark.parametrize('version', FLEET.versions, ids=str)
def test_the_demo_nodes_as_dicts_and_objects(version):
    stored = {'uuid': 'u1', 'name': 'n', 'driver': 'ipmi',
              'description': 'd', 'owner': 'alice', 'owner_domain': 'x',
              'provision_state': 'cancelled',
              'created_at': datetime.datetime(2026, 1, 2, 3, 4, 5)}
    node = Node.from_stored(stored, 'http://h')
    data = {'uuid': 'u1', 'name': 'n', 'hardware_type': 'ipmi',
            'description': 'd', 'owner': {'name': 'alice', 'domain': 'x'},
            'provision_state': 'cancelled',
            'created_at': stored['created_at'],
            'links': [{'rel': 'self', 'href': 'http://h/v1/nodes/u1'}]}
    expected = _as_json(from_newest(NodeCollection,
                                    NodeCollection(nodes=[node]), version))
    compiled = view(NodeCollection, version)
    assert _as_json(compiled({'nodes': [data]})) == expected
    assert _as_json(compiled(NodeCollection(nodes=[node]))) == expected
    assert encode({'nodes': [data]}, NodeCollection, version) == expected
    assert encode(NodeCollection(nodes=[node]), NodeCollection,
                  version) == expected
    assert isinstance(Owner, type)


@versioned_resource(REGISTRY, 'plate')
class Plate(wtypes.Base):
    """Bound, no changes of its own: only hidden before 1.2."""

    label = wtypes.text
    colour = versioned(wtypes.text, '1.2')


@versioned_resource(REGISTRY, 'rack')
class Rack(wtypes.Base):
    state = versioned(wtypes.Enum(str, *STATES),
                      changes=[ValueMap({'gone': 'busy'}, max_version='1.3')])
    plate = Plate
    plates = [Plate]


def test_a_nested_type_without_changes_hides_what_its_version_lacks():
    rack = Rack(state='gone', plate=Plate(label='a', colour='red'),
                plates=[Plate(label='b', colour='blue')])
    version = REGISTRY.known_version('1.1')
    assert view(Rack, version)(rack) == {
        'state': 'busy', 'plate': {'label': 'a'}, 'plates': [{'label': 'b'}]}
    assert view(Rack, REGISTRY.known_version('1.2'))(rack)['plate'] == {
        'label': 'a', 'colour': 'red'}


def _keys(document):
    return ','.join(sorted(document))


@versioned_resource(REGISTRY, 'bulb')
class Bulb(wtypes.Base):
    """One computed field that reads one field: nothing else is read."""

    watts = int
    state = wtypes.Enum(str, *STATES)
    lit = versioned(wtypes.text, max_version='1.3', readonly=True, changes=[
        Computed(_keys, reads=['state'])])


@versioned_resource(REGISTRY, 'lamp')
class Lamp(wtypes.Base):
    """Two computed fields: one reads two fields, one the whole lamp."""

    label = wtypes.text
    state = versioned(wtypes.Enum(str, *STATES),
                      changes=[ValueMap({'gone': 'busy'}, max_version='1.3')])
    size = versioned(Size, '1.1', changes=[
        Retype(_size_down, _size_up, max_version='1.4', type_name='string',
               datatype=wtypes.text)])
    bulb = Bulb
    seen = versioned(wtypes.text, max_version='1.2', readonly=True, changes=[
        Computed(_keys, reads=('size', 'state'))])
    whole = versioned(wtypes.text, max_version='1.1', readonly=True, changes=[
        Computed(_keys)])


BULBS = st.fixed_dictionaries({
    'watts': _maybe(st.integers(0, 9)),
    'state': _maybe(st.sampled_from(STATES))})
LAMPS = st.fixed_dictionaries({
    'label': _maybe(TEXT), 'state': _maybe(st.sampled_from(STATES)),
    'size': _maybe(SIZES), 'bulb': _maybe(BULBS)})


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(LAMPS)
def test_computed_fields_that_declare_reads_match_from_newest(spec):
    _check_every_version(Lamp, spec)


def test_a_computed_field_is_given_only_what_it_reads():
    lamp = Lamp(label='l', state='gone', size=Size(value=1, unit='k'),
                bulb=Bulb(watts=5, state='idle'))
    plain = {'label': 'l', 'state': 'gone', 'size': {'value': 1, 'unit': 'k'},
             'bulb': {'watts': 5, 'state': 'idle'}}
    for value in (lamp, plain):
        shown = view(Lamp, REGISTRY.known_version('1.0'))(value)
        assert shown['seen'] == 'size,state'
        assert shown['whole'] == 'bulb,label,size,state'
        assert shown['bulb']['lit'] == 'state'
    # An unset field is absent from what the computation is given.
    assert view(Bulb, REGISTRY.known_version('1.0'))(Bulb(watts=1)) == {
        'watts': 1, 'lit': ''}
