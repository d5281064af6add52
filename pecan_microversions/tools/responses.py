"""What an operation answers and accepts, where the walk cannot read it.

The OpenAPI documents (:mod:`pecan_microversions.tools.openapi`) read a
``versioned_wsexpose`` method's body type, ``patch_of`` and
``status_code``.  A method exposed with plain ``pecan.expose``, or a status,
header or media type set by the method's own code, is declared with
:func:`describe`::

    @api_version(REGISTRY, '1.3')
    @describe(patch_of=Node, media_types=('application/json',
                                          'application/json-patch+json'),
              errors=(415,))
    @pecan.expose('json')
    def patch(self, uuid):
        ...

:func:`error_schema` gives the JSON Schema of the service's error bodies,
read from its :class:`~pecan_microversions.pecan.hook.MicroversionHook`'s
``error_renderer`` and from WSGI middleware around the Pecan app that
declares how it changes them (a ``describe_error(schema)`` method).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, Optional, TypeVar

from pecan_microversions.core.rendering import api_wg_errors, wsme_fault
from pecan_microversions.tools.routes import (
    Implementation,
    microversion_hook,
    wsgi_chain,
)

__all__ = ['API_WG_ERRORS', 'ANY_ERROR', 'WSME_FAULT', 'Description',
           'describe', 'description_of', 'error_schema']

_F = TypeVar('_F', bound=Callable[..., Any])

#: The API Working Group's errors body (``api_wg_errors``).
API_WG_ERRORS: Mapping[str, Any] = {
    'type': 'object', 'required': ['errors'],
    'description': 'API Working Group errors format.',
    'properties': {'errors': {'type': 'array', 'items': {
        'type': 'object', 'required': ['status', 'code', 'title', 'detail'],
        'properties': {
            'status': {'type': 'integer'}, 'code': {'type': 'string'},
            'title': {'type': 'string'}, 'detail': {'type': 'string'},
            'request_id': {'type': 'string'},
            'min_version': {'type': 'string'},
            'max_version': {'type': 'string'}}}}}}
#: WSME's fault body (``wsme_fault``, and WSME's own errors).
WSME_FAULT: Mapping[str, Any] = {
    'type': 'object', 'required': ['faultcode', 'faultstring'],
    'description': 'A WSME fault.',
    'properties': {'faultcode': {'type': 'string'},
                   'faultstring': {'type': 'string'},
                   'debuginfo': {'type': ['string', 'null']}}}
#: The error body of a renderer the tools do not know.
ANY_ERROR: Mapping[str, Any] = {
    'type': 'object',
    'description': "An error body written by the service's own renderer."}
_KNOWN = ((api_wg_errors, API_WG_ERRORS), (wsme_fault, WSME_FAULT))
_ATTRIBUTE = 'openapi_description'


class Description(NamedTuple):
    """What :func:`describe` declared about a method."""

    status: Optional[int]
    headers: Mapping[str, str]
    media_types: tuple[str, ...]
    body: Any
    patch_of: Any
    errors: tuple[int, ...]
    returns: Any = None


def describe(*, status: Optional[int] = None,
             headers: Optional[Mapping[str, str]] = None,
             media_types: Iterable[str] = (), body: Any = None,
             patch_of: Any = None, errors: Iterable[int] = (),
             returns: Any = None) -> Callable[[_F], _F]:
    """Decorator: declare, for the OpenAPI documents, what a method's own
    code does.  It changes nothing at run time.

    :param status: the success status code.
    :param headers: response headers the method sets, name to description.
    :param media_types: the request body media types the method accepts
        (default ``application/json``).
    :param body: the WSME type of the request body.
    :param patch_of: the WSME type a JSON-patch request body changes.
    :param errors: the error statuses the method answers besides those of
        every operation (such as ``415``).
    :param returns: the WSME type of the success response's body, for a
        method that is not ``wsexpose``'d (it answers, say,
        ``response_json(Node, ...)``).
    """
    described = Description(status, dict(headers or {}), tuple(media_types),
                            body, patch_of, tuple(errors), returns)

    def decorate(function: _F) -> _F:
        setattr(function, _ATTRIBUTE, described)
        return function

    return decorate


def description_of(implementation: Implementation) -> Description:
    """What was declared with :func:`describe` on the implementation or on
    the handler around it (an empty :class:`Description` if nothing)."""
    for holder in (implementation.function, implementation.handler):
        found = getattr(holder, _ATTRIBUTE, None)
        if isinstance(found, Description):
            return found
    return Description(None, {}, (), None, None, ())


def error_schema(app: Any) -> dict[str, Any]:
    """The JSON Schema of ``app``'s error bodies.

    The hook's ``error_renderer`` decides: :data:`API_WG_ERRORS`,
    :data:`WSME_FAULT`, or :data:`ANY_ERROR` for a renderer of the
    service's own.  Without a hook to read (``app`` is a root controller)
    it is the hook's default, API-WG errors.  Each WSGI middleware around
    the Pecan app with a ``describe_error(schema)`` method then turns the
    schema into the one of the bodies it sends, innermost first.
    """
    chain = wsgi_chain(app)
    hook = microversion_hook(app)
    schema: Mapping[str, Any] = API_WG_ERRORS
    if hook is not None:
        schema = next((known for renderer, known in _KNOWN
                       if renderer is hook.error_renderer), ANY_ERROR)
    result = copy.deepcopy(dict(schema))  # the caller's to change
    for wrapper in reversed(chain[:-1]):
        change = getattr(wrapper, 'describe_error', None)
        if callable(change):
            result = change(result)
    return result
