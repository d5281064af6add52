"""A nested object a patch puts in place of another keeps what the client
could not send in it.

A client replacing ``/bulb`` (or a dict's entry, ``/spares/hall``) sends the
object as a body at its version would hold it: without the members the
version lacks, and without read-only or computed ones, which a body may not
carry.  Before, each such replace was refused: a member the version lacks
as "not available", a read-only one as "read-only" whether it was sent or
left out.  Now what the client could not send keeps the value the replaced
object held, and sending a read-only or computed member is still refused.
A list's items are not kept from: their places are no identity (a patch may
shift them), so what would lose such members is refused, as before.  A
change to any member of an object holding a read-only one also failed in
:func:`patch_newest` ("Cannot set read only field"), and now passes.
"""

import copy

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    Computed,
    JsonPatchOperation,
    MicroversionHook,
    Version,
    VersionRegistry,
    apply_patch,
    patch_newest,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)

STORED = {
    'name': 'a',
    'bulb': {'kind': 'led', 'serial': 'X1', 'colour': 'red', 'watts': 40},
    'bulbs': [{'kind': 'led', 'serial': 'X2', 'colour': 'blue',
               'watts': 9}],
    'spares': {'hall': {'kind': 'led', 'serial': 'X3', 'colour': 'green',
                        'watts': 5}},
}


def make_app(patcher, computed=True):
    """Lamps whose bulbs have a read-only ``serial``, a ``colour`` from
    1.1 on, and ``watts`` computed at 1.0 (stored from 1.1; or stored at
    every version, not ``computed``)."""
    registry = VersionRegistry('lamp', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'bulb')
    class Bulb(wtypes.Base):
        kind = wtypes.text
        serial = wtypes.wsattr(wtypes.text, readonly=True)
        colour = versioned(wtypes.text, min_version='1.1')
        watts = versioned(int, changes=[
            Computed(lambda bulb: 60, max_version='1.0', reads=())]
            if computed else [])

    @versioned_resource(registry, 'lamp')
    class Lamp(wtypes.Base):
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        bulb = Bulb
        bulbs = [Bulb]
        spares = {wtypes.text: Bulb}

    lamps = {'a': copy.deepcopy(STORED)}

    class LampsController(rest.RestController):
        @versioned_wsexpose(Lamp, wtypes.text)
        def get_one(self, name):
            return lamps[name]

        @versioned_wsexpose(Lamp, wtypes.text, body=[JsonPatchOperation],
                            patch_of=Lamp)
        def patch(self, name, operations):
            operations = [
                {k: v for k, v in (('op', op.op), ('path', op.path),
                                   ('value', op.value), ('from', op.from_))
                 if v is not wtypes.Unset} for op in operations]
            lamps[name] = patcher(Lamp, lamps[name], operations)
            return lamps[name]

    class V1:
        lamps = LampsController()

    class Root:
        v1 = V1()

    app = pecan.make_app(Root(), hooks=[MicroversionHook(registry)],
                         debug=False, force_canonical=False,
                         guess_content_type_from_ext=False)
    return webtest.TestApp(app), lamps


@pytest.fixture(params=[patch_newest, apply_patch],
                ids=['patch_newest', 'apply_patch'])
def service(request):
    return make_app(request.param)


def patch(app, version, *operations, status=200):
    response = app.patch_json(
        '/v1/lamps/a', list(operations),
        headers={'OpenStack-API-Version': f'lamp {version}'},
        expect_errors=status != 200)
    assert response.status_int == status, response.body
    return response


def replace(path, value):
    return {'op': 'replace', 'path': path, 'value': value}


@pytest.mark.parametrize('path,where', [
    ('/bulb', lambda lamp: lamp['bulb']),
    ('/spares/hall', lambda lamp: lamp['spares']['hall']),
])
def test_a_replaced_object_keeps_what_the_version_cannot_send(service, path,
                                                              where):
    app, lamps = service
    before = where(lamps['a'])
    patch(app, '1.1', replace(path, {'kind': 'halogen', 'colour': 'white',
                                     'watts': 50}))
    assert where(lamps['a']) == {'kind': 'halogen', 'colour': 'white',
                                 'watts': 50, 'serial': before['serial']}


@pytest.mark.parametrize('path,where', [
    ('/bulb', lambda lamp: lamp['bulb']),
    ('/spares', lambda lamp: lamp['spares']['hall']),
])
def test_an_old_version_replacing_an_object_erases_nothing_it_cannot_see(
        path, where):
    # 1.0 lacks colour and computes watts: neither can be sent, both keep
    # what is stored (the newest watts, not the 60 1.0 shows).
    app, lamps = make_app(patch_newest)
    before = where(lamps['a'])
    value = {'kind': 'halogen'}
    if path == '/spares':
        value = {'hall': value}
    shown = patch(app, '1.0', replace(path, value)).json
    assert where(lamps['a']) == dict(before, kind='halogen')
    assert where(shown) == {'kind': 'halogen', 'serial': before['serial'],
                            'watts': 60}
    newest = app.get('/v1/lamps/a',
                     headers={'OpenStack-API-Version': 'lamp 1.1'}).json
    assert where(newest) == dict(before, kind='halogen')


@pytest.mark.parametrize('path,where', [
    ('/bulb', lambda lamp: lamp['bulb']),
    ('/spares/hall', lambda lamp: lamp['spares']['hall']),
])
@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_stored_and_newest_patches_keep_members_the_version_lacks(
        patcher, path, where):
    app, lamps = make_app(patcher, computed=False)
    before = where(lamps['a'])
    patch(app, '1.0', replace(path, {'kind': 'halogen', 'watts': 7}))
    assert where(lamps['a']) == dict(before, kind='halogen', watts=7)


@pytest.mark.parametrize('path', ['/bulb', '/bulbs/0'])
def test_stored_patches_into_objects_shown_converted_are_still_a_409(path):
    # At 1.0 watts is computed: apply_patch cannot patch bulbs as stored.
    app, lamps = make_app(apply_patch)
    patch(app, '1.0', replace(path, {'kind': 'halogen'}), status=409)
    assert lamps['a'] == STORED


@pytest.mark.parametrize('member,value,detail', [
    ('serial', 'X9', "Field 'bulb.serial' is read-only."),
    ('serial', 'X1', "Field 'bulb.serial' is read-only."),
    ('watts', 60, "Field 'bulb.watts' is read-only."),
])
def test_sending_what_cannot_be_sent_is_still_refused(member, value, detail):
    app, lamps = make_app(patch_newest)
    response = patch(app, '1.0', replace('/bulb', {'kind': 'x',
                                                   member: value}),
                     status=400)
    assert response.json['errors'][0]['detail'] == detail
    assert response.json['errors'][0]['code'] == (
        'microversion.read_only_field')
    assert lamps['a'] == STORED


def test_a_member_the_version_lacks_sent_in_a_replaced_object_is_refused(
        service):
    app, lamps = service
    response = patch(app, '1.0', replace('/bulbs/0', {'kind': 'x',
                                                      'colour': 'white'}),
                     status=400)
    assert response.json['errors'][0]['code'] == (
        'microversion.field_unavailable')
    assert lamps['a'] == STORED


@pytest.mark.parametrize('operation', [
    {'op': 'remove', 'path': '/bulb/serial'},
    {'op': 'remove', 'path': '/bulbs/0/serial'},
    {'op': 'move', 'from': '/bulb/serial', 'path': '/bulb/kind'},
])
def test_a_read_only_member_still_cannot_be_removed_by_its_path(service,
                                                                operation):
    app, lamps = service
    response = patch(app, '1.1', operation, status=400)
    assert response.json['errors'][0]['code'] == (
        'microversion.read_only_field')
    assert lamps['a'] == STORED


def test_a_member_of_an_object_holding_a_read_only_one_can_be_changed(
        service):
    # patch_newest checked the whole stored bulb as a body, and WSME
    # refuses a body setting a read-only member.
    app, lamps = service
    patch(app, '1.1', replace('/bulb/kind', 'halogen'),
          replace('/bulbs/0/colour', 'white'))
    assert lamps['a']['bulb'] == dict(STORED['bulb'], kind='halogen')
    assert lamps['a']['bulbs'][0] == dict(STORED['bulbs'][0], colour='white')


def test_a_list_that_changes_length_holds_new_objects(service):
    # Each is a new bulb, whose read-only members are the service's to set.
    app, lamps = service
    patch(app, '1.1', replace('/bulbs', [{'kind': 'x'}, {'kind': 'y'}]))
    assert lamps['a']['bulbs'] == [{'kind': 'x'}, {'kind': 'y'}]


TWO_BULBS = [{'kind': 'a', 'serial': 'X-A', 'colour': 'red', 'watts': 1},
             {'kind': 'b', 'colour': 'blue', 'watts': 2}]


@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('operations', [
    # an item's place is no identity: keeping by place would give B the
    # serial and colour of A (removed), or swap what A and B hold
    [{'op': 'replace', 'path': '/bulbs/0', 'value': {'kind': 'a2'}}],
    [{'op': 'remove', 'path': '/bulbs/0'},
     {'op': 'add', 'path': '/bulbs/-', 'value': {'kind': 'c'}}],
    [{'op': 'replace', 'path': '/bulbs/0', 'value': {'kind': 'b'}},
     {'op': 'replace', 'path': '/bulbs/1', 'value': {'kind': 'a'}}],
    [{'op': 'replace', 'path': '/bulbs',
      'value': [{'kind': 'b'}, {'kind': 'a'}]}],
], ids=['replace-item', 'remove-then-append', 'swap', 'whole-list'])
@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_list_items_keep_nothing_by_place(patcher, operations, version):
    app, lamps = make_app(patcher, computed=False)
    lamps['a']['bulbs'] = copy.deepcopy(TWO_BULBS)
    response = patch(app, version, *operations, status=400)
    assert response.json['errors'][0]['code'] in (
        'microversion.read_only_field', 'microversion.field_unavailable')
    assert lamps['a']['bulbs'] == TWO_BULBS


@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_a_removed_object_added_again_is_a_new_one(patcher):
    # Only an object put in place of another keeps from it: one added
    # where the patch removed the old one is new, and cannot carry the
    # serial the service gave the old one.
    app, lamps = make_app(patcher, computed=False)
    response = patch(app, '1.1', {'op': 'remove', 'path': '/bulb'},
                     {'op': 'add', 'path': '/bulb', 'value': {'kind': 'x'}},
                     status=400)
    assert response.json['errors'][0]['detail'] == (
        "Field 'bulb.serial' is read-only.")
    assert lamps['a'] == STORED


@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_a_test_after_a_replace_sees_what_was_kept(patcher):
    app, lamps = make_app(patcher, computed=False)
    patch(app, '1.1', replace('/bulb', {'kind': 'x'}),
          {'op': 'test', 'path': '/bulb/serial', 'value': 'X1'})
    assert lamps['a']['bulb']['serial'] == 'X1'


@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_a_renamed_member_is_not_kept_under_its_hidden_name(patcher):
    # driver (up to 1.0) and hardware (from 1.1) are one value: keeping
    # hardware beside the driver a 1.0 client sends would split it.
    registry = VersionRegistry('lamp', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'socket')
    class Socket(wtypes.Base):
        kind = wtypes.text
        driver = versioned(wtypes.text, max_version='1.0')
        hardware = versioned(wtypes.text, min_version='1.1',
                             replaces='driver')

    @versioned_resource(registry, 'lamp')
    class Lamp(wtypes.Base):
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        socket = Socket

    stored = {'name': 'a', 'socket': {'kind': 'k', 'hardware': 'old'}}
    operations = [replace('/socket', {'kind': 'k', 'driver': 'new'})]
    with pytest.raises(APIError) as raised:
        patcher(Lamp, stored, operations, Version(1, 0))
    assert raised.value.code == 400
    assert stored == {'name': 'a', 'socket': {'kind': 'k', 'hardware': 'old'}}


def test_an_invalid_value_in_a_replaced_object_is_still_refused(service):
    app, lamps = service
    response = patch(app, '1.1', replace('/bulb', {'kind': 'x',
                                                   'watts': 'many'}),
                     status=400)
    assert response.json['errors'][0]['code'] == 'microversion.invalid_value'
    assert lamps['a'] == STORED


def test_a_from_an_operation_does_not_define_is_ignored():
    # RFC 6902: a "from" on a replace means nothing; it named a field
    # holding converted values (the bulbs, at 1.0) and got a 409.
    app, lamps = make_app(apply_patch)
    patch(app, '1.0', {'op': 'replace', 'path': '/name', 'value': 'b',
                       'from': '/bulb'})
    assert lamps['a'] == dict(STORED, name='b')
