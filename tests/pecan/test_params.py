"""query_params on small Pecan apps."""

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import MicroversionHook, VersionRegistry, api_version
from pecan_microversions.core.errors import InvalidDeclarationError
from pecan_microversions.pecan.params import param, query_params

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd')]


def _app(**options):
    registry = VersionRegistry('shelf', HISTORY, **options)

    class ThingsController(rest.RestController):

        @query_params(registry, 'GET /things',
                      tag=param(multiple=True),
                      size=param(min_version='1.1', max_version='1.2'),
                      sort=param(values={'name': None, 'age': '1.2',
                                         'old': (None, '1.0')}),
                      owner=param(min_version='1.3'))
        @pecan.expose('json')
        def get_all(self):
            query = pecan.request.GET
            return {'limit': query.get('limit'), 'tags': query.getall('tag'),
                    'size': query.get('size'), 'sort': query.get('sort'),
                    'owner': query.get('owner')}

        @query_params(registry, 'GET /things/x', flag=param('1.1'))
        @wsexpose(wtypes.text, wtypes.text, wtypes.text)
        def get_one(self, uuid, flag=None):
            return f'{uuid}:{flag}'

    class PlainController:
        @query_params(registry, 'GET /plain', size=param('1.1'))
        @pecan.expose('json')
        def index(self, limit=None, size=None):
            return {'limit': limit, 'size': size}

    class Root:
        things = ThingsController()
        plain = PlainController()

    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))


def at(version):
    return {'OpenStack-API-Version': f'shelf {version}'}


def error(response, status, code):
    assert response.status_int == status
    (body,) = response.json['errors']
    assert body['code'] == code and body['status'] == status
    return body['detail']


@pytest.fixture(scope='module')
def app():
    return _app()


def test_declared_parameters_pass(app):
    body = app.get('/things?tag=a&tag=b&size=2&sort=age',
                   headers=at('1.2')).json
    assert body == {'limit': None, 'tags': ['a', 'b'], 'size': '2',
                    'sort': 'age', 'owner': None}


def test_method_arguments_are_parameters_of_every_version(app):
    assert app.get('/plain/?limit=3&size=1', headers=at('1.1')).json == {
        'limit': '3', 'size': '1'}
    assert app.get('/plain/?limit=3').json == {'limit': '3', 'size': None}
    error(app.get('/plain/?limit=3&size=1', headers=at('1.0'),
                  expect_errors=True),
          400, 'microversion.query_parameter_unavailable')


def test_repeated_parameter_is_400_unless_multiple(app):
    detail = error(app.get('/things?sort=name&sort=name', headers=at('1.2'),
                           expect_errors=True),
                   400, 'microversion.repeated_query_parameter')
    assert detail == "Query parameter 'sort' is given 2 times; give it once."
    error(app.get('/plain/?limit=1&limit=2', headers=at('1.2'),
                  expect_errors=True),
          400, 'microversion.repeated_query_parameter')
    assert app.get('/things?tag=a&tag=b&tag=c').json['tags'] == ['a', 'b',
                                                                 'c']


@pytest.mark.parametrize('path, body, content_type', [
    ('/plain/?limit=1', 'limit=2', 'application/x-www-form-urlencoded'),
    ('/plain/?limit=1', '{"limit": "2"}', 'application/json'),
    ('/plain/', 'limit=1&limit=2', 'application/x-www-form-urlencoded'),
])
def test_a_parameter_the_query_and_body_give_twice_is_400(app, path, body,
                                                          content_type):
    # Pecan passed the method a list for a parameter of one value.
    detail = error(app.post(path, body, headers={
        **at('1.2'), 'Content-Type': content_type}, expect_errors=True),
        400, 'microversion.invalid_arguments')
    assert detail.startswith("Parameter 'limit' is given 2 times")
    assert app.post('/plain/?limit=1', 'size=2', headers={
        **at('1.2'), 'Content-Type': 'application/x-www-form-urlencoded'}
    ).json == {'limit': '1', 'size': '2'}


def test_parameter_outside_its_range(app):
    detail = error(app.get('/things?size=1', headers=at('1.0'),
                           expect_errors=True),
                   400, 'microversion.query_parameter_unavailable')
    assert detail == ("Query parameter 'size' is not available at version "
                      '1.0; it exists from version 1.1 to 1.2.')
    error(app.get('/things?size=1', headers=at('1.3'), expect_errors=True),
          400, 'microversion.query_parameter_unavailable')


def test_values_per_version(app):
    assert app.get('/things?sort=old', headers=at('1.0')).json['sort'] == \
        'old'
    error(app.get('/things?sort=old', headers=at('1.1'), expect_errors=True),
          400, 'microversion.value_unavailable')
    error(app.get('/things?sort=age', headers=at('1.1'), expect_errors=True),
          400, 'microversion.value_unavailable')
    detail = error(app.get('/things?sort=zzz', headers=at('1.2'),
                           expect_errors=True),
                   400, 'microversion.invalid_value')
    assert 'allowed at version 1.2: age, name.' in detail


def test_owner_can_be_a_parameter_name(app):
    assert app.get('/things?owner=me', headers=at('1.3')).json['owner'] == \
        'me'
    error(app.get('/things?owner=me', headers=at('1.2'), expect_errors=True),
          400, 'microversion.query_parameter_unavailable')


def test_unknown_parameter_rejected(app):
    detail = error(app.get('/things?bogus=1', expect_errors=True), 400,
                   'microversion.unknown_query_parameter')
    assert detail == "Unknown query parameter 'bogus'."
    error(app.get('/things/u?bogus=1', expect_errors=True), 400,
          'microversion.unknown_query_parameter')


@pytest.mark.parametrize('path, key', [
    ('/plain/', 'size[0]'), ('/plain/', 'limit.max'), ('/things', 'sort[0]'),
    ('/things', 'tag[1]')])
def test_wsme_keys_for_a_plain_method_are_refused_not_dropped(app, path,
                                                              key):
    # Pecan passes "size[0]" as it is: the method would never see it.
    detail = error(app.get(f'{path}?{key}=1', headers=at('1.1'),
                           expect_errors=True),
                   400, 'microversion.unknown_query_parameter')
    assert f"give it as '{key.split('[')[0].split('.')[0]}'" in detail
    # An unknown name is unknown whatever its syntax.
    error(app.get(f'{path}?bogus[0]=1', headers=at('1.1'),
                  expect_errors=True),
          400, 'microversion.unknown_query_parameter')


def test_wsme_keys_for_a_wsme_method_are_read(app):
    # WSME reads "flag.x" as flag's attribute: refused by WSME's own 400
    # (a text has none), not taken for an unknown parameter.
    response = app.get('/things/u?flag.x=1', headers=at('1.1'),
                       expect_errors=True)
    assert response.status_int == 400
    assert response.json['errors'][0]['code'] != (
        'microversion.unknown_query_parameter')


def test_wsexpose_method(app):
    assert app.get('/things/u?flag=y', headers=at('1.1')).json == 'u:y'
    error(app.get('/things/u?flag=y', headers=at('1.0'), expect_errors=True),
          400, 'microversion.query_parameter_unavailable')


def test_406_registry_and_ignored_unknowns():
    app = _app(unavailable_status=406, unknown_query_params='ignore')
    error(app.get('/things?size=1', headers=at('1.0'), expect_errors=True),
          406, 'microversion.query_parameter_unavailable')
    error(app.get('/things?sort=age', headers=at('1.0'), expect_errors=True),
          406, 'microversion.value_unavailable')
    error(app.get('/things?sort=zzz', expect_errors=True), 400,
          'microversion.invalid_value')
    assert app.get('/things?bogus=1').status_int == 200
    assert app.get('/things/u?bogus=1&flag=z', headers=at('1.1')).json == \
        'u:z'


def test_decorator_below_expose_is_refused_at_import():
    registry = VersionRegistry('shelf', HISTORY)
    with pytest.raises(InvalidDeclarationError) as info:
        class Controller(rest.RestController):
            @pecan.expose('json')
            @query_params(registry, 'GET /x', a=param('1.1'))
            def get_all(self, **kwargs):
                return {}
    assert 'put it above @pecan.expose or @wsexpose' in str(info.value)


@pytest.mark.parametrize('kwargs, error_type', [
    ({'a': param('1.9')}, 'UnknownVersionError'),
    ({'a': param('1.2', '1.1')}, 'InvertedRangeError'),
    ({'a': '1.1'}, 'InvalidDeclarationError'),
])
def test_bad_declarations_fail_at_import(kwargs, error_type):
    from pecan_microversions.core import errors
    registry = VersionRegistry('shelf', HISTORY)
    with pytest.raises(getattr(errors, error_type)):
        query_params(registry, 'GET /x', **kwargs)


def test_deprecated_spellings_warn():
    with pytest.warns(DeprecationWarning, match='min_version'):
        spec = param(introduced='1.1', last='1.2')
    assert (spec.min_version, spec.max_version) == ('1.1', '1.2')


def test_a_plain_method_taking_kwargs_gets_wsme_keys_as_they_are():
    registry = VersionRegistry('shelf', HISTORY)

    class Root:
        @query_params(registry, 'GET /kw', tag=param(multiple=True))
        @pecan.expose('json')
        def kw(self, tag=None, **kw):
            return {'tag': tag, 'kw': kw}

    app = webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(registry)], debug=False))
    assert app.get('/kw/?tag[0]=x&tag.k=v').json == {
        'tag': None, 'kw': {'tag[0]': 'x', 'tag.k': 'v'}}


@pytest.mark.parametrize('query', ['', '?q=1', '?zzz=1'])
@pytest.mark.parametrize('outer', ['query_params', 'api_version'])
def test_a_method_the_version_lacks_is_a_404_whatever_the_order(outer, query):
    # With @query_params above @api_version, the query string was judged
    # first: a 400 naming a parameter of a method 1.0 does not have.
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                         ('1.2', 'c')])
    params = query_params(registry, 'GET /new', q=param(min_version='1.2'))
    gate = api_version(registry, '1.1')

    def new(self, q=None):
        return {'q': q}

    exposed = pecan.expose('json')(new)
    method = (params(gate(exposed)) if outer == 'query_params'
              else gate(params(exposed)))
    root = type('Root', (), {'new': method})()
    app = webtest.TestApp(pecan.make_app(
        root, hooks=[MicroversionHook(registry)], debug=False))
    got = app.get('/new' + query, headers={
        'OpenStack-API-Version': 'shelf 1.0'}, status=404)
    assert got.json['errors'][0]['code'] == 'microversion.method_not_found'
    answer = app.get('/new?q=1', headers={
        'OpenStack-API-Version': 'shelf 1.2'})
    assert answer.json == {'q': '1'}


def test_query_params_on_a_generic_handler_is_refused_at_import():
    # Pecan calls the function .when() registered: the rules wrapped
    # around it were silently never checked.
    registry = VersionRegistry('shelf', HISTORY)
    with pytest.raises(InvalidDeclarationError, match='registered with '
                                                      r'\.when\(\)'):
        class Generic:
            @pecan.expose(generic=True, template='json')
            def index(self):
                return {}

            @query_params(registry, 'POST /generic', q=param('1.1'))
            @index.when(method='POST', template='json')
            def index_post(self, q=None):
                return {'q': q}
