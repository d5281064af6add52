"""Every way a value reaches a ``versioned_wsexpose`` method, checked.

WSME reads a method's arguments from the URL path, the query string (by
name, and in its dotted ``?node.owner=`` and indexed ``?tags[0]=``
syntaxes), a form body, a JSON or XML body, and ``?__body__=``.  The
library checks them in two places, so that no value outside the request's
version reaches the method whatever its source:

* :func:`check_sources`, before WSME reads anything: the body's media type
  must be one the registry enables (``VersionRegistry(request_formats=...)``,
  else 415; a JSON patch body may also be sent as
  ``application/json-patch+json``, read like ``application/json``), UTF-8
  for JSON and form bodies
  (:func:`~pecan_microversions.pecan.encoding.check_encoding`, which the
  hook runs before routing; else 415); JSON must decode (400) and is
  checked field by field with the JSON names
  (:func:`~pecan_microversions.wsme.checking.check_body`,
  :func:`~pecan_microversions.wsme.checking.check_patch`); XML is read
  strictly (:mod:`pecan_microversions.pecan.xml_bodies`); ``__body__`` is
  refused; form and query keys must name attributes of the argument's type,
  none held in another representation at the version than the newest.
* :func:`check_received`, after WSME has converted the arguments and just
  before the method runs: every value it is about to receive, whatever its
  source, is walked: fields and query parameters outside the version, values
  outside their ranges, read-only fields and missing mandatory ones are
  refused.
"""

from __future__ import annotations

import re
import urllib.parse
import warnings
from collections import Counter
from collections.abc import Mapping
from typing import Any
from xml.etree import ElementTree

from wsme import types as wtypes

from pecan_microversions.compat import request_body, request_environ, wsme_dataholder
from pecan_microversions.core.checking import check_member
from pecan_microversions.core.errors import RequestError, http_code
from pecan_microversions.core.json_bodies import DECODER, read_json
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.media import (
    FORMATS,
    JSON_PATCH,
    may_have_body,
    media_format,
    media_type_of,
)
from pecan_microversions.pecan.request import named_method
from pecan_microversions.pecan.xml_bodies import check_xml
from pecan_microversions.wsme.checking import (
    body_too_deep,
    check_data,
    check_patch,
    is_mandatory,
    json_only,
)
from pecan_microversions.wsme.fields import binding_of
from pecan_microversions.wsme.filtering import CONTAINERS
from pecan_microversions.wsme.values import check_json_argument

__all__ = ['FORMATS', 'body_names', 'check_received', 'check_sources',
           'may_have_body', 'media_format', 'path_conflict', 'root_name']

_MALFORMED = object()
#: WSME's answer to a JSON body that does not parse.
_NOT_JSON = 'Request is not in valid JSON format'
_KEY_PART = re.compile(r'\.([^.\[\]]+)|\[([^\[\]]*)\]')


def body_names(request: Any, data: Any = None) -> frozenset[str]:
    """The arguments a request's body sets by name (the keys of a JSON
    object, form fields, the elements of an XML document), each as the
    argument it sets (``tags`` for ``tags[0]``).

    :param data: the body, already parsed as JSON (``None``: parse it).
    """
    if not may_have_body(request.environ):
        return frozenset()
    found = media_format(request.content_type)
    try:
        if found == 'json':
            if data is None:
                data = DECODER.decode(request_body(request).decode('utf-8'))
            return frozenset(data) if isinstance(data, dict) else frozenset()
        if found == 'form':
            return frozenset(root_name(key) for key in request.POST.keys())
        if found == 'xml':
            return frozenset(child.tag for child in
                             ElementTree.fromstring(request_body(request)))
    except (ValueError, ElementTree.ParseError, RecursionError):
        pass  # refused as malformed by whoever reads it
    return frozenset()


def path_conflict(name: str) -> APIError:
    """The 400 for an argument the URL path gives and the query string or
    body gives again, another value: one would be silently dropped."""
    return APIError(f'Argument {name!r} is given by the URL path and again, '
                    'with another value, by the query string or body.',
                    error_code='microversion.invalid_arguments')


def check_sources(request: Any, definition: Any, patch_of: Any,
                  version: Version, formats: frozenset[str]) -> Any:
    """Refuse, before WSME reads them, arguments that cannot be checked.

    :return: the parsed JSON body, or ``None`` for no JSON body (or one
        WSME will refuse as malformed).

    :param request: the WebOb request.
    :param definition: the method's ``wsme.api.FunctionDefinition``.
    :param patch_of: the patched resource type, or None.
    :param formats: the enabled body formats (see :data:`FORMATS`).
    :raises ~pecan_microversions.pecan.errors.APIError: 400 or 415.
    """
    environ = request_environ(request)
    if environ.get('QUERY_STRING'):  # else WebOb's GET is empty
        query = request.GET
        if '__body__' in query:
            raise _dunder_body()
        body_name = (definition.arguments[-1].name if definition.body_type
                     is not None and definition.arguments else None)
        if body_name is not None and body_name in query:  # not dotted
            raise APIError(f'{body_name!r} is the request body: it cannot be '
                           'given whole in the query string.',
                           error_code='microversion.invalid_arguments')
        _check_keys(definition, query, 'query parameter', version)
        _check_once(definition, query, 'query parameter', version)
    body = request_body(request) if may_have_body(environ) else b''
    wants_body = patch_of is not None or definition.body_type is not None
    if not body:
        if wants_body and request.method in ('POST', 'PUT', 'PATCH'):
            raise APIError('This request needs a body.',
                           error_code='microversion.missing_body')
        return None
    media_type = media_type_of(environ)
    found = media_format(media_type, patch=patch_of is not None)
    if found is None or found not in formats:
        accepted = sorted(_accepted_media_types(formats, patch_of is not None))
        raise APIError(
            f'A request body is sent as {" or ".join(accepted)}, not '
            f'{media_type or "no content type"}.', status=415,
            error_code='microversion.unsupported_media_type')
    # The charset was checked by the hook (encoding.check_encoding), before
    # routing.
    if found == 'json':
        data = _check_json(body, definition, patch_of, version)
        if data is None and media_format(media_type) is None:
            # Malformed: WSME, which does not read this media type, would
            # answer 415; answer as it does for application/json.
            raise APIError(_NOT_JSON, error_code=http_code(400))
        return data
    if found == 'xml':
        check_xml(body, definition, version)
    else:
        try:  # WebOb would read bytes that are not UTF-8 as U+FFFD
            urllib.parse.unquote_to_bytes(body).decode('utf-8')
        except UnicodeDecodeError:
            raise APIError('The form body is not UTF-8.',
                           error_code='microversion.invalid_body') from None
        form = request.POST
        if not form:  # WebOb reads form bodies of POST, PUT, PATCH, DELETE
            named = named_method(request.method, head_as_get=getattr(
                definition, 'name', None) != 'head')
            raise APIError(f'A form body is not read for {named}.',
                           error_code='microversion.invalid_body')
        if '__body__' in form:
            raise _dunder_body()
        _check_keys(definition, form, 'form field', version)
        _check_once(definition, request.params, 'form field', version)
    return None


def _accepted_media_types(formats: frozenset[str],
                          patch: bool = False) -> frozenset[str]:
    """The body media types a method reads with the enabled ``formats``
    (see :data:`FORMATS`); ``patch``: one taking a JSON patch document,
    which also reads :data:`~pecan_microversions.pecan.media.JSON_PATCH`."""
    accepted = frozenset(t for f in formats for t in FORMATS[f])
    return accepted | {JSON_PATCH} if patch and 'json' in formats else (
        accepted)


def _dunder_body() -> APIError:
    return APIError('The __body__ parameter is not supported: send the body '
                    'as the request body.',
                    error_code='microversion.unsupported_parameter')


def _check_json(body: bytes, definition: Any, patch_of: Any,
                version: Version) -> Any:
    try:  # malformed: WSME answers 400 "not in valid JSON format"
        data = read_json(body, malformed=_MALFORMED)
    except RequestError as exc:
        raise APIError.from_error(exc) from None
    if data is _MALFORMED:
        return None
    wants_body = patch_of is not None or definition.body_type is not None
    if data is None and wants_body:
        raise APIError('This request needs a JSON body, not null.',
                       error_code='microversion.missing_body')
    try:
        if patch_of is not None:
            check_patch(patch_of, data, version)
        elif definition.body_type is not None:
            check_data(definition.body_type, data, version, '')
        elif isinstance(data, dict):
            for argument in definition.arguments:
                if argument.name not in data:
                    continue
                value = data[argument.name]
                # WSME hands it to the method unchecked: a number or a
                # list for a text argument, a value no Enum allows.
                check_json_argument(argument.datatype, value, argument.name)
                if not isinstance(argument.datatype, wtypes.UserType):
                    check_data(argument.datatype, value, version,
                               argument.name)
    except RecursionError:
        raise body_too_deep() from None
    return data


def _check_keys(definition: Any, params: Any, what: str,
                version: Version) -> None:
    """Each ``arg.attr[i]...`` key must walk the argument's type, through
    attributes that are not converted at ``version``."""
    arguments = None  # built only for a request with such a key
    for key in params.keys():
        name = root_name(key)
        if name == key:
            continue
        if arguments is None:
            arguments = {a.name: a.datatype for a in definition.arguments}
        if name in arguments:
            _walk_key(arguments[name], name, key[len(name):], key, what,
                      version)


def _check_once(definition: Any, params: Any, what: str,
                version: Version) -> None:
    """A 400 for a key given more than once (in the query string, the form
    or both) where WSME reads one value of it and drops the others: not an
    array's."""
    arguments = None
    for key, count in Counter(params.keys()).items():
        name = root_name(key)
        if count == 1:
            continue
        if arguments is None:
            arguments = {a.name: a.datatype for a in definition.arguments}
        if name not in arguments:
            continue  # not an argument: refused or ignored as such
        datatype = arguments[name] if name == key else _walk_key(
            arguments[name], name, key[len(name):], key, what, version)
        if not isinstance(getattr(datatype, 'basetype', datatype),
                          wtypes.ArrayType):
            raise APIError(f'{what.capitalize()} {key!r} is given {count} '
                           'times; give it once.',
                           error_code='microversion.invalid_arguments')


def root_name(key: str) -> str:
    """The argument a WSME query or form key sets: ``tags`` for
    ``tags[0]``, ``flt`` for ``flt.owner``."""
    cut = min((i for i in (key.find('.'), key.find('[')) if i > 0),
              default=len(key))
    return key[:cut]


def _walk_key(datatype: Any, label: str, rest: str, key: str,
              what: str, version: Version) -> Any:
    position = 0
    while position < len(rest):
        match = _KEY_PART.match(rest, position)
        if match is None:
            raise APIError(f'Invalid {what} {key!r}.',
                           error_code='microversion.unknown_field')
        position = match.end()
        attribute, index = match.groups()
        if isinstance(datatype, wtypes.UserType):
            datatype = datatype.basetype
        if index is not None and isinstance(datatype, wtypes.ArrayType):
            datatype = datatype.item_type
        elif index is not None and isinstance(datatype, wtypes.DictType):
            datatype = datatype.value_type
        elif attribute is not None and isinstance(
                datatype, wtypes.ArrayType) and wtypes.iscomplex(
                    datatype.item_type):
            datatype = _attribute(datatype.item_type, attribute, key, what,
                                  version)
        elif attribute is not None and isinstance(datatype, type) and \
                wtypes.iscomplex(datatype):
            datatype = _attribute(datatype, attribute, key, what, version)
        else:
            walked = label + rest[:match.start()]
            raise APIError(f'Invalid {what} {key!r}: {walked} has no '
                           f'{match.group(0)!r}.',
                           error_code='microversion.unknown_field')
    return datatype


def _attribute(datatype: type, key: str, whole: str, what: str,
               version: Version) -> Any:
    for attr in wtypes.list_attributes(datatype):
        if attr.key == key:
            binding = binding_of(datatype)
            if binding is not None and attr.name in \
                    binding.converted[version]:
                raise APIError.from_error(
                    json_only(f'{attr.name!r} ({what} {whole!r})', version))
            return attr.datatype
    raise APIError(f'Unknown field {key!r} in {what} {whole!r}.',
                   error_code='microversion.unknown_field')


def check_received(definition: Any, arguments: Mapping[str, Any],
                   version: Version, patch_of: Any = None) -> None:
    """Refuse what the method is about to receive if ``version`` lacks it.

    :param arguments: the converted arguments by name, as WSME passes them.
    :raises ~pecan_microversions.pecan.errors.APIError: naming the field.
    """
    body = (definition.arguments[-1] if definition.body_type is not None
            and definition.arguments else None)
    for argument in definition.arguments:
        value = arguments.get(argument.name)
        if not isinstance(value, CONTAINERS):
            continue  # None, Unset, a plain value: nothing versioned
        if patch_of is not None and argument is body:
            check_patch(patch_of, value, version)
            continue
        _received(argument.datatype, value, version, argument.name)


def _received(datatype: Any, value: Any, version: Version,
              label: str) -> None:
    if value is None or value is wtypes.Unset:
        return
    if isinstance(datatype, wtypes.ArrayType):
        if isinstance(value, list):
            for index, item in enumerate(value):
                _received(datatype.item_type, item, version,
                          f'{label}[{index}]')
        return
    if isinstance(datatype, wtypes.DictType):
        if isinstance(value, dict):
            for key, item in value.items():
                _received(datatype.value_type, item, version,
                          f'{label}[{key}]')
        return
    if not (isinstance(value, wtypes.Base) and wtypes.iscomplex(type(value))):
        return
    binding = binding_of(type(value))
    converted = (frozenset() if binding is None
                 else binding.converted[version])
    for attr in wtypes.list_attributes(type(value)):
        field = f'{label}.{attr.name}'
        sent = _sent(attr, value)
        mandatory = is_mandatory(attr, binding, attr.name, version)
        if sent is wtypes.Unset:
            if mandatory:
                raise APIError(f'Mandatory field {field!r} is missing.',
                               error_code='microversion.missing_field')
            continue
        if attr.name in converted and sent is not None:
            # Only a JSON body is converted up: WSME read this value as
            # the newest representation, which the version does not have
            # (a null is the same in both).
            raise APIError.from_error(json_only(repr(field), version))
        if not check_member(binding, attr.name, sent, version, field,
                            readonly=attr.readonly, mandatory=mandatory):
            continue  # a null the registry takes as absent
        _received(attr.datatype, sent, version, field)


def _sent(attr: Any, obj: Any) -> Any:
    """What was set on ``obj`` for ``attr`` (not its default), or Unset."""
    return getattr(wsme_dataholder(attr, obj), attr.key, wtypes.Unset)


def __getattr__(name: str) -> Any:
    """``check_encoding``, moved to :mod:`pecan_microversions.pecan.encoding`:
    the old spelling, kept for one release, warns."""
    if name == 'check_encoding':
        warnings.warn('pecan_microversions.pecan.arguments.check_encoding is '
                      'deprecated: import it from '
                      'pecan_microversions.pecan.encoding.',
                      DeprecationWarning, stacklevel=2)
        from pecan_microversions.pecan import encoding
        return encoding.check_encoding
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
