"""A method's arguments are checked whatever their source.

WSME validates ``Enum``, ``StringType`` and ``IntegerType`` values only as
an object's attributes: an argument of those types read from the query
string, a form, the URL path or an XML body reached the method unchecked,
and a mandatory argument sent as ``null`` reached it as ``None``.  Pecan
passes the query's and the form's values by position too, which must not
read as a URL path segment given twice.
"""

import datetime

import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    versioned_wsexpose,
)

FORM = 'application/x-www-form-urlencoded'
_STATE = wtypes.Enum(str, 'on', 'off')


class _Seconds(wtypes.UserType):
    """A service's own type: it checks the client's text, not its result."""

    basetype = wtypes.text
    name = 'seconds'

    @staticmethod
    def validate(value):
        if not (isinstance(value, str) and value.endswith('s')):
            raise ValueError(f'{value!r} is no duration')
        return value

    def frombasetype(self, value):
        return None if value is None else int(self.validate(value)[:-1])


class _Lamps(VersionedRestController):
    @versioned_wsexpose(wtypes.text, _STATE, wtypes.StringType(max_length=3),
                        wtypes.IntegerType(minimum=1, maximum=5), [_STATE],
                        _Seconds())
    def get_all(self, state=None, short=None, level=None, states=None,
                wait=None):
        return f'{state} {short} {level} {states} {wait}'

    @versioned_wsexpose(wtypes.text, _STATE, [_STATE])
    def get_one(self, state, states=None):
        return f'one {state} {states}'

    @versioned_wsexpose(wtypes.text, wtypes.text, _STATE, [wtypes.text])
    def post(self, name, state=None, tags=None):
        return f'post {name} {state} {tags}'


@pytest.fixture
def app():
    class Root:
        lamps = _Lamps()

    return webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
        VersionRegistry('lamp', [('1.0', 'a')]))], debug=False))


def _refused(response, *words):
    assert response.status_int == 400, response.body
    error = response.json['errors'][0]
    assert error['code'] == 'microversion.invalid_value'
    for word in words:
        assert word in error['detail']
    return error['detail']


@pytest.mark.parametrize('query, words', [
    ('state=dim', ("'state'", 'one of')),
    ('short=long', ("'short'", 'maximum')),
    ('level=9', ("'level'", '5')),
    ('level=0', ("'level'", '1')),
    ('states=on&states=dim', ("'states'",)),
    ('states=dim', ("'states'",)),
])
def test_a_query_value_its_wsme_type_refuses_is_a_400(app, query, words):
    _refused(app.get(f'/lamps?{query}', expect_errors=True), *words)


def test_query_values_their_types_accept_reach_the_method(app):
    assert app.get('/lamps?state=on&short=abc&level=5&states=on&states=off'
                   ).json == "on abc 5 ['on', 'off'] None"
    assert app.get('/lamps?states=off').json == "None None None ['off'] None"


def test_a_services_own_type_is_left_to_check_itself(app):
    # Its validate takes the client's text: never called on its result.
    assert app.get('/lamps?wait=30s').json == 'None None None None 30'
    response = app.get('/lamps?wait=soon', expect_errors=True)
    assert response.status_int == 400
    assert 'no duration' in response.json['errors'][0]['detail']


def test_a_url_path_segment_its_type_refuses_is_a_400(app):
    assert app.get('/lamps/on').json == 'one on None'
    _refused(app.get('/lamps/dim', expect_errors=True), "'dim'", "'state'")


@pytest.mark.parametrize('body, content_type', [
    ('name=a&state=dim', FORM),
    ('<parameters><name>a</name><state>dim</state></parameters>',
     'text/xml'),
    ('{"name": "a", "state": "dim"}', 'application/json'),
])
def test_a_body_value_its_type_refuses_is_a_400(app, body, content_type):
    response = app.post('/lamps', body, content_type=content_type,
                        expect_errors=True)
    assert response.status_int == 400, response.body
    assert response.json['errors'][0]['code'] == 'microversion.invalid_value'
    assert "'state'" in response.json['errors'][0]['detail']


@pytest.mark.parametrize('body, content_type', [
    ('{"name": null}', 'application/json'),
    ('{"name": null, "state": "on"}', 'application/json'),
    ('<parameters><name nil="true" /></parameters>', 'text/xml'),
])
def test_a_mandatory_argument_sent_as_null_is_a_400(app, body, content_type):
    response = app.post('/lamps', body, content_type=content_type,
                        expect_errors=True)
    detail = _refused(response, "'name'")
    assert 'mandatory' in detail and 'null' in detail


def test_an_optional_argument_sent_as_null_is_its_default(app):
    assert app.post_json('/lamps', {'name': 'a', 'state': None}).json == (
        'post a None None')


@pytest.mark.parametrize('send', [
    lambda app: app.get('/lamps/on?states=on'),
    lambda app: app.post('/lamps?tags=ab', 'name=a'),
    lambda app: app.post('/lamps', 'name=a&tags=ab', content_type=FORM),
    lambda app: app.post_json('/lamps', {'name': 'a', 'tags': ['ab']}),
])
def test_a_single_value_of_an_array_is_no_path_segment(app, send):
    # Pecan passes it by position, as it passes a URL path segment: it
    # is the query's (or the body's) own value, not one it replaces.
    response = send(app)
    assert response.status_int == 200, response.body
    assert "['on']" in response.json or "['ab']" in response.json


def test_a_query_value_replacing_a_path_segment_is_still_refused(app):
    response = app.get('/lamps/on?state=off', expect_errors=True)
    assert response.status_int == 400, response.body
    assert response.json['errors'][0]['code'] == (
        'microversion.invalid_arguments')
    assert app.get('/lamps/on?state=on').json == 'one on None'


class _Tag(wtypes.Base):
    uuid = wtypes.text
    name = wtypes.text


class _Odd(wtypes.StringType):
    """A service's subclass whose validate raises an error of its own."""

    def validate(self, value):
        if value.startswith('_'):
            raise RuntimeError('no leading underscore')
        return super().validate(value)


class _Tags(VersionedRestController):
    @versioned_wsexpose(wtypes.text, _Odd(), wtypes.Enum(str, 'a', None),
                        datetime.datetime)
    def get_all(self, name=None, mode=None, since=None):
        return f'all {name} {mode} {since}'

    @versioned_wsexpose(wtypes.text, wtypes.Enum(str, 'a', None))
    def post(self, mode):
        return f'post {mode}'

    @versioned_wsexpose(wtypes.text, wtypes.text, body=_Tag)
    def put(self, uuid, tag):
        return f'put {uuid} {tag.uuid}'

    @versioned_wsexpose(wtypes.text, datetime.datetime)
    def delete(self, when):
        return f'delete {when}'


@pytest.fixture
def tags():
    class Root:
        tags = _Tags()

    return webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
        VersionRegistry('tag', [('1.0', 'a')]))], debug=False))


def test_a_body_member_does_not_make_a_query_value_the_paths(tags):
    # The body is read whole as the body argument: its "uuid" member,
    # equal to the path's, does not let the query replace the path's.
    response = tags.put_json('/tags/P?uuid=Q', {'uuid': 'P'},
                             expect_errors=True)
    assert response.status_int == 400, response.body
    assert response.json['errors'][0]['code'] == (
        'microversion.invalid_arguments')
    assert tags.put_json('/tags/P', {'uuid': 'P'}).json == 'put P P'


def test_a_validating_subclass_s_own_error_is_a_400(tags):
    detail = _refused(tags.get('/tags?name=_x', expect_errors=True),
                      "'name'")
    assert 'no leading underscore' in detail
    assert tags.get('/tags?name=x').json == 'all x None None'


def test_a_mandatory_argument_of_a_type_allowing_none_may_be_null(tags):
    assert tags.post_json('/tags', {'mode': None}).json == 'post None'
    assert tags.post_json('/tags', {'mode': 'a'}).json == 'post a'
    _refused(tags.post_json('/tags', {'mode': 'b'}, expect_errors=True),
             "'mode'")


def test_an_empty_mandatory_date_is_named_as_empty(tags):
    detail = _refused(tags.delete('/tags?when=', expect_errors=True),
                      "'when'")
    assert 'null or empty' in detail
