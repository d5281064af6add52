"""filter_response on WSME objects, without Pecan."""

import pytest
import wsme.exc
from wsme import types as wtypes
from wsme.rest.json import tojson

from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import (
    binding_of,
    versioned,
    versioned_resource,
)
from pecan_microversions.wsme.filtering import fill_renames, filter_response

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd')]
V0, V1, V2, V3 = (Version(1, n) for n in range(4))


def _types():
    registry = VersionRegistry('shelf', HISTORY)

    @versioned_resource(registry, 'port')
    class Port(wtypes.Base):
        address = wtypes.text
        speed = versioned(int, min_version='1.2')

    @versioned_resource(registry, 'node')
    class Node(wtypes.Base):
        name = wtypes.text
        owner = versioned(wtypes.text, min_version='1.1')
        driver = versioned(wtypes.text, max_version='1.1')
        hardware_type = versioned(wtypes.text, min_version='1.2',
                                  replaces='driver')
        port = Port
        ports = [Port]
        by_name = {wtypes.text: Port}

    class Plain(wtypes.Base):
        a = wtypes.text
        b = int

    class Wrapper(wtypes.Base):  # unbound, but holds versioned things
        nodes = [Node]

    return Node, Port, Plain, Wrapper


def _node(Node, Port):
    return Node(name='n', owner='alice', driver='ipmi',
                port=Port(address='a', speed=10),
                ports=[Port(address='b', speed=1), Port(address='c')],
                by_name={'x': Port(address='d', speed=5)})


def test_top_level_fields_hidden_per_version():
    Node, Port, _, _ = _types()
    node = filter_response(_node(Node, Port), V0)
    assert node.owner is wtypes.Unset
    assert node.driver == 'ipmi'
    assert node.hardware_type is wtypes.Unset
    assert node.name == 'n'
    assert 'owner' not in tojson(Node, node)


def test_nested_list_and_dict_values_are_filtered():
    Node, Port, _, _ = _types()
    node = filter_response(_node(Node, Port), V1)
    assert node.port.speed is wtypes.Unset
    assert [p.speed for p in node.ports] == [wtypes.Unset, wtypes.Unset]
    assert node.by_name['x'].speed is wtypes.Unset
    assert node.by_name['x'].address == 'd'
    node = filter_response(_node(Node, Port), V2)
    assert node.port.speed == 10
    assert node.ports[0].speed == 1
    assert node.by_name['x'].speed == 5


def test_lists_dicts_and_unbound_wrappers_at_the_top():
    Node, Port, _, Wrapper = _types()
    ports = filter_response([Port(address='a', speed=1), 'text', None,
                             Port(address='b', speed=2)], V0)
    assert [p.speed for p in (ports[0], ports[3])] == [wtypes.Unset] * 2
    assert ports[1:3] == ['text', None]
    table = filter_response({'k': [Port(address='a', speed=1)]}, V0)
    assert table['k'][0].speed is wtypes.Unset
    wrapper = filter_response(Wrapper(nodes=[_node(Node, Port)]), V0)
    assert wrapper.nodes[0].owner is wtypes.Unset
    assert wrapper.nodes[0].port.speed is wtypes.Unset
    assert filter_response((Port(address='a', speed=1),), V0)[0].speed \
        is wtypes.Unset


def test_renamed_field_carries_the_value_under_the_shown_name():
    Node, Port, _, _ = _types()
    node = filter_response(Node(name='n', driver='ipmi'), V3)
    assert node.hardware_type == 'ipmi'
    assert node.driver is wtypes.Unset
    node = filter_response(Node(name='n', hardware_type='redfish'), V0)
    assert node.driver == 'redfish'
    assert node.hardware_type is wtypes.Unset


def test_fill_renames_gives_every_name_the_value():
    Node, Port, _, Wrapper = _types()
    node = Node(name='n', hardware_type='redfish')
    fill_renames(Wrapper(nodes=[node]))
    assert node.driver == 'redfish'
    assert node.hardware_type == 'redfish'


def test_a_type_with_nothing_versioned_is_untouched():
    _, _, Plain, _ = _types()
    plain = Plain(a='x', b=2)
    assert filter_response(plain, V0) is plain
    assert (plain.a, plain.b) == ('x', 2)
    assert tojson(Plain, plain) == {'a': 'x', 'b': 2}


def test_a_version_outside_the_history_is_an_error():
    Node, Port, _, _ = _types()
    with pytest.raises(UnknownVersionError) as info:
        filter_response(_node(Node, Port), Version(9, 0))
    assert '9.0' in str(info.value) and 'shelf' in str(info.value)
    with pytest.raises(UnknownVersionError):
        filter_response([Port(address='a')], Version(1, 9))


def test_filter_is_idempotent():
    Node, Port, _, _ = _types()
    node = filter_response(filter_response(_node(Node, Port), V1), V1)
    assert tojson(Node, node)['driver'] == 'ipmi'
    assert 'hardware_type' not in tojson(Node, node)


def _renamed_types():
    """Renamed groups the compiled fill writes in WSME's data holder, and
    ones it must leave to the descriptor: a length limit, a hidden default,
    a default, a class with its own ``__setattr__``, a three-name chain."""
    registry = VersionRegistry('renames', HISTORY)

    @versioned_resource(registry, 'plain')
    class Plain(wtypes.Base):
        driver = versioned(wtypes.text, max_version='1.1')
        hardware_type = versioned(wtypes.text, min_version='1.2',
                                  replaces='driver')

    @versioned_resource(registry, 'limited')
    class Limited(wtypes.Base):
        code = versioned(wtypes.StringType(max_length=3), max_version='1.1')
        label = versioned(wtypes.text, min_version='1.2', replaces='code')

    @versioned_resource(registry, 'defaults')
    class Defaults(wtypes.Base):
        old = versioned(wtypes.text, max_version='1.1', default='d-old')
        new = versioned(wtypes.text, min_version='1.2', replaces='old')

    @versioned_resource(registry, 'guarded')
    class Guarded(wtypes.Base):
        before = versioned(wtypes.text, max_version='1.1')
        after = versioned(wtypes.text, min_version='1.2', replaces='before')

        def __setattr__(self, key, value):
            object.__setattr__(self, key, value)
            self.__dict__.setdefault('_written', []).append(key)

    @versioned_resource(registry, 'chain')
    class Chain(wtypes.Base):
        a = versioned(int, max_version='1.0')
        b = versioned(int, min_version='1.1', max_version='1.1',
                      replaces='a')
        c = versioned(int, min_version='1.2', replaces='b')

    return Plain, Limited, Defaults, Guarded, Chain


def _fill_as_wsme_would(value):
    """The reference: every read and write through WSME's descriptors."""
    binding = binding_of(type(value))
    for group in binding.groups:
        present = [getattr(value, key) for key in group]
        for found in present:
            if found is not wtypes.Unset:
                for key, current in zip(group, present, strict=True):
                    if current is wtypes.Unset:
                        setattr(value, key, found)
                break


def _outcome(cls, sent, fill):
    obj = cls(**sent)
    try:
        fill(obj)
    except Exception as exc:  # noqa: BLE001 - compared, type and text
        return type(exc), str(exc)
    return ({a.key: getattr(obj, a.key)
             for a in wtypes.list_attributes(cls)},
            obj.__dict__.get('_written'))


@pytest.mark.parametrize('index, sent', [
    (0, {}), (0, {'hardware_type': 'redfish'}), (0, {'driver': 'ipmi'}),
    (0, {'driver': 'ipmi', 'hardware_type': 'redfish'}),
    (1, {'label': 'abc'}), (1, {'label': 'abcd'}), (1, {'code': 'xy'}),
    (2, {}), (2, {'new': 'n'}), (2, {'old': 'o'}),
    (3, {'after': 'x'}), (3, {'before': 'y'}),
    (4, {'c': 3}), (4, {'b': 2}), (4, {'a': 1, 'c': 3}), (4, {'a': 1}),
])
def test_the_compiled_fill_does_what_the_descriptors_do(index, sent):
    cls = _renamed_types()[index]
    assert _outcome(cls, sent, fill_renames) == _outcome(
        cls, sent, _fill_as_wsme_would)


def test_the_compiled_fill_keeps_wsme_checks_for_what_it_cannot_store():
    _, Limited, Defaults, Guarded, _ = _renamed_types()
    with pytest.raises(wsme.exc.InvalidInput) as info:
        fill_renames(Limited(label='abcd'))  # too long for the old name
    assert info.value.fieldname == 'code'
    defaults = Defaults(new='n')
    fill_renames(defaults)  # the old name's default counts as set
    assert (defaults.old, defaults.new) == ('d-old', 'n')
    guarded = Guarded(after='x')
    fill_renames(guarded)
    assert guarded.before == 'x' and guarded._written.count('before') == 1
