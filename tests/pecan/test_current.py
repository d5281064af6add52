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
    filter_response,
)
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


@pytest.fixture(scope='module')
def app():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


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
