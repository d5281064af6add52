"""Each adoption option, on both sides of its setting."""

import functools
import json

import pecan
import pytest
import webtest
import wsme.exc
from pecan import rest
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    MicroversionHook,
    ValueMap,
    VersionedRestController,
    VersionRegistry,
    api_version,
    param,
    query_params,
    versioned,
    versioned_resource,
    versioned_wsexpose,
)
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.core.registry import legacy_range_names
from pecan_microversions.core.rendering import ErrorReport, api_wg_errors, wsme_fault

LEGACY = 'X-OpenStack-Gizmo-API-Version'


def _registry(**options):
    return VersionRegistry('gizmo', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')],
                           legacy_headers=[LEGACY], **options)


def _app(registry, converting=False, **hook_options):
    @versioned_resource(registry, 'gizmo')
    class Gizmo(wtypes.Base):
        name = wtypes.text
        colour = versioned(wtypes.text, min_version='1.1')
        if converting:  # bodies are converted up to the newest form
            state = versioned(wtypes.text,
                              changes=[ValueMap({'new': 'old'}, '1.0')])

    seen = {}

    class Gizmos(rest.RestController):
        @versioned_wsexpose(Gizmo, wtypes.text)
        def get_one(self, name):
            if name == 'missing':
                raise wsme.exc.ClientSideError('No gizmo missing.', 404)
            if name == 'broken':
                raise RuntimeError('boom: disk on fire')
            if name == 'ours':
                raise APIError('An APIError of the app.', status=409,
                               error_code='gizmo.conflict')
            return Gizmo(name=name, colour='red')

        @versioned_wsexpose(Gizmo, body=Gizmo, status_code=201)
        def post(self, gizmo):
            seen['colour'] = gizmo.colour
            return gizmo

    class Root:
        gizmos = Gizmos()

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry, **hook_options)]))
    app.seen = seen
    return app


def _v(version):
    return {'OpenStack-API-Version': f'gizmo {version}'}


# -- error_renderer -----------------------------------------------------------

def test_default_renderer_is_api_wg():
    response = _app(_registry()).get('/gizmos/x', headers=_v('9.9'),
                                     status=406)
    assert response.json['errors'][0]['code'] == 'microversion.not_acceptable'


def test_wsme_fault_renderer_for_the_library_errors():
    app = _app(_registry(), error_renderer=wsme_fault)
    response = app.get('/gizmos/x', headers=_v('9.9'), status=406)
    assert response.json == {
        'faultcode': 'Client', 'debuginfo': None,
        'faultstring': 'Version 9.9 is not supported by the API: gizmo '
                       'accepts 1.0 to 1.2.'}
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.2'
    field = app.post_json('/gizmos', {'name': 'g', 'colour': 'red'},
                          headers=_v('1.0'), status=400)
    assert "Field 'colour' of gizmo" in field.json['faultstring']


def test_a_renderer_of_the_service_own():
    def flat(report):
        return {'message': report.detail, 'status': report.status}

    response = _app(_registry(), error_renderer=flat).get(
        '/gizmos/x', headers=_v('1.01'), status=400)
    assert response.json['status'] == 400
    assert "'1.01'" in response.json['message']


def test_renderers_are_plain_functions_of_a_report():
    report = ErrorReport(503, 'http.service_unavailable',
                         'Service Unavailable', 'Later.', 'req-1', {'a': 1})
    assert wsme_fault(report)['faultcode'] == 'Server'
    assert api_wg_errors(report) == {'errors': [{
        'status': 503, 'code': 'http.service_unavailable',
        'title': 'Service Unavailable', 'detail': 'Later.',
        'request_id': 'req-1', 'a': 1}]}


def test_renderer_must_be_callable():
    with pytest.raises(TypeError):
        MicroversionHook(_registry(), error_renderer='wsme')


# -- app_errors ---------------------------------------------------------------

def test_render_rewrites_the_application_faults():
    app = _app(_registry())
    missing = app.get('/gizmos/missing', status=404)
    assert missing.json['errors'][0]['detail'] == 'No gizmo missing.'
    broken = app.get('/gizmos/broken', status=500)
    assert 'disk on fire' not in broken.text
    assert broken.json['errors'][0]['code'] == 'http.internal_server_error'


def test_keep_leaves_the_application_faults_and_adds_headers():
    app = _app(_registry(), error_renderer=wsme_fault, app_errors='keep')
    missing = app.get('/gizmos/missing', headers=_v('1.1'), status=404)
    assert missing.json['faultstring'] == 'No gizmo missing.'
    assert missing.headers['OpenStack-API-Version'] == 'gizmo 1.1'
    broken = app.get('/gizmos/broken', status=500)
    assert broken.json['faultstring'] == 'boom: disk on fire'
    assert broken.headers['OpenStack-API-Maximum-Version'] == '1.2'


def test_keep_still_renders_the_library_and_api_errors():
    app = _app(_registry(), app_errors='keep')
    version = app.get('/gizmos/x', headers=_v('1.x'), status=400)
    assert version.json['errors'][0]['code'] == 'microversion.invalid'
    ours = app.get('/gizmos/ours', status=409)
    assert ours.json['errors'][0]['code'] == 'gizmo.conflict'


def test_keep_leaves_pecan_routing_errors_to_pecan():
    kept = _app(_registry(), app_errors='keep').get('/nowhere', status=404)
    assert 'errors' not in kept.text
    assert kept.headers['OpenStack-API-Version'] == 'gizmo 1.0'
    rendered = _app(_registry()).get('/nowhere', status=404)
    assert rendered.json['errors'][0]['status'] == 404


def test_keep_renders_the_method_refusals_the_library_judged():
    # A VersionedRestController works out what its URL answers at the
    # version: its 405 (and its 404 for a URL naming nothing) is the
    # library's answer, in the service's format whatever app_errors says.
    registry = _registry()

    class Things(VersionedRestController):
        @pecan.expose('json')
        def get_one(self, ident):
            return {'id': ident}

    class Root(VersionedRestController):
        things = Things()

        @pecan.expose('json')
        def get(self):
            return {'root': True}

    for app_errors in ('keep', 'render'):
        app = webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
            registry, error_renderer=wsme_fault, app_errors=app_errors)]))
        refused = app.post('/', headers=_v('1.1'), status=405)
        assert refused.headers['Allow'] == 'GET, HEAD'
        assert refused.json['faultstring'] == (
            'The method POST is not allowed for this URL.')
        assert refused.headers['OpenStack-API-Version'] == 'gizmo 1.1'
        assert app.head('/', headers=_v('1.1'), status=200).body == b''
        # no method at all answers the URL: a 404
        nothing = app.post('/things//', headers=_v('1.1'), status=404)
        assert nothing.json['faultstring'] == 'The resource could not be found.'


@pytest.mark.parametrize('app_errors', ['keep', 'render'])
def test_a_judged_405_keeps_its_allow_below_a_plain_controller(app_errors):
    # Pecan's RestController above rewrites Allow with its own methods on
    # the way out: DELETE, GET and POST, the refused method among them.
    registry = _registry()

    class Stats(VersionedRestController):
        @pecan.expose('json')
        def get_all(self):
            return {'count': 0}

    class Nodes(rest.RestController):
        stats = Stats()

        @pecan.expose('json')
        def get_all(self):
            return []

        @pecan.expose('json')
        def get_one(self, ident):
            return {}

        @pecan.expose('json')
        def post(self):
            return {}

        @pecan.expose('json')
        def delete(self, ident):
            return {}

    class Root:
        nodes = Nodes()

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[MicroversionHook(
        registry, app_errors=app_errors)]))
    refused = app.delete('/nodes/stats', headers=_v('1.1'), status=405)
    assert refused.headers['Allow'] == 'GET, HEAD'
    assert refused.json['errors'][0]['status'] == 405


def test_app_errors_values():
    with pytest.raises(ValueError, match="'render' or 'keep'"):
        MicroversionHook(_registry(), app_errors='drop')


# -- malformed_status ---------------------------------------------------------

@pytest.mark.parametrize('status', [400, 406])
def test_malformed_status(status):
    app = _app(_registry(malformed_status=status))
    response = app.get('/gizmos/x', headers=_v('1.01'), status=status)
    assert response.json['errors'][0]['code'] == 'microversion.invalid'
    assert response.json['errors'][0]['max_version'] == '1.2'
    # A well-formed unsupported version stays 406 either way.
    app.get('/gizmos/x', headers=_v('7.0'), status=406)


def test_malformed_status_values():
    with pytest.raises(InvalidDeclarationError, match='malformed_status'):
        _registry(malformed_status=422)


# -- bare_major ---------------------------------------------------------------

def test_bare_major_alias_serves_x_0():
    app = _app(_registry(bare_major=True))
    response = app.get('/gizmos/x', headers=_v('1'))
    assert response.headers['OpenStack-API-Version'] == 'gizmo 1.0'
    legacy = app.get('/gizmos/x', headers={LEGACY: '1'})
    assert legacy.headers[LEGACY] == '1.0'
    app.get('/gizmos/x', headers=_v('2'), status=406)     # 2.0 not served
    app.get('/gizmos/x', headers=_v('01'), status=400)    # still malformed


@pytest.mark.parametrize('sent', ['01', ' 007', '00'])
@pytest.mark.parametrize('legacy', [False, True])
def test_bare_major_error_names_the_text_the_client_sent(sent, legacy):
    # Not the "01.0" read from it, a string the client never sent.
    app = _app(_registry(bare_major=True, malformed_status=406))
    headers = {LEGACY: sent} if legacy else _v(sent)
    response = app.get('/gizmos/x', headers=headers, status=406)
    detail = response.json['errors'][0]['detail']
    assert detail.startswith(f'Invalid version string {sent.strip()!r}:')
    assert '.0' not in detail.split(':')[0]


def test_bare_major_without_the_alias_is_malformed():
    _app(_registry()).get('/gizmos/x', headers=_v('1'), status=400)


# -- null_as_absent -----------------------------------------------------------

def test_null_for_a_later_field_is_refused_by_default():
    app = _app(_registry())
    response = app.post_json('/gizmos', {'name': 'g', 'colour': None},
                             headers=_v('1.0'), status=400)
    assert response.json['errors'][0]['code'] == \
        'microversion.field_unavailable'


@pytest.mark.parametrize('converting', [False, True])
def test_null_as_absent_accepts_it_and_the_app_sees_it_unset(converting):
    app = _app(_registry(null_as_absent=True), converting=converting)
    response = app.post_json('/gizmos', {'name': 'g', 'colour': None},
                             headers=_v('1.0'), status=201)
    assert response.json == {'name': 'g'}
    assert app.seen['colour'] is wtypes.Unset
    # A value (not null) is still refused; at 1.1 null is an ordinary null.
    app.post_json('/gizmos', {'name': 'g', 'colour': 'red'},
                  headers=_v('1.0'), status=400)
    app.post_json('/gizmos', {'name': 'g', 'colour': None},
                  headers=_v('1.1'), status=201)
    assert app.seen['colour'] is None


# -- legacy_range_headers -----------------------------------------------------

def test_legacy_range_headers_on_every_response():
    app = _app(_registry(legacy_range_headers=True))
    for response in (app.get('/gizmos/x', headers=_v('1.1')),
                     app.get('/gizmos/x', headers=_v('1.9'), status=406),
                     app.get('/gizmos/x', headers={LEGACY: '1.2'}),
                     app.get('/nowhere', status=404)):
        assert response.headers['X-OpenStack-Gizmo-API-Minimum-Version'] \
            == '1.0'
        assert response.headers['X-OpenStack-Gizmo-API-Maximum-Version'] \
            == '1.2'
        assert LEGACY in response.headers['Vary']
    assert app.get('/gizmos/x', headers=_v('1.1')).headers[LEGACY] == '1.1'
    assert app.get('/gizmos/x', headers={LEGACY: '1.2'}).headers[
        LEGACY] == '1.2'


def test_without_legacy_range_headers_only_the_echo():
    app = _app(_registry())
    plain = app.get('/gizmos/x', headers=_v('1.1'))
    assert LEGACY not in plain.headers
    assert 'X-OpenStack-Gizmo-API-Maximum-Version' not in plain.headers
    legacy = app.get('/gizmos/x', headers={LEGACY: '1.2'})
    assert legacy.headers[LEGACY] == '1.2'
    assert 'X-OpenStack-Gizmo-API-Maximum-Version' not in legacy.headers


def test_legacy_range_header_names():
    assert legacy_range_names('X-OpenStack-Ironic-API-Version') == (
        'X-OpenStack-Ironic-API-Version',
        'X-OpenStack-Ironic-API-Minimum-Version',
        'X-OpenStack-Ironic-API-Maximum-Version')
    with pytest.raises(InvalidDeclarationError, match='-Version'):
        VersionRegistry('gizmo', [('1.0', 'a')],
                        legacy_headers=['X-Gizmo-Microversion'],
                        legacy_range_headers=True)
    with pytest.raises(InvalidDeclarationError, match='needs legacy_headers'):
        VersionRegistry('gizmo', [('1.0', 'a')], legacy_range_headers=True)


# -- api_version under an outer functools.wraps wrapper -----------------------

def _outer(function):
    """A service's own exposure, wrapping what it decorates, as Ironic's."""
    @functools.wraps(function)
    def exposed(self, *args, **kwargs):
        return json.dumps(function(self, *args, **kwargs))
    return pecan.expose(content_type='application/json')(exposed)


def test_api_version_under_an_outer_wrapper_routes_like_without_it():
    registry = _registry()

    class Things(rest.RestController):
        @_outer
        @api_version(registry, '1.0', '1.1')
        def get_one(self, ident, fields=None):
            return {'id': ident, 'fields': fields}

        @_outer
        @get_one.version('1.2')
        def get_one(self, ident, fields=None):  # noqa: F811
            return {'id2': ident, 'fields': fields}

        @_outer
        @api_version(registry, '1.1')
        def get_all(self):
            return ['all']

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(Root(),
                                         hooks=[MicroversionHook(registry)]))
    assert app.get('/things/a?fields=x').json == {'id': 'a', 'fields': 'x'}
    assert app.get('/things/a', headers=_v('1.2')).json == {
        'id2': 'a', 'fields': None}
    assert app.get('/things', headers=_v('1.1')).json == ['all']
    missing = app.get('/things', status=404)
    assert missing.json['errors'][0]['code'] == 'microversion.method_not_found'


def test_legacy_range_headers_merge_with_what_a_controller_set():
    registry = _registry(legacy_range_headers=True)

    class Root:
        @pecan.expose('json')
        def index(self):
            pecan.response.headers['X-OpenStack-Gizmo-API-Minimum-Version'] \
                = '0.1'
            return {}

    app = webtest.TestApp(pecan.make_app(Root(),
                                         hooks=[MicroversionHook(registry)]))
    response = app.get('/', headers=_v('1.1'))
    assert response.headers.getall(
        'X-OpenStack-Gizmo-API-Minimum-Version') == ['1.0']
    assert response.headers.getall(LEGACY) == ['1.1']


def test_query_params_under_an_outer_wrapper_routes_like_without_it():
    """query_params on a plain pecan.expose method, under a service's own
    functools.wraps exposure: Pecan routes the wrapper by its own
    (self, *args, **kwargs), so its wrapper must not claim the method's
    signature (that answers 404 for get_one)."""
    registry = _registry()

    class Things(rest.RestController):
        @_outer
        @query_params(registry, 'GET /things/{id}',
                      fields=param(min_version='1.1'))
        @pecan.expose()
        def get_one(self, ident, fields=None):
            return {'id': ident, 'fields': fields}

        @_outer
        @query_params(registry, 'GET /things')
        @pecan.expose()
        def get_all(self):
            return ['all']

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(Root(),
                                         hooks=[MicroversionHook(registry)]))
    assert app.get('/things/a?fields=x', headers=_v('1.1')).json == {
        'id': 'a', 'fields': 'x'}
    assert app.get('/things').json == ['all']
    refused = app.get('/things/a?fields=x', headers=_v('1.0'), status=400)
    assert 'fields' in refused.json['errors'][0]['detail']
