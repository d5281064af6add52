"""OpenAPI 3.1 documents of a service, per microversion, from its declarations.

:func:`openapi_document` describes the API at one version: the operations
that exist there (:mod:`~pecan_microversions.tools.routes` walks the
controllers), the query parameters and values allowed there, the request
body, the status code and body of the answer, and every WSME type with the
fields of that version (:mod:`~pecan_microversions.tools.schemas`), with
the version headers of requests and responses
(:mod:`~pecan_microversions.tools.operations`).  Without a version it
writes one combined document of every served version in which every
operation, parameter, response, field and value that does not exist at
every version carries an ``x-openstack`` extension ``{"min-ver": "X.Y",
"max-ver": "X.Y"}``, the form OpenStack's API code generators read; a part
that differs between versions describes each version's form
(:mod:`~pecan_microversions.tools.combined`).  Only served versions are
described (:func:`served_range`): the document of a version every request
at which gets 406 is refused.

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

import copy
import functools
import re
import threading
from collections.abc import Iterable
from typing import Any, Optional

import pecan

from pecan_microversions.compat import context_app
from pecan_microversions.core.errors import RegistryError, UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike
from pecan_microversions.pecan.request import get_version
from pecan_microversions.tools.combined import combined_operation
from pecan_microversions.tools.jsondiff import openapi_diff
from pecan_microversions.tools.operations import (
    deprecation_components,
    describe_operation,
    error_response,
    renamed_schemas,
    version_components,
)
from pecan_microversions.tools.responses import error_schema
from pecan_microversions.tools.routes import (
    Implementation,
    Operation,
    api_operations,
    microversion_hook,
    wsgi_chain,
)
from pecan_microversions.tools.schema_parts import extension
from pecan_microversions.tools.schemas import SchemaSet

__all__ = ['OPENAPI_VERSION', 'OpenAPIEndpoint', 'openapi_diff',
           'openapi_document', 'served_range']

#: The OpenAPI version of the documents.
OPENAPI_VERSION = '3.1.0'


def served_range(registry: VersionRegistry, app: Any
                 ) -> tuple[Version, Version]:
    """The versions ``app`` serves: its :class:`MicroversionHook`'s limits
    (an operator's floor and cap included), or without a hook to read (a
    root controller) the registry's ``min_version`` to ``max_version``.

    :raises ~pecan_microversions.core.errors.RegistryError: the app's hook
        serves another registry.
    """
    hook = microversion_hook(app)
    if hook is None:
        return registry.min_version, registry.max_version
    if hook.registry is not registry:
        same = repr(hook.registry) == repr(registry)
        raise RegistryError(
            f'The app negotiates with another registry ({hook.registry!r}) '
            f'than the one given ({registry!r}'
            f'{", a distinct object" if same else ""}): describe it with '
            'the registry its MicroversionHook was made with.')
    limits = hook.limits  # read once: a reload may replace it meanwhile
    return limits.min_version, limits.max_version


def openapi_document(registry: VersionRegistry, app: Any,
                     version: Optional[VersionLike] = None, *,
                     title: Optional[str] = None,
                     server_url: Optional[str] = None,
                     operations: Optional[Iterable[Operation]] = None,
                     error_body: Optional[dict[str, Any]] = None
                     ) -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``app`` at ``version``.

    :param app: the Pecan app or its root controller instance.
    :param version: ``'X.Y'``; ``None`` for the combined document of every
        served version (see :func:`served_range`).
    :param title: ``info.title`` (default: ``'<service type> API'``).
    :param server_url: the ``servers`` entry, if any.
    :param operations: the walked operations, to reuse a previous walk.
    :param error_body: the JSON Schema of error bodies (default: read from
        the app, see :func:`~pecan_microversions.tools.responses.error_schema`).
    :raises ~pecan_microversions.core.errors.UnknownVersionError: ``version``
        is not in the history, or is not served (every request at it gets
        406).
    :raises ~pecan_microversions.core.errors.RegistryError: the app's hook
        serves another registry.
    """
    served = served_range(registry, app)
    at = None if version is None else _served(registry, version, served)
    found = list(api_operations(app) if operations is None else operations)
    schemas = SchemaSet(at, ref_prefix='#/components/schemas/',
                        served=served)
    versions = [v for v in registry.versions if v.matches(*served)]
    error = error_response(registry)
    paths: dict[str, dict[str, Any]] = {}
    names: set[str] = set()
    for operation in found:
        if at is None:
            described = combined_operation(
                operation, versions, functools.partial(
                    _describe, operation, schemas=schemas,
                    registry=registry), error)
        else:
            implementation = operation.select(at)
            described = None if implementation is None else (
                describe_operation(operation, implementation, at, schemas,
                                   registry))
        if described is None:
            continue
        described['operationId'] = _operation_id(operation, names)
        paths.setdefault(operation.path, {})[operation.method.lower()] = (
            described)
    info: dict[str, Any] = {
        'title': title or f'{registry.service_type} API',
        'version': str(at or served[1])}
    if at is None:
        info['description'] = f'Every version from {served[0]} to {served[1]}.'
        info.update(extension(*served))
    else:
        info['description'] = dict(registry.history)[at]
    document: dict[str, Any] = {'openapi': OPENAPI_VERSION, 'info': info}
    if server_url:
        document['servers'] = [{'url': server_url}]
    document['paths'] = paths
    errors = (error_schema(app) if error_body is None
              else copy.deepcopy(error_body))
    document['components'] = {
        'schemas': {**schemas.definitions, **renamed_schemas(schemas),
                    'Errors': errors},
        **version_components(registry, served[1]),
        'responses': {'Error': error},
    }
    _describe_deprecation(document, registry, versions if at is None
                          else [at])
    return document


def _describe_deprecation(document: dict[str, Any],
                          registry: VersionRegistry,
                          versions: list[Version]) -> None:
    """The deprecation headers on the responses of ``document`` (of
    ``versions``) an operation sends at a deprecated version; an operation
    ``deprecated`` where every version it exists at is."""
    headers = deprecation_components(registry, versions)
    if not headers:
        return
    document['components']['headers'].update(headers)
    refs = {name: {'$ref': f'#/components/headers/{name}'}
            for name in headers}
    deprecated = {v for v in versions if registry.deprecation_at(v)}
    answers = [document['components']['responses']['Error']]
    for item in document['paths'].values():
        for operation in item.values():
            # (combined: the versions its x-openstack range spans)
            span = operation.get('x-openstack', {})
            low, high = span.get('min-ver'), span.get('max-ver')
            flags = [v in deprecated for v in versions
                     if v.matches(low and Version.parse(low),
                                  high and Version.parse(high))]
            if flags and all(flags):
                operation['deprecated'] = True
            if any(flags):
                answers += operation['responses'].values()
    for answer in answers:
        if '$ref' not in answer:
            answer.setdefault('headers', {}).update(refs)


def _describe(operation: Operation, implementation: Implementation,
              at: Version, *, schemas: SchemaSet,
              registry: VersionRegistry) -> dict[str, Any]:
    return describe_operation(operation, implementation, at, schemas,
                              registry)


def _served(registry: VersionRegistry, version: VersionLike,
            served: tuple[Version, Version]) -> Version:
    at = registry.known_version(version)
    if not at.matches(*served):
        raise UnknownVersionError(
            f'Version {at} is not served: {registry.service_type} answers '
            f'{served[0]} to {served[1]}, and 406 Not Acceptable to a request '
            f'at {at}.')
    return at


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
    document is built once, and again after an operator's floor or cap
    changed (a reloaded configuration): the examples name the newest
    version the serving app serves.  Error bodies are described as the hook of the
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
        self._served: Optional[tuple[Version, Version]] = None

    def document(self, version: VersionLike) -> dict[str, Any]:
        """The document at ``version`` (without ``servers``): a copy,
        which the caller may change."""
        return copy.deepcopy(self._document(version))

    def _document(self, version: VersionLike) -> dict[str, Any]:
        """The cached document at ``version``, shared by every request."""
        at = self.registry.known_version(version)
        with self._lock:
            if self._operations is None:
                self._operations = api_operations(self.app)
            serving = self._serving()
            if self._error_body is None and serving is not None:
                self._error_body = error_schema(serving)
            # The versions served are the serving app's: an operator's
            # floor and cap, read again after a reload.
            described = self.app if serving is None else serving
            served = served_range(self.registry, described)
            if served != self._served:
                self._documents.clear()
                self._served = served
            found = self._documents.get(at)
            if found is None:
                found = openapi_document(
                    self.registry, described, at, title=self.title,
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
        its application URL as the server (a copy, as :meth:`document`)."""
        document = self.document(get_version())
        servers = [{'url': pecan.request.application_url}]
        return {'openapi': document['openapi'], 'info': document['info'],
                'servers': servers,
                **{k: v for k, v in document.items()
                   if k not in ('openapi', 'info')}}
