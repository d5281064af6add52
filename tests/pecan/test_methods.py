"""Declaring versioned methods: import-time errors, metadata, history."""

import functools

import pecan
import pytest
import webtest
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import MicroversionHook, Version, VersionRegistry
from pecan_microversions.core.changes import (
    METHOD,
    RESOURCE,
    MethodChange,
    method_changes,
)
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    InvertedRangeError,
    MismatchedExposureError,
    OverlappingVersionsError,
    RegistryError,
    UnknownVersionError,
    VersionedMethodError,
)
from pecan_microversions.pecan.methods import api_version
from pecan_microversions.pecan.subresources import ResourceRange
from tests import methods_app


def fresh():
    return VersionRegistry('test', [(f'1.{n}', f'v{n}') for n in range(7)])


# -- Overlapping ranges fail while the class body runs ------------------------

def test_overlap_fails_at_class_definition_with_both_ranges():
    registry = fresh()
    with pytest.raises(OverlappingVersionsError) as info:
        class Things(rest.RestController):
            @api_version(registry, '1.1', '1.3')
            @pecan.expose('json')
            def get_all(self):
                return {}

            @get_all.version('1.3')
            @pecan.expose('json')
            def get_all(self):
                return {}

    message = str(info.value)
    assert 'get_all for 1.3 and later overlaps the implementation for ' \
           '1.1 to 1.3' in message
    assert 'both claim 1.3' in message
    assert 'test_methods.py:' in message   # both definitions are located
    assert isinstance(info.value, VersionedMethodError)
    assert isinstance(info.value, RegistryError)


def test_overlap_of_unbounded_ranges():
    registry = fresh()
    with pytest.raises(OverlappingVersionsError, match=r'both claim 1\.4 and'):
        class C:
            @api_version(registry, '1.1')
            @pecan.expose('json')
            def m(self):
                return {}

            @m.version('1.4')
            @pecan.expose('json')
            def m(self):
                return {}


def test_overlap_with_any_earlier_implementation():
    registry = fresh()
    with pytest.raises(OverlappingVersionsError,
                       match=r'1\.0 to 1\.5 overlaps .* 1\.2 to 1\.3 .* '
                             r'\(both claim 1\.2 to 1\.3\)'):
        class C:
            @api_version(registry, '1.2', '1.3')
            @pecan.expose('json')
            def m(self):
                return {}

            @m.version('1.6')
            @pecan.expose('json')
            def m(self):
                return {}

            @m.version('1.0', '1.5')
            @pecan.expose('json')
            def m(self):
                return {}


def test_failed_declaration_is_not_recorded():
    registry = fresh()
    with pytest.raises(OverlappingVersionsError):
        class C:
            @api_version(registry, '1.1', '1.2')
            @pecan.expose('json')
            def m(self):
                return {}

            @m.version('1.2')
            @pecan.expose('json')
            def m(self):
                return {}
    assert [(d.min_version, d.max_version) for d in registry.declarations()] == [
        (Version(1, 1), Version(1, 2))]


def test_adjacent_ranges_and_gaps_are_allowed():
    registry = fresh()

    class C:
        @api_version(registry, '1.0', '1.1')
        @pecan.expose('json')
        def m(self):
            return 'a'

        @m.version('1.2', '1.2')
        @pecan.expose('json')
        def m(self):
            return 'b'

        @m.version('1.5')
        @pecan.expose('json')
        def m(self):
            return 'c'

    versioned = C.m.versioned
    assert versioned.ranges() == '1.0 to 1.1, 1.2, 1.5 and later'
    assert [versioned.exists_at(Version(1, n)) for n in range(7)] == [
        True, True, True, False, False, True, True]
    assert versioned.select(Version(1, 3)) is None
    assert versioned.select(Version(1, 2)).min_version == Version(1, 2)


def test_extending_does_not_change_the_earlier_dispatcher():
    registry = fresh()
    first = api_version(registry, '1.0', '1.1')(_named('m'))
    extended = first.version('1.2')(_named('m'))
    assert extended is not first
    assert len(first.versioned.implementations) == 1
    assert len(extended.versioned.implementations) == 2


def _named(name):
    def function(self):
        return name
    function.__name__ = name
    function.__qualname__ = name
    return pecan.expose('json')(function)


# -- Bad versions -------------------------------------------------------------

@pytest.mark.parametrize('low,high,bad', [
    ('1.9', None, 'min_version names version 1.9'),
    ('1.1', '2.0', 'max_version names version 2.0'),
    ('1.01', None, 'min_version: Invalid version string'),
    ((1, 7), None, 'min_version names version 1.7'),
])
def test_unknown_version_fails_at_decoration(low, high, bad):
    registry = fresh()
    with pytest.raises(UnknownVersionError, match=bad):
        api_version(registry, low, high)(_named('m'))
    assert list(registry.declarations()) == []


def test_unknown_version_in_a_later_implementation():
    registry = fresh()
    first = api_version(registry, '1.0', '1.1')(_named('m'))
    with pytest.raises(UnknownVersionError, match='names version 3.1'):
        first.version('3.1')(_named('m'))


def test_inverted_range():
    registry = fresh()
    with pytest.raises(InvertedRangeError,
                       match='max_version 1.1 is below min_version 1.3'):
        api_version(registry, '1.3', '1.1')(_named('m'))
    first = api_version(registry, '1.0', '1.1')(_named('m'))
    with pytest.raises(InvertedRangeError):
        first.version('1.5', '1.4')(_named('m'))
    with pytest.raises(InvertedRangeError):
        ResourceRange(registry, '/x', '1.4', '1.2')
    assert issubclass(InvertedRangeError, InvalidDeclarationError)


def test_resource_range_unknown_version():
    with pytest.raises(UnknownVersionError, match='Resource /x: max_version'):
        ResourceRange(fresh(), '/x', '1.0', '1.8')


@pytest.mark.parametrize('status', [400, 403, 410, 500, '404'])
def test_missing_status_must_be_404_or_405(status):
    with pytest.raises(InvalidDeclarationError, match='404 or 405'):
        api_version(fresh(), '1.0', missing_status=status)


# -- Implementations must be routed alike -------------------------------------

def _declare_pair(first, second):
    registry = fresh()
    dispatcher = api_version(registry, '1.0', '1.2')(first)
    return dispatcher.version('1.3')(second)


def test_mismatched_exposure_exposed_and_not():
    def m(self):
        return {}
    with pytest.raises(MismatchedExposureError,
                       match="has exposed False but .* has True"):
        _declare_pair(_named('m'), m)


def test_mismatched_exposure_template():
    def m(self):
        return {}
    with pytest.raises(MismatchedExposureError, match='template'):
        _declare_pair(_named('m'), pecan.expose('mako:m.html')(m))


def test_mismatched_exposure_arguments():
    class C:
        @pecan.expose('json')
        def m(self, ident):
            return {}

        @pecan.expose('json')
        def n(self, other):
            return {}
    C.n.__name__ = 'm'
    with pytest.raises(MismatchedExposureError, match='arguments'):
        _declare_pair(C.m, C.n)


def test_mismatched_exposure_defaults():
    class C:
        @pecan.expose('json')
        def m(self, limit=10):
            return {}

    def other(self, limit=20):
        return {}
    other.__name__ = 'm'
    with pytest.raises(MismatchedExposureError, match='arguments'):
        _declare_pair(C.m, pecan.expose('json')(other))


def test_mismatched_exposure_generic():
    def m(self):
        return {}
    generic = pecan.expose(generic=True, template='json')(m)
    with pytest.raises(MismatchedExposureError, match='generic'):
        _declare_pair(_named('m'), generic)


def test_mismatched_exposure_name():
    with pytest.raises(MismatchedExposureError,
                       match="decorates 'post_v2'; every implementation must "
                             "be named 'post'"):
        _declare_pair(_named('post'), _named('post_v2'))


def test_wsexpose_implementations_may_differ_in_types_only():
    class Old(wtypes.Base):
        name = wtypes.text

    class New(wtypes.Base):
        name = wtypes.text
        size = int

    registry = fresh()

    class C(rest.RestController):
        @api_version(registry, '1.0', '1.2')
        @wsexpose(Old, body=Old)
        def post(self, body):
            return body

        @post.version('1.3')
        @wsexpose(New, body=New, status_code=201)
        def post(self, body):
            return body

    assert len(C.post.versioned.implementations) == 2
    with pytest.raises(MismatchedExposureError, match='arguments'):
        class D(rest.RestController):
            @api_version(registry, '1.0', '1.2')
            @wsexpose(Old, body=Old)
            def post(self, body):
                return body

            @post.version('1.3')
            @wsexpose(New, wtypes.text, body=New)
            def post(self, ident, body):
                return body


def test_api_version_twice_is_an_error():
    registry = fresh()
    dispatcher = api_version(registry, '1.0')(_named('m'))
    with pytest.raises(MismatchedExposureError, match=r'@m\.version'):
        api_version(registry, '1.2')(dispatcher)


def test_api_version_above_when_is_an_error():
    registry = fresh()
    with pytest.raises(MismatchedExposureError, match='below the generic'):
        class C:
            @pecan.expose(generic=True, template='json')
            def thing(self):
                return {}

            @api_version(registry, '1.2')
            @thing.when(method='POST', template='json')
            def thing_post(self):
                return {}


@pytest.mark.parametrize('second_name', ['_put', '_put_v2'])
def test_a_second_when_handler_for_a_versioned_method_is_an_error(
        second_name):
    """``.when`` for the same HTTP method twice keeps the last handler:
    the first one's versions would be lost (Nova's style of redefining,
    with the generic handler's ``.when`` above each)."""
    registry = fresh()
    with pytest.raises(VersionedMethodError) as info:
        class C:
            @pecan.expose(generic=True, template='json')
            def config(self):
                return {}

            @config.when(method='PUT', template='json')
            @api_version(registry, '1.1', '1.2')
            def _put(self):
                return {'put': 1}

            def second(self):
                return {'put': 2}

            second.__name__ = second.__qualname__ = second_name
            config.when(method='PUT', template='json')(
                api_version(registry, '1.3')(second))
    message = str(info.value)
    assert 'a second PUT handler replaces the one at' in message
    assert '(1.1 to 1.2)' in message and '@_put.version(...)' in message


def test_a_when_handler_extending_its_versioned_method_is_fine():
    registry = fresh()

    class C:
        @pecan.expose(generic=True, template='json')
        def config(self):
            return {'get': True}

        @config.when(method='PUT', template='json')
        @api_version(registry, '1.1', '1.2')
        def _put(self):
            return {'put': 1}

        @config.when(method='PUT', template='json')
        @_put.version('1.3')
        def _put(self):  # noqa: F811
            return {'put': 2}

    app = webtest.TestApp(pecan.make_app(
        C(), hooks=[MicroversionHook(registry)]))
    for version, put in (('1.2', 1), ('1.3', 2)):
        assert app.put('/config', headers={
            'OpenStack-API-Version': f'test {version}'}).json == {'put': put}


# -- The dispatcher looks like its implementations to Pecan -------------------

def test_dispatcher_exposure_and_signature():
    import inspect

    from pecan.util import _cfg, getargspec

    get_one = methods_app.ThingsController.get_one
    impl = get_one.versioned.implementations[0].function
    assert get_one.exposed is True
    assert get_one.__name__ == 'get_one'
    assert _cfg(get_one)['content_types'] == _cfg(impl)['content_types']
    assert _cfg(get_one)['argspec'] == _cfg(impl)['argspec']
    assert getargspec(get_one) == getargspec(impl)
    hello = methods_app.V1Controller.hello
    assert getargspec(hello).args == ['self', 'name']
    assert list(inspect.signature(hello).parameters) == ['self', 'name']
    assert _cfg(hello)['argspec'].defaults == ('world',)


def test_generic_dispatcher_owns_its_handlers():
    from pecan.util import _cfg

    gadget = methods_app.V1Controller.gadget
    handlers = _cfg(gadget)['generic_handlers']
    assert handlers['DEFAULT'] is gadget
    assert sorted(handlers) == ['DEFAULT', 'DELETE', 'POST']
    assert handlers['POST'].versioned.missing_status == 405


def test_calling_outside_a_request_needs_the_hook():
    controller = methods_app.V1Controller()
    with pytest.raises(RuntimeError, match='MicroversionHook'):
        controller.hello()


# -- The registry lists what each version added, removed, changed -------------

def test_every_implementation_is_declared():
    registry = methods_app.REGISTRY
    methods = list(registry.declarations(kind=METHOD,
                                         owner='POST /v1/things'))
    assert [(d.name, d.min_version, d.max_version) for d in methods] == [
        ('post', Version(1, 0), Version(1, 4)),
        ('post', Version(1, 5), None)]
    resources = {d.owner for d in registry.declarations(kind=RESOURCE)}
    assert resources == {'/v1/things/{id}/parts', '/v1/shelves/{shelf}',
                         '/v1/routed/extra'}


def test_declarations_at_a_version():
    at_1_0 = {d.owner for d in methods_app.REGISTRY.declarations(
        kind=METHOD, at=Version(1, 0))}
    assert at_1_0 == {'POST /v1/things', 'DELETE /v1/things/{id}'}


@pytest.mark.parametrize('version,expected', [
    ('1.0', [
        ('added', METHOD, 'DELETE /v1/things/{id}', 'delete'),
        ('added', METHOD, 'POST /v1/things', 'post'),
    ]),
    ('1.3', [
        ('removed', METHOD, 'GET /v1/greet', 'greet'),
        ('added', METHOD, 'GET /v1/shelves/{shelf}/books', 'books'),
        ('added', METHOD, 'PATCH /v1/things/{id}', 'patch'),
        ('added', METHOD, 'POST /v1/things/{id}/rename', 'rename'),
        ('added', RESOURCE, '/v1/routed/extra', '*'),
        ('added', RESOURCE, '/v1/things/{id}/parts', '*'),
    ]),
    ('1.5', [
        ('removed', METHOD, 'POST /v1/gadget', '_gadget_post'),
        ('changed', METHOD, 'POST /v1/things', 'post'),
        ('removed', METHOD, 'PUT /v1/things/{id}', 'put'),
        ('removed', METHOD, 'GET /v1/routed/{any}', 'show'),
        ('removed', RESOURCE, '/v1/shelves/{shelf}', '*'),
    ]),
])
def test_method_changes(version, expected):
    changes = method_changes(methods_app.REGISTRY, version)
    assert all(isinstance(c, MethodChange) for c in changes)
    assert sorted(changes) == sorted(MethodChange(*e) for e in expected)


def test_method_changes_unknown_version():
    with pytest.raises(UnknownVersionError):
        method_changes(methods_app.REGISTRY, '9.9')


def test_default_owner_is_the_controller_path():
    registry = fresh()

    class Things:
        @api_version(registry, '1.2')
        @pecan.expose('json')
        def m(self):
            return {}

    (declaration,) = registry.declarations()
    assert declaration.owner == (
        'tests.pecan.test_methods.test_default_owner_is_the_controller_path.'
        '<locals>.Things')
    assert declaration.name == 'm'
    assert method_changes(registry, '1.2') == [
        MethodChange('added', METHOD, declaration.owner, 'm')]


def test_api_version_over_a_wrapper_routes_in_a_rest_controller():
    """api_version above another decorator whose wrapper takes (*args,
    **kwargs): Pecan must still read the method's real arguments (it used
    to recurse through the dispatcher's closure: a 500)."""
    import webtest
    from pecan import rest

    from pecan_microversions import MicroversionHook, query_params

    registry = VersionRegistry('wrap', [('1.0', 'a'), ('1.1', 'b')])

    class Things(rest.RestController):
        @api_version(registry, '1.1', missing_status=405)
        @query_params(registry, 'PATCH /things/{id}')
        @pecan.expose('json')
        def patch(self, thing_id):
            return {'patched': thing_id}

        @pecan.expose('json')
        def get_one(self, thing_id):
            return {'id': thing_id}

    app = webtest.TestApp(pecan.make_app(
        Things(), hooks=[MicroversionHook(registry)]))
    at_1_1 = {'OpenStack-API-Version': 'wrap 1.1'}
    assert app.patch('/t1', headers=at_1_1).json == {'patched': 't1'}
    assert app.patch('/t1', headers={'OpenStack-API-Version': 'wrap 1.0'},
                     status=405).json['errors'][0]['code'] == (
        'microversion.method_not_allowed')
    assert app.patch('/t1?x=1', headers=at_1_1,
                     status=400).json['errors'][0]['code'] == (
        'microversion.unknown_query_parameter')


def test_nova_style_redefinition_is_an_error():
    """Defining the method again with @api_version (Nova's idiom) would keep
    only the last definition: refused at import, naming the fix."""
    registry = fresh()
    with pytest.raises(VersionedMethodError) as info:
        class Things(rest.RestController):
            @api_version(registry, '1.0', '1.1')
            @pecan.expose('json')
            def get_all(self):
                return {}

            @api_version(registry, '1.2')  # noqa: F811
            @pecan.expose('json')
            def get_all(self):  # noqa: F811
                return {}
    message = str(info.value)
    assert "@get_all.version('1.2')" in message
    assert '1.0 to 1.1' in message and 'never run' in message
    assert len(list(registry.declarations())) == 1  # the refused one is not


def test_redefinition_under_an_outer_wrapper_is_an_error():
    registry = fresh()

    def outer(function):
        return functools.wraps(function)(
            lambda *args, **kwargs: function(*args, **kwargs))

    with pytest.raises(VersionedMethodError, match=r"@m\.version\('1\.3', "
                                                   r"'1\.4'\)"):
        class C:
            @outer
            @api_version(registry, '1.1')
            @pecan.expose('json')
            def m(self):
                return {}

            @outer  # noqa: F811
            @api_version(registry, '1.3', '1.4')
            @pecan.expose('json')
            def m(self):  # noqa: F811
                return {}


def test_same_name_in_another_class_is_not_a_redefinition():
    registry = fresh()

    class A:
        @api_version(registry, '1.1')
        @pecan.expose('json')
        def m(self):
            return {}

    class B(A):
        @api_version(registry, '1.3')
        @pecan.expose('json')
        def m(self):
            return {}

    assert B.m.versioned.implementations[0].min_version == Version(1, 3)


def test_generic_handlers_may_share_a_name():
    """``.when`` registers each handler by HTTP method: the Python name
    they share is not a redefinition."""
    registry = fresh()

    class Gadget:
        @pecan.expose(generic=True, template='json')
        def index(self):
            return {'get': True}

        @index.when(method='POST', template='json')
        @api_version(registry, '1.1')
        def _handler(self):
            return {'post': True}

        @index.when(method='DELETE', template='json')  # noqa: F811
        @api_version(registry, '1.2')
        def _handler(self):  # noqa: F811
            return {'delete': True}

    app = webtest.TestApp(pecan.make_app(
        Gadget(), hooks=[MicroversionHook(registry)]))
    headers = {'OpenStack-API-Version': 'test 1.2'}
    assert app.post('/', headers=headers).json == {'post': True}
    assert app.delete('/', headers=headers).json == {'delete': True}


def test_one_name_outside_a_class_body_is_not_a_redefinition():
    """Functions made in a loop or a factory, each put in a class of its
    own (``type()``), are separate methods."""
    registry = fresh()
    made = []
    for low, high in (('1.0', '1.1'), ('1.2', None)):
        @api_version(registry, low, high)
        @pecan.expose('json')
        def get_all(self):
            return {}

        made.append(type('C', (rest.RestController,), {'get_all': get_all}))
    assert [c.get_all.versioned.implementations[0].min_version
            for c in made] == [Version(1, 0), Version(1, 2)]
