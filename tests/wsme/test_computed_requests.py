"""A computed field is read-only at the versions that compute it.

``Computed`` shows older clients a value computed from the newest object;
nothing a client sends for it could be stored.  Without ``readonly=True``
its value in a body was dropped (JSON) or handed to the controller (form,
XML), and a patch setting it to the value it already had passed: each is
now refused as a read-only field is (400 ``microversion.read_only_field``),
for WSME types and plain-dict schemas alike, while GETs and a patch's
``test`` keep reading it.  A field computed up to a version is stored, and
writable, after it.
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
    check_body,
    patch_newest,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.tools.schemas import (
    SchemaSet,
    body_schema,
    validate_body,
)

FORM = 'application/x-www-form-urlencoded'
XML = 'text/xml'


def _lit(lamp):
    return lamp.get('state') == 'on'


def _serial(lamp):
    return f'S-{lamp.get("name")}'


def make_app(patcher):
    """Lamps (WSME, ``/v1/lamps``) and plain-dict lamps (``/v1/plain``).

    ``lit`` is computed wherever it exists (1.0 and 1.1); ``serial``,
    mandatory, and a bulb's ``watts`` are computed at 1.0 only and stored
    from 1.1 on.  None is declared ``readonly=True``.
    """
    registry = VersionRegistry('lamp', [('1.0', 'a'), ('1.1', 'b'),
                                        ('1.2', 'c')])

    @versioned_resource(registry, 'bulb')
    class Bulb(wtypes.Base):
        kind = wtypes.text
        watts = versioned(int, changes=[
            Computed(lambda bulb: 60, max_version='1.0', reads=())])

    @versioned_resource(registry, 'lamp')
    class Lamp(wtypes.Base):
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        state = wtypes.text
        lit = versioned(bool, max_version='1.1', changes=[
            Computed(_lit, reads=['state'])])
        serial = versioned(wtypes.text, mandatory=True, changes=[
            Computed(_serial, max_version='1.0', reads=['name'])])
        bulb = Bulb

    plain = Schema(registry, 'plain_lamp', {
        'name': field(mandatory=True),
        'state': field(),
        'lit': field(max_version='1.1', changes=[Computed(_lit)]),
        'serial': field(mandatory=True, changes=[
            Computed(_serial, max_version='1.0')]),
    })
    lamps, plains = {}, {}

    class LampsController(rest.RestController):
        @versioned_wsexpose(Lamp, wtypes.text)
        def get_one(self, name):
            return lamps[name]

        @versioned_wsexpose(Lamp, body=Lamp, status_code=201)
        def post(self, lamp):
            lamps[lamp.name] = _newest(lamp)
            return lamps[lamp.name]

        @versioned_wsexpose(Lamp, wtypes.text, body=Lamp)
        def put(self, name, lamp):
            lamps[name] = _newest(lamp)
            return lamps[name]

        @versioned_wsexpose(Lamp, wtypes.text, body=[JsonPatchOperation],
                            patch_of=Lamp)
        def patch(self, name, operations):
            operations = [_operation(op) for op in operations]
            lamps[name] = patcher(Lamp, lamps[name], operations)
            return lamps[name]

    class PlainController(rest.RestController):
        @pecan.expose('json')
        def get_one(self, name):
            return plain.filter(plains[name], pecan.request.api_version)

        @pecan.expose('json')
        def post(self):
            body = check_body(plain, pecan.request.json)
            plains[body['name']] = body
            pecan.response.status = 201
            return plain.filter(body, pecan.request.api_version)

        @pecan.expose('json')
        def patch(self, name):
            plains[name] = patcher(plain, plains[name], pecan.request.json)
            return plain.filter(plains[name], pecan.request.api_version)

    class V1:
        lamps = LampsController()
        plain = PlainController()

    class Root:
        v1 = V1()

    app = pecan.make_app(Root(), hooks=[MicroversionHook(registry)],
                         debug=False, force_canonical=False,
                         guess_content_type_from_ext=False)
    return webtest.TestApp(app), lamps, plains, Lamp


def _newest(lamp):
    """A lamp's newest JSON: every field that is set."""
    data = {name: getattr(lamp, name) for name in ('name', 'state', 'lit',
                                                   'serial')
            if getattr(lamp, name) is not wtypes.Unset}
    if lamp.bulb is not wtypes.Unset:
        data['bulb'] = {name: getattr(lamp.bulb, name)
                        for name in ('kind', 'watts')
                        if getattr(lamp.bulb, name) is not wtypes.Unset}
    return data


def _operation(op):
    found = {'op': op.op, 'path': op.path}
    if op.value is not wtypes.Unset:
        found['value'] = op.value
    if op.from_ is not wtypes.Unset:
        found['from'] = op.from_
    return found


def _service(patcher):
    """The app, its WSME lamps and its plain lamps, each store holding one
    lamp ``a`` (``on``, serial ``S-a``, a 40 W bulb)."""
    app, lamps, plains, _ = make_app(patcher)
    lamps['a'] = {'name': 'a', 'state': 'on', 'serial': 'S-a',
                  'bulb': {'kind': 'led', 'watts': 40}}
    plains['a'] = {'name': 'a', 'state': 'on', 'serial': 'S-a'}
    return app, lamps, plains


@pytest.fixture
def service():
    return _service(patch_newest)


@pytest.fixture(params=[patch_newest, apply_patch],
                ids=['patch_newest', 'apply_patch'])
def patching(request):
    """:func:`_service` patching the newest document, or the stored one."""
    return _service(request.param)


def at(version, **headers):
    return {'OpenStack-API-Version': f'lamp {version}', **headers}


def refused(response, detail):
    assert response.status_int == 400, response.body
    assert response.content_type == 'application/json'
    (error,) = response.json['errors']
    assert error['code'] == 'microversion.read_only_field'
    assert error['detail'] == detail
    return error


# -- bodies -------------------------------------------------------------------

@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('method', ['POST', 'PUT'])
@pytest.mark.parametrize('channel', ['json', 'form', 'xml'])
def test_a_body_cannot_set_a_field_computed_where_it_exists(service, version,
                                                            method, channel):
    app, lamps, _ = service
    before = copy.deepcopy(lamps)
    path = '/v1/lamps' if method == 'POST' else '/v1/lamps/b'
    serial = {'serial': 'S-b'} if version == '1.1' else {}
    fields = {'name': 'b', 'state': 'off', 'lit': True, **serial}
    send = app.post_json if method == 'POST' else app.put_json
    if channel == 'json':
        response = send(path, fields, headers=at(version), expect_errors=True)
    elif channel == 'form':
        response = app.request(
            path, method=method, headers=at(version, **{'Content-Type': FORM}),
            body='&'.join(f'lamp.{k}={str(v).lower()}'
                          for k, v in fields.items()).encode(),
            expect_errors=True)
    else:
        response = app.request(
            path, method=method, headers=at(version, **{'Content-Type': XML}),
            body=('<lamp>' + ''.join(f'<{k}>{str(v).lower()}</{k}>'
                                     for k, v in fields.items())
                  + '</lamp>').encode(), expect_errors=True)
    refused(response, "Field 'lit' is read-only." if channel == 'json'
            else "Field 'lamp.lit' is read-only.")
    assert lamps == before


@pytest.mark.parametrize('value', [True, False, None])
def test_a_plain_dict_body_cannot_set_a_computed_field(service, value):
    app, _, plains = service
    before = copy.deepcopy(plains)
    for version, body in (('1.0', {}), ('1.1', {'serial': 'S-b'})):
        refused(app.post_json('/v1/plain', {'name': 'b', 'lit': value, **body},
                              headers=at(version), expect_errors=True),
                "Field 'lit' is read-only.")
    assert plains == before


@pytest.mark.parametrize('path', ['/v1/lamps', '/v1/plain'])
def test_a_field_computed_up_to_a_version_is_stored_after_it(service, path):
    app, lamps, plains = service
    refused(app.post_json(path, {'name': 'b', 'serial': 'mine'},
                          headers=at('1.0'), expect_errors=True),
            "Field 'serial' is read-only.")
    # Not mandatory where it is computed; mandatory from 1.1 on.
    created = app.post_json(path, {'name': 'b'}, headers=at('1.0'))
    assert created.status_int == 201
    assert created.json['serial'] == 'S-b'
    missing = app.post_json(path, {'name': 'c'}, headers=at('1.1'),
                            expect_errors=True)
    assert missing.status_int == 400
    assert missing.json['errors'][0]['code'] == 'microversion.missing_field'
    app.post_json(path, {'name': 'c', 'serial': 'mine'}, headers=at('1.1'))
    store = lamps if path == '/v1/lamps' else plains
    assert store['c']['serial'] == 'mine'
    assert app.get(f'{path}/c', headers=at('1.2')).json['serial'] == 'mine'
    assert app.get(f'{path}/c', headers=at('1.0')).json['serial'] == 'S-c'


def test_a_nested_field_is_read_only_where_it_is_computed(service):
    app, lamps, _ = service
    body = {'name': 'b', 'bulb': {'kind': 'led', 'watts': 7}}
    refused(app.post_json('/v1/lamps', body, headers=at('1.0'),
                          expect_errors=True),
            "Field 'bulb.watts' is read-only.")
    assert 'b' not in lamps
    app.post_json('/v1/lamps', dict(body, serial='S-b'), headers=at('1.1'))
    assert lamps['b']['bulb'] == {'kind': 'led', 'watts': 7}


# -- patches ------------------------------------------------------------------

#: Operations that set, change or remove ``lit`` (shown ``true``).
SETTING = [
    {'op': 'replace', 'path': '/lit', 'value': False},
    {'op': 'replace', 'path': '/lit', 'value': True},  # the value it shows
    {'op': 'add', 'path': '/lit', 'value': True},
    {'op': 'remove', 'path': '/lit'},
    {'op': 'move', 'from': '/lit', 'path': '/state'},
    {'op': 'move', 'from': '/state', 'path': '/lit'},
    {'op': 'copy', 'from': '/state', 'path': '/lit'},
]


@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('path', ['/v1/lamps/a', '/v1/plain/a'])
@pytest.mark.parametrize('operation', SETTING,
                         ids=lambda op: f'{op["op"]}-{op["path"]}')
def test_a_patch_cannot_set_a_computed_field(patching, version, path,
                                             operation):
    app, lamps, plains = patching
    before = copy.deepcopy((lamps, plains))
    refused(app.patch_json(path, [operation], headers=at(version),
                           expect_errors=True),
            "Patch operation #0: field 'lit' is read-only.")
    assert (lamps, plains) == before


@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('path', ['/v1/lamps/a', '/v1/plain/a'])
def test_a_patch_tests_a_computed_field_it_cannot_set(patching, path,
                                                      version):
    app, lamps, plains = patching
    assert app.get(path, headers=at(version)).json['lit'] is True
    test = {'op': 'test', 'path': '/lit', 'value': True}
    refused(app.patch_json(path, [test, dict(test, op='replace')],
                           headers=at(version), expect_errors=True),
            "Patch operation #1: field 'lit' is read-only.")
    patched = app.patch_json(path, [
        test, {'op': 'replace', 'path': '/state', 'value': 'off'}],
        headers=at(version))
    assert patched.json['lit'] is False
    assert app.get(path, headers=at(version)).json['lit'] is False
    store = lamps if path == '/v1/lamps/a' else plains
    assert 'lit' not in store['a']


@pytest.mark.parametrize('path', ['/v1/lamps/a', '/v1/plain/a'])
def test_a_patch_sets_a_field_where_it_is_no_longer_computed(patching, path):
    app, lamps, plains = patching
    store = lamps if path == '/v1/lamps/a' else plains
    refused(app.patch_json(path, [{'op': 'replace', 'path': '/serial',
                                   'value': 'new'}], headers=at('1.0'),
                           expect_errors=True),
            "Patch operation #0: field 'serial' is read-only.")
    assert store['a']['serial'] == 'S-a'
    app.patch_json(path, [{'op': 'replace', 'path': '/serial',
                           'value': 'new'}], headers=at('1.1'))
    assert store['a']['serial'] == 'new'


def test_a_patch_cannot_set_a_nested_computed_field(patching):
    app, lamps, _ = patching
    refused(app.patch_json('/v1/lamps/a', [
        {'op': 'replace', 'path': '/bulb/watts', 'value': 60}],
        headers=at('1.0'), expect_errors=True),
        "Patch operation #0: field 'bulb.watts' is read-only.")
    app.patch_json('/v1/lamps/a', [
        {'op': 'replace', 'path': '/bulb/watts', 'value': 60}],
        headers=at('1.1'))
    assert lamps['a']['bulb'] == {'kind': 'led', 'watts': 60}


# -- JSON Schemas -------------------------------------------------------------

SCHEMA_BODIES = [
    {'name': 'b'},
    {'name': 'b', 'serial': 'x'},
    {'name': 'b', 'lit': True},
    {'name': 'b', 'serial': 'x', 'lit': False},
    {'name': 'b', 'serial': 'x', 'bulb': {'watts': 5}},
    {'name': 'b', 'bulb': {'kind': 'led'}},
]


@pytest.mark.parametrize('version, accepted', [
    ('1.0', [0, 5]),  # no serial, lit or watts: each is computed
    ('1.1', [1, 4]),  # serial mandatory, watts stored, lit computed
])
def test_the_request_schema_accepts_what_the_service_accepts(version,
                                                             accepted):
    app, _, _, lamp = make_app(patch_newest)
    for index, body in enumerate(SCHEMA_BODIES):
        served = app.post_json('/v1/lamps', body, headers=at(version),
                               expect_errors=True).status_int == 201
        try:
            validate_body(lamp, body, version)
        except APIError:
            valid = False
        else:
            valid = True
        assert served == valid == (index in accepted), body


def test_schemas_mark_a_field_read_only_where_it_is_computed():
    _, _, _, lamp = make_app(patch_newest)
    request = body_schema(lamp, '1.0')['$defs']['Lamp']
    assert set(request['properties']) == {'name', 'state', 'bulb'}
    assert request['required'] == ['name']
    response = body_schema(lamp, '1.0', request=False)['$defs']
    assert response['Lamp']['properties']['lit']['readOnly'] is True
    assert response['Lamp']['properties']['serial']['readOnly'] is True
    assert response['Bulb']['properties']['watts']['readOnly'] is True
    request = body_schema(lamp, '1.1')['$defs']['Lamp']
    assert set(request['properties']) == {'name', 'state', 'serial', 'bulb'}
    assert request['required'] == ['name', 'serial']
    # Every version: read-only only if computed wherever it exists, and
    # not required where some version computes it.
    every = body_schema(lamp, None, request=False)['$defs']['Lamp']
    assert every['properties']['lit']['readOnly'] is True
    assert 'readOnly' not in every['properties']['serial']
    assert every['required'] == ['name']


@pytest.mark.parametrize('served, in_properties, required', [
    (('1.0', '1.0'), False, ['name']),  # every served version computes it
    (('1.1', '1.2'), True, ['name', 'serial']),  # none does: stored, needed
])
def test_the_combined_schema_judges_computed_by_the_served_versions(
        served, in_properties, required):
    """An operator's floor or cap decides which versions count: one no
    longer served that computes the field neither makes it read-only nor
    keeps it from being required."""
    _, _, _, lamp = make_app(patch_newest)
    schemas = SchemaSet(None, request=True,
                        served=tuple(Version.parse(v) for v in served))
    schemas.schema(lamp)
    definition = schemas.definitions['Lamp']
    assert ('serial' in definition['properties']) is in_properties
    assert definition['required'] == required
