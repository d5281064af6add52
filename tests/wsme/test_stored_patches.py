"""apply_patch on resources whose representation changes between versions.

The stored document is the newest representation; a client patches what
its version shows.  Before, a field whose values or type change between
versions (but whose name does not) was patched as stored: an old client's
``test`` saw newer values, a ``copy`` carried them, and a ``replace``
wrote the old representation into the newest document.
"""

import pytest
from wsme import types as wtypes

from pecan_microversions import (
    Computed,
    RequestError,
    Retype,
    ValueMap,
    Version,
    versioned,
    versioned_resource,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.demo.store import NodeStore
from pecan_microversions.demo.types import Node, node_data
from pecan_microversions.pecan.current import response_json
from pecan_microversions.wsme.conversion import patch_newest
from pecan_microversions.wsme.fields import binding_of
from pecan_microversions.wsme.patching import apply_patch

V18, V19 = Version(1, 8), Version(1, 9)


def _stored(index):
    """Demo node ``index`` (0: owned by alice, 2: cancelled, no owner) as
    its newest JSON."""
    node = NodeStore.seeded(3).list()[index]
    return response_json(Node, node_data(node, 'http://x'), V19)


def _refused(call, status=400):
    with pytest.raises(RequestError) as caught:
        call()
    assert caught.value.code == status
    return caught.value


def test_an_old_client_tests_and_copies_the_value_it_sees():
    cancelled = _stored(2)
    assert cancelled['provision_state'] == 'cancelled'
    patched = apply_patch(Node, cancelled, [
        {'op': 'test', 'path': '/provision_state', 'value': 'failed'},
        {'op': 'test', 'path': '/available', 'value': False},
        {'op': 'copy', 'from': '/provision_state', 'path': '/description'}],
        V18)
    assert patched['description'] == 'failed'
    # what 1.8 cannot see is kept; the computed field is not stored
    assert patched['provision_state'] == 'cancelled'
    assert 'available' not in patched
    error = _refused(lambda: apply_patch(Node, cancelled, [
        {'op': 'test', 'path': '/provision_state', 'value': 'cancelled'}],
        V18))
    assert error.error_code == 'microversion.patch_failed'


def test_an_old_client_replaces_a_retyped_field_in_its_own_type():
    stored = _stored(0)
    assert stored['owner'] == {'name': 'alice', 'domain': 'default'}
    patched = apply_patch(Node, stored, [
        {'op': 'test', 'path': '/owner', 'value': 'alice'},
        {'op': 'replace', 'path': '/owner', 'value': 'bob'}], V18)
    assert patched['owner'] == {'name': 'bob', 'domain': 'default'}
    untouched = apply_patch(Node, stored, [
        {'op': 'replace', 'path': '/name', 'value': 'renamed'}], V18)
    assert untouched['owner'] == stored['owner']
    assert untouched['name'] == 'renamed'


def test_a_change_that_would_erase_what_the_version_cannot_see_is_a_409():
    stored = dict(_stored(0), owner={'name': 'alice', 'domain': 'lab'})
    error = _refused(lambda: apply_patch(Node, stored, [
        {'op': 'replace', 'path': '/owner', 'value': 'bob'}], V18), 409)
    assert error.error_code == 'microversion.partly_hidden_value'


def test_a_computed_field_cannot_be_removed():
    _refused(lambda: apply_patch(Node, _stored(2), [
        {'op': 'remove', 'path': '/available'}], V18))


def test_the_newest_version_patches_the_document_as_it_is():
    stored = _stored(0)
    patched = apply_patch(Node, stored, [
        {'op': 'replace', 'path': '/owner/name', 'value': 'bob'}], V19)
    assert patched['owner'] == {'name': 'bob', 'domain': 'default'}


# -- plain-dict schemas --------------------------------------------------------

def _schema():
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b'),
                                     ('1.2', 'c')])
    return Schema(registry, 'thing', {
        'name': field(mandatory=True),
        'extra': field(),
        'state': field(values={'active': None, 'failed': None,
                               'cancelled': '1.1'},
                       changes=[ValueMap({'cancelled': 'failed'}, '1.0')]),
        'size': field(changes=[Retype(down=lambda d: d['w'],
                                      up=lambda w: {'w': w, 'h': 0},
                                      max_version='1.0')]),
        'driver': field(max_version='1.0'),
        'hw': field(min_version='1.1', replaces='driver', changes=[
            ValueMap({'new-ipmi': 'ipmi'}, '1.1', up={'ipmi': 'new-ipmi'})]),
    })


V10, V11, V12 = (Version(1, n) for n in range(3))


def test_schema_old_client_sees_converted_values_of_unrenamed_fields():
    schema = _schema()
    stored = {'name': 'n', 'state': 'cancelled', 'size': {'w': 2, 'h': 0}}
    patched = schema.apply_patch(stored, [
        {'op': 'test', 'path': '/state', 'value': 'failed'},
        {'op': 'test', 'path': '/size', 'value': 2},
        {'op': 'copy', 'from': '/state', 'path': '/extra'},
        {'op': 'replace', 'path': '/size', 'value': 3}], V10)
    assert patched == {'name': 'n', 'state': 'cancelled', 'extra': 'failed',
                       'size': {'w': 3, 'h': 0}}
    _refused(lambda: schema.apply_patch(stored, [
        {'op': 'test', 'path': '/state', 'value': 'cancelled'}], V10))


def test_schema_change_under_the_newest_name_is_converted_up():
    # 1.1 already calls the field hw, but still sees its old values
    patched = _schema().apply_patch({'name': 'n', 'hw': 'redfish'}, [
        {'op': 'replace', 'path': '/hw', 'value': 'ipmi'}], V11)
    assert patched == {'name': 'n', 'hw': 'new-ipmi'}
    kept = _schema().apply_patch({'name': 'n', 'hw': 'new-ipmi'}, [
        {'op': 'test', 'path': '/hw', 'value': 'ipmi'},
        {'op': 'replace', 'path': '/name', 'value': 'm'}], V11)
    assert kept == {'name': 'm', 'hw': 'new-ipmi'}


# -- nested values are patched as stored ---------------------------------------

def _machine():
    registry = VersionRegistry('m', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')])

    @versioned_resource(registry, 'gear')
    class Gear(wtypes.Base):
        label = wtypes.text
        state = versioned(wtypes.Enum(str, 'idle', 'gone'),
                          values={'gone': '1.2'},
                          changes=[ValueMap({'gone': 'idle'}, '1.1')])
        spin = versioned(int, '1.1')

    @versioned_resource(registry, 'machine')
    class Machine(wtypes.Base):
        name = wtypes.text
        gears = [Gear]

    return Machine


@pytest.mark.parametrize('operations', [
    [{'op': 'remove', 'path': '/gears/0'}],
    [{'op': 'move', 'from': '/gears/1', 'path': '/gears/0'}],
    [{'op': 'test', 'path': '/gears/0/state', 'value': 'gone'}],
    [{'op': 'replace', 'path': '/gears/0/label', 'value': 'z'}],
    [{'op': 'copy', 'from': '/gears/0', 'path': '/gears/-'}]])
def test_nested_values_a_version_sees_otherwise_are_a_409(operations):
    # Patched as stored, the list would show an old client a newer value
    # (test), take its old form for the newest (replace), or rebuild items
    # without what it cannot see (move): it must patch at a later version.
    machine = _machine()
    stored = {'name': 'n', 'gears': [{'label': 'a', 'state': 'gone'},
                                     {'label': 'b', 'state': 'idle'}]}
    error = _refused(lambda: apply_patch(machine, stored, operations,
                                         Version(1, 1)), 409)
    assert error.error_code == 'microversion.partly_hidden_value'
    assert "'gears'" in error.detail
    # the newest version patches the list as stored, item by item
    patched = apply_patch(machine, stored, operations, Version(1, 2))
    assert patched['name'] == 'n'


def test_nested_values_are_patched_in_place_where_no_change_applies():
    # At 1.2 no change of the gear's applies: the list is patched as
    # stored, item by item, what 1.0 could not see (spin) kept; a field
    # the version lacks is no conversion.
    machine = _machine()
    stored = {'name': 'n', 'gears': [{'label': 'a', 'state': 'idle',
                                      'spin': 1},
                                     {'label': 'a', 'state': 'idle',
                                      'spin': 2}]}
    patched = apply_patch(machine, stored, [
        {'op': 'remove', 'path': '/gears/0'}], Version(1, 2))
    assert patched['gears'] == [{'label': 'a', 'state': 'idle', 'spin': 2}]
    moved = apply_patch(machine, stored, [
        {'op': 'move', 'from': '/gears/1', 'path': '/gears/0'}], Version(1, 2))
    assert [g['spin'] for g in moved['gears']] == [2, 1]


def test_an_old_write_into_nested_values_is_refused_even_if_they_look_alike():
    # The stored values look the same at 1.1 ('idle'), but 'removed'-like
    # old values sent there would be stored unconverted: refused as well,
    # and a patch of other fields never converts the nested ones.
    machine = _machine()
    stored = {'name': 'n', 'gears': []}
    _refused(lambda: apply_patch(machine, stored, [
        {'op': 'add', 'path': '/gears/-',
         'value': {'label': 'x', 'state': 'idle'}}], Version(1, 1)), 409)
    renamed = apply_patch(machine, stored, [
        {'op': 'replace', 'path': '/name', 'value': 'm'}], Version(1, 1))
    assert renamed == {'name': 'm', 'gears': []}


def test_a_bug_in_a_computed_field_is_the_services_not_a_400():
    registry = VersionRegistry('c', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'thing')
    class Thing(wtypes.Base):
        name = wtypes.text
        kind = versioned(wtypes.text, max_version='1.0', readonly=True,
                         changes=[Computed(lambda d: d['kind_of'].upper())])

    with pytest.raises(KeyError):
        apply_patch(Thing, {'name': 'n'}, [
            {'op': 'replace', 'path': '/name', 'value': 'm'}], Version(1, 0))


def test_a_nested_computed_field_is_no_conversion():
    # A computed field without max_version is shown at every version and
    # never stored: the newest version must not be refused for it.
    registry = VersionRegistry('k', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'gear')
    class Gear(wtypes.Base):
        label = wtypes.text
        size = int
        doubled = versioned(int, readonly=True, changes=[
            Computed(lambda g: (g.get('size') or 0) * 2, reads=['size'])])

    @versioned_resource(registry, 'machine')
    class Machine(wtypes.Base):
        name = wtypes.text
        gears = [Gear]

    stored = {'name': 'n', 'gears': [{'label': 'a', 'size': 1},
                                     {'label': 'b', 'size': 2}]}
    for version in registry.versions:
        patched = apply_patch(Machine, stored, [
            {'op': 'remove', 'path': '/gears/0'},
            {'op': 'replace', 'path': '/gears/0/label', 'value': 'z'}],
            version)
        assert patched['gears'] == [{'label': 'z', 'size': 2}]


class _Tree(wtypes.Base):
    """A type holding itself (module level: WSME resolves it by name)."""

    name = wtypes.text


_TREE: list = []


def _tree():
    """_Tree with a state mapped before 1.2 and its children, bound once."""
    if not _TREE:
        registry = VersionRegistry('tree', [('1.0', 'a'), ('1.1', 'b'),
                                            ('1.2', 'c')])
        _Tree.state = versioned(wtypes.Enum(str, 'idle', 'gone'),
                                values={'gone': '1.2'},
                                changes=[ValueMap({'gone': 'idle'}, '1.1')])
        _Tree.children = [_Tree]
        wtypes.registry.reregister(_Tree)
        _TREE.append(versioned_resource(registry, 'tree')(_Tree))
    return _TREE[0]


def test_a_type_holding_itself_is_converted_all_the_way_down():
    # Its converter used to stop at the first level: a child's mapped
    # value reached an old client's patch (and patch_newest) unconverted.
    tree = _tree()
    stored = {'name': 'root', 'state': 'idle', 'children': [
        {'name': 'c', 'state': 'gone', 'children': [
            {'name': 'g', 'state': 'gone', 'children': []}]}]}
    shown = response_json(tree, stored, Version(1, 1))
    assert shown['children'][0]['children'][0]['state'] == 'idle'
    error = _refused(lambda: apply_patch(tree, stored, [
        {'op': 'test', 'path': '/children/0/state', 'value': 'gone'}],
        Version(1, 1)), 409)
    assert error.error_code == 'microversion.partly_hidden_value'
    kept = patch_newest(tree, stored, [
        {'op': 'replace', 'path': '/children/0/name', 'value': 'd'}],
        Version(1, 1))
    assert kept['children'][0] == {'name': 'd', 'state': 'gone', 'children': [
        {'name': 'g', 'state': 'gone', 'children': []}]}


def test_a_body_too_deep_to_convert_is_a_400_not_a_500():
    # A type holding itself is converted level by level: a body the
    # checks let through could exhaust the stack while converted up.
    import json

    import pecan
    import webtest

    from pecan_microversions import (
        MicroversionHook,
        VersionedRestController,
        versioned_wsexpose,
    )

    tree = _tree()

    class Trees(VersionedRestController):
        @versioned_wsexpose(tree, body=tree, status_code=201)
        def post(self, body):
            return body

    class Root:
        trees = Trees()

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[
        MicroversionHook(binding_of(tree).registry)]))

    def body(levels):
        node = {'name': 'leaf', 'state': 'idle', 'children': []}
        for _ in range(levels):
            node = {'name': 'n', 'state': 'idle', 'children': [node]}
        return json.dumps(node)

    headers = {'Content-Type': 'application/json',
               'OpenStack-API-Version': 'tree 1.1'}
    assert app.post('/trees', body(10), headers=headers).status_int == 201
    for levels in (60, 120, 240):
        refused = app.post('/trees', body(levels), headers=headers,
                           expect_errors=True)
        assert refused.status_int == 400, (levels, refused.body[:200])
        assert refused.json['errors'][0]['code'] == (
            'microversion.body_too_deep')


def test_a_nested_field_computed_up_to_a_version_is_a_conversion():
    # Stored from 1.2 on, shown computed before: an old client must not
    # read or write the stored value through a patch.
    registry = VersionRegistry('q', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')])

    @versioned_resource(registry, 'gear')
    class Gear(wtypes.Base):
        label = wtypes.text
        size = versioned(int, changes=[Computed(lambda g: 0,
                                                max_version='1.1')])

    @versioned_resource(registry, 'machine')
    class Machine(wtypes.Base):
        name = wtypes.text
        gears = [Gear]

    stored = {'name': 'n', 'gears': [{'label': 'a', 'size': 7}]}
    _refused(lambda: apply_patch(Machine, stored, [
        {'op': 'test', 'path': '/gears/0/size', 'value': 7}], Version(1, 1)),
        409)
    # computed at 1.1, so read-only there: refused before it is reached
    error = _refused(lambda: apply_patch(Machine, stored, [
        {'op': 'replace', 'path': '/gears/0/size', 'value': 3}],
        Version(1, 1)))
    assert error.error_code == 'microversion.read_only_field'
    patched = apply_patch(Machine, stored, [
        {'op': 'replace', 'path': '/gears/0/size', 'value': 3}], Version(1, 2))
    assert patched['gears'] == [{'label': 'a', 'size': 3}]


class _Loose(wtypes.Base):
    """A versioned attribute on a type never bound to a registry."""

    x = versioned(int, min_version='1.1')


def test_a_converter_that_failed_to_build_is_not_kept_half_built():
    from pecan_microversions.core.errors import InvalidDeclarationError
    from pecan_microversions.wsme.conversion import converter_of

    registry = VersionRegistry('loose', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'holder')
    class Holder(wtypes.Base):
        s = versioned(wtypes.Enum(str, 'p', 'q'), values={'q': '1.1'},
                      changes=[ValueMap({'q': 'p'}, '1.0')])
        loose = _Loose

    for _ in range(2):  # the same declaration error each time
        with pytest.raises(InvalidDeclarationError):
            converter_of(Holder)


_RENAMES = VersionRegistry('rn', [('1.5', 'a'), ('1.6', 'b')])


@versioned_resource(_RENAMES, 'thing')
class _Renamed(wtypes.Base):
    name = wtypes.wsattr(wtypes.text)
    state = versioned(wtypes.text, changes=[
        ValueMap({'x': 'y'}, '1.5', up={'y': 'x'})])
    driver = versioned(wtypes.text, max_version='1.5')
    hardware_type = versioned(wtypes.text, min_version='1.6',
                              replaces='driver')


@pytest.mark.parametrize('version, path', [('1.5', '/driver'),
                                           ('1.6', '/hardware_type')])
def test_a_renamed_field_added_is_stored_under_the_versions_name(version,
                                                                  path):
    # WSME reads a renamed field under any of its names: unlike a
    # plain-dict Schema, no name the version lacks is added.
    patched = apply_patch(_Renamed, {'name': 'n'}, [
        {'op': 'add', 'path': path, 'value': 'ipmi'}], Version.parse(version))
    assert patched == {'name': 'n', path[1:]: 'ipmi'}
    for shown, key in (('1.5', 'driver'), ('1.6', 'hardware_type')):
        assert response_json(_Renamed, dict(patched), Version.parse(
            shown)) == {'name': 'n', key: 'ipmi'}
