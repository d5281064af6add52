"""``versioned_wsexpose``: ``wsexpose`` that applies the field declarations.

::

    @versioned_wsexpose(Node, wtypes.text, body=Node, status_code=201)
    def post(self, node): ...

    @versioned_wsexpose(Node, wtypes.text, body=[JsonPatchOperation],
                        patch_of=Node)
    def patch(self, uuid, patch): ...

Before WSME reads the arguments, their sources are checked against the
request's version, and what WSME hands the method is checked again, whatever
its source (JSON, form or XML body, query string, URL path): see
:mod:`pecan_microversions.pecan.arguments`.  After the method returns, a
JSON result is written by its compiled view
(:mod:`pecan_microversions.pecan.rendering`), any other is filtered
(:func:`~pecan_microversions.wsme.filtering.filter_response`) for WSME.  Renamed
attributes of the body object carry the client's value under every name.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, Optional

from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions.compat import (
    choose_json,
    context_response,
    function_definition,
    request_environ,
)
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_bodies import deeper_than
from pecan_microversions.core.patching import MAX_DEPTH
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.allow import noted_route
from pecan_microversions.pecan.arguments import (
    body_names,
    check_received,
    check_sources,
)
from pecan_microversions.pecan.calling import NOT_PARSED, call_method
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.media import body_length, media_format
from pecan_microversions.pecan.params import declared_parameters
from pecan_microversions.pecan.rendering import render_json
from pecan_microversions.pecan.request import (
    current_request,
    get_registry,
    get_version,
)
from pecan_microversions.pecan.subresources import routed_arguments
from pecan_microversions.pecan.unfilled import missing_item, url_refusal
from pecan_microversions.wsme.checking import body_too_deep, resolve_datatype
from pecan_microversions.wsme.conversion import (
    converter_of,
    shown_names,
)
from pecan_microversions.wsme.fields import check_bound
from pecan_microversions.wsme.filtering import (
    CONTAINERS,
    drop_unavailable_nulls,
    fill_renames,
    filter_response,
)
from pecan_microversions.wsme.values import (
    check_argument_value,
    validated_by_wsme,
)

__all__ = ['versioned_wsexpose']


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
        def check(args: tuple[Any, ...], kwargs: dict[str, Any],
                  version: Version, converted: Optional[str],
                  request: Any, data: Any) -> None:
            """What reaches the method, whatever its source (a body
            converted up was checked at the request's version before)."""
            received = kwargs if converted is None else {
                k: v for k, v in kwargs.items() if k != converted}
            try:
                for key in mandatory:  # a JSON null, XML nil, WSME's
                    if kwargs.get(key, wtypes.Unset) is None:  # '' for a date
                        raise RequestError(
                            f'Argument {key!r} is mandatory: it cannot be '
                            'null or empty.',
                            error_code='microversion.invalid_value')
                for key, datatype in validated:
                    check_argument_value(datatype, kwargs.get(key), key)
                check_received(definition, received, version, target)
                parameters = declared_parameters(definition)
                if parameters is not None:
                    parameters.check_arguments(
                        kwargs, version, defaults,
                        lambda: body_names(request, data))
            except RequestError as exc:
                raise APIError.from_error(exc) from None
            for value in (*args, *received.values()):
                if isinstance(value, CONTAINERS):
                    drop_unavailable_nulls(value, version)
            for value in (*args, *kwargs.values()):
                if isinstance(value, CONTAINERS):
                    fill_renames(value)

        # wsexpose declares the method (WSME signature, Pecan exposure) on
        # a function of its own; call_method stands in for the wrapper it
        # makes.
        @functools.wraps(func)
        def declared(*args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

        declared.__signature__ = inspect.signature(func)  # type: ignore
        exposed = wsexpose(return_type, *arg_types, **options)(declared)
        # wsexpose read the signature; Pecan's RestController must keep
        # seeing (self, *args, **kwargs), as for a plain wsexpose method.
        exposed.__dict__.pop('__signature__', None)
        definition = function_definition(exposed)
        defaults = {a.name: a.default for a in definition.arguments
                    if not a.mandatory}
        mandatory = [a.name for a in definition.arguments if a.mandatory
                     and not _allows_none(a.datatype)]
        # WSME validates these types in objects only, not as arguments.
        validated = [(a.name, a.datatype) for a in definition.arguments
                     if validated_by_wsme(a.datatype)]
        target = None if patch_of is None else resolve_datatype(patch_of)
        body_converter = (converter_of(definition.body_type)
                          if patch_of is None and definition.body_type
                          is not None else None)
        body_name = (definition.arguments[-1].name
                     if definition.body_type is not None else None)
        # A path segment (text; Pecan fills the body's default, None, when
        # there is none) in this position would fill the body argument.
        body_index = (len(definition.arguments) - 1 if body_name is not None
                      else None)
        # The arguments the URL path must give (an item's identifier).
        from_path = [a.name for a in definition.arguments[:body_index]
                     if a.mandatory]
        name = exposed.__name__
        # Old values, types and computed fields exist in JSON only.
        json_only = converter_of(definition.return_type) is not None
        # A versioned type never bound to a registry fails here, at import.
        for datatype in [definition.return_type, target] + [
                argument.datatype for argument in definition.arguments]:
            check_bound(datatype)

        # (self, ...) like wsexpose's own wrapper: Pecan's getargspec stops
        # at a function whose first argument is self instead of drilling
        # into closures.
        @functools.wraps(exposed)
        def outer(self: Any, *args: Any, **kwargs: Any) -> Any:
            request = current_request()
            version = get_version(request)
            if len(args) < len(from_path) and (
                    body_name is not None or not request.is_body_readable
                    or media_format(request.content_type) == 'form'):
                # PATCH /v1/nodes: the item's method, without the item (a
                # body of arguments, as XML say, may still give them; a
                # form's Pecan passes by name).
                _refuse_missing_item(name, self, args, from_path, kwargs,
                                     version, request)
            if json_only and not choose_json(request):
                raise _json_only()  # before the controller acts
            try:
                data = check_sources(request, definition, target, version,
                                     get_registry(request).request_formats)
            except RequestError as exc:
                raise APIError.from_error(exc) from None
            if body_name is None and isinstance(data, dict) and len(
                    args) < len(from_path):
                # DELETE /v1/nodes with a JSON body that names no item.
                _refuse_missing_item(name, self, args, from_path,
                                     {**kwargs, **data}, version, request)
            if (body_index is not None and len(args) > body_index
                    and isinstance(args[body_index], str)):
                # Pecan placed a value where the body argument goes: the
                # body's member named like the argument (the body is read
                # whole below), or a path segment, which the URL does not
                # take.
                if args[body_index] != _member(request, data, body_name):
                    # The path below the controller: without the parents'
                    # identifiers Pecan passes first.
                    path = noted_route(self)
                    raise url_refusal(self, [str(a) for a in args]
                                      if path is None else path, version,
                                      request)
                args = args[:body_index]
            converted = None
            sent = data
            if data is None:
                data = NOT_PARSED  # none, or malformed: WSME answers it
            elif body_converter is not None:
                length = body_length(request_environ(request))
                if (length is None or length > 2 * MAX_DEPTH) and (
                        deeper_than(data, MAX_DEPTH)):  # converted by recursion
                    raise APIError.from_error(body_too_deep())
                # (up_from, with the converter found at decoration)
                data = body_converter.up(data, version)
                converted = body_name

            def method(controller: Any, *args: Any, **kwargs: Any) -> Any:
                check(args, kwargs, version, converted, request, sent)
                if body_name is None and isinstance(sent, dict):
                    # An argument a JSON body gives as null is not given:
                    # the method's default, not None in its place.
                    kwargs.update((k, defaults[k]) for k, v in sent.items()
                                  if v is None and k in defaults)
                return func(controller, *args, **kwargs)

            response = context_response()
            result = call_method(
                definition, method, self, args, kwargs, data, request,
                response, None if converted is None else functools.partial(
                    shown_names, definition.body_type, version))
            if isinstance(result, dict) and 'datatype' in result:
                if render_json(result['result'], result['datatype'],
                               version, request, response):
                    return response
                if converter_of(result['datatype']) is not None:
                    # Old values, types and computed fields exist in JSON
                    # only: never answer the newest ones instead.
                    raise _json_only()
                filter_response(result.get('result'), version)
            return result

        outer.patch_of = target  # type: ignore[attr-defined]
        return outer

    return decorate


def _refuse_missing_item(name: str, controller: Any, args: tuple[Any, ...],
                         from_path: list[str], named: Any, version: Version,
                         request: Any) -> None:
    """Raise the collection's 405 where the request leaves out the item's
    identifier (:func:`~pecan_microversions.pecan.unfilled.missing_item`):
    the path argument after the parents' identifiers (Pecan's routing
    arguments, from the URL), which no name in ``named`` (the body) or the
    query gives either (Pecan passes those positionally too)."""
    routed = routed_arguments(request)
    if routed >= len(from_path):
        return
    names = set(named) | set(request.GET.keys()) if request.environ.get(
        'QUERY_STRING') else set(named)
    if from_path[routed] not in names:
        refused = missing_item(name, controller, args, version, request)
        if refused is not None:
            raise refused


def _allows_none(datatype: Any) -> bool:
    """Whether ``datatype`` declares ``None`` a value (``Enum(str, 'a',
    None)``): a mandatory argument of it may be null."""
    return isinstance(datatype, wtypes.Enum) and None in datatype.values


def _json_only() -> APIError:
    return APIError('This resource changes representation between versions '
                    'and is served as application/json only.', status=406,
                    error_code='microversion.json_only')


def _member(request: Any, data: Any, name: Optional[str]) -> Any:
    """The member ``name`` of the request's JSON object or form body."""
    if isinstance(data, dict):
        return data.get(name)
    return request.POST.get(name) if media_format(
        request.content_type) == 'form' else None
