"""Failures of Pecan's routing and calling that are the client's error.

The hook asks :func:`raised_client_error` about every exception the
application did not answer, and :func:`answered_client_error` about an
error response it did not raise: the ones below are the request's fault,
not the service's, and get a 4xx (see
:mod:`~pecan_microversions.pecan.unfilled`) instead of a 500 or a bare
page of the framework's.
"""

from __future__ import annotations

from typing import Any, Optional

import webob.exc

from pecan_microversions.core.json_bodies import (
    nested_too_deep,
    raised_by_decoder,
)
from pecan_microversions.core.patching import body_too_deep
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.unfilled import (
    hidden_route,
    missing_item_fault,
    missing_slash,
    unbound_path,
    unfilled_call,
)

__all__ = ['answered_client_error', 'raised_client_error']


def raised_client_error(state: Any,
                        error: BaseException) -> Optional[APIError]:
    """The client error for ``error``, raised while Pecan routed the
    request in ``state`` or called its controller, when the request caused
    it: Pecan's call of a method with arguments the URL did not fill
    (``TypeError``), its own 404 for a path with more segments than the
    method takes, its ``RuntimeError`` for a hidden route or a missing
    trailing slash, and a JSON body nested too deeply for its parser
    (``RecursionError``).  ``None`` for any other error."""
    version = getattr(state.request, 'api_version', None)
    refused = None
    if isinstance(error, TypeError):
        refused = unfilled_call(state, error, version)
    elif isinstance(error, webob.exc.HTTPNotFound):  # Pecan's, routing
        refused = unbound_path(state, error, version)
    elif isinstance(error, RuntimeError):  # Pecan's routing fails on it
        refused = hidden_route(state, error) or missing_slash(state, error)
    if refused is None and isinstance(error, RecursionError) and (
            raised_by_decoder(error) or nested_too_deep(state.request.body)):
        # Pecan parses JSON bodies while routing, before any controller.
        refused = APIError.from_error(body_too_deep())
    return refused


def answered_client_error(state: Any,
                          response: Any) -> Optional[APIError]:
    """The client error that replaces an error ``response`` the framework
    answered itself for the request in ``state``: WSME's 400 ``Missing
    argument`` for an item's identifier (``PUT /v1/nodes``; see
    :func:`~pecan_microversions.pecan.unfilled.missing_item_fault`).
    ``None`` for any other response."""
    return missing_item_fault(state, response, getattr(
        state.request, 'api_version', None))
