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

from pecan_microversions.core.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.core.version import Version, VersionLike
from pecan_microversions.pecan.params import declared_query_params
from pecan_microversions.pecan.request import get_version
from pecan_microversions.tools.routes import (
    Implementation,
    Operation,
    api_operations,
    arguments,
)
from pecan_microversions.tools.schemas import SchemaSet, extension
from pecan_microversions.wsme.checking import JsonPatchOperation

__all__ = ['OPENAPI_VERSION', 'OpenAPIEndpoint', 'openapi_diff',
           'openapi_document']

#: The OpenAPI version of the documents.
OPENAPI_VERSION = '3.1.0'

_Range = tuple[Optional[Version], Optional[Version]]
_ERRORS = {
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
_ERROR_STATUSES = {'400': 'The request is malformed or names a field, query '
                          'parameter or value the version does not have.',
                   '404': 'Not found, or not available at this version.',
                   '406': 'The requested version is not supported.'}
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
                     operations: Optional[Iterable[Operation]] = None
                     ) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``app`` at ``version``.

    :param app: the Pecan app or its root controller instance.
    :param version: ``'X.Y'``; ``None`` for the combined document.
    :param title: ``info.title`` (default: ``'<service type> API'``).
    :param server_url: the ``servers`` entry, if any.
    :param operations: the walked operations, to reuse a previous walk.
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
        'schemas': {**schemas.definitions, 'Errors': _ERRORS},
        'parameters': {'OpenStackAPIVersion': _version_parameter(registry)},
        'headers': {_header_key(n): {'description': d,
                                     'schema': {'type': 'string'}}
                    for n, d in _RESPONSE_HEADERS.items()},
        'responses': {'Error': {
            'description': 'An error in the API-WG errors format.',
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
    body = _body(implementation, definition, schemas)
    if body is not None:
        described['requestBody'] = body
    status, content = _answer(definition, schemas)
    described['responses'] = {
        status: {'description': 'Success.',
                 'headers': {n: {'$ref': f'#/components/headers/'
                                         f'{_header_key(n)}'}
                             for n in _RESPONSE_HEADERS},
                 **content},
        **{code: {'$ref': '#/components/responses/Error'}
           for code in _ERROR_STATUSES}}
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


def _body(implementation: Implementation, definition: Any,
          schemas: SchemaSet) -> Optional[dict[str, Any]]:
    patch_of = getattr(implementation.function, 'patch_of', None)
    if patch_of is not None:
        schema = schemas.schema([JsonPatchOperation])
    elif definition is not None and definition.body_type is not None:
        schema = schemas.schema(definition.body_type)
    else:
        return None
    return {'required': True,
            'content': {'application/json': {'schema': schema}}}


def _answer(definition: Any, schemas: SchemaSet
            ) -> tuple[str, dict[str, Any]]:
    if definition is None:  # a plain pecan.expose('json') method
        return '200', {'content': {'application/json': {'schema': {}}}}
    status = str(definition.status_code or 200)
    if definition.return_type is None or status == '204':
        return status, {}
    return status, {'content': {'application/json': {
        'schema': schemas.schema(definition.return_type)}}}


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
    whole = (None if None in lows else min(v for v in lows if v is not None),
             None if None in highs else max(v for v in highs
                                            if v is not None))
    described.update(extension(*whole))
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
                'required': True, 'content': {'application/json': {
                    'schema': {'oneOf': [
                        {**b['content']['application/json']['schema'],
                         **extension(i.min_version, i.max_version)}
                        for i, b in bodies]}}}}
    responses: dict[str, Any] = {}
    for implementation, part in parts:
        for status, response in part['responses'].items():
            if status not in responses:
                responses[status] = dict(response)
                if '$ref' not in response and len(parts) > 1:
                    responses[status].update(extension(
                        implementation.min_version,
                        implementation.max_version))
    described['responses'] = dict(sorted(responses.items()))
    return described


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


def openapi_diff(before: Any, after: Any, pointer: str = ''
                 ) -> list[dict[str, Any]]:
    """What differs between two JSON documents, one entry per JSON pointer.

    Each entry is ``{'pointer': ..., 'change': 'added'|'removed'|'changed',
    'before': ..., 'after': ...}`` (only the relevant side for additions and
    removals); a subtree that is on one side only is one entry.  Lists of
    named objects (OpenAPI parameters) are matched by ``name`` and ``in``;
    the pointer holds the index on the side that has the item.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        return _diff_pairs(
            [(f'{pointer}/{_escape(str(k))}', k in before, before.get(k),
              k in after, after.get(k))
             for k in sorted(set(before) | set(after), key=str)])
    if _named(before) and _named(after):
        old = {_name(item): (i, item) for i, item in enumerate(before)}
        new = {_name(item): (i, item) for i, item in enumerate(after)}
        pairs = []
        for key in [*old, *(k for k in new if k not in old)]:
            index = new[key][0] if key in new else old[key][0]
            pairs.append((f'{pointer}/{index}', key in old,
                          old.get(key, (0, None))[1], key in new,
                          new.get(key, (0, None))[1]))
        return _diff_pairs(pairs)
    if before == after:
        return []
    return [{'pointer': pointer or '/', 'change': 'changed',
             'before': before, 'after': after}]


def _diff_pairs(pairs: list[tuple[str, bool, Any, bool, Any]]
                ) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = []
    for where, had, old, has, new in pairs:
        if not has:
            changes.append({'pointer': where, 'change': 'removed',
                            'before': old})
        elif not had:
            changes.append({'pointer': where, 'change': 'added',
                            'after': new})
        else:
            changes += openapi_diff(old, new, where)
    return changes


def _named(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and ('name' in item or '$ref' in item)
        for item in value)


def _name(item: dict[str, Any]) -> str:
    return item.get('$ref') or f'{item.get("in")}:{item.get("name")}'


def _escape(key: str) -> str:
    return key.replace('~', '~0').replace('/', '~1')


class OpenAPIEndpoint:
    """Serves the OpenAPI document of each request's version.

    The controllers are walked once, on the first request (so the endpoint
    may be built inside the root controller's ``__init__``); each version's
    document is built once.

    :param app: the root controller instance (or the Pecan app).
    :param title: ``info.title``.
    """

    def __init__(self, registry: VersionRegistry, app: Any, *,
                 title: Optional[str] = None) -> None:
        self.registry = registry
        self.app = app
        self.title = title
        self._lock = threading.Lock()
        self._operations: Optional[list[Operation]] = None
        self._documents: dict[Version, dict[str, Any]] = {}

    def document(self, version: VersionLike) -> dict[str, Any]:
        """The document at ``version`` (without ``servers``)."""
        at = self.registry.known_version(version)
        with self._lock:
            if self._operations is None:
                self._operations = api_operations(self.app)
            found = self._documents.get(at)
            if found is None:
                found = self._documents[at] = openapi_document(
                    self.registry, self.app, at, title=self.title,
                    operations=self._operations)
        return found

    def respond(self) -> dict[str, Any]:
        """The document for the current request: its negotiated version,
        its application URL as the server."""
        document = self.document(get_version())
        servers = [{'url': pecan.request.application_url}]
        return {'openapi': document['openapi'], 'info': document['info'],
                'servers': servers,
                **{k: v for k, v in document.items()
                   if k not in ('openapi', 'info')}}
