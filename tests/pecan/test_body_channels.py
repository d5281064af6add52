"""Every body channel meets the same contract as JSON (found by review).

Form, XML and query values are read by WSME with the newest types; they
must not carry a field that a version holds in another representation
(the demo's ``owner``, a name before 1.9), nor have anything WSME's readers
drop silently.  Body parameters of plain ``pecan.expose`` methods, values
equal to a default, and a query argument that the URL path already gives
are judged like the rest.
"""

import json

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    versioned_wsexpose,
)
from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.store import NodeStore
from pecan_microversions.pecan.params import param, query_params

FORM = 'application/x-www-form-urlencoded'
XML = 'text/xml'
U1 = '00000000-0000-0000-0000-000000000001'
U2 = '00000000-0000-0000-0000-000000000002'


@pytest.fixture
def fleet():
    store = NodeStore.seeded()
    return webtest.TestApp(make_app(store=store)), store


def send(app, method, path, version, body=None, content_type=None):
    headers = {'OpenStack-API-Version': f'fleet {version}'}
    if content_type:
        headers['Content-Type'] = content_type
    return app.request(path, method=method, headers=headers,
                       body=None if body is None else body.encode(),
                       expect_errors=True)


def code_of(response, status=400):
    assert response.status_int == status, response.body
    assert response.headers['OpenStack-API-Version'].startswith('fleet ')
    return response.json['errors'][0]['code']


def driver(version):
    return 'hardware_type' if version >= '1.6' else 'driver'


@pytest.mark.parametrize('version', ['1.4', '1.8'])
@pytest.mark.parametrize('shape', ['object', 'string'])
@pytest.mark.parametrize('channel', ['form', 'xml', 'query'])
def test_owner_in_another_representation_is_json_only(fleet, version, shape,
                                                      channel):
    app, store = fleet
    before = store.list()
    d = driver(version)
    owner = {'object': ['owner.name=m', 'owner.domain=evil'],
             'string': ['owner=m']}[shape]
    fields = ['name=x', f'{d}=ipmi'] + owner
    if channel == 'xml':
        inner = ('<owner><name>m</name><domain>evil</domain></owner>'
                 if shape == 'object' else '<owner>m</owner>')
        response = send(app, 'POST', '/v1/nodes', version,
                        f'<node><name>x</name><{d}>ipmi</{d}>{inner}</node>',
                        XML)
    elif channel == 'form':
        response = send(app, 'POST', '/v1/nodes', version,
                        '&'.join(f'node.{f}' for f in fields), FORM)
    else:
        response = send(app, 'POST', '/v1/nodes?' + '&'.join(
            f'node.{f}' for f in fields), version, '{}', 'application/json')
    assert code_of(response) == 'microversion.json_only'
    assert 'owner' in response.json['errors'][0]['detail']
    assert store.list() == before


def test_owner_object_in_xml_at_its_version_is_stored(fleet):
    app, store = fleet
    response = send(app, 'POST', '/v1/nodes', '1.9',
                    '<node><name>x</name><hardware_type>ipmi</hardware_type>'
                    '<owner><name>m</name><domain>d</domain></owner></node>',
                    XML)
    assert response.status_int == 201
    assert response.json['owner'] == {'name': 'm', 'domain': 'd'}


@pytest.mark.parametrize('body,code', [
    ('<node><name>x</name><driver>i</driver><bogus>1</bogus></node>',
     'microversion.unknown_field'),
    ('<node><name>x</name><driver>i</driver><Description>d</Description>'
     '</node>', 'microversion.unknown_field'),
    ('<node xmlns:u="urn:x"><name>x</name><driver>i</driver>'
     '<u:description>d</u:description></node>', 'microversion.unknown_field'),
    ('<node><name>x</name><driver>i</driver><description>a</description>'
     '<description>b</description></node>', 'microversion.invalid_body'),
    ('<node><name>x<b>y</b></name><driver>i</driver></node>',
     'microversion.invalid_body'),
    ('<node><name>x</name>junk<driver>i</driver></node>',
     'microversion.invalid_body'),
    ('<node a="1"><name>x</name><driver>i</driver></node>',
     'microversion.invalid_body'),
    ('<node><name>x</name><driver>i</driver>'
     '<description nil="true">d</description></node>',
     'microversion.invalid_body'),
    ('<node><name>x</name><driver>i</driver><links><item><rel>a</rel>'
     '</item></links></node>', 'microversion.read_only_field'),
])
def test_xml_that_wsme_would_read_in_part_is_refused(fleet, body, code):
    app, store = fleet
    before = store.list()
    assert code_of(send(app, 'POST', '/v1/nodes', '1.1', body, XML)) == code
    assert store.list() == before


def test_xml_read_whole_is_accepted(fleet):
    app, _ = fleet
    response = send(app, 'POST', '/v1/nodes', '1.1',
                    '<node>\n  <name>x</name>\n  <driver>i</driver>\n'
                    '  <description nil="true"/>\n</node>', XML)
    assert response.status_int == 200, response.body
    assert response.json['description'] is None


def test_repeated_xml_parameter_is_refused(fleet):
    app, _ = fleet
    body = '<p><sort_key>name</sort_key><sort_key>owner</sort_key></p>'
    assert code_of(send(app, 'GET', '/v1/nodes', '1.4', body, XML)) == \
        'microversion.invalid_body'


def test_a_body_in_utf_16_is_not_json_whatever_json_loads_guesses(fleet):
    # json.loads of bytes reads UTF-16, which Pecan never does: the key
    # seemed to conflict with the URL's identifier.
    app, store = fleet
    response = app.patch(
        f'/v1/nodes/{store.list()[0]["uuid"]}',
        '{"uuid": "zz"}'.encode('utf-16-le'), expect_errors=True,
        headers={'OpenStack-API-Version': 'fleet 1.8',
                 'Content-Type': 'application/json'})
    assert code_of(response) == 'microversion.invalid_body'


def test_form_body_that_is_not_utf8_is_refused(fleet):
    app, store = fleet
    before = store.list()
    response = send(app, 'POST', '/v1/nodes', '1.1',
                    'node.name=caf%E9&node.driver=ipmi', FORM)
    assert code_of(response) == 'microversion.invalid_body'
    assert store.list() == before


@pytest.mark.parametrize('path, body', [
    ('/v1/nodes', 'node.name=a&node.name=b&node.driver=ipmi'),
    ('/v1/nodes?node.name=q', 'node.name=a&node.driver=ipmi'),
])
def test_a_form_field_given_twice_is_refused_not_read_once(fleet, path,
                                                           body):
    # WSME read one of the values (the last, or the query's) and dropped
    # the other.
    app, store = fleet
    before = store.list()
    response = send(app, 'POST', path, '1.1', body, FORM)
    assert code_of(response) == 'microversion.invalid_arguments'
    assert "'node.name' is given 2 times" in \
        response.json['errors'][0]['detail']
    assert store.list() == before


def test_an_array_argument_may_be_given_many_times():
    from wsme import types as wtypes

    from pecan_microversions import versioned_wsexpose

    registry = VersionRegistry('shelf', [('1.0', 'a')])

    class Root:
        @versioned_wsexpose([wtypes.text], [wtypes.text], wtypes.text)
        def tags(self, tag=None, kind=None):
            return (tag or []) + [kind or '-']

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    assert app.get('/tags?tag=a&tag=b').json == ['a', 'b', '-']
    assert app.post('/tags?tag=a', 'tag=b', content_type=FORM).json == [
        'a', 'b', '-']
    refused = app.get('/tags?kind=x&kind=y', expect_errors=True)
    assert refused.status_int == 400
    assert "'kind' is given 2 times" in refused.json['errors'][0]['detail']


@pytest.mark.parametrize('body,content_type', [
    ('{"sort_dir": "asc"}', 'application/json'),
    ('<p><sort_key>created_at</sort_key></p>', XML),
])
def test_body_parameter_outside_its_version_is_refused_even_at_default(
        fleet, body, content_type):
    app, _ = fleet
    response = send(app, 'GET', '/v1/nodes', '1.0', body, content_type)
    assert code_of(response) == 'microversion.query_parameter_unavailable'
    # Its default, not sent, is no error; at 1.2 it is a parameter.
    assert send(app, 'GET', '/v1/nodes', '1.0').status_int == 200
    assert send(app, 'GET', '/v1/nodes', '1.2', body,
                content_type).status_int == 200


@pytest.mark.parametrize('method,body', [
    ('GET', None),
    ('PATCH', '[{"op": "replace", "path": "/name", "value": "z"}]'),
])
def test_query_argument_the_path_gives_otherwise_is_refused(fleet, method,
                                                            body):
    app, store = fleet
    before = store.list()
    content_type = 'application/json' if body else None
    response = send(app, method, f'/v1/nodes/{U1}?uuid={U2}', '1.3', body,
                    content_type)
    assert code_of(response) == 'microversion.invalid_arguments'
    assert 'uuid' in response.json['errors'][0]['detail']
    assert store.list() == before
    same = send(app, method, f'/v1/nodes/{U1}?uuid={U1}', '1.3', body,
                content_type)
    assert same.status_int == 200 and same.json['uuid'] == U1


def test_json_nested_to_every_depth_near_the_limit_is_a_4xx(fleet):
    app, store = fleet
    before = store.list()
    for depth in range(900, 1000):
        value = '[' * depth + ']' * depth
        response = send(app, 'POST', '/v1/nodes', '1.9',
                        '{"name": "x", "hardware_type": "i", '
                        f'"description": {value}}}', 'application/json')
        assert response.status_int < 500, (depth, response.body)
    assert store.list() == before


def _kwargs_app():
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')])

    class Root:
        @query_params(registry, 'POST /', colour=param('1.1'),
                      sort=param(values={'name': None, 'colour': '1.1'}))
        @pecan.expose('json')
        def index(self, **kwargs):
            return {'got': kwargs}

    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))


@pytest.mark.parametrize('body,content_type', [
    ('colour=red', FORM),
    ('{"colour": "red"}', 'application/json'),
    ('sort=colour', FORM),
])
def test_kwargs_method_checks_body_parameters(body, content_type):
    app = _kwargs_app()
    old = app.post('/', body.encode(), expect_errors=True, headers={
        'OpenStack-API-Version': 'shelf 1.0', 'Content-Type': content_type})
    assert old.status_int == 400, old.body
    assert old.json['errors'][0]['code'] in (
        'microversion.query_parameter_unavailable',
        'microversion.value_unavailable')
    new = app.post('/', body.encode(), headers={
        'OpenStack-API-Version': 'shelf 1.1', 'Content-Type': content_type})
    assert json.loads(new.body)['got'] in ({'colour': 'red'},
                                           {'sort': 'colour'})


@pytest.mark.parametrize('version,allow', [('1.0', 'GET, HEAD'),
                                           ('1.8', 'GET, HEAD, PATCH')])
def test_post_to_an_item_url_is_405_not_a_body_error(fleet, version, allow):
    # Pecan routes POST /v1/nodes/<uuid> to post(self, node), the path
    # segment landing in the body argument.
    app, store = fleet
    before = store.list()
    response = send(app, 'POST', f'/v1/nodes/{U1}', version,
                    json.dumps({'name': 'x', driver(version): 'i'}),
                    'application/json')
    assert code_of(response, 405) == 'microversion.method_not_allowed'
    assert response.headers['Allow'] == allow
    assert store.list() == before


def test_path_into_the_body_outside_a_rest_controller_is_404():
    from wsme import types as wtypes

    from pecan_microversions import versioned_wsexpose

    registry = VersionRegistry('shelf', [('1.0', 'a')])

    class Root:
        @versioned_wsexpose(wtypes.text, body=wtypes.text)
        def echo(self, text):
            return text

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    response = app.post('/echo/extra', b'"x"', expect_errors=True,
                        content_type='application/json')
    assert response.status_int == 404, response.body
    assert response.json['errors'][0]['status'] == 404
    assert app.post('/echo', b'"x"', content_type='application/json'
                    ).json == 'x'


def test_body_member_named_like_the_body_argument_is_no_path_segment():
    # Pecan places a JSON object's (or form's) member named like a
    # positional argument in that argument: for the body argument, the
    # body is read whole instead; a different path segment is refused.
    from pecan import rest
    from wsme import types as wtypes

    from pecan_microversions import versioned_resource, versioned_wsexpose

    registry = VersionRegistry('shelf', [('1.0', 'a')])

    @versioned_resource(registry, 'tag')
    class Tag(wtypes.Base):
        tag = wtypes.text

    class Tags(rest.RestController):
        @versioned_wsexpose(Tag, body=Tag)
        def post(self, tag):
            return tag

    class Root:
        tags = Tags()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    assert app.post('/tags', b'{"tag": "x"}',
                    content_type='application/json').json == {'tag': 'x'}
    assert app.post('/tags', b'tag.tag=x', content_type=FORM).json == {
        'tag': 'x'}
    # Tags have no item URL: a segment names nothing.
    refused = app.post('/tags/y', b'{"tag": "x"}', expect_errors=True,
                       content_type='application/json')
    assert refused.status_int == 404


def test_null_for_a_converted_field_needs_no_json(fleet):
    # Only a value has another representation; a null is the same in both.
    app, _ = fleet
    response = send(app, 'POST', '/v1/nodes', '1.8',
                    '<node><name>x</name><hardware_type>i</hardware_type>'
                    '<owner nil="true"/></node>', XML)
    assert response.status_int == 201, response.body
    assert response.json['owner'] is None


def _multipart(**fields):
    return b''.join(b'--b\r\nContent-Disposition: form-data; name="%s"'
                    b'\r\n\r\n%s\r\n' % (k.encode(), v.encode())
                    for k, v in fields.items()) + b'--b--\r\n'


@pytest.mark.parametrize('fields, code', [
    ({'limit': '10'}, 'microversion.query_parameter_unavailable'),
    ({'uuid': 'B'}, 'microversion.invalid_arguments'),
])
def test_multipart_fields_pecan_passes_are_checked_like_a_form(fields, code):
    """Pecan gives a plain method the fields of a multipart body as it
    does a form's: one equal to its default but outside its versions, or
    naming an argument the path gives, is refused, not dropped."""
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')])

    class Things(rest.RestController):
        @query_params(registry, 'PUT /things/{uuid}', limit=param('1.1'))
        @pecan.expose('json')
        def put(self, uuid, limit='10'):
            return {'uuid': uuid, 'limit': limit}

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    for content_type, body in [
            ('multipart/form-data; boundary=b', _multipart(**fields)),
            (FORM, '&'.join(f'{k}={v}' for k, v in fields.items()).encode())]:
        response = app.put('/things/A', body, expect_errors=True, headers={
            'OpenStack-API-Version': 'shelf 1.0',
            'Content-Type': content_type})
        assert response.status_int == 400, (content_type, response.body)
        assert response.json['errors'][0]['code'] == code


@pytest.mark.parametrize('version, body', [
    ('1.8', {'limit': 1}), ('1.8', {'limit': [1]}),
    ('1.3', {'sort_key': ['name']}), ('1.8', {'sort_dir': ['desc']}),
    ('1.2', {'driver': ['ipmi']}), ('1.2', {'driver': {'x': 1}}),
    ('1.8', {'owner': 1})])
def test_a_query_argument_in_a_json_body_has_the_arguments_type(
        fleet, version, body):
    # WSME handed a number or a list to a text argument as it is: 500s in
    # the demo (an int's isascii), or filters that silently matched nothing.
    response = send(fleet[0], 'GET', '/v1/nodes', version, json.dumps(body),
                    'application/json')
    assert code_of(response) == 'microversion.invalid_value'
    assert repr(next(iter(body))) in response.json['errors'][0]['detail']


@pytest.mark.parametrize('version, body', [
    ('1.3', {'owner': None}), ('1.3', {'limit': None, 'marker': None}),
    ('1.6', {'driver': None}), ('1.5', {'hardware_type': None}),
    ('1.1', {'sort_key': None})])
def test_a_null_query_argument_outside_its_versions_is_refused(
        fleet, version, body):
    response = send(fleet[0], 'GET', '/v1/nodes', version, json.dumps(body),
                    'application/json')
    assert code_of(response) == 'microversion.query_parameter_unavailable'


def test_a_null_query_argument_in_its_versions_is_the_default(fleet):
    # sort_key's default is created_at: null is not given, not None.
    app = fleet[0]
    plain = send(app, 'GET', '/v1/nodes', '1.8').json
    for body in ({'sort_key': None}, {'owner': None, 'sort_dir': None}):
        response = send(app, 'GET', '/v1/nodes', '1.8', json.dumps(body),
                        'application/json')
        assert response.status_int == 200, response.body
        assert response.json == plain


@pytest.mark.parametrize('query', ['node=x', 'node='])
def test_the_body_argument_in_the_query_string_is_a_400(fleet, query):
    # Pecan passed it where the body argument goes: it was taken for a
    # path segment, a 405 whose Allow named methods the URL does not take.
    response = send(fleet[0], 'POST', f'/v1/nodes?{query}', '1.9',
                    json.dumps({'name': 'n', 'hardware_type': 'b'}),
                    'application/json')
    assert code_of(response) == 'microversion.invalid_arguments'
    assert response.json['errors'][0]['detail'] == (
        "'node' is the request body: it cannot be given whole in the query "
        'string.')
    assert len(fleet[1].list()) == 3


def test_a_key_through_a_plain_value_names_where_it_stops(fleet):
    response = send(fleet[0], 'POST', '/v1/nodes', '1.9',
                    'node.name=a&node.hardware_type=b&node.owner[0].name=x',
                    FORM)
    assert code_of(response) == 'microversion.unknown_field'
    assert response.json['errors'][0]['detail'] == (
        "Invalid form field 'node.owner[0].name': node.owner has no '[0]'.")


class _Invalid(Exception):
    """Ironic's ``exception.Invalid``: no WSME error, a ``code`` of 400."""

    code = 400


class _Boolean(wtypes.UserType):
    """Ironic's ``types.boolean``, abridged: it raises its own error."""

    basetype = wtypes.text
    name = 'boolean'

    @staticmethod
    def validate(value):
        if value in ('true', True):
            return True
        if value in ('false', False):
            return False
        raise _Invalid(f'Unrecognized value {value!r}')

    @staticmethod
    def frombasetype(value):
        return None if value is None else _Boolean.validate(value)


def _put_json(controller, body):
    """PUT ``body`` as JSON to ``/things/a`` of ``controller`` under the
    hook (a one-version registry)."""
    class Root:
        things = controller

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
        VersionRegistry('args', [('1.0', 'a')]))]))
    return app.put('/things/a', json.dumps(body), expect_errors=True,
                   headers={'Content-Type': 'application/json'})


class _Switches(VersionedRestController):
    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text, _Boolean(), wtypes.text)
    def put(self, ident, force=None, note=None):
        return f'{ident} {force} {note}'


@pytest.mark.parametrize('body, status', [
    ({'force': 'true'}, 200), ({'force': 'maybe'}, 400), ({'note': 7}, 400),
    ({'note': ['x']}, 400)])
def test_user_type_arguments_in_a_json_body(body, status):
    # The user type's own error is the client's 400 (not a 500), and a
    # number for a text argument is refused rather than handed on.
    response = _put_json(_Switches(), body)
    assert response.status_int == status, response.body
    if status == 200:
        assert response.json.startswith('a True')


class _Paints(VersionedRestController):
    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text,
                        wtypes.Enum(str, 'red', 'blue'),
                        wtypes.StringType(max_length=3))
    def put(self, ident, color=None, short=None):
        return f'{ident} {color} {short}'


@pytest.mark.parametrize('body, status', [
    ({'color': 'red', 'short': 'abc'}, 200), ({'color': 'green'}, 400),
    ({'short': 'toolong'}, 400), ({'color': 7}, 400)])
def test_enum_and_string_arguments_in_a_json_body_are_validated(body, status):
    response = _put_json(_Paints(), body)
    assert response.status_int == status, response.body
    if status == 400:
        assert response.json['errors'][0]['code'] == (
            'microversion.invalid_value')


class _Duration(wtypes.UserType):
    """A service's own type that validates only what the client sends."""

    basetype = wtypes.text
    name = 'duration'

    def validate(self, value):
        if not (isinstance(value, str) and value[:-1].isdigit()
                and value[-1:] in ('s', 'm')):
            raise ValueError(f'{value!r} is no duration')
        return value

    def frombasetype(self, value):
        if value is None:
            return None
        self.validate(value)
        return int(value[:-1]) * (60 if value[-1] == 'm' else 1)


class _Timers(VersionedRestController):
    @versioned_wsexpose([wtypes.text])
    def get_all(self):
        return []

    @versioned_wsexpose(wtypes.text, wtypes.text, _Duration(),
                        [wtypes.Enum(str, 'red', 'blue')])
    def put(self, ident, wait=None, colors=None):
        return f'{ident} {wait} {colors}'


@pytest.mark.parametrize('body, status', [
    ({'wait': '5m'}, 200), ({'wait': 'soon'}, 400),
    ({'colors': ['red']}, 200), ({'colors': ['green']}, 400)])
def test_a_services_user_type_validates_itself(body, status):
    # WSME converts a user type's argument without validating the result:
    # a type validating the client's text only must not be refused for
    # its own converted value; WSME's own types (Enum) are validated.
    response = _put_json(_Timers(), body)
    assert response.status_int == status, response.body
    if body == {'wait': '5m'}:
        assert response.json == 'a 300 None'
