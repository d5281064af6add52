"""A request routed to a method its URL cannot call: a 4xx, not a 500.

Pecan routes ``PUT``, ``PATCH`` and ``DELETE`` on a ``RestController``'s
own URL (``PATCH /v1/nodes``) to the item's method without an identifier,
and gives a plain exposed method only what the path and the query string
hold.  A required argument left unfilled makes the call itself raise
``TypeError``, which Pecan answers 500.  The hook asks :func:`unfilled_call`
about every ``TypeError``.  Only one raised by Pecan's call of the
controller itself, whose own signature (not a wrapped function's) does not
take the arguments Pecan passed, is the client's: no code of the controller
ran.  The client then gets

* 405 ``microversion.method_not_allowed`` for a ``RestController`` item
  method (``put``, ``patch``, ``delete``, ...) missing only its
  identifier: the URL is the collection's, which does not answer that HTTP
  method at this version (``Allow`` lists what it answers);
* 400 ``microversion.missing_argument`` naming the arguments the request
  left out, for any other method;
* 404 when the request gave the method more than it takes.

A service's own exposing decorator that takes ``*args, **kwargs`` (which
Pecan passes whatever the request holds) asks :func:`refused_call` the
same about the method it wraps, before calling it, as the Ironic-style
example does.  There it also answers 405 for a ``RestController``
collection method given an item's identifier (``POST /v1/nodes/<ident>``)
when the item's URL answers other methods (``Allow`` lists them), and 400
``microversion.unknown_argument`` for a parameter the method does not take
(Pecan drops those for other methods).

Every other ``TypeError`` stays a 500: one raised inside a controller or
its decorators, or while the result is rendered, and the call of a method
with a required keyword-only argument (Pecan never passes one).
A decorator taking ``*args, **kwargs`` hides the method's arguments from
this check: a missing one is then the decorator's ``TypeError``, a 500.

Two of Pecan's own ``RuntimeError`` while routing are the client's 404 too:
a method named by its Python name below a custom route
(:func:`hidden_route`), and a POST to a URL that lacks the trailing slash
of its canonical form (:func:`missing_slash`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Optional

import pecan.rest
import wsme.exc

from pecan_microversions.compat import (
    custom_routed_method,
    raised_binding_path,
    raised_by_controller_call,
    raised_for_missing_slash,
    routed_call,
)
from pecan_microversions.core.errors import http_code
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.allow import (
    collection_methods,
    noted_route,
    parent_count,
    path_argument,
    unfilled_path,
    url_handlers,
    url_methods,
)
from pecan_microversions.pecan.errors import APIError, is_wsme_fault_of
from pecan_microversions.pecan.request import (
    current_request,
    named_method,
    request_line,
)

__all__ = ['collection_refusal', 'hidden_route', 'missing_item',
           'missing_item_fault', 'missing_slash', 'not_allowed',
           'refused_call', 'unbound_path', 'unfilled_call', 'url_mismatch',
           'url_refusal']

#: ``RestController`` methods Pecan calls with the item's identifier.
_ITEM_METHODS = frozenset(['get_one', 'put', 'patch', 'delete'])


def unfilled_call(state: Any, error: TypeError,
                  version: Optional[Version]) -> Optional[APIError]:
    """The client error for ``error`` when Pecan's routing ``state`` called
    a controller with arguments its own signature does not take (the call
    itself failed: no code of the controller ran); ``None`` otherwise."""
    routed = routed_call(state)
    if routed is None or not raised_by_controller_call(error):
        return None
    controller, given, keywords = routed
    return refused_call(controller, given, keywords, version, state.request)


def unbound_path(state: Any, error: BaseException,
                 version: Optional[Version]) -> Optional[APIError]:
    """The client error for Pecan's own 404 when a URL's path holds more
    segments than the ``VersionedRestController`` handler it routed to
    takes (``GET /v1/nodes/<id>/reboot`` for a ``POST``-only action): a
    405 if the URL answers other methods at ``version``, else a 404 naming
    the URL; ``None`` for any other error."""
    owner = getattr(getattr(state, 'controller', None), '__self__', None)
    if version is None or not isinstance(
            owner, pecan.rest.RestController) or not raised_binding_path(
            error):
        return None
    remainder = noted_route(owner)
    if remainder is None:  # not routed by a VersionedRestController
        return None
    return url_refusal(owner, remainder, version, state.request)


def hidden_route(state: Any, error: BaseException) -> Optional[APIError]:
    """The 404 for a URL naming by its Python name a method exposed under
    a custom path segment (``/v1/openapi`` for ``route='openapi.json'``),
    which Pecan answers 404, unless a ``functools.wraps`` decorator wraps
    the method: its routing then fails with a ``RuntimeError`` (see
    :func:`~pecan_microversions.compat.custom_routed_method`). ``None``
    for any other error."""
    if custom_routed_method(error) is None:
        return None
    return _names_nothing(request_line(state.request))


def missing_slash(state: Any, error: BaseException) -> Optional[APIError]:
    """The 404 for a POST to a URL whose canonical form ends with a slash
    (``POST /v1`` for an object's ``index`` at ``/v1/``): Pecan redirects
    other methods there, but raises a ``RuntimeError`` (a 500) for a POST,
    whose body a redirect may lose.  The detail names the URL to send it
    to.  ``None`` for any other error."""
    if not raised_for_missing_slash(error):
        return None
    request = state.request
    return _names_nothing(request_line(request), f': send it to '
                          f'{request.path + "/"!r}, with a trailing slash')


def refused_call(method: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any], version: Optional[Version],
                 request: Optional[Any] = None) -> Optional[APIError]:
    """The client error for calling the controller's bound ``method`` with
    the ``args`` and ``kwargs`` Pecan routed to it, if its own signature
    (not a wrapped function's) does not take them; ``None`` if it does.

    A service's own exposing decorator taking ``*args, **kwargs`` calls it
    with the method it wraps, to answer a request its URL cannot call as
    the hook does (:func:`unfilled_call`), or a ``keywords`` argument the
    method does not take (which Pecan drops for other methods) with a 400
    ``microversion.unknown_argument``.  A versioned method (``api_version``)
    with no implementation at ``version`` answers its own 404/405 first.
    """
    try:  # the called function's own arguments, not a wrapped one's
        signature = inspect.signature(method, follow_wrapped=False)
        signature.bind(*args, **kwargs)
    except TypeError:
        pass
    except ValueError:  # no signature to read
        return None
    else:
        return None  # the call fits: the error is not about arguments
    owner = getattr(method, '__self__', None)
    refusal = getattr(method, 'refusal', None)  # api_version's dispatcher
    if callable(refusal):  # the version first: its arguments are moot
        error = refusal(owner, *args, **kwargs)
        if error is not None:
            return error  # type: ignore[no-any-return]
    request = current_request(request)
    what = request_line(request, head_as_get=method.__name__ != 'head')
    if owner is None and not args and next(
            iter(signature.parameters), None) == 'self':
        # Pecan reached a method's function, not the bound method, nor with
        # the controller (through its custom route below its own name).
        return _names_nothing(what)
    missing = _missing(signature, len(args), kwargs)
    if missing is None:
        return None
    if not isinstance(owner, pecan.rest.RestController):
        owner = None
    if not missing and not _takes_all(signature, len(args)):
        remainder = None if owner is None else noted_route(owner)
        if remainder is None and len(args) == 1 and (
                method.__name__ not in _ITEM_METHODS):
            remainder = [str(args[0])]  # POST /v1/nodes/<ident>: an item's
        if owner is not None and version is not None and (
                remainder is not None):
            # The URL's own 404, or its 405 if it answers other methods.
            return url_refusal(owner, remainder, version, request)
        return _names_nothing(what, ': the path has more segments than the '
                              'method takes')
    if not missing:
        twice = [name for name in list(signature.parameters)[:len(args)]
                 if name in kwargs]
        if twice:
            return APIError(f'{what} gives {_names(twice)} twice: in the '
                            'URL path and in the query string or body.',
                            error_code='microversion.invalid_arguments')
        unknown = _unknown(signature, kwargs)
        if not unknown:
            return None  # not about the arguments
        return APIError(f'{what} does not take {_names(unknown)} (from the '
                        'query string or the form body).',
                        error_code='microversion.unknown_argument')
    refused = missing_item(method.__name__, owner, args, version, request)
    if refused is not None:
        return refused
    return APIError(f'{what} is missing {_names(missing)}.',
                    error_code='microversion.missing_argument')


def missing_item_fault(state: Any, response: Any,
                       version: Optional[Version]) -> Optional[APIError]:
    """The collection's 405 (see :func:`missing_item`) for the 400 WSME's
    own ``wsexpose`` answers when Pecan's routing ``state`` called an
    item method from the collection's URL (``PUT /v1/nodes``): WSME
    catches the missing identifier itself, so no ``TypeError`` reaches
    :func:`unfilled_call`.  Only its ``Missing argument`` fault for the
    item's identifier (the argument after the parents' identifiers) counts;
    ``None`` for any other response (another argument left out, the item
    given by the query string or body)."""
    routed = routed_call(state) if response.status_int == 400 else None
    if routed is None:
        return None
    method, given, _ = routed
    owner = getattr(method, '__self__', None)
    name = path_argument(method, parent_count(owner))
    if name is None or not is_wsme_fault_of(
            wsme.exc.MissingArgument(name), response):
        return None
    return missing_item(method.__name__, owner, given, version,
                        state.request)


def missing_item(name: str, owner: Any, given: tuple[Any, ...],
                 version: Optional[Version], request: Any
                 ) -> Optional[APIError]:
    """The 405 for ``owner``'s item method ``name`` (``put``, ``patch``,
    ``delete``, ``get_one``) that Pecan routed from the collection's URL
    (``given``: the path values it passed) and that lacks an argument: the
    item's identifier is missing (see :func:`collection_refusal`).
    ``None`` for any other method or URL."""
    if (version is None or name not in _ITEM_METHODS
            or not isinstance(owner, pecan.rest.RestController)
            or not _at_collection(request, given)):
        return None
    return collection_refusal(owner, version, request,
                              head_as_get=name != 'head')


def collection_refusal(controller: pecan.rest.RestController,
                       version: Version, request: Any, *,
                       head_as_get: bool = True) -> APIError:
    """The 405 for an item's method (``put``, ``patch``, ...) that Pecan
    routed from the collection's own URL, without the item's identifier:
    ``Allow`` lists what the collection answers at ``version``; a 404 if
    it answers nothing (a 405 must name what the URL answers)."""
    allowed = collection_methods(controller, version)
    if not allowed or request.method in allowed:
        # (Pecan routed an empty segment, /v1/nodes//, to the item.)
        return _names_nothing(request_line(request, head_as_get=head_as_get))
    head_as_get = head_as_get and 'GET' not in allowed  # else HEAD's own
    named = named_method(request.method, head_as_get=head_as_get)
    return not_allowed(f'{request_line(request, head_as_get=head_as_get)} '
                       f'is not allowed: {named} needs an item of the '
                       'collection in the URL.', allowed)


def url_refusal(controller: Any, remainder: list[str], version: Version,
                request: Any) -> APIError:
    """The error for a URL that never takes the request's method: an item
    (or collection) URL of a ``RestController`` that does not answer it
    (405, ``Allow`` listing what it answers at ``version``), or a URL
    (``remainder`` below ``controller``) that names nothing (404)."""
    allowed = (url_methods(controller, remainder, version)
               if isinstance(controller, pecan.rest.RestController) else [])
    if not allowed or request.method in allowed:
        # Not the URL of a collection or an item: it names nothing.
        return _names_nothing(request_line(request))
    head_as_get = 'GET' not in allowed  # else the HEAD's refusal is its own
    named = named_method(request.method, head_as_get=head_as_get)
    return not_allowed(f'{request_line(request, head_as_get=head_as_get)} '
                       f'is not allowed: the URL does not take a {named}.',
                       allowed)


def _names_nothing(what: str, why: str = '') -> APIError:
    return APIError(f'{what} names no resource{why}.', status=404,
                    error_code=http_code(404))


def not_allowed(detail: str, allowed: list[str]) -> APIError:
    """The 405 ``microversion.method_not_allowed`` whose ``Allow`` lists
    ``allowed``, the methods the URL answers."""
    return APIError(detail, status=405,
                    error_code='microversion.method_not_allowed',
                    headers={'Allow': ', '.join(allowed)})


def url_mismatch(controller: pecan.rest.RestController, name: str,
                 function: Any, given: tuple[Any, ...],
                 kwargs: dict[str, Any], version: Version
                 ) -> Optional[APIError]:
    """The plain 404/405 when the current request's URL takes the handler
    ``name`` of ``controller`` (declared by ``function``, called with the
    path values ``given`` and ``kwargs``) at no version: ``PATCH
    /v1/nodes`` routed to the item's ``patch``; ``None`` if it takes it.
    For the error of a versioned method outside its versions, which must
    not say that the method exists in others at that URL."""
    request = current_request()
    remainder = noted_route(controller)
    if unfilled_path(function, given, kwargs) and _at_collection(request,
                                                                 given):
        if name in _ITEM_METHODS:
            return collection_refusal(controller, version, request,
                                      head_as_get=name != 'head')
        return url_refusal(controller, remainder or [], version, request)
    if remainder is not None and not any(
            name in names
            for names in url_handlers(controller, remainder).values()):
        return url_refusal(controller, remainder, version, request)
    return None


def _at_collection(request: Any, given: tuple[Any, ...]) -> bool:
    """Whether the path values ``given`` to a ``RestController`` method are
    at most its parents' identifiers: the URL ends with the collection's
    name (``/owners/1/parts``), not with the last value (an item's
    identifier, ``/things/t1``; ``t1.json`` where Pecan takes extensions
    off).  A required argument left out of the query string is then not
    taken for a missing item."""
    if not given:
        return True
    segments = [part for part in request.path_info.split('/') if part]
    last = str(given[-1])
    return not segments or (segments[-1] != last
                            and not segments[-1].startswith(last + '.'))


def _takes_all(signature: inspect.Signature, positional: int) -> bool:
    """Whether ``signature`` takes ``positional`` values by position."""
    kinds = [p.kind for p in signature.parameters.values()]
    return inspect.Parameter.VAR_POSITIONAL in kinds or positional <= sum(
        kind in (inspect.Parameter.POSITIONAL_ONLY,
                 inspect.Parameter.POSITIONAL_OR_KEYWORD) for kind in kinds)


def _unknown(signature: inspect.Signature,
             keywords: dict[str, Any]) -> list[str]:
    """The ``keywords`` that no parameter of ``signature`` takes."""
    names = {name for name, p in signature.parameters.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return sorted(k for k in keywords if k not in names)


def _missing(signature: inspect.Signature, positional: int,
             keywords: dict[str, Any]) -> Optional[list[str]]:
    """The required arguments neither ``positional`` values nor
    ``keywords`` fill; ``None`` if one is keyword-only, which Pecan never
    fills (the method's bug, not the request's)."""
    missing = []
    for index, parameter in enumerate(signature.parameters.values()):
        if parameter.default is not parameter.empty or (
                parameter.name in keywords):
            continue
        if parameter.kind is parameter.KEYWORD_ONLY:
            return None
        if parameter.kind is parameter.POSITIONAL_OR_KEYWORD and (
                index >= positional):
            missing.append(parameter.name)
    return missing


def _names(missing: list[str]) -> str:
    quoted = [repr(name) for name in missing]
    if len(quoted) == 1:
        return f'the argument {quoted[0]}'
    return f'the arguments {", ".join(quoted[:-1])} and {quoted[-1]}'
