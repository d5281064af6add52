"""Calling a ``versioned_wsexpose`` method: WSME's arguments, one parse.

``wsmeext.pecan.wsexpose`` still declares the method (its WSME signature,
its Pecan exposure and templates); at request time
:func:`call_method` takes the place of the wrapper it made.  It reads the
arguments as WSME does (URL path, query string, form, body; the same
conversions, the same errors) from WSME's public argument functions, except
that a JSON body arrives already parsed (and checked, and converted up):
the body is parsed once per request, and read into WSME values by the
compiled readers of :mod:`pecan_microversions.wsme.readers`.  The method's
result, status code and faults are handled as ``wsexpose`` handles them, so
WSME's fault bodies and ``wsme.api.Response`` keep working.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, Optional

import pecan
import wsme.api
import wsme.exc
import wsme.rest.args
import wsme.runtime
from wsme import types as wtypes
from wsme.utils import is_valid_code

from pecan_microversions.compat import (
    dispatch_class,
    pecan_state,
    request_environ,
)
from pecan_microversions.pecan.arguments import path_conflict
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.media import may_have_body
from pecan_microversions.wsme.readers import reader

__all__ = ['NOT_PARSED', 'call_method']

#: No parsed JSON body: WSME reads the request's body itself.
NOT_PARSED: Any = object()
_NO_ARGUMENTS: tuple[tuple[Any, ...], dict[str, Any]] = ((), {})
#: What no URL path argument and no keyword argument give (_from_path).
_NO_VALUES: tuple[list[Any], dict[str, Any]] = ([], {})
#: Per WSME function definition: which arguments are generic text.
_text_arguments: dict[Any, tuple[bool, ...]] = {}
#: Methods whose body WebOb never reads as a form.
_NO_FORM = frozenset(['GET', 'HEAD', 'OPTIONS'])


def call_method(definition: Any, method: Callable[..., Any], controller: Any,
                args: tuple[Any, ...], kwargs: dict[str, Any],
                body: Any = NOT_PARSED, request: Any = None,
                response: Any = None,
                names: Optional[Callable[[], Mapping[str, str]]] = None
                ) -> Any:
    """Read the arguments of ``method`` (exposed with WSME's
    ``definition``), call it, and answer as ``wsexpose`` would: the
    result and its datatype for the renderer, or a fault.

    :param body: the JSON body, parsed, or :data:`NOT_PARSED`.
    :param request: the request (default: Pecan's current one).
    :param response: the response (default: Pecan's current one).
    :param names: gives, when WSME refuses a field, the request version's
        names of fields ``body`` holds under their newest ones (converted
        up), for its invalid-input message.
    """
    if request is None:
        request = pecan.request
    if response is None:
        response = pecan.response
    datatype = definition.return_type
    try:
        values, named = _arguments(definition, request, args, kwargs, body)
        if definition.pass_request:
            named[definition.pass_request] = request
        result = method(controller, *values, **named)
        response.status = definition.status_code
        if isinstance(result, wsme.api.Response):
            response.status = result.status_code
            if result.status_code == 204:
                datatype = None  # no content, whatever the declaration
            elif not isinstance(result.return_type, wtypes.UnsetType):
                datatype = result.return_type
            result = result.obj
    except Exception:  # noqa: BLE001 - answered as WSME answers it
        info = sys.exc_info()
        if isinstance(info[1], wsme.exc.InvalidInput) and names is not None:
            shown = names()  # as the client calls the field
            info[1].fieldname = shown.get(info[1].fieldname,
                                          info[1].fieldname)
        try:
            code = getattr(info[1], 'code', None)
            fault = wsme.api.format_exception(
                info, pecan.conf.get('wsme', {}).get('debug', False))
        finally:
            del info
        response.status = code if code and is_valid_code(code) else 500
        return fault
    if datatype is None:
        pecan_state(request)['content_type'] = None
        response.content_type = None
        return ''
    return {'datatype': datatype, 'result': result}


def _arguments(definition: Any, request: Any, args: tuple[Any, ...],
               kwargs: dict[str, Any], body: Any
               ) -> tuple[list[Any], dict[str, Any]]:
    """The method's arguments from the URL, the query, the form and the
    body, combined and checked as WSME's ``get_args`` does."""
    environ = request_environ(request)
    try:
        from_path = _from_path(definition, args, kwargs)
        readable = may_have_body(environ)
        if environ.get('QUERY_STRING') or (
                readable and body is NOT_PARSED
                and request.method not in _NO_FORM):
            from_query = wsme.rest.args.args_from_params(definition,
                                                         request.params)
        else:  # no query string and no form: nothing to read there
            from_query = _NO_ARGUMENTS
        if body is not NOT_PARSED:
            from_body = _json_arguments(definition, body)
        elif readable:
            from_body = wsme.rest.args.args_from_body(
                definition, request.body, request.content_type)
        else:  # WSME reads nothing from an empty body
            from_body = _NO_ARGUMENTS
        if from_query is _NO_ARGUMENTS and from_body is _NO_ARGUMENTS:
            values, named = wsme.rest.args.combine_args(
                definition, (from_path,), allow_override=True)
        elif (body is not NOT_PARSED and from_query is _NO_ARGUMENTS
              and from_path == _NO_VALUES):
            # The parsed JSON body's arguments alone, all by name: what
            # combining them with nothing gives (nothing to override).
            values, named = [], dict(from_body[1])
        else:
            sent = wsme.rest.args.combine_args(
                definition, (from_query, _NO_ARGUMENTS, from_body))
            _check_overrides(definition, args, from_path[0], sent[1],
                             request, body)
            values, named = wsme.rest.args.combine_args(
                definition, (from_path, sent), allow_override=True)
        wsme.runtime.check_arguments(definition, values, named)
    except (wsme.exc.ClientSideError, APIError):
        raise
    except Exception:  # noqa: BLE001 - WSME failed on the client's input
        raise APIError("The request's arguments could not be read as their "
                       'types.', error_code='microversion.invalid_arguments'
                       ) from None
    return values, named


def _check_overrides(definition: Any, raw: tuple[Any, ...],
                     positional: list[Any], named: dict[str, Any],
                     request: Any, body: Any) -> None:
    """Refuse a query or body argument that would replace another value
    of the URL path: not the method's default, nor the query's, form's or
    JSON body's own value for it, all of which Pecan passes by position
    too (``raw``, before WSME converted them to ``positional``)."""
    for argument, given, value in zip(definition.arguments, raw, positional,
                                      strict=False):
        name = argument.name
        if (name in named and named[name] != value
                and (argument.mandatory or value != argument.default)
                and not _passed_by_name(definition, request, body, name,
                                        given)):
            raise path_conflict(name)


def _passed_by_name(definition: Any, request: Any, body: Any, name: str,
                    given: Any) -> bool:
    """Whether ``given`` is what Pecan passes for ``name`` from the query
    string, a form or a JSON object body of arguments (a list for a
    repeated key).  A body read whole as the body argument gives no
    argument by name: its members do not count."""
    if (definition.body_type is None and isinstance(body, dict)
            and name in body and body[name] == given):
        return True
    values = request.params.getall(name)
    return bool(values) and given == (values[0] if len(values) == 1
                                      else values)


def _from_path(definition: Any, args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """WSME's ``args_from_args``.  The values Pecan passes for text
    arguments, a path segment or a default, are mostly ``str`` or ``None``,
    which WSME's generic ``from_param`` gives back as they are."""
    if not kwargs:
        text = _text_arguments.get(definition)
        if text is None:
            text = _text_arguments[definition] = tuple(
                _generic_text(a.datatype) for a in definition.arguments)
        if len(args) <= len(text):
            for is_text, value in zip(text, args, strict=False):
                if not is_text or not (value is None
                                       or value.__class__ is str):
                    break
            else:
                return list(args), {}
    return wsme.rest.args.args_from_args(definition, args, kwargs)


def _generic_text(datatype: Any) -> bool:
    """Whether ``from_param(datatype, value)`` is WSME's generic
    ``str(value)`` (``None`` for ``None``)."""
    return datatype is str and dispatch_class(wsme.rest.args.from_param,
                                              str) is object


def _json_arguments(definition: Any, data: Any
                    ) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments a parsed JSON body gives: the body argument, or one
    argument per key (WSME's two ways of reading a JSON body)."""
    if definition.body_type is not None:
        name = definition.arguments[-1].name
        return (), {name: _from_json(name, definition.body_type, data)}
    if not isinstance(data, dict):
        raise wsme.exc.ClientSideError('Request must be a JSON dict')
    datatypes = {a.name: a.datatype for a in definition.arguments}
    unknown = [key for key in data if key not in datatypes]
    if unknown and not definition.ignore_extra_args:
        raise wsme.exc.UnknownArgument(', '.join(unknown))
    # Ignoring unknown keys (unknown_query_params='ignore') keeps the
    # known ones.
    return (), {key: _from_json(key, datatypes[key], value)
                for key, value in data.items() if key in datatypes}


def _from_json(name: str, datatype: Any, value: Any) -> Any:
    try:
        return reader(datatype)(value)
    except ValueError as exc:
        raise wsme.exc.InvalidInput(name, value, exc.args[0]) from None
    except wsme.exc.UnknownAttribute as exc:
        exc.add_fieldname(name)  # only known here
        raise
