"""One operation of an OpenAPI document at one version, and the version
headers every operation shares.

:func:`describe_operation` writes an operation's parameters (the version
headers, path parameters, the query parameters and values of the version),
request body and responses; :func:`version_components` the ``components``
its references name.  :mod:`pecan_microversions.tools.openapi` assembles the
documents from them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any, Optional

from wsme import types as wtypes

from pecan_microversions.core.checking import OPERATIONS
from pecan_microversions.core.headers import MAX_HEADER, MIN_HEADER
from pecan_microversions.core.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.core.version import Version, VersionRange
from pecan_microversions.pecan.media import JSON_PATCH
from pecan_microversions.pecan.params import declared_query_params
from pecan_microversions.tools.responses import Description, description_of
from pecan_microversions.tools.routes import (
    Implementation,
    Operation,
    arguments,
    required_arguments,
)
from pecan_microversions.tools.schema_parts import PATCH_RULES
from pecan_microversions.tools.schemas import SchemaSet

__all__ = ['ERROR_STATUSES', 'RENAMED_SCHEMAS', 'deprecation_components',
           'describe_operation', 'error_response', 'renamed_schemas',
           'version_components']

#: The error statuses every operation lists, with what they mean.
ERROR_STATUSES = {'400': 'The request is malformed or names a field, query '
                         'parameter or value the version does not have.',
                  '404': 'Not found, or not available at this version.',
                  '406': 'The requested version is not supported.',
                  '415': 'The body\'s media type or charset is not '
                         'accepted.'}
_JSON = ('application/json',)
#: What a ``versioned_wsexpose(..., patch_of=...)`` method reads.
_JSON_PATCH = ('application/json', JSON_PATCH)
#: An operation of a JSON patch the method's own code reads (with the
#: library's checks): members it does not use are ignored, as RFC 6902
#: says.  (WSME, reading ``body=[JsonPatchOperation]``, refuses them.)
_PATCH_OPERATION: dict[str, Any] = {
    'type': 'object',
    'description': 'One RFC 6902 operation; members it does not use are '
                   'ignored.',
    'required': ['op', 'path'],
    'properties': {'op': {'type': 'string', 'enum': sorted(OPERATIONS)},
                   'path': {'type': 'string'}, 'value': {}},
    'allOf': list(PATCH_RULES)}


#: Component schemas renamed in the documents, old name to new.  Clients
#: may refer to a document's schemas, so the old name stays for one
#: release, a deprecated ``$ref`` to the new (see :func:`renamed_schemas`).
RENAMED_SCHEMAS = {'JsonPatchOperation': 'PatchOperation'}


def renamed_schemas(schemas: SchemaSet) -> dict[str, Any]:
    """The old names of the renamed schemas ``schemas`` defines, each a
    deprecated ``$ref`` to the schema's name now; none where the old name
    is taken (by a WSME ``JsonPatchOperation`` body, which keeps it)."""
    aliases: dict[str, Any] = {}
    for old, new in RENAMED_SCHEMAS.items():
        found = schemas.defined_as(new)
        if found is not None and old not in schemas.definitions:
            aliases[old] = {
                '$ref': schemas.ref_prefix + found, 'deprecated': True,
                'description': f'The name of {found} before this release, '
                               'kept for one release: refer to '
                               f'{found}.'}
    return aliases


def _key(name: str) -> str:
    return name.replace('-', '')


def _response_headers(registry: VersionRegistry) -> dict[str, str]:
    """The version headers of every response, name to description."""
    headers = {
        STANDARD_HEADER: 'The version that served the request: '
                         '"<service type> X.Y".',
        MIN_HEADER: 'The oldest version served.',
        MAX_HEADER: 'The newest version served.'}
    for name, minimum, maximum in registry.legacy_range_headers:
        headers[name] = 'The version that served the request, X.Y.'
        headers[minimum] = 'The oldest version served, X.Y.'
        headers[maximum] = 'The newest version served, X.Y.'
    for name in registry.legacy_headers:
        headers.setdefault(name, 'The version that served the request, '
                                 'X.Y; sent when the request named its '
                                 'version with this header.')
    headers['Vary'] = (', '.join((STANDARD_HEADER, *registry.legacy_headers))
                       + ': the answer depends on these request headers.')
    return headers


def version_components(registry: VersionRegistry,
                       newest: Optional[Version] = None) -> dict[str, Any]:
    """The ``parameters`` (the version request headers, the legacy ones
    included) and ``headers`` (the version response headers) of the
    ``components`` of ``registry``'s documents.

    :param newest: the newest version served, which the examples name
        (default: the registry's ``max_version``; an operator's cap may be
        lower).
    """
    newest = registry.max_version if newest is None else newest
    example = f'{registry.service_type} {newest}'
    parameters = {_key(STANDARD_HEADER): {
        'name': STANDARD_HEADER, 'in': 'header', 'required': False,
        'description': f'The microversion wanted, such as "{example}"; '
                       'without it the default version answers.',
        'schema': {'type': 'string'}, 'example': example}}
    for name in registry.legacy_headers:
        parameters[_key(name)] = {
            'name': name, 'in': 'header', 'required': False,
            'description': f'The microversion wanted, X.Y (legacy): read '
                           f'when {STANDARD_HEADER} does not name the '
                           f'{registry.service_type} service.',
            'schema': {'type': 'string'},
            'example': str(newest)}
    return {'parameters': parameters, 'headers': {
        _key(name): {'description': text, 'schema': {'type': 'string'}}
        for name, text in _response_headers(registry).items()}}


_DEPRECATION_HEADERS = {
    'Deprecation': 'When the version that served the request was '
                   'deprecated (RFC 9745): "@<seconds since the epoch>"',
    'Sunset': 'When that version stops being served (RFC 8594), an '
              'HTTP-date',
    'Link': 'The deprecation notice (rel="deprecation") and the sunset '
            'one (rel="sunset")'}


def deprecation_components(registry: VersionRegistry,
                           versions: Iterable[Version]) -> dict[str, Any]:
    """The ``Deprecation``, ``Sunset`` and ``Link`` response headers the
    deprecated versions among ``versions`` send, as ``components``
    ``headers`` (empty: none is deprecated); one version's name the values
    it sends as examples."""
    versions = list(versions)
    found = [d for d in registry.deprecations
             if any(d.covers(v) for v in versions)]
    sent: dict[str, str] = {}
    for deprecation in found:
        for name, value in deprecation.headers():
            sent.setdefault(name, value)
    # each range as far as the versions described go (an operator's floor)
    where = ', '.join(str(VersionRange(covered[0], covered[-1])) for covered
                      in ([v for v in versions if d.covers(v)] for d in found))
    return {_key(name): {
        'description': f'{text}; sent at the deprecated versions ({where}).',
        'schema': {'type': 'string'},
        **({'example': sent[name]} if len(versions) == 1 else {})}
        for name, text in _DEPRECATION_HEADERS.items() if name in sent}


def _header_refs(registry: VersionRegistry) -> dict[str, Any]:
    return {name: {'$ref': f'#/components/headers/{_key(name)}'}
            for name in _response_headers(registry)}


def error_response(registry: VersionRegistry) -> dict[str, Any]:
    """An error answer: the ``Errors`` body and the version headers."""
    return {'description': 'An error.', 'headers': _header_refs(registry),
            'content': {'application/json': {
                'schema': {'$ref': '#/components/schemas/Errors'}}}}


def describe_operation(operation: Operation, implementation: Implementation,
                       at: Version, schemas: SchemaSet,
                       registry: VersionRegistry) -> dict[str, Any]:
    """The OpenAPI operation object of ``implementation`` at ``at``.

    ``schemas`` writes the bodies' schemas (those of ``at``, or of the
    combined document); the query parameters and values are those of
    ``at``.
    """
    definition = implementation.definition
    described: dict[str, Any] = {}
    doc = getattr(implementation.function, '__doc__', None)
    if doc and doc.strip():
        described['summary'] = doc.strip().splitlines()[0]
    described['parameters'] = [
        *({'$ref': f'#/components/parameters/{_key(name)}'}
          for name in (STANDARD_HEADER, *registry.legacy_headers)),
        *({'name': name, 'in': 'path', 'required': True,
           'schema': {'type': 'string'}} for name in operation.path_params),
        *_query(operation, implementation, at, schemas)]
    declared = description_of(implementation)
    body = _body(operation.method, implementation, declared, schemas)
    if body is not None:
        described['requestBody'] = body
    status, content = _answer(definition, declared, schemas)
    headers: dict[str, Any] = _header_refs(registry)
    headers.update({n: {'description': d, 'schema': {'type': 'string'}}
                    for n, d in declared.headers.items()})
    errors = sorted({*ERROR_STATUSES, *map(str, declared.errors)})
    described['responses'] = {
        status: {'description': 'Success.' if status != '2XX' else
                 'Success; the method declares no status code.',
                 'headers': headers, **content},
        **{code: {'$ref': '#/components/responses/Error'}
           for code in errors}}
    return described


def _query(operation: Operation, implementation: Implementation,
           at: Version, schemas: SchemaSet) -> list[dict[str, Any]]:
    definition = implementation.definition
    declared = declared_query_params(implementation.function)
    types = ({} if definition is None
             else {a.name: a.datatype for a in definition.arguments})
    names = arguments(implementation)[len(operation.path_params):]
    if definition is not None and definition.body_type is not None:
        names = names[:-1]  # the body argument
    if declared is not None:
        names += [n for n in declared.ranges if n not in names]
    required = required_arguments(implementation)
    result = []
    for name in names:
        low, high = (None, None) if declared is None else declared.ranges.get(
            name, (None, None))
        if not at.matches(low, high):
            continue
        multiple = declared is not None and name in declared.multiple
        schema = _query_schema(
            schemas.schema(types.get(name, wtypes.text)), multiple,
            None if declared is None else declared.values.get(name), at)
        parameter: dict[str, Any] = {'name': name, 'in': 'query',
                                     'required': name in required,
                                     'schema': schema}
        if schema.get('type') == 'array':
            parameter['explode'] = True  # ?tag=a&tag=b
        result.append(parameter)
    return result


def _query_schema(schema: dict[str, Any], multiple: bool, rule: Any,
                  at: Version) -> dict[str, Any]:
    """A query parameter's schema: one value, or with ``multiple`` (or a
    list argument, given once) an array of them; declared values are the
    ``enum`` of each value, the text the query string carries, which the
    library compares with them."""
    listed = schema.get('type') == 'array'
    item = schema['items'] if listed else schema
    if rule is not None:
        item = {'type': 'string', 'enum': sorted(rule.allowed[at], key=str)}
    if multiple:
        return {'type': 'array', 'items': item}
    if listed:  # a list argument: the library refuses a repeated key
        return {**schema, 'items': item, 'maxItems': 1}
    return item


def _body(method: str, implementation: Implementation,
          declared: Description, schemas: SchemaSet
          ) -> Optional[dict[str, Any]]:
    definition = implementation.definition
    wsme_body = None if definition is None else definition.body_type
    patch_of = declared.patch_of or getattr(implementation.function,
                                            'patch_of', None)
    media_types = declared.media_types or _JSON
    if patch_of is not None:
        if wsme_body is not None:  # WSME reads [JsonPatchOperation]
            schema = schemas.schema(wsme_body)
        else:  # the method's own code reads it
            schema = {'type': 'array', 'items': schemas.named(
                'PatchOperation', copy.deepcopy(_PATCH_OPERATION))}
        if declared.patch_of is None:  # the library reads the body
            media_types = declared.media_types or _JSON_PATCH
    elif declared.body is not None:
        schema = schemas.schema(declared.body)
    elif wsme_body is not None:
        schema = schemas.schema(wsme_body)
    elif definition is None and method in ('POST', 'PUT', 'PATCH'):
        return {'required': False, 'content': {  # plain: any JSON body
            t: {'schema': {}} for t in media_types}}
    else:
        return None
    return {'required': True, 'content': {
        t: {'schema': schema} for t in media_types}}


def _answer(definition: Any, declared: Description, schemas: SchemaSet
            ) -> tuple[str, dict[str, Any]]:
    code = declared.status or (None if definition is None
                               else definition.status_code or 200)
    status = '2XX' if code is None else str(code)
    if status == '204' or (definition is not None
                           and definition.return_type is None):
        return status, {}
    schema = (schemas.schema(declared.returns) if declared.returns is not None
              else {} if definition is None
              else schemas.schema(definition.return_type))
    return status, {'content': {'application/json': {'schema': schema}}}
