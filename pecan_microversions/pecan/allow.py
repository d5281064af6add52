"""The ``Allow`` header of a 405: the HTTP methods a URL answers at a
version, versioned handlers counted only inside their ranges."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, Optional

import pecan.rest
import pecan.util

from pecan_microversions.compat import (
    ADHOC_ATTRS_KEY,
    custom_actions,
    exposure,
    function_definition,
    generic_handlers,
    is_wsme_function,
    request_environ,
)
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.request import current_request

__all__ = ['allowed_methods', 'collection_methods', 'exists_at_version',
           'noted_route', 'note_route', 'parent_count', 'path_argument',
           'rest_methods', 'routing_arguments', 'unfilled_path',
           'url_handlers', 'url_methods']

_REST_COLLECTION = {'GET': ('get_all', 'get'), 'POST': ('post',),
                    'HEAD': ('head',)}
#: The environ key of the RestController that routed the request last, the
#: path below it and how many parents' identifiers Pecan passes its methods
#: first (see :func:`note_route`).
_ROUTE_KEY = 'pecan_microversions.rest_route'
_REST_ITEM = {'GET': ('get_one', 'get'), 'PUT': ('put',), 'PATCH': ('patch',),
              'DELETE': ('delete',), 'HEAD': ('head',)}
#: The handlers Pecan routes each method to below a ``RestController``'s own
#: URL (``POST`` reaches ``post`` with the path's segments), and where it
#: looks for a custom action's name in the path: the last segment for
#: ``GET`` and ``POST``, the first for ``PUT`` and ``DELETE``; none for the
#: others.
_REST_URL = {**_REST_ITEM, 'POST': ('post',)}
_ACTION_AT = {'GET': -1, 'POST': -1, 'PUT': 0, 'DELETE': 0}
_NO_STATE: dict[str, Any] = {}  # read-only stand-in for a missing dict


def exists_at_version(handler: Any, version: Version) -> bool:
    """Whether an exposed handler (versioned or not) exists at ``version``.

    A versioned method exists inside its ranges; any other exposed handler
    at every version.
    """
    versioned: Any = getattr(handler, 'versioned', None)
    if callable(getattr(versioned, 'exists_at', None)):  # an api_version
        return bool(versioned.exists_at(version))
    return handler is not None and bool(getattr(handler, 'exposed', False))


def allowed_methods(dispatcher: Any, controller: Any,
                     version: Version) -> list[str]:
    """The HTTP methods the dispatcher's URL answers at ``version``.

    Generic controllers: the handlers that exist (the default one answers
    GET and HEAD).  ``RestController``: the methods of the URL it routed
    (:func:`url_methods`; see :func:`note_route`), or else of the
    dispatcher's URL shape (collection, item or custom action).  A plain
    exposed method answers every HTTP method, so none is listed.
    """
    config = exposure(dispatcher)
    root = dispatcher if config.get('generic') else None
    if root is None and config.get('generic_handler'):
        root = _generic_root(dispatcher, controller)
    if root is not None:
        allowed: set[str] = set()
        for method, handler in generic_handlers(root).items():
            if exists_at_version(handler, version):
                allowed.update(('GET', 'HEAD') if method == 'DEFAULT'
                               else (method,))
        return sorted(allowed)
    if isinstance(controller, pecan.rest.RestController):
        remainder = noted_route(controller)
        if remainder is not None:
            return url_methods(controller, remainder, version)
        return rest_methods(controller, _rest_shape(
            controller, dispatcher.__name__), version)
    return []


def note_route(request: Any, controller: pecan.rest.RestController,
               remainder: list[str]) -> None:
    """Remember that ``controller`` routes ``request`` with ``remainder``
    below it, so that :func:`allowed_methods` lists what that URL answers
    (a ``PUT`` on the collection reaches the item's ``put``), and how many
    parents' identifiers (``o1`` of ``/owners/o1/parts/p1``) Pecan passes
    its methods first: it drops its own note of them once routing is
    done, before the call whose 405 lists what the URL answers."""
    request_environ(request)[_ROUTE_KEY] = (
        controller, remainder, routing_arguments(request))


def noted_route(controller: Any) -> Optional[list[str]]:
    """The path below ``controller`` if it routed the current request last
    (see :func:`note_route`), else ``None``."""
    route = current_request().environ.get(_ROUTE_KEY)
    return route[1] if route is not None and route[0] is controller else None


def collection_methods(controller: pecan.rest.RestController,
                       version: Version) -> list[str]:
    """The HTTP methods a ``RestController``'s own URL (its collection,
    ``/v1/nodes``) answers at ``version``."""
    return rest_methods(controller, _REST_COLLECTION, version)


def url_methods(controller: pecan.rest.RestController,
                remainder: list[str], version: Version) -> list[str]:
    """The HTTP methods a ``RestController`` answers at ``version`` at the
    URL whose path below the controller is ``remainder``: its collection
    (``[]``), an item (``['x']``) or a custom action (``['x', 'reboot']``
    for ``GET`` or ``POST``, ``['reboot', 'x']`` for ``PUT`` or
    ``DELETE``), each method routed as Pecan routes it.  The same list
    whichever method the request used; none for a path with more segments
    than the handlers Pecan routes it to take (``['x', 'unknown']``): that
    URL names nothing."""
    return rest_methods(controller, url_handlers(controller, remainder),
                        version)


def url_handlers(controller: pecan.rest.RestController,
                 remainder: list[str]) -> dict[str, tuple[str, ...]]:
    """The names of the handlers that may answer each HTTP method at the
    URL whose path below ``controller`` is ``remainder``, at some version,
    as Pecan routes each method (see :func:`url_methods`): a custom action
    is named by the path's last segment for ``GET`` and ``POST``
    (``/x/reboot``), by its first for ``PUT`` and ``DELETE``
    (``/reboot/x``)."""
    parts = [part for part in remainder if part]
    if not parts:
        return _REST_COLLECTION
    actions = custom_actions(controller)
    # Pecan passes the parents' identifiers (a sub-controller's) first.
    routed = parent_count(controller)
    handlers = {}
    for method, names in _REST_URL.items():
        path = parts
        at = _ACTION_AT.get(method)
        if at is not None and method in actions.get(parts[at], ()):
            names = (f'{method.lower()}_{parts[at]}', parts[at])
            path = parts[1:] if at == 0 else parts[:-1]
        handlers[method] = tuple(name for name in names if _takes(
            getattr(controller, name, None), len(path) + routed))
    return handlers


def rest_methods(controller: pecan.rest.RestController,
                 shape: Mapping[str, tuple[str, ...]],
                 version: Version) -> list[str]:
    """The HTTP methods of ``shape`` (each with the handler names that
    answer it) for which ``controller`` has a handler at ``version``, and
    ``HEAD`` with ``GET`` where the controller answers it so."""
    methods = {method for method, names in shape.items()
               if any(exists_at_version(getattr(controller, name, None),
                                        version) for name in names)}
    # VersionedRestController answers HEAD like GET; its own head, if any,
    # answers in its versions only (in shape above).
    if 'GET' in methods and getattr(controller, 'head_like_get', False) and (
            getattr(controller, 'head', None) is None):
        methods.add('HEAD')
    return sorted(methods)


def unfilled_path(handler: Any, args: tuple[Any, ...],
                  kwargs: Mapping[str, Any]) -> bool:
    """Whether a call of ``handler`` with the path values ``args`` (its
    controller's, if any, left out) and the named values ``kwargs``
    leaves an argument the URL path must give unfilled: ``PATCH
    /v1/nodes`` routed to ``patch(self, uuid)``."""
    names, _ = _path_arguments(handler)
    return any(name not in kwargs for name in names[len(args):])


def path_argument(handler: Any, position: int) -> Optional[str]:
    """The name of the required argument ``handler`` takes from the URL
    path at ``position`` (its controller's left out), or ``None``."""
    names, _ = _path_arguments(handler)
    return names[position] if position < len(names) else None


def parent_count(controller: Any) -> int:
    """How many parents' identifiers Pecan passes ``controller``'s methods
    before the path below it: noted while it routed the request (see
    :func:`note_route`), else Pecan's own note while routing goes on."""
    request = current_request()
    route = request_environ(request).get(_ROUTE_KEY)
    if route is not None and route[0] is controller:
        return route[2]  # type: ignore[no-any-return]
    return routing_arguments(request)


def routing_arguments(request: Any) -> int:
    """How many identifiers Pecan has taken from the path so far while it
    routes ``request`` (its ``request.pecan['routing_args']``, read from
    the environ: the attribute costs WebOb a caught AttributeError)."""
    state = request_environ(request).get(ADHOC_ATTRS_KEY, _NO_STATE).get(
        'pecan')
    return len((state or _NO_STATE).get('routing_args') or ())


def _takes(handler: Any, segments: int) -> bool:
    """Whether ``handler`` is one Pecan routes to (an exposed one) and
    takes ``segments`` path segments as arguments."""
    if not getattr(handler, 'exposed', False):
        return False  # a setting named like a handler (delete = 'soft')
    _, most = _path_arguments(handler)
    return most is None or segments <= most


def _path_arguments(handler: Any) -> tuple[list[str], Optional[int]]:
    """The required arguments ``handler`` takes from the URL path, and how
    many it takes at most (``None``: any number): its WSME arguments other
    than the body, or else those Pecan fills from the path, of the
    function a wrapper made with ``functools.wraps`` wraps (a service's
    own exposing decorator taking ``*args, **kwargs``)."""
    declared = inspect.unwrap(handler, stop=is_wsme_function)
    if is_wsme_function(declared):
        definition = function_definition(declared)
        arguments = definition.arguments[
            :len(definition.arguments) - (definition.body_type is not None)]
        return [a.name for a in arguments if a.mandatory], len(arguments)
    spec = pecan.util.getargspec(declared)
    names = spec.args[1:]  # not self
    required = names[:len(names) - len(spec.defaults or ())]
    return required, None if spec.varargs is not None else len(names)


def _generic_root(handler: Any, controller: Any) -> Any:
    for name in dir(type(controller)):
        candidate = getattr(type(controller), name, None)
        config = exposure(candidate)
        if (config.get('generic')
                and handler in config['generic_handlers'].values()):
            return candidate
    return None


def _action_shape(action: str, methods: Any) -> dict[str, tuple[str, ...]]:
    return {m.upper(): (f'{m.lower()}_{action}', action) for m in methods}


def _rest_shape(controller: Any, name: str) -> dict[str, tuple[str, ...]]:
    for action, methods in custom_actions(controller).items():
        names = {action} | {f'{m.lower()}_{action}' for m in methods}
        if name in names:
            return _action_shape(action, methods)
    if any(name in names for names in _REST_COLLECTION.values()) and (
            name != 'get'):
        return _REST_COLLECTION
    return _REST_ITEM
