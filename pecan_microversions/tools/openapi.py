"""OpenAPI 3.1 documents of a service, per microversion, from its declarations.

:func:`openapi_document` describes the API at one version: the operations
that exist there (:mod:`~pecan_microversions.tools.routes` walks the
controllers), the query parameters and values allowed there, the request
body, the status code and body of the answer, and every WSME type with the
fields of that version (:mod:`~pecan_microversions.tools.schemas`).  Without
a version it writes one combined document in which every operation,
parameter, response, field and value that does not exist at every version
carries an ``x-openstack`` extension ``{"min-ver": "X.Y", "max-ver":
"X.Y"}``, the form OpenStack's API code generators read.

A service serves the document of the request's version with an
:class:`OpenAPIEndpoint`::

    class V1Controller:
        def __init__(self, root):
            self._openapi = OpenAPIEndpoint(REGISTRY, root)

        @pecan.expose('json', route='openapi.json')
        def openapi(self):
            return self._openapi.respond()

``pecan-microversions openapi REGISTRY [VERSION] --app MODULE:APP`` prints
it, and :func:`openapi_diff` compares two documents.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from typing import Any, Optional

import pecan
from wsme import types as wtypes

from pecan_microversions.compat import context_app
from pecan_microversions.core.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.core.version import Version, VersionLike
from pecan_microversions.pecan.media import JSON_PATCH
from pecan_microversions.pecan.params import declared_query_params
from pecan_microversions.pecan.request import get_version
from pecan_microversions.tools.jsondiff import openapi_diff
from pecan_microversions.tools.responses import (
    Description,
    description_of,
    error_schema,
)
from pecan_microversions.tools.routes import (
    Implementation,
    Operation,
    api_operations,
    arguments,
    wsgi_chain,
)
from pecan_microversions.tools.schemas import SchemaSet, extension
from pecan_microversions.wsme.checking import JsonPatchOperation

__all__ = ['OPENAPI_VERSION', 'OpenAPIEndpoint', 'openapi_diff',
           'openapi_document']

#: The OpenAPI version of the documents.
OPENAPI_VERSION = '3.1.0'

_Range = tuple[Optional[Version], Optional[Version]]
_ERROR_STATUSES = {'400': 'The request is malformed or names a field, query '
                          'parameter or value the version does not have.',
                   '404': 'Not found, or not available at this version.',
                   '406': 'The requested version is not supported.',
                   '415': 'The body\'s media type or charset is not '
                          'accepted.'}
_JSON = ('application/json',)
#: What a ``versioned_wsexpose(..., patch_of=...)`` method reads.
_JSON_PATCH = ('application/json', JSON_PATCH)
_RESPONSE_HEADERS = {
    STANDARD_HEADER: 'The version that served the request: '
                     '"<service type> X.Y".',
    'OpenStack-API-Minimum-Version': 'The oldest version served.',
    'OpenStack-API-Maximum-Version': 'The newest version served.',
}


def openapi_document(registry: VersionRegistry, app: Any,
                     version: Optional[VersionLike] = None, *,
                     title: Optional[str] = None,
                     server_url: Optional[str] = None,
                     operations: Optional[Iterable[Operation]] = None,
                     error_body: Optional[dict[str, Any]] = None
                     ) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``app`` at ``version``.

    :param app: the Pecan app or its root controller instance.
    :param version: ``'X.Y'``; ``None`` for the combined document.
    :param title: ``info.title`` (default: ``'<service type> API'``).
    :param server_url: the ``servers`` entry, if any.
    :param operations: the walked operations, to reuse a previous walk.
    :param error_body: the JSON Schema of error bodies (default: read from
        the app, see :func:`~pecan_microversions.tools.responses.error_schema`).
    :raises ~pecan_microversions.core.errors.UnknownVersionError: ``version``
        is not in the history.
    """
    at = None if version is None else registry.known_version(version)
    found = list(api_operations(app) if operations is None else operations)
    schemas = SchemaSet(at, ref_prefix='#/components/schemas/')
    paths: dict[str, dict[str, Any]] = {}
    names: set[str] = set()
    for operation in found:
        if at is None:
            described = _combined(operation, registry, schemas)
        else:
            implementation = operation.select(at)
            if implementation is None:
                continue
            described = _operation(operation, implementation, at, schemas)
        described['operationId'] = _operation_id(operation, names)
        paths.setdefault(operation.path, {})[operation.method.lower()] = (
            described)
    info: dict[str, Any] = {
        'title': title or f'{registry.service_type} API',
        'version': str(at or registry.max_version)}
    if at is None:
        info['description'] = (f'Every version from {registry.min_version} '
                               f'to {registry.max_version}.')
        info.update(extension(registry.min_version, registry.max_version))
    else:
        info['description'] = dict(registry.history)[at]
    document: dict[str, Any] = {'openapi': OPENAPI_VERSION, 'info': info}
    if server_url:
        document['servers'] = [{'url': server_url}]
    document['paths'] = paths
    document['components'] = {
        'schemas': {**schemas.definitions, 'Errors': (
            error_schema(app) if error_body is None else error_body)},
        'parameters': {'OpenStackAPIVersion': _version_parameter(registry)},
        'headers': {_header_key(n): {'description': d,
                                     'schema': {'type': 'string'}}
                    for n, d in _RESPONSE_HEADERS.items()},
        'responses': {'Error': {
            'description': 'An error.',
            'content': {'application/json': {
                'schema': {'$ref': '#/components/schemas/Errors'}}}}},
    }
    return document


def _operation(operation: Operation, implementation: Implementation,
               at: Optional[Version], schemas: SchemaSet) -> dict[str, Any]:
    definition = implementation.definition
    described: dict[str, Any] = {}
    doc = getattr(implementation.function, '__doc__', None)
    if doc and doc.strip():
        described['summary'] = doc.strip().splitlines()[0]
    described['parameters'] = [
        {'$ref': '#/components/parameters/OpenStackAPIVersion'},
        *({'name': name, 'in': 'path', 'required': True,
           'schema': {'type': 'string'}} for name in operation.path_params),
        *_query(operation, implementation, at, schemas)]
    declared = description_of(implementation)
    body = _body(operation.method, implementation, declared, schemas)
    if body is not None:
        described['requestBody'] = body
    status, content = _answer(definition, declared, schemas)
    headers: dict[str, Any] = {
        n: {'$ref': f'#/components/headers/{_header_key(n)}'}
        for n in _RESPONSE_HEADERS}
    headers.update({n: {'description': d, 'schema': {'type': 'string'}}
                    for n, d in declared.headers.items()})
    errors = sorted({*_ERROR_STATUSES, *map(str, declared.errors)})
    described['responses'] = {
        status: {'description': 'Success.' if status != '2XX' else
                 'Success; the method declares no status code.',
                 'headers': headers, **content},
        **{code: {'$ref': '#/components/responses/Error'}
           for code in errors}}
    return described


def _query(operation: Operation, implementation: Implementation,
           at: Optional[Version], schemas: SchemaSet) -> list[dict[str, Any]]:
    definition = implementation.definition
    declared = declared_query_params(implementation.function)
    types = ({} if definition is None
             else {a.name: a.datatype for a in definition.arguments})
    names = arguments(implementation)[len(operation.path_params):]
    if definition is not None and definition.body_type is not None:
        names = names[:-1]  # the body argument
    if declared is not None:
        names += [n for n in declared.ranges if n not in names]
    result = []
    for name in names:
        low, high = (None, None) if declared is None else declared.ranges.get(
            name, (None, None))
        if at is not None and not at.matches(low, high):
            continue
        schema = schemas.schema(types.get(name, wtypes.text))
        rule = None if declared is None else declared.values.get(name)
        if rule is not None:
            schema = schemas.values_schema(
                schema, {v: (r.min_version, r.max_version)
                         for v, r in rule.ranges.items()})
        parameter: dict[str, Any] = {'name': name, 'in': 'query',
                                     'required': False, 'schema': schema}
        if declared is not None and name in declared.multiple:
            parameter['schema'] = {'type': 'array', 'items': schema}
            parameter['explode'] = True
        if at is None:
            parameter.update(extension(low, high))
        result.append(parameter)
    return result


def _body(method: str, implementation: Implementation,
          declared: Description, schemas: SchemaSet
          ) -> Optional[dict[str, Any]]:
    definition = implementation.definition
    patch_of = declared.patch_of or getattr(implementation.function,
                                            'patch_of', None)
    media_types = declared.media_types or _JSON
    if patch_of is not None:
        schema = schemas.schema([JsonPatchOperation])
        if declared.patch_of is None:  # the library reads the body
            media_types = declared.media_types or _JSON_PATCH
    elif declared.body is not None:
        schema = schemas.schema(declared.body)
    elif definition is not None and definition.body_type is not None:
        schema = schemas.schema(definition.body_type)
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


def _combined(operation: Operation, registry: VersionRegistry,
              schemas: SchemaSet) -> dict[str, Any]:
    """All implementations of an operation in one, with their ranges."""
    parts = [(i, _operation(operation, i, None, schemas))
             for i in operation.implementations]
    first = parts[0][1]
    described = {k: v for k, v in first.items()
                 if k not in ('requestBody', 'responses', 'parameters')}
    lows = [i.min_version for i in operation.implementations]
    highs = [i.max_version for i in operation.implementations]
    described.update(_range(
        registry,
        None if None in lows else min(v for v in lows if v is not None),
        None if None in highs else max(v for v in highs if v is not None)))
    parameters: dict[tuple[str, str], dict[str, Any]] = {}
    for _, part in parts:
        for parameter in part['parameters']:
            key = (parameter.get('name', ''), parameter.get('in', '$ref'))
            parameters.setdefault(key, parameter)
    described['parameters'] = list(parameters.values())
    bodies = [(i, p['requestBody']) for i, p in parts if 'requestBody' in p]
    if bodies:
        distinct = {repr(b) for _, b in bodies}
        if len(distinct) == 1 and len(bodies) == len(parts):
            described['requestBody'] = bodies[0][1]
        else:
            described['requestBody'] = {
                'required': all(b['required'] for _, b in bodies),
                'content': {t: {'schema': {'oneOf': [
                    {**b['content'][t]['schema'],
                     **_range(registry, i.min_version, i.max_version)}
                    for i, b in bodies if t in b['content']]}}
                    for t in sorted({t for _, b in bodies
                                     for t in b['content']})}}
    responses: dict[str, Any] = {}
    for implementation, part in parts:
        for status, response in part['responses'].items():
            if status not in responses:
                responses[status] = dict(response)
                if '$ref' not in response and len(parts) > 1:
                    responses[status].update(_range(
                        registry, implementation.min_version,
                        implementation.max_version))
    described['responses'] = dict(sorted(responses.items()))
    return described


def _range(registry: VersionRegistry, low: Optional[Version],
           high: Optional[Version]) -> dict[str, Any]:
    """The ``x-openstack`` extension of a range, without the bounds of
    the whole history (what exists at every version carries none)."""
    return extension(
        None if low is None or low <= registry.min_version else low,
        None if high is None or high >= registry.max_version else high)


def _version_parameter(registry: VersionRegistry) -> dict[str, Any]:
    example = f'{registry.service_type} {registry.max_version}'
    return {'name': STANDARD_HEADER, 'in': 'header', 'required': False,
            'description': f'The microversion wanted, such as "{example}"; '
                           'without it the default version answers.',
            'schema': {'type': 'string'}, 'example': example}


def _header_key(name: str) -> str:
    return name.replace('-', '')


def _operation_id(operation: Operation, taken: set[str]) -> str:
    words = re.sub(r'[^0-9A-Za-z]+', '_', operation.path).strip('_')
    base = f'{operation.method.lower()}_{words or "root"}'
    name, number = base, 2
    while name in taken:
        name, number = f'{base}_{number}', number + 1
    taken.add(name)
    return name


class OpenAPIEndpoint:
    """Serves the OpenAPI document of each request's version.

    The controllers are walked once, on the first request (so the endpoint
    may be built inside the root controller's ``__init__``); each version's
    document is built once.  Error bodies are described as the hook of the
    application serving that first request writes them (its
    ``error_renderer``); a WSGI middleware around the Pecan application
    that changes them cannot be seen from a request: pass ``error_body``.

    :param app: the root controller instance (or the Pecan app).
    :param title: ``info.title``.
    :param error_body: the JSON Schema of the service's error bodies (see
        :func:`~pecan_microversions.tools.responses.error_schema`).
    """

    def __init__(self, registry: VersionRegistry, app: Any, *,
                 title: Optional[str] = None,
                 error_body: Optional[dict[str, Any]] = None) -> None:
        self.registry = registry
        self.app = app
        self.title = title
        self._error_body = error_body
        self._lock = threading.Lock()
        self._operations: Optional[list[Operation]] = None
        self._documents: dict[Version, dict[str, Any]] = {}

    def document(self, version: VersionLike) -> dict[str, Any]:
        """The document at ``version`` (without ``servers``)."""
        at = self.registry.known_version(version)
        with self._lock:
            if self._operations is None:
                self._operations = api_operations(self.app)
            if self._error_body is None:
                serving = self._serving()
                if serving is not None:
                    self._error_body = error_schema(serving)
            found = self._documents.get(at)
            if found is None:
                found = openapi_document(
                    self.registry, self.app, at, title=self.title,
                    operations=self._operations, error_body=self._error_body)
                if self._error_body is not None:  # else not cached
                    self._documents[at] = found
        return found

    def _serving(self) -> Optional[Any]:
        """The application whose hook writes the errors: ``app`` if it is
        (or wraps) the Pecan app, else the one serving this request; None
        outside a request (the document then assumes the hook's default)."""
        if isinstance(wsgi_chain(self.app)[-1], pecan.core.Pecan):
            return self.app
        try:
            return context_app()
        except AttributeError:
            return None

    def respond(self) -> dict[str, Any]:
        """The document for the current request: its negotiated version,
        its application URL as the server."""
        document = self.document(get_version())
        servers = [{'url': pecan.request.application_url}]
        return {'openapi': document['openapi'], 'info': document['info'],
                'servers': servers,
                **{k: v for k, v in document.items()
                   if k not in ('openapi', 'info')}}
