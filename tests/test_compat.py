"""Pins each framework behaviour compat.py relies on."""

import io

import pecan
import pytest
import webob
import webtest
from pecan import rest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import compat


def test_exposure_round_trip():
    @pecan.expose('json')
    def exposed(self):
        return {}

    def plain(self):
        return {}

    config = compat.exposure(exposed)
    assert config['content_type'] == 'application/json'
    assert config['template'] == ['json']
    assert compat.exposure(plain) == {}
    compat.set_exposure(plain, dict(config))
    assert compat.exposure(plain) == config
    assert plain._pecan == config


def test_generic_handlers_and_when_for():
    class Root:
        @pecan.expose(generic=True)
        def index(self):
            return 'any'

        @index.when(method='POST')
        def index_post(self):
            return 'post'

        @pecan.expose(generic=True)
        def other(self):
            return 'o'

    handlers = compat.generic_handlers(Root.index)
    assert handlers['POST'] is Root.__dict__['index_post']
    assert handlers['DEFAULT'] is Root.__dict__['index']
    assert compat.generic_handlers(lambda: None) == {}

    @compat.when_for(Root.other)(method='PUT')
    def other_put(self):
        return 'put'

    Root.other_put = other_put
    assert compat.generic_handlers(Root.other)['PUT'] is other_put
    app = webtest.TestApp(pecan.make_app(Root()))
    assert app.post('/').text == 'post'
    assert app.put('/other').text == 'put'


def test_custom_actions():
    class Things(rest.RestController):
        _custom_actions = {'reboot': ['POST'], 'status': ['GET']}

    assert compat.custom_actions(Things()) == {'reboot': ['POST'],
                                               'status': ['GET']}
    assert compat.custom_actions(rest.RestController()) == {}
    assert compat.custom_actions(object()) == {}


def test_add_custom_actions_routes_them_and_leaves_the_class_alone():
    class Things(rest.RestController):
        _custom_actions = {'reboot': ['POST']}

        @pecan.expose()
        def reboot(self, ident):
            return f'reboot {ident}'

        @pecan.expose()
        def detail(self):
            return 'detail'

        @pecan.expose()
        def get_one(self, ident):
            return f'one {ident}'

    things = Things()
    compat.add_custom_actions(things, detail=['GET'])
    assert compat.custom_actions(things) == {'reboot': ['POST'],
                                             'detail': ['GET']}
    assert compat.custom_actions(Things) == {'reboot': ['POST']}

    class Root:
        pass

    Root.things = things
    app = webtest.TestApp(pecan.make_app(Root()))
    assert app.get('/things/detail').text == 'detail'
    assert app.post('/things/t1/reboot').text == 'reboot t1'
    unchanged = Root.things = Things()
    assert webtest.TestApp(pecan.make_app(Root())).get(
        '/things/detail').text == 'one detail'
    assert compat.custom_actions(unchanged) == {'reboot': ['POST']}


def test_lookup_controller_routes():
    class Sub:
        @pecan.expose()
        def leaf(self):
            return 'leaf'

    class Root:
        sub = Sub()

    request = webob.Request.blank('/sub/leaf')
    request.pecan = {}
    controller, remainder = compat.lookup_controller(
        Root().sub, ['leaf'], request)
    assert controller.__func__ is Sub.leaf
    assert remainder == []


def test_wsme_function_and_definition():
    class Thing(wtypes.Base):
        name = wtypes.text

    @wsexpose(Thing, wtypes.text, int, body=Thing)
    def method(self, a, b, thing):
        return thing

    @pecan.expose()
    def plain(self):
        return ''

    assert compat.is_wsme_function(method) is True
    assert compat.is_wsme_function(plain) is False
    definition = compat.function_definition(method)
    assert definition.return_type is Thing
    assert definition.body_type is Thing
    assert [a.name for a in definition.arguments] == ['a', 'b', 'thing']
    assert [a.datatype for a in definition.arguments] == [wtypes.text, int,
                                                          Thing]


def test_wsme_dataholder_removal_makes_the_attribute_unset():
    class Thing(wtypes.Base):
        name = wtypes.text
        size = int

    thing = Thing(name='n', size=3)
    attribute = next(a for a in wtypes.list_attributes(Thing)
                     if a.key == 'size')
    assert isinstance(attribute, wtypes.wsattr)
    holder = compat.wsme_dataholder(attribute, thing)
    assert holder.size == 3
    del holder.size
    assert thing.size is wtypes.Unset
    assert thing.name == 'n'


def test_adhoc_attrs_key_is_where_webob_stores_attributes():
    request = webob.Request.blank('/')
    request.foo = 1
    assert request.environ[compat.ADHOC_ATTRS_KEY] == {'foo': 1}
    request.environ[compat.ADHOC_ATTRS_KEY]['bar'] = 2
    assert request.bar == 2


def test_context_request_and_response_are_pecans_own_objects():
    seen = {}

    class Root:
        @pecan.expose()
        def index(self):
            seen['request'] = compat.context_request()
            seen['response'] = compat.context_response()
            seen['same'] = (seen['request'].path == pecan.request.path
                            and seen['request'] is not pecan.request)
            pecan.response.status = 202
            return 'ok'

    app = webtest.TestApp(pecan.make_app(Root()))
    response = app.get('/')
    assert seen['same']
    assert isinstance(seen['request'], webob.Request)
    assert isinstance(seen['response'], webob.Response)
    assert response.status_int == 202  # set through the proxy, same object
    assert seen['response'].status_int == 202


def test_request_body_reads_what_webob_reads():
    body = b'{"a": 1}' + b' ' * 100
    request = webob.Request.blank('/', method='POST', body=body)
    assert compat.request_body(request) == body  # not yet seekable: WebOb
    request.make_body_seekable()
    assert request.environ.get('webob.is_body_seekable')
    request.body_file.read(3)  # a position elsewhere does not matter
    assert compat.request_body(request) == body == request.body
    request.environ['CONTENT_LENGTH'] = '4'  # WebOb reads that many bytes
    assert compat.request_body(request) == request.body == body[:4]
    chunked = webob.Request.blank('/', method='POST')
    chunked.environ['wsgi.input'] = io.BytesIO(b'xyz')
    chunked.environ['wsgi.input_terminated'] = True
    chunked.environ.pop('CONTENT_LENGTH', None)
    assert compat.request_body(chunked) == b'xyz'


def test_pecan_state_is_request_pecan_read_or_written():
    seen = {}

    class Root:
        @pecan.expose('json')
        def index(self):
            request = compat.context_request()
            state = compat.pecan_state(request)
            seen['same'] = state is request.pecan is compat.pecan_state(
                pecan.request)  # the proxy too
            seen['content_type'] = state['content_type']
            state['marker'] = 1  # Pecan's own dict, not a copy
            seen['written'] = pecan.request.pecan.get('marker')
            return {}

    webtest.TestApp(pecan.make_app(Root())).get('/')
    assert seen == {'same': True, 'content_type': 'application/json',
                    'written': 1}
    with pytest.raises(AttributeError):  # as request.pecan: no state
        compat.pecan_state(webob.Request.blank('/'))


def test_request_environ_is_the_environ_through_any_handle():
    seen = {}

    class Root:
        @pecan.expose('json')
        def index(self):
            environ = pecan.request.environ
            own = compat.context_request()
            seen['same'] = (compat.request_environ(pecan.request) is environ
                            and compat.request_environ(own) is environ)
            return {}

    webtest.TestApp(pecan.make_app(Root())).get('/')
    assert seen == {'same': True}
    plain = webob.Request.blank('/')
    assert compat.request_environ(plain) is plain.environ

def test_fromjson_functions_are_what_fromjson_dispatches_to():
    import datetime
    import decimal

    import pytest
    from wsme.rest.json import fromjson
    samples = {bytes: 'x', str: 'x', int: '3', float: 2, bool: 'true',
               decimal.Decimal: '1.5', datetime.date: '2026-01-02',
               datetime.time: '03:04:05',
               datetime.datetime: '2026-01-02T03:04:05'}
    assert set(compat.FROMJSON_FUNCTIONS) == set(samples)
    for datatype, function in compat.FROMJSON_FUNCTIONS.items():
        assert fromjson.has_object(datatype)
        assert function(datatype, samples[datatype]) == fromjson(
            datatype, samples[datatype])
        # simplegeneric keeps the first function registered for an object.
        with pytest.raises(TypeError):
            fromjson.when_object(datatype)(lambda datatype, value: value)


def test_dispatch_class_is_where_simplegeneric_sends_a_value():
    import wsme.rest.args
    from wsme.rest.json import fromjson
    assert compat.dispatch_class(fromjson, str) is None  # when_object
    assert compat.dispatch_class(fromjson, wtypes.ArrayType(int)) is \
        wtypes.ArrayType  # when_type
    assert compat.dispatch_class(fromjson, wtypes.Enum(str, 'a')) is object
    assert compat.dispatch_class(wsme.rest.args.from_param, str) is object
    assert compat.dispatch_class(wsme.rest.args.from_param,
                                 wtypes.Enum(str, 'a')) is wtypes.UserType


def test_routed_call_reads_pecan_routing_state():
    """Pecan's RoutingState: the chosen controller and the arguments it is
    called with (named query parameters among the positional ones, the
    rest as keywords when the controller takes them)."""
    seen = {}

    class Hook(pecan.hooks.PecanHook):
        def before(self, state):
            seen['routed'] = compat.routed_call(state)

    class Root:
        @pecan.expose('json')
        def items(self, first, size=None, **others):
            return {'first': first, 'size': size, 'others': others}

        @pecan.expose('json')
        def spread(self, first, *rest):
            return {'first': first, 'rest': rest}

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[Hook()]))
    assert app.get('/items/a?size=2&other=1').json == {
        'first': 'a', 'size': '2', 'others': {'other': '1'}}
    controller, args, keywords = seen['routed']
    assert controller.__func__ is Root.items
    assert args == ('a', '2')
    assert keywords == {'other': '1'}
    assert app.get('/spread/a/b/c?unknown=1').json == {
        'first': 'a', 'rest': ['b', 'c']}
    assert seen['routed'][1:] == (('a', 'b', 'c'), {})
    assert compat.routed_call(object()) is None


def test_raised_by_controller_call_tells_the_call_from_its_inside():
    """Pecan.invoke_controller makes the call: a TypeError binding the
    controller's arguments ends its traceback there; one from inside the
    controller has the controller's frame after it."""
    seen = {}

    class Hook(pecan.hooks.PecanHook):
        def on_error(self, state, e):
            seen[state.request.path] = compat.raised_by_controller_call(e)
            return webob.Response(status=500)

    class Root:
        @pecan.expose('json')
        def needs(self, name):
            return {}

        @pecan.expose('json')
        def broken(self):
            return len(1)

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[Hook()]))
    app.get('/needs', expect_errors=True)
    app.get('/broken', expect_errors=True)
    assert seen == {'/needs': True, '/broken': False}
    assert not compat.raised_by_controller_call(TypeError('no traceback'))


def test_raised_for_missing_slash_is_pecans_refused_post_redirect():
    """Under force_canonical, Pecan.route raises a RuntimeError for a POST
    to ``/sub`` whose index is ``/sub/``; one raised by a controller is
    not it."""
    seen = {}

    class Hook(pecan.hooks.PecanHook):
        def on_error(self, state, e):
            seen[state.request.path] = compat.raised_for_missing_slash(e)
            return webob.Response(status=500)

    class Sub:
        @pecan.expose()
        def index(self):
            return 'sub'

    class Root:
        sub = Sub()

        @pecan.expose()
        def broken(self):
            raise RuntimeError('the controller')

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[Hook()]))
    app.post('/sub', expect_errors=True)
    app.post('/broken', expect_errors=True)
    assert seen == {'/sub': True, '/broken': False}
    assert not compat.raised_for_missing_slash(RuntimeError('no traceback'))


def test_context_app_is_the_pecan_app_serving_the_request():
    seen = {}

    class Root:
        @pecan.expose()
        def index(self):
            seen['app'] = compat.context_app()
            return 'ok'

    app = pecan.make_app(Root())  # Pecan inside RecursiveMiddleware
    webtest.TestApp(app).get('/')
    assert isinstance(seen['app'], pecan.core.Pecan)
    assert seen['app'] is app.application
    with pytest.raises(AttributeError):
        compat.context_app()


def test_plain_reads_see_what_pecan_and_webob_read():
    """The hook reads ``environ`` past Pecan's ``Request.__getattribute__``
    and WebOb's response properties through their instance attributes."""
    request = pecan.core.Request.blank('/x')
    assert type(request).__getattribute__ is not object.__getattribute__
    assert compat.plain_getattr(request, 'environ') is request.environ
    response = pecan.core.Response()
    response.status = 404
    response.headerlist.append(('X-Test', '1'))
    status = compat.plain_getattr(response, compat.RESPONSE_STATUS)
    assert status == response.status == '404 Not Found'
    assert compat.plain_getattr(response, compat.RESPONSE_HEADERLIST) is (
        response.headerlist)


def test_refusing_route_is_the_innermost_rest_controller_routing():
    """The RestController whose _route raised, with the path it routed;
    Pecan routes into a sub-controller only from one's _route."""
    seen = {}

    class Parts(rest.RestController):
        @pecan.expose('json')
        def get_all(self):
            return []

    class Things(rest.RestController):
        parts = Parts()

        @pecan.expose('json')
        def get_one(self, ident):
            return {}

    class Hook(pecan.hooks.PecanHook):
        def on_error(self, state, e):
            seen[state.request.path] = compat.refusing_route(e)
            return webob.Response(status=500)

    class Root:
        things = Things()

    app = webtest.TestApp(pecan.make_app(Root(), hooks=[Hook()]))
    app.put('/things/t1', expect_errors=True)
    app.put('/things/t1/parts/p', expect_errors=True)
    (things, remainder), (parts, below) = (seen['/things/t1'],
                                           seen['/things/t1/parts/p'])
    assert (type(things), remainder) == (Things, ['t1'])
    assert (type(parts), below) == (Parts, ['p'])
    assert compat.refusing_route(ValueError('no traceback')) is None


def test_route_once_leaves_pecan_one_route_in_a_bound_method():
    import functools
    import types

    import pecan.routing

    observed = vars(pecan.routing)['__observed_controllers__']
    routes = vars(pecan.routing)['__custom_routes__']

    def forget():  # Pecan remembers bound methods' routes for the process
        observed.discard(types.MethodType)
        for key in [k for k in routes if k[0] is types.MethodType]:
            del routes[key]

    def wrapper_of_routed():
        def routed(self):
            return {}
        inner = pecan.expose('json', route='routed.json')(routed)
        return functools.update_wrapper(lambda self: inner(self), inner)

    class Holder:
        plain = wrapper_of_routed()
        once = wrapper_of_routed()

    compat.route_once(Holder.once, Holder.once.__wrapped__)
    try:
        forget()
        with pytest.raises(RuntimeError, match='conflicting custom path'):
            pecan.routing._detect_custom_path_segments(Holder().plain)
        forget()
        pecan.routing._detect_custom_path_segments(Holder().once)
        assert Holder.once.custom_route == 'routed.json'
    finally:
        forget()
