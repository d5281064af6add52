"""``versioned_wsexpose``: ``wsexpose`` that applies the field declarations.

::

    @versioned_wsexpose(Node, wtypes.text, body=Node, status_code=201)
    def post(self, node): ...

    @versioned_wsexpose(Node, wtypes.text, body=[JsonPatchOperation],
                        patch_of=Node)
    def patch(self, uuid, patch): ...

Before WSME reads the arguments, the JSON body is checked against the
request's version (:func:`~pecan_microversions.wsme.checking.check_body`, or
:func:`~pecan_microversions.wsme.checking.check_patch` with ``patch_of``);
after the method returns, the result is filtered
(:func:`~pecan_microversions.wsme.filtering.filter_response`).  Renamed
attributes of the body object carry the client's value under every name.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any, Optional

import pecan
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions.compat import function_definition
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.request import get_version
from pecan_microversions.wsme.checking import (
    body_too_deep,
    check_data,
    check_patch,
    resolve_datatype,
)
from pecan_microversions.wsme.fields import check_bound
from pecan_microversions.wsme.filtering import (
    drop_unavailable_nulls,
    fill_renames,
    filter_response,
)

__all__ = ['versioned_wsexpose']

_JSON_TYPES = frozenset(['application/json', 'text/javascript',
                         'application/javascript'])
_BODY_METHODS = frozenset(['POST', 'PUT', 'PATCH'])


def versioned_wsexpose(return_type: Any = None, *arg_types: Any,
                       patch_of: Optional[Any] = None,
                       **options: Any) -> Callable[[Callable[..., Any]],
                                                   Callable[..., Any]]:
    """``wsmeext.pecan.wsexpose`` plus version checks and response filtering.

    Takes ``wsexpose``'s arguments, and:

    :param patch_of: the resource type a JSON-patch body changes; its
        operations are checked with
        :func:`~pecan_microversions.wsme.checking.check_patch`.
    """
    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def inner(*args: Any, **kwargs: Any) -> Any:
            version = get_version()
            for value in (*args, *kwargs.values()):
                drop_unavailable_nulls(value, version)
                fill_renames(value)
            return func(*args, **kwargs)

        inner.__signature__ = inspect.signature(func)  # type: ignore
        exposed = wsexpose(return_type, *arg_types, **options)(inner)
        # wsexpose read the signature; Pecan's RestController must keep
        # seeing (self, *args, **kwargs), as for a plain wsexpose method.
        exposed.__dict__.pop('__signature__', None)
        definition = function_definition(inner)
        target = None if patch_of is None else resolve_datatype(patch_of)
        # A versioned type never bound to a registry fails here, at import.
        for datatype in [definition.return_type, target] + [
                argument.datatype for argument in definition.arguments]:
            check_bound(datatype)

        # (self, ...) like wsexpose's own wrapper: Pecan's getargspec stops
        # at a function whose first argument is self instead of drilling
        # into closures.
        @functools.wraps(exposed)
        def outer(self: Any, *args: Any, **kwargs: Any) -> Any:
            version = get_version()
            try:
                _check_request(definition, target, version)
            except RequestError as exc:
                raise APIError.from_error(exc) from None
            result = exposed(self, *args, **kwargs)
            if isinstance(result, dict) and 'datatype' in result:
                filter_response(result.get('result'), version)
            return result

        outer.patch_of = target  # type: ignore[attr-defined]
        return outer

    return decorate


def _check_request(definition: Any, patch_of: Any, version: Version) -> None:
    request = pecan.request
    if request.method not in _BODY_METHODS:
        return
    wants_body = patch_of is not None or definition.body_type is not None
    if not request.body:
        if wants_body:
            raise APIError('This request needs a JSON body.',
                           error_code='microversion.missing_body')
        return
    if request.content_type not in _JSON_TYPES:
        return  # WSME refuses what it cannot read
    try:
        data = json.loads(request.body)
    except ValueError:
        return  # WSME answers 400 "not in valid JSON format"
    except RecursionError:
        raise body_too_deep() from None
    if data is None and wants_body:
        raise APIError('This request needs a JSON body, not null.',
                       error_code='microversion.missing_body')
    try:
        _check_data(definition, patch_of, data, version)
    except RecursionError:
        raise body_too_deep() from None


def _check_data(definition: Any, patch_of: Any, data: Any,
                version: Version) -> None:
    if patch_of is not None:
        check_patch(patch_of, data, version)
    elif definition.body_type is not None:
        check_data(definition.body_type, data, version, '')
    elif isinstance(data, dict):
        for argument in definition.arguments:
            if argument.name in data and not isinstance(argument.datatype,
                                                        wtypes.UserType):
                check_data(argument.datatype, data[argument.name], version,
                           argument.name)
