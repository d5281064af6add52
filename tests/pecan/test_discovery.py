"""Discovery documents, in-process and read by keystoneauth1 over HTTP."""

import pecan
import pytest
import webtest
from keystoneauth1 import adapter, discover, noauth, session
from oslo_config import cfg

from pecan_microversions import (
    MicroversionHook,
    register_opts,
    root_document,
    version_document,
)
from pecan_microversions.pecan.discovery import version_object
from tests import example_app

VERSION_KEYS = {'id', 'status', 'min_version', 'max_version', 'version',
                'links'}


def expected_version(href, minimum='1.0', maximum='1.3'):
    return {'id': 'v1', 'status': 'CURRENT', 'min_version': minimum,
            'max_version': maximum, 'version': maximum,
            'links': [{'rel': 'self', 'href': href}]}


def test_root_document(app):
    response = app.get('/')
    body = response.json
    assert set(body) == {'name', 'description', 'versions', 'default_version'}
    assert body['name'] == 'widget'
    assert body['description'] == 'Widgets.'
    assert body['versions'] == [expected_version('http://localhost/v1/')]
    assert body['default_version'] == body['versions'][0]
    assert response.headers['OpenStack-API-Version'] == 'widget 1.0'


def test_versioned_document(app):
    body = app.get('/v1/').json
    assert set(body) == {'version'}
    version = body['version']
    assert set(version) == VERSION_KEYS
    assert version['links'] == [
        {'rel': 'self', 'href': 'http://localhost/v1/'},
        {'rel': 'things', 'href': 'http://localhost/v1/things'}]
    assert (version['id'], version['status'], version['min_version'],
            version['max_version'], version['version']) == (
        'v1', 'CURRENT', '1.0', '1.3', '1.3')


def test_documents_do_not_depend_on_the_requested_version(app):
    plain = app.get('/').json
    at_latest = app.get('/', headers={
        'OpenStack-API-Version': 'widget latest'}).json
    assert plain == at_latest


@pytest.mark.parametrize('prefix', ['/widget', '/api/widget'])
def test_app_mounted_under_a_prefix(app, prefix):
    environ = {'SCRIPT_NAME': prefix}
    root = app.get('/', extra_environ=environ).json
    href = f'http://localhost{prefix}/v1/'
    assert root['versions'] == [expected_version(href)]
    links = app.get('/v1/', extra_environ=environ).json['version']['links']
    assert links[0] == {'rel': 'self', 'href': href}
    assert links[1]['href'] == f'http://localhost{prefix}/v1/things'


def test_links_use_the_request_host_and_scheme(app):
    root = app.get('/', headers={'Host': 'api.example.com:8443'},
                   extra_environ={'wsgi.url_scheme': 'https'}).json
    assert root['versions'][0]['links'] == [
        {'rel': 'self', 'href': 'https://api.example.com:8443/v1/'}]


def test_documents_follow_the_operator_range():
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    register_opts(conf)
    conf.set_override('min_version', '1.1', group='api_microversions')
    conf.set_override('max_version', '1.2', group='api_microversions')
    test_app = webtest.TestApp(example_app.make_app(conf=conf))
    assert test_app.get('/').json['versions'] == [
        expected_version('http://localhost/v1/', '1.1', '1.2')]


class BareRoot:
    @pecan.expose('json')
    def index(self):
        return root_document()

    @pecan.expose('json')
    def v2(self):
        return version_document(id='v2', links=[
            {'rel': 'describedby', 'href': 'https://docs.example.com/'}],
            media_types=[{'base': 'application/json'}])

    @pecan.expose('json')
    def custom(self):
        return version_object(id='v1', path='/api/', status='SUPPORTED')


def test_optional_members_and_extras():
    test_app = webtest.TestApp(pecan.make_app(
        BareRoot(), hooks=[MicroversionHook(example_app.REGISTRY)]))
    root = test_app.get('/').json
    assert set(root) == {'versions', 'default_version'}
    v2 = test_app.get('/v2').json['version']
    assert v2['id'] == 'v2'
    assert v2['links'] == [
        {'rel': 'self', 'href': 'http://localhost/v2/'},
        {'rel': 'describedby', 'href': 'https://docs.example.com/'}]
    assert v2['media_types'] == [{'base': 'application/json'}]
    custom = test_app.get('/custom').json
    assert custom['status'] == 'SUPPORTED'
    assert custom['links'] == [{'rel': 'self',
                                'href': 'http://localhost/api/'}]


def test_documents_need_the_hook():
    test_app = webtest.TestApp(pecan.make_app(BareRoot()))
    with pytest.raises(RuntimeError, match='MicroversionHook'):
        test_app.get('/')


# --- keystoneauth1 against a real server ------------------------------------

@pytest.fixture
def widget_url(serve):
    return serve(example_app.make_app())


def ks_adapter(endpoint, **kwargs):
    sess = session.Session(auth=noauth.NoAuth())
    return adapter.Adapter(sess, service_type='widget',
                           endpoint_override=endpoint, **kwargs)


@pytest.mark.parametrize('suffix', ['', '/', '/v1/'])
def test_keystoneauth_discovers_the_range(widget_url, suffix):
    client = ks_adapter(widget_url + suffix)
    data = client.get_endpoint_data()
    assert data.url == widget_url + '/v1/'
    assert data.api_version == (1, 0)
    assert data.min_microversion == (1, 0)
    assert data.max_microversion == (1, 3)
    assert client.get_api_major_version() == (1, 0)


def test_keystoneauth_version_data(widget_url):
    sess = session.Session(auth=noauth.NoAuth())
    [entry] = discover.get_version_data(sess, widget_url + '/')
    assert entry['id'] == 'v1'
    assert entry['status'] == 'CURRENT'
    assert (entry['min_version'], entry['max_version']) == ('1.0', '1.3')
    assert entry['links'][0] == {'rel': 'self', 'href': widget_url + '/v1/'}


def test_keystoneauth_requests_a_microversion(widget_url):
    client = ks_adapter(widget_url + '/v1/')
    response = client.get('echo', microversion='1.2')
    assert response.status_code == 200
    assert response.json() == {'version': '1.2'}
    assert response.headers['OpenStack-API-Version'] == 'widget 1.2'
    assert response.request.headers['OpenStack-API-Version'] == 'widget 1.2'
    latest = client.get('echo', microversion='latest')
    assert latest.json() == {'version': '1.3'}
    default = client.get('echo')
    assert 'OpenStack-API-Version' not in default.request.headers
    assert default.headers['OpenStack-API-Version'] == 'widget 1.0'
    pinned = ks_adapter(widget_url + '/v1/', default_microversion='1.1')
    assert pinned.get('echo').json() == {'version': '1.1'}


def test_keystoneauth_sees_the_refusal(widget_url):
    client = ks_adapter(widget_url + '/v1/')
    response = client.get('echo', microversion='1.7', raise_exc=False)
    assert response.status_code == 406
    error = response.json()['errors'][0]
    assert (error['min_version'], error['max_version']) == ('1.0', '1.3')


def test_keystoneauth_discovers_an_operator_cap(serve):
    conf = cfg.ConfigOpts()
    conf([], default_config_files=[])
    register_opts(conf)
    conf.set_override('max_version', '1.2', group='api_microversions')
    base = serve(example_app.make_app(conf=conf))
    data = ks_adapter(base + '/').get_endpoint_data()
    assert (data.min_microversion, data.max_microversion) == ((1, 0), (1, 2))


def test_keystoneauth_discovery_under_a_prefix(serve):
    inner = example_app.make_app()

    def mounted(environ, start_response):
        path = environ.get('PATH_INFO', '')
        if not path.startswith('/widget'):
            start_response('404 Not Found', [('Content-Type', 'text/plain')])
            return [b'not here']
        environ['SCRIPT_NAME'] += '/widget'
        environ['PATH_INFO'] = path[len('/widget'):] or '/'
        return inner(environ, start_response)

    base = serve(mounted)
    data = ks_adapter(base + '/widget/').get_endpoint_data()
    assert data.url == base + '/widget/v1/'
    assert data.max_microversion == (1, 3)
    response = ks_adapter(data.url).get('echo', microversion='1.1')
    assert response.json() == {'version': '1.1'}
