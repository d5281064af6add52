"""Versioned sub-resources, and a RestController whose 405s know versions.

A :class:`ResourceRange` gives a whole URL subtree a version range, declared
once at import; outside it every URL under the resource answers 404::

    PARTS = ResourceRange(REGISTRY, '/things/{id}/parts', '1.3')

    class ThingsController(rest.RestController):
        parts = PARTS.gate(PartsController())
"""

from __future__ import annotations

import inspect
from typing import Any, Optional

import pecan
import pecan.rest
import webob.exc

from pecan_microversions.compat import (
    function_definition,
    is_wsme_function,
    lookup_controller,
    refusing_route,
    request_environ,
)
from pecan_microversions.core.changes import RESOURCE
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike, VersionRange
from pecan_microversions.pecan.allow import (
    note_route,
    routing_arguments,
    url_methods,
)
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.request import get_version, request_line
from pecan_microversions.pecan.unfilled import url_refusal

__all__ = ['ResourceGate', 'ResourceRange', 'VersionedRestController',
           'judged_refusal', 'routed_arguments', 'versioned_subresource']

_RESOURCE_CODE = 'microversion.resource_not_found'
_ROUTED_KEY = 'pecan_microversions.routed_arguments'


class VersionedRestController(pecan.rest.RestController):
    """A ``RestController`` whose 405s list what their URL answers.

    Pecan answers 405 itself for an HTTP method a ``RestController`` has no
    handler for (``HEAD`` and ``OPTIONS`` included), listing in ``Allow``
    every handler it has, at any URL and version.  This subclass lists the
    methods the URL (collection, item or custom action) answers at the
    request's version, in Pecan's 405s and in those of versioned methods
    (``missing_status=405``) alike; a sub-controller's 405 lists what the
    sub-controller's URL answers.  Otherwise it is a plain
    ``RestController``; versioned methods work without it.

    ``HEAD`` is answered like ``GET`` (the same handler, so the same status
    and headers at each version) without a body, unless the controller has
    a ``head`` handler of its own.
    """

    #: Read by the 405s of versioned methods: ``HEAD`` goes with ``GET``.
    head_like_get = True

    def _handle_head(self, method: str, remainder: list[str],
                     request: Optional[Any] = None) -> Any:
        if self._find_controller('head'):
            return self._handle_unknown_method(method, remainder, request)
        return self._handle_get('get', remainder, request)

    @pecan.expose()
    def _route(self, args: list[str], request: Optional[Any] = None
               ) -> tuple[Any, list[str]]:
        if request is None:
            request = pecan.request
        note_route(request, self, args)
        try:
            handler, remainder = super()._route(args, request)
        except webob.exc.HTTPMethodNotAllowed as exc:
            _judge_refusal(exc, self, args, request)
            allow = exc._microversion_allow
            if allow is not None and (not allow or request.method in allow):
                # No method at all (or the refused one, at another URL than
                # Pecan routed: /x/states//): the URL names nothing here.
                missing = webob.exc.HTTPNotFound()
                missing._microversion_allow = allow  # judged here too
                raise missing from None
            # The innermost controller decides: an outer RestController's
            # own routing rewrites Allow with its methods on the way out.
            exc.allow = exc._microversion_allow
            raise
        given = len(remainder) - (bool(remainder) and remainder[-1] == '')
        # The parents' identifiers Pecan will pass first (it drops its note
        # of them before the call).
        parents = routing_arguments(request)
        if not given:
            # At a collection's URL: read by an item method's 405.
            request_environ(request)[_ROUTED_KEY] = parents
        elif getattr(handler, '__self__', None) is self and (
                _fills_body(handler, parents + given, request)):
            # PUT /things/<id>/<segment>: the segment is no body (a
            # trailing slash, PUT /things/<id>/, is no segment).
            raise url_refusal(self, list(args), get_version(request), request)
        return handler, remainder


def routed_arguments(request: Any) -> int:
    """How many of the arguments Pecan passes the method a
    :class:`VersionedRestController` routed the request to are its parents'
    identifiers, from the URL (``o1`` of ``/owners/o1/parts``)."""
    routed = request_environ(request).get(_ROUTED_KEY, 0)
    return routed  # type: ignore[no-any-return]


def _fills_body(handler: Any, given: int, request: Any) -> bool:
    """Whether ``given`` path values (the parents' identifiers first)
    reach the body argument of the WSME method ``handler`` (at the
    request's version): Pecan passes each path segment as the next
    argument, and WSME would take one for the body."""
    function = getattr(handler, '__func__', handler)
    versioned = getattr(function, 'versioned', None)
    if versioned is not None:  # api_version's dispatcher
        function = versioned.function_at(get_version(request))
    try:
        body = _body_positions[function]
    except KeyError:
        body = _body_positions[function] = _body_position(function)
    return body is not None and given > body


#: The position of each exposed function's body argument among those Pecan
#: fills from the path (``None``: it takes no body); worked out at first use.
_body_positions: dict[Any, Optional[int]] = {}


def _body_position(function: Any) -> Optional[int]:
    wsme_function = None if function is None else inspect.unwrap(
        function, stop=is_wsme_function)
    if wsme_function is None or not is_wsme_function(wsme_function):
        return None
    definition = function_definition(wsme_function)
    if definition.body_type is None:
        return None
    return len(definition.arguments) - 1


def judged_refusal(error: BaseException) -> bool:
    """Whether ``error`` is a 405 (or a 404 for a URL that names nothing) a
    :class:`VersionedRestController` judged: the library's answer to the
    request's method, not the application's.  A 405's ``Allow`` is set
    back to the methods it worked out (a plain ``RestController`` above
    rewrites it with its own on the way out)."""
    allow = getattr(error, '_microversion_allow', None)
    if isinstance(error, webob.exc.HTTPNotFound):
        return allow is not None
    if isinstance(error, webob.exc.HTTPMethodNotAllowed) and allow:
        error.allow = allow
        return True
    return False


def _judge_refusal(exc: webob.exc.HTTPMethodNotAllowed,
                   controller: VersionedRestController, args: list[str],
                   request: Any) -> None:
    """Note on a 405 raised while ``controller`` routed ``args`` what the
    URL answers at the version, once: the methods of the innermost
    ``RestController`` that refused it (``controller`` or a plain one below
    it: one of ours judged its own) at its URL, ``[]`` for none (the URL
    names nothing), ``None`` when Pecan named none (GET with
    ``?_method=DELETE``).  None, not []: WebOb would send an empty Allow,
    which says the URL answers no method."""
    if hasattr(exc, '_microversion_allow'):
        return
    refused, remainder = refusing_route(exc) or (controller, args)
    exc._microversion_allow = (
        url_methods(refused, remainder, get_version(request))
        if exc.allow else None)


class ResourceRange:
    """A version range for a whole sub-resource, declared once at import.

    Outside the range every URL under the resource answers 404, whatever the
    HTTP method.  Use :meth:`gate` to wrap a sub-controller (an attribute or
    what ``_lookup`` returns), or :meth:`check` in routing code of your own::

        PARTS = ResourceRange(REGISTRY, '/things/{id}/parts', '1.3')

        class ThingsController(rest.RestController):
            parts = PARTS.gate(PartsController())

    :param path: how the registry and docs name the resource.
    :raises ~pecan_microversions.core.errors.UnknownVersionError: a bound
        is not in the history.
    :raises ~pecan_microversions.core.errors.InvertedRangeError:
        ``max_version`` is below ``min_version``.
    """

    def __init__(self, registry: VersionRegistry, path: str,
                 min_version: VersionLike,
                 max_version: Optional[VersionLike] = None) -> None:
        what = f'Resource {path}'
        self.path = path
        self.min_version = registry.known_version(
            min_version, f'{what}: min_version')
        self.max_version = (None if max_version is None
                            else registry.known_version(
                                max_version, f'{what}: max_version'))
        VersionRange(self.min_version, self.max_version, what=what)
        self.declaration = registry.declare(
            RESOURCE, path, '*', self.min_version, self.max_version)

    def __repr__(self) -> str:
        return f'<ResourceRange {self.path}: {self.ranges()}>'

    def ranges(self) -> str:
        """The versions served, in words."""
        return VersionRange(self.min_version, self.max_version).short()

    def exists_at(self, version: Version) -> bool:
        """Whether the resource exists at ``version``."""
        return version.matches(self.min_version, self.max_version)

    def check(self, request: Optional[Any] = None) -> None:
        """Raise the 404 unless the current (or given) request is in range.

        :raises APIError: 404 ``microversion.resource_not_found``.
        """
        request = pecan.request if request is None else request
        version = get_version(request)
        if not self.exists_at(version):
            raise APIError(
                f'{request_line(request)} is not available in '
                f'version {version}: '
                f'{self.path} exists in versions {self.ranges()}.',
                status=404, error_code=_RESOURCE_CODE)

    def gate(self, controller: Any) -> ResourceGate:
        """Wrap ``controller`` so that it is routed to only inside the range.

        Cheap; call it per request in ``_lookup`` if the sub-controller is
        built per request.
        """
        return ResourceGate(self, controller)


class ResourceGate:
    """A sub-controller that exists only in its :class:`ResourceRange`.

    Pecan calls its ``_route`` while routing (after the hook has set the
    version): inside the range it routes on into the wrapped controller,
    outside it raises the 404.
    """

    def __init__(self, resource: ResourceRange, controller: Any) -> None:
        self.resource = resource
        self.controller = controller

    def __repr__(self) -> str:
        return f'<ResourceGate {self.resource.path} -> {self.controller!r}>'

    @pecan.expose()
    def _route(self, args: list[str], request: Optional[Any] = None
               ) -> tuple[Any, list[str]]:
        if request is None:
            request = pecan.request
        self.resource.check(request)
        return lookup_controller(self.controller, args, request)


def versioned_subresource(registry: VersionRegistry, controller: Any,
                          min_version: VersionLike,
                          max_version: Optional[VersionLike] = None, *,
                          path: str) -> ResourceGate:
    """Shorthand: ``ResourceRange(registry, path, min, max).gate(controller)``."""
    return ResourceRange(registry, path, min_version, max_version).gate(
        controller)
