"""Items of a list of converted objects keep what an old version cannot see.

A 1.0 client reading a lamp's bulbs and sending them back in another order
through :func:`patch_newest` used to store one bulb rebuilt from what 1.0
shows: its ``watts`` (from 1.1) dropped and its ``green`` (shown as
``blue`` before 1.1) stored as ``blue``.  The same patch on bulbs without
``changes=`` is refused (a member the version lacks); now a write that
would lose such members of a converted item is refused too (a 409), and
one the patch keeps, edits or removes keeps its own.
"""

import copy

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    JsonPatchOperation,
    MicroversionHook,
    ValueMap,
    Version,
    VersionRegistry,
    apply_patch,
    patch_newest,
    response_json,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)

REGISTRY = VersionRegistry('lw', [('1.0', 'a'), ('1.1', 'b')])
V10 = Version(1, 0)


@versioned_resource(REGISTRY, 'bulb')
class Bulb(wtypes.Base):
    kind = wtypes.text
    watts = versioned(int, '1.1')
    colour = versioned(wtypes.Enum(str, 'red', 'blue', 'green'),
                       values={'green': '1.1'},
                       changes=[ValueMap({'green': 'blue'}, '1.0')])


@versioned_resource(REGISTRY, 'lamp')
class Lamp(wtypes.Base):
    bulbs = [Bulb]


BULB_A = {'kind': 'a', 'watts': 1, 'colour': 'red'}
BULB_B = {'kind': 'b', 'watts': 2, 'colour': 'green'}
STORED = {'bulbs': [BULB_A, BULB_B]}
SHOWN = [{'kind': 'a', 'colour': 'red'}, {'kind': 'b', 'colour': 'blue'}]


def refused(patcher, operations, stored=STORED):
    with pytest.raises(Exception) as caught:
        patcher(Lamp, stored, operations, V10)
    assert caught.value.code == 409
    assert caught.value.error_code == 'microversion.partly_hidden_value'
    return caught.value.detail


def test_the_version_shows_bulbs_converted():
    assert response_json(Lamp, STORED, V10) == {'bulbs': SHOWN}


@pytest.mark.parametrize('patcher', [patch_newest, apply_patch])
def test_bulbs_sent_back_in_another_order_are_refused(patcher):
    detail = refused(patcher, [{'op': 'replace', 'path': '/bulbs',
                                'value': SHOWN[::-1]}])
    assert 'bulbs' in detail and 'version 1.0' in detail


def test_a_bulb_replaced_whole_is_refused():
    detail = refused(patch_newest, [{'op': 'replace', 'path': '/bulbs/1',
                                     'value': {'kind': 'z',
                                               'colour': 'red'}}])
    assert detail.startswith("Field 'bulbs[1]' of lamp holds more than "
                             'version 1.0 shows')


def test_a_removed_bulb_takes_its_own_hidden_parts():
    alike = {'bulbs': [BULB_A, dict(BULB_A, watts=2)]}
    assert patch_newest(Lamp, alike, [{'op': 'remove', 'path': '/bulbs/0'}],
                        V10) == {'bulbs': [dict(BULB_A, watts=2)]}
    assert patch_newest(Lamp, STORED, [{'op': 'remove', 'path': '/bulbs/0'}],
                        V10) == {'bulbs': [BULB_B]}


def test_bulbs_edited_in_place_added_or_sent_back_unchanged_keep_theirs():
    assert patch_newest(Lamp, STORED, [
        {'op': 'replace', 'path': '/bulbs/1/kind', 'value': 'z'},
        {'op': 'add', 'path': '/bulbs/0', 'value': {'kind': 'n'}}],
        V10) == {'bulbs': [{'kind': 'n'}, BULB_A, dict(BULB_B, kind='z')]}
    assert patch_newest(Lamp, STORED, [
        {'op': 'replace', 'path': '/bulbs',
         'value': SHOWN + [{'kind': 'c', 'colour': 'red'}]}], V10) == {
        'bulbs': [BULB_A, BULB_B, {'kind': 'c', 'colour': 'red'}]}


def make_app():
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
            lamps[name] = patch_newest(Lamp, lamps[name], operations)
            return lamps[name]

    class V1:
        lamps = LampsController()

    class Root:
        v1 = V1()

    app = pecan.make_app(Root(), hooks=[MicroversionHook(REGISTRY)],
                         debug=False, force_canonical=False,
                         guess_content_type_from_ext=False)
    return webtest.TestApp(app), lamps


def test_a_real_request_reordering_bulbs_at_1_0_is_a_409_and_loses_nothing():
    app, lamps = make_app()
    old = {'OpenStack-API-Version': 'lw 1.0'}
    shown = app.get('/v1/lamps/a', headers=old).json
    assert shown == {'bulbs': SHOWN}
    response = app.patch_json(
        '/v1/lamps/a', [{'op': 'replace', 'path': '/bulbs',
                         'value': shown['bulbs'][::-1]}],
        headers=old, expect_errors=True)
    assert response.status_int == 409, response.body
    assert response.json['errors'][0]['code'] == (
        'microversion.partly_hidden_value')
    assert lamps['a'] == STORED
    # removing a bulb at 1.0 keeps the other one whole
    response = app.patch_json('/v1/lamps/a',
                              [{'op': 'remove', 'path': '/bulbs/0'}],
                              headers=old)
    assert response.json == {'bulbs': SHOWN[1:]}
    assert app.get('/v1/lamps/a', headers={
        'OpenStack-API-Version': 'lw 1.1'}).json == {'bulbs': [BULB_B]}


@pytest.mark.parametrize('operations', [
    [{'op': 'replace', 'path': '/bulbs',
      'value': [{'kind': 'b'}, {'kind': 'a'}]}],
    [{'op': 'replace', 'path': '/bulbs/0', 'value': {'kind': 'z'}}],
])
def test_a_null_member_the_version_lacks_is_nothing_to_lose(operations):
    # Bulbs from database rows carry nulls: replacing them is no loss.
    stored = {'bulbs': [{'kind': 'a', 'watts': None},
                        {'kind': 'b', 'watts': None}]}
    patched = patch_newest(Lamp, stored, operations, V10)
    assert [b['kind'] for b in patched['bulbs']] == (
        ['b', 'a'] if len(operations[0]['value']) == 2 else ['z', 'b'])
    assert all(b.get('watts') is None for b in patched['bulbs'])
