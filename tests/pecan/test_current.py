"""The request-defaulting wrappers raise APIError with the hook's body."""

import pecan
import pytest
import webtest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    VersionRegistry,
    apply_patch,
    check_body,
    check_patch,
    field,
    filter_response,
    patch_newest,
    response_json,
    response_text,
    versioned_wsexpose,
)
from pecan_microversions.core.schema import Schema
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.fields import versioned, versioned_resource

REGISTRY = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')],
                           unavailable_status=406)


@versioned_resource(REGISTRY, 'jar')
class Jar(wtypes.Base):
    name = wtypes.text
    lid = versioned(wtypes.text, min_version='1.1')


class Root:
    @pecan.expose('json')
    def body(self):
        check_body(Jar, pecan.request.json)
        return {'ok': True}

    @pecan.expose('json')
    def patch(self):
        return {'ops': check_patch(Jar, pecan.request.json)}

    @pecan.expose('json')
    def apply(self):
        return apply_patch(Jar, {'name': 'j'}, pecan.request.json)

    @pecan.expose('json')
    def show(self):
        jar = filter_response(Jar(name='j', lid='l'))
        return {'lid': None if jar.lid is wtypes.Unset else jar.lid}

    @versioned_wsexpose(Jar)
    def wsme_jar(self):
        return Jar(name='j\u00e9', lid='l')

    @pecan.expose(content_type='application/json')
    def text(self):
        return response_text(Jar, Jar(name='j\u00e9', lid='l'))

    @pecan.expose('json')
    def book(self):
        return response_json(BOOK, {'title': 't', 'colour': 'red'})

    @pecan.expose(content_type='application/json')
    def book_text(self):
        return response_text(BOOK, {'title': 't', 'colour': 'red'})


@pytest.fixture(scope='module')
def app():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


@pytest.mark.parametrize('version', ['1.0', '1.1'])
@pytest.mark.parametrize('written, rendered', [
    ('/text', '/wsme_jar'), ('/book_text', '/book')])
def test_response_text_sends_the_bytes_of_the_rendered_json(
        app, version, written, rendered):
    text = app.get(written, headers=at(version))
    expected = app.get(rendered, headers=at(version))
    assert text.body == expected.body
    assert text.content_type == expected.content_type == 'application/json'
    assert ('lid' in text.json or 'colour' in text.json) == (
        version == '1.1')


def test_filter_response_uses_the_request_version(app):
    assert app.get('/show', headers=at('1.0')).json == {'lid': None}
    assert app.get('/show', headers=at('1.1')).json == {'lid': 'l'}


@pytest.mark.parametrize('path, body', [
    ('/body', {'name': 'j', 'lid': 'x'}),
    ('/patch', [{'op': 'add', 'path': '/lid', 'value': 'x'}]),
    ('/apply', [{'op': 'add', 'path': '/lid', 'value': 'x'}]),
])
def test_errors_get_the_hooks_json_body(app, path, body):
    response = app.post_json(path, body, headers=at('1.0'),
                             expect_errors=True)
    assert response.status_int == 406
    assert response.content_type == 'application/json'
    assert response.headers['OpenStack-API-Version'] == 'shelf 1.0'
    (error,) = response.json['errors']
    assert error['status'] == 406
    assert error['code'] == 'microversion.field_unavailable'
    assert error['title'] == 'Not Acceptable'
    assert "'lid'" in error['detail']
    assert app.post_json(path, body, headers=at('1.1')).status_int == 200


def test_apply_failure_is_a_400_error_body(app):
    response = app.post_json('/apply', [{'op': 'remove', 'path': '/lid'}],
                             headers=at('1.1'), expect_errors=True)
    assert response.status_int == 400
    assert response.json['errors'][0]['code'] == 'microversion.patch_failed'


def test_explicit_version_outside_a_request_raises_api_error():
    with pytest.raises(APIError) as info:
        check_body(Jar, {'lid': 'x'}, Version(1, 0))
    assert info.value.code == 406
    assert info.value.status_int == 406
    assert info.value.error_code == 'microversion.field_unavailable'
    with pytest.raises(APIError):
        check_patch(Jar, [{'op': 'remove', 'path': '/lid'}], Version(1, 0))
    with pytest.raises(APIError) as info:
        apply_patch(Jar, {}, [{'op': 'remove', 'path': '/name'}],
                    Version(1, 1))
    assert info.value.code == 400
    assert check_patch(Jar, [], Version(1, 0)) == []
    jar = filter_response(Jar(name='j', lid='l'), Version(1, 0))
    assert jar.lid is wtypes.Unset


BOOK = Schema(REGISTRY, 'book', {
    'id': field(readonly=True),
    'title': field(mandatory=True),
    'colour': field(min_version='1.1'),
    'format': field(values={'paper': None, 'ebook': '1.1'}),
})


@pytest.mark.parametrize('call, code', [
    (lambda v: check_body(BOOK, {'title': 't', 'nope': 1}, v),
     'microversion.unknown_field'),
    (lambda v: check_body(BOOK, {'title': 't', 'colour': 'red'}, v),
     'microversion.field_unavailable'),
    (lambda v: check_body(BOOK, {'colour': None}, v),
     'microversion.field_unavailable'),
    (lambda v: check_patch(BOOK, [{'op': 'replace', 'path': '/id',
                                   'value': 2}], v),
     'microversion.read_only_field'),
    (lambda v: apply_patch(BOOK, {'title': 't', 'format': 'ebook'}, [
        {'op': 'copy', 'from': '/format', 'path': '/format'},
        {'op': 'add', 'path': '/title', 'value': None}], v),
     'microversion.missing_field'),
    (lambda v: patch_newest(BOOK, {'title': 't'}, [
        {'op': 'add', 'path': '/format', 'value': 'ebook'}], v),
     'microversion.value_unavailable'),
])
def test_a_plain_dict_schema_is_checked_not_waved_through(call, code):
    # The functions once took a Schema for a type with no fields: no check.
    with pytest.raises(APIError) as info:
        call(Version(1, 0))
    assert info.value.error_code == code


def test_a_plain_dict_schema_gets_its_own_results():
    v10, v11 = Version(1, 0), Version(1, 1)
    assert check_body(BOOK, {'title': 't'}, v10) == {'title': 't'}
    assert check_body(Jar, {'name': 'j'}, v10) is None
    assert check_patch(BOOK, [], v10) == []
    assert apply_patch(BOOK, {'title': 't'}, [
        {'op': 'add', 'path': '/colour', 'value': 'red'}], v11) == {
        'title': 't', 'colour': 'red'}
    assert patch_newest(BOOK, {'title': 't', 'colour': 'red'}, [
        {'op': 'replace', 'path': '/title', 'value': 'u'}], v10) == {
        'title': 'u', 'colour': 'red'}
    assert response_json(BOOK, {'title': 't', 'colour': 'red'}, v10) == {
        'title': 't'}
