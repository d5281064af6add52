"""Every framework internal the library relies on, in one place.

Pecan, WSME and WebOb offer no public API for the few things below; each is
named here once, with why it is needed.  Checked against Pecan 1.5-1.7,
WSME 0.12-0.13 and WebOb 1.8; a framework upgrade that breaks one of them
breaks only this module (``tests/test_compat.py`` pins each behaviour).
"""

from __future__ import annotations

import datetime
import decimal
import io
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Optional

import pecan.core
import pecan.rest
import pecan.routing
import wsme.api
import wsme.rest.json
import wsme.types
from pecan.decorators import when_for as _pecan_when_for

__all__ = ['ADHOC_ATTRS_KEY', 'DATAHOLDER_KEY', 'FROMJSON_FUNCTIONS',
           'NO_VALUES', 'RESPONSE_HEADERLIST', 'RESPONSE_STATUS',
           'add_custom_actions', 'choose_json', 'context_app',
           'context_request', 'context_response', 'custom_actions',
           'dataholder', 'dispatch_class', 'exposure', 'function_definition',
           'generic_handlers', 'is_wsme_function', 'lookup_controller',
           'pecan_state', 'plain_attribute', 'plain_getattr',
           'raised_by_controller_call', 'raised_for_missing_slash',
           'refusing_route', 'request_body', 'request_environ',
           'response_content_type',
           'routed_call', 'set_exposure', 'watch_generic_handlers', 'when_for',
           'wsme_dataholder']

#: The WSGI environ dict of WebOb's ad hoc request attributes: the hook
#: writes ``api_version`` there, skipping WebOb's generic ``__setattr__``.
ADHOC_ATTRS_KEY = 'webob.adhoc_attrs'


#: Reads an attribute without the class's own ``__getattribute__``: Pecan's
#: ``Request`` wraps every read in a Python function (a ``UnicodeDecodeError``
#: answered 400), which reading ``environ`` cannot raise.
plain_getattr = object.__getattribute__


def request_environ(request: Any) -> dict[str, Any]:
    """``request.environ``, read past Pecan's wrapper of every attribute
    read (through the ``pecan.request`` proxy, by the proxy)."""
    try:
        return plain_getattr(request, 'environ')  # type: ignore[no-any-return]
    except AttributeError:
        return request.environ  # type: ignore[no-any-return]


#: The instance attributes behind WebOb's ``Response.status`` and
#: ``Response.headerlist`` properties (read with :data:`plain_getattr`, no
#: property call, on every response).
RESPONSE_STATUS = '_status'
_JSON = 'application/json'
RESPONSE_HEADERLIST = '_headerlist'


def context_request() -> Any:
    """The request Pecan is serving in this context, not the
    ``pecan.request`` proxy (whose reads cost a failed and a thread-local
    lookup), from ``pecan.core.state`` (replaced by
    ``Pecan.init_context_local``: read at each call); ``AttributeError``
    outside a request."""
    return pecan.core.state.request


def request_body(request: Any) -> bytes:
    """``request.body``, without WebOb's property once it made the body
    seekable: an ``io.BytesIO`` in ``wsgi.input``, ``CONTENT_LENGTH`` bytes
    from its start, flagged ``webob.is_body_seekable`` (else WebOb reads)."""
    environ = request_environ(request)
    stream = environ.get('wsgi.input')
    length = environ.get('CONTENT_LENGTH')
    if (environ.get('webob.is_body_seekable') and type(stream) is io.BytesIO
            and type(length) is str and length.isdigit()):
        return stream.getvalue()[:int(length)]
    return request.body  # type: ignore[no-any-return]


def context_response() -> Any:
    """The response Pecan is building in this context (see
    :func:`context_request`; ``AttributeError`` outside a request)."""
    return pecan.core.state.response


def context_app() -> Any:
    """The Pecan application serving this context's request (Pecan keeps
    it in ``pecan.core.state``; ``AttributeError`` outside a request)."""
    return pecan.core.state.app


def exposure(function: Any) -> dict[str, Any]:
    """Pecan's exposure settings of ``function`` (its ``_pecan`` dict).

    Needed to give a versioned dispatcher the exposure of its
    implementations, as ``wsmeext.pecan`` itself does; empty if unexposed.
    """
    return getattr(function, '_pecan', None) or {}


def set_exposure(function: Any, config: dict[str, Any]) -> None:
    """Give ``function`` Pecan's exposure settings ``config``."""
    function._pecan = config


def when_for(function: Any) -> Callable[..., Any]:
    """Pecan's ``when`` decorator factory for a generic controller."""
    return _pecan_when_for(function)


def generic_handlers(function: Any) -> dict[str, Any]:
    """The per-method handlers of a Pecan generic controller."""
    return exposure(function).get('generic_handlers', {})


class _WatchedHandlers(dict):  # type: ignore[type-arg]
    """Handlers calling ``check(method, old, new)`` before a replacement."""
    check: Callable[[str, Any, Any], None]

    def __setitem__(self, method: str, handler: Any) -> None:
        if method in self:
            self.check(method, self[method], handler)
        super().__setitem__(method, handler)


def watch_generic_handlers(function: Any,
                           check: Callable[[str, Any, Any], None]) -> None:
    """Have ``check(method, old, new)`` called when Pecan's ``.when`` of the
    generic controller ``function`` registers a second handler for a
    method (Pecan keeps the last one)."""
    config = exposure(function)
    if type(config.get('generic_handlers')) is dict:  # not watched yet
        watched = config['generic_handlers'] = _WatchedHandlers(
            config['generic_handlers'])
        watched.check = check


def custom_actions(controller: Any) -> dict[str, Any]:
    """A ``RestController``'s ``_custom_actions`` (action -> methods)."""
    return getattr(controller, '_custom_actions', None) or {}


def add_custom_actions(controller: Any, **actions: list[str]) -> None:
    """Declare ``RestController`` custom actions (``detail=['GET']``) on a
    controller class or instance, as Pecan reads them: its
    ``_custom_actions``, copied first, so that a parent's stays as it is."""
    controller._custom_actions = {**custom_actions(controller), **actions}


def lookup_controller(controller: Any, remainder: list[str],
                      request: Any) -> Any:
    """Pecan's own object-dispatch step from ``controller``."""
    return pecan.routing.lookup_controller(controller, remainder, request)


def routed_call(state: Any) -> Optional[tuple[Any, tuple[Any, ...],
                                               dict[str, Any]]]:
    """The controller Pecan's routing ``state`` chose and the positional
    and keyword arguments it passes it; ``None`` before they are known.

    Pecan keeps them on its ``RoutingState`` as ``controller`` and an
    ``inspect.Arguments`` (``args``, ``varargs``, ``varkw``) named
    ``arguments``, the keywords after dropping those the controller does
    not take.
    """
    controller = getattr(state, 'controller', None)
    arguments = getattr(state, 'arguments', None)
    if controller is None or arguments is None:
        return None
    return (controller, (*arguments.args, *arguments.varargs),
            arguments.varkw)


def _frames(error: BaseException) -> Iterator[Any]:
    """The frames of ``error``'s own traceback, outermost first.  Pecan's
    ``abort`` raises its HTTP error with the traceback of the exception
    being handled appended (``_lookup`` routes a sub-controller inside an
    ``except``): those frames, past ``abort``'s, are not its own."""
    traceback = error.__traceback__
    while traceback is not None:
        yield traceback.tb_frame
        if traceback.tb_frame.f_code is _ABORT:
            return
        traceback = traceback.tb_next


_ABORT = pecan.core.abort.__code__


def raised_by_controller_call(error: BaseException) -> bool:
    """Whether ``error`` was raised where Pecan calls the controller
    (``Pecan.invoke_controller``), not inside any function it called: its
    traceback ends in that frame, as when the call cannot bind the
    controller's arguments and no frame of the controller was made."""
    frames = list(_frames(error))
    return bool(frames) and frames[-1].f_code is _INVOKE_CONTROLLER


_INVOKE_CONTROLLER = pecan.core.Pecan.invoke_controller.__code__


def raised_binding_path(error: BaseException) -> bool:
    """Whether ``error`` is Pecan's own 404 for a URL path holding more
    segments than the controller it routed to takes: raised while
    ``Pecan.get_args`` bound the path to its arguments (which calls no
    code of the service)."""
    return any(frame.f_code is _GET_ARGS for frame in _frames(error))


_GET_ARGS = pecan.core.Pecan.get_args.__code__


def raised_for_missing_slash(error: BaseException) -> bool:
    """Whether ``error`` is Pecan's ``RuntimeError`` for a POST to a URL
    whose canonical form ends with a slash (``/v1`` for ``/v1/``, under
    ``force_canonical``, Pecan's default): raised by ``Pecan.route``
    itself, which redirects other methods there but not a POST's body."""
    frames = list(_frames(error))
    return isinstance(error, RuntimeError) and bool(frames) and (
        frames[-1].f_code is _ROUTE)


_ROUTE = pecan.core.Pecan.route.__code__


def route_once(wrapper: Any, wrapped: Any) -> None:
    """Leave the custom path segment (``route=``) of an exposed ``wrapped``
    function on the ``wrapper`` that ``functools.update_wrapper`` copied it
    to, alone: Pecan looks for custom routes inside a bound method too,
    and would find the wrapped function's (its ``__wrapped__``) as a
    second one and fail on the "conflict" (see :func:`custom_routed_method`).
    """
    if getattr(wrapper, 'custom_route', None) is not None:
        vars(wrapped).pop('custom_route', None)


def custom_routed_method(error: BaseException) -> Any:
    """The bound method exposed under a custom path segment (``route=``)
    whose routing raised ``error``, Pecan's ``RuntimeError`` "conflicting
    custom path segment", or ``None``.  Pecan raises it when it looks for
    custom routes inside such a method that a decorator made with
    ``functools.wraps`` wraps: it finds the route on the wrapper and again
    on the wrapped function."""
    if not isinstance(error, RuntimeError):
        return None
    return next((frame.f_locals['obj'] for frame in _frames(error)
                 if frame.f_code is _DETECT_ROUTES and isinstance(
                     frame.f_locals.get('obj'), types.MethodType)), None)


_DETECT_ROUTES = pecan.routing._detect_custom_path_segments.__code__


def refusing_route(error: BaseException
                   ) -> Optional[tuple[Any, list[str]]]:
    """The innermost ``RestController`` whose routing ``error`` was raised
    in, and the path below it that it routed: read from the traceback's
    frames of ``RestController._route`` (its ``self`` and ``args``);
    ``None`` if it passed through none."""
    found = None
    for frame in _frames(error):
        if frame.f_code is _REST_ROUTE:
            found = frame.f_locals
    return None if found is None else (found['self'], found['args'])


_REST_ROUTE = pecan.rest.RestController._route.__code__


def pecan_state(request: Any) -> dict[str, Any]:
    """``request.pecan``, Pecan's state of the request (its content type,
    routing arguments, template override), read where WebOb keeps ad hoc
    attributes: the attribute costs Pecan's wrapper and a caught error."""
    try:
        return request_environ(  # type: ignore[no-any-return]
            request)[ADHOC_ATTRS_KEY]['pecan']
    except (KeyError, TypeError):  # no state: as the attribute answers
        return request.pecan  # type: ignore[no-any-return]


def response_content_type(request: Any) -> Optional[str]:
    """The content type Pecan chose for ``request``'s response before
    calling the controller; ``None`` once it called
    ``pecan.override_template``, whose choice then stands.  The compiled
    views (:mod:`pecan_microversions.wsme.views`) render JSON only."""
    state = pecan_state(request)
    if 'override_template' in state or 'override_content_type' in state:
        return None
    return state.get('content_type')  # type: ignore[no-any-return]


def choose_json(request: Any) -> bool:
    """For a response that can only be JSON: make it Pecan's choice where
    the request's ``Accept`` allows JSON at all (``application/json,
    application/xml``, say, for which Pecan picks XML); whether it is
    JSON (or the controller chose for itself, with
    ``pecan.override_template``)."""
    state = pecan_state(request)
    if 'override_template' in state or 'override_content_type' in state:
        return True
    if state.get('content_type') == _JSON:
        return True
    if state.get('extension') or not request.accept.acceptable_offers(
            [_JSON]):
        return False  # /things/a.xml: the client chose by the extension
    state['content_type'] = _JSON
    return True


def is_wsme_function(function: Any) -> bool:
    """Whether ``function`` was exposed by WSME."""
    return bool(wsme.api.iswsmefunction(function))


def function_definition(function: Any) -> Any:
    """WSME's ``FunctionDefinition`` of an exposed function: its return,
    body and argument types, read to check declarations at import."""
    return wsme.api.FunctionDefinition.get(function)


def wsme_dataholder(attribute: Any, instance: Any) -> Optional[Any]:
    """Where a WSME attribute keeps its value on ``instance`` (hiding one
    removes the value there; ``wsattr`` has no public API for that)."""
    return attribute._get_dataholder(instance)


class _NoValues:
    """The data holder of an object none of whose attributes was set."""

    __slots__ = ()


#: The instance ``__dict__`` key of the object where a plain ``wsattr``
#: keeps its values, and the empty holder for none set yet: the compiled
#: views and readers use the holder, not each attribute's descriptor.
DATAHOLDER_KEY = '_wsme_dataholder'
NO_VALUES = _NoValues()


def dataholder(instance: Any) -> Any:
    """Where WSME keeps the attribute values of ``instance``."""
    return instance.__dict__.get(DATAHOLDER_KEY, NO_VALUES)


def plain_attribute(attribute: Any, delegating: tuple[Any, ...] = (),
                    method: str = '__get__') -> bool:
    """Whether reading ``attribute`` is WSME's plain ``wsattr.__get__``
    (``getattr(dataholder(instance), key, default)``); with ``method``
    ``'__set__'``, whether setting it is ``wsattr.__set__`` (the value
    validated, then ``setattr(dataholder(instance), key, value)``).

    :param delegating: ``method`` functions known to do just that for
        this ``attribute``.
    """
    kind = type(attribute)
    found = getattr(kind, method)
    return ((found is getattr(wsme.types.wsattr, method)
             or found in delegating)
            and kind._get_dataholder is wsme.types.wsattr._get_dataholder)


#: WSME's own ``fromjson`` function for each built-in datatype it registers
#: with ``fromjson.when_object`` (a registration nobody can replace:
#: simplegeneric refuses a second function for an object).  The compiled
#: readers (:mod:`pecan_microversions.wsme.readers`) call them directly,
#: skipping the generic dispatch.  WSME exports them by name only.
FROMJSON_FUNCTIONS: Mapping[Any, Callable[[Any, Any], Any]] = {
    wsme.types.bytes: wsme.rest.json.str_fromjson,
    wsme.types.text: wsme.rest.json.text_fromjson,
    int: wsme.rest.json.numeric_fromjson,
    float: wsme.rest.json.numeric_fromjson,
    bool: wsme.rest.json.bool_fromjson,
    decimal.Decimal: wsme.rest.json.decimal_fromjson,
    datetime.date: wsme.rest.json.date_fromjson,
    datetime.time: wsme.rest.json.time_fromjson,
    datetime.datetime: wsme.rest.json.datetime_fromjson,
}


def dispatch_class(generic: Any, obj: Any) -> Optional[type]:
    """Where a simplegeneric function of WSME's (``fromjson``,
    ``from_param``) sends ``obj``: ``None`` when a function is registered
    for ``obj`` itself (``when_object``), else the first class of
    ``type(obj)``'s MRO with one (``when_type``); ``object`` means the
    generic's own body.  Read from simplegeneric's ``has_object`` and
    ``has_type``, the order its dispatch tries them.
    """
    if generic.has_object(obj):
        return None
    return next(k for k in type(obj).__mro__ if generic.has_type(k))
