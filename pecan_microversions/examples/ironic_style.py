"""An Ironic-style service on the library: plain dicts, no WSME.

``python -m pecan_microversions.examples.ironic_style [--port 8080]``
serves ``/v1/nodes`` as service type ``baremetal``, versions 1.1 to 1.6:

=======  ==========================================  ========================
Version  Change                                      Declared with
=======  ==========================================  ========================
1.2      ``name`` on nodes                           ``field(...)``
1.3      ``description`` on nodes                    ``field(...)``
1.4      ``owner`` on nodes                          ``field(...)``
1.5      ``power_interface`` accepts ``redfish``     ``field(values=...)``
1.6      ``DELETE /v1/nodes/<ident>``                ``api_version``
=======  ==========================================  ========================

As Ironic's, its node list is also served at ``/v1/nodes/detail``, which
the released ``baremetal node list --long`` reads.

What its clients (python-ironicclient) rely on, and the settings that keep
it: the version travels in ``X-OpenStack-Ironic-API-Version``
(``legacy_headers``), every response carries
``X-OpenStack-Ironic-API-Minimum-Version`` / ``-Maximum-Version`` and the
version served (``legacy_range_headers=True``: the client negotiates
``latest``, lists of versions and retries after a 406 only from these); a
malformed version and a field used below its version are 406
(``malformed_status=406``, ``unavailable_status=406``).  Errors are WSME
fault bodies (``error_renderer=wsme_fault``) written by the service's own
``expose`` decorator or by the hook, wrapped in ``error_message`` by the
service's middleware
(:class:`~pecan_microversions.examples.envelope.ErrorMessageEnvelope`).
``expose`` is an outer wrapper made with ``functools.wraps``, above
``api_version``, as Ironic stacks its decorators.
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import threading
import types
import uuid as uuidlib
from collections.abc import Callable
from typing import Any, Optional

import pecan

from pecan_microversions import (
    MicroversionHook,
    VersionedRestController,
    VersionRegistry,
    api_version,
    get_version,
    root_document,
    version_document,
)
from pecan_microversions.compat import add_custom_actions
from pecan_microversions.core.json_bodies import read_json
from pecan_microversions.core.rendering import wsme_fault
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.demo.server import run_command
from pecan_microversions.examples.envelope import ErrorMessageEnvelope
from pecan_microversions.pecan.unfilled import refused_call
from pecan_microversions.tools.responses import describe

__all__ = ['NODE', 'REGISTRY', 'main', 'make_app']

REGISTRY = VersionRegistry('baremetal', [
    ('1.1', 'Initial version.'),
    ('1.2', 'Nodes have a name.'),
    ('1.3', 'Nodes have a description.'),
    ('1.4', 'Nodes have an owner.'),
    ('1.5', 'power_interface accepts redfish.'),
    ('1.6', 'Nodes can be deleted.'),
], legacy_headers=['X-OpenStack-Ironic-API-Version'],
    legacy_range_headers=True, malformed_status=406, unavailable_status=406)

NODE = Schema(REGISTRY, 'node', {
    'uuid': field(readonly=True),
    'driver': field(mandatory=True),
    'name': field(min_version='1.2'),
    'description': field(min_version='1.3'),
    'owner': field(min_version='1.4'),
    'power_interface': field(values={'ipmitool': None, 'fake': None,
                                     'redfish': '1.5'}),
    'properties': field(),
    'provision_state': field(readonly=True),
})

_MAX_LIMIT = 100
_JSON = ('application/json',)
#: A patch may also be sent as RFC 6902's own media type.
_PATCH_TYPES = ('application/json', 'application/json-patch+json')


class ClientError(Exception):
    """The service's own client error, with its HTTP ``code``."""

    def __init__(self, message: str, code: int = 400) -> None:
        super().__init__(message)
        self.code = code


def expose(status_code: Optional[int] = None,
           media_types: tuple[str, ...] = ()
           ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The service's own JSON exposure: a fault body for every exception
    (``faultstring`` from a 4xx's message; a 5xx's text is not shown).
    ``media_types``: those of the request bodies the method reads."""
    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(function, follow_wrapped=False)
        # A method reading a body takes its members as ``**_`` (Pecan passes
        # a JSON body's members as keyword arguments): the query string
        # gives only the arguments it names.
        named = frozenset(
            name for name, p in list(signature.parameters.items())[1:]
            if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))  # not self

        @functools.wraps(function)
        def exposed(self: Any, *args: Any, **kwargs: Any) -> Any:
            # Pecan passes this wrapper whatever the URL holds: a call the
            # method cannot take is the client's 404, 405 or 400 (the
            # hook renders it), not a TypeError answered 500 below.
            try:
                signature.bind(self, *args, **kwargs)
            except TypeError:
                refused = refused_call(types.MethodType(function, self),
                                       args, kwargs, get_version())
                if refused is not None:
                    raise refused from None
            try:
                if media_types:
                    _check_query(named)
                _check_media_type(media_types)
                result = function(self, *args, **kwargs)
                if status_code:
                    pecan.response.status = status_code
            except Exception as exc:  # the service answers every error
                code = getattr(exc, 'code', None)
                client = isinstance(code, int) and 400 <= code < 500
                pecan.response.status = code if client else 500
                result = {'faultcode': 'Client' if client else 'Server',
                          'faultstring': (str(getattr(exc, 'detail', exc))
                                          if client else
                                          'Internal error.'),
                          'debuginfo': None}
            if pecan.response.status_int == 204:
                pecan.response.content_type = None
                return ''
            return json.dumps(result)

        # The status it sets and the bodies it reads, for the OpenAPI
        # documents.
        described = describe(status=status_code or 200,
                             media_types=media_types,
                             errors=(415,) if media_types else ())(exposed)
        return pecan.expose(content_type='application/json')(described)

    return decorate


class NodesController(VersionedRestController):
    """``/v1/nodes``, and its list at ``/v1/nodes/detail`` (a custom
    action, as in Ironic)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.nodes: dict[str, dict[str, Any]] = {}
        add_custom_actions(self, detail=['GET'])

    def _find(self, ident: str) -> dict[str, Any]:
        node = self.nodes.get(ident)
        if node is None and 'name' in NODE.visible_fields(get_version()):
            # By name only where nodes have one (1.2), as Ironic does.
            node = next((n for n in self.nodes.values()
                         if n.get('name') == ident), None)
        if node is None:
            raise ClientError(f'Node {ident} could not be found.', 404)
        return node

    @expose()
    def get_all(self, limit: Optional[str] = None) -> dict[str, Any]:
        return self._list(limit)

    @expose()
    def detail(self, *, limit: Optional[str] = None) -> dict[str, Any]:
        """Ironic's detailed list (``baremetal node list --long``): here
        the list itself, which already shows every field of the version.
        ``limit`` is keyword-only, filled by name only: Pecan would pass
        ``/v1/nodes/<ident>/detail`` the identifier as the next argument,
        so that URL names nothing."""
        return self._list(limit)

    def _list(self, limit: Optional[str]) -> dict[str, Any]:
        count = _MAX_LIMIT
        if limit is not None:  # the service's own argument validation
            if not (isinstance(limit, str)  # a list if repeated
                    and limit.isascii() and limit.isdigit()
                    and 0 < int(limit) <= _MAX_LIMIT):
                raise ClientError(f'limit must be from 1 to {_MAX_LIMIT}.')
            count = int(limit)
        with self.lock:
            nodes = list(self.nodes.values())[:count]
        return {'nodes': NODE.filter(nodes, get_version())}

    @expose()
    def get_one(self, ident: str) -> dict[str, Any]:
        with self.lock:
            return dict(NODE.filter(self._find(ident), get_version()))

    @expose(201, media_types=_JSON)
    def post(self, **_: Any) -> dict[str, Any]:
        version = get_version()
        body = NODE.check_body(_json_body(), version)
        node = {'provision_state': 'enroll', 'power_interface': 'ipmitool',
                **body, 'uuid': str(uuidlib.uuid4())}
        with self.lock:
            self.nodes[node['uuid']] = node
        return dict(NODE.filter(node, version))

    @expose(media_types=_PATCH_TYPES)
    def patch(self, ident: str, **_: Any) -> dict[str, Any]:
        version = get_version()
        with self.lock:
            node = self._find(ident)
            patched = NODE.apply_patch(node, _json_body(), version)
            node.clear()
            node.update(patched)
            return dict(NODE.filter(node, version))

    @expose(204)
    @api_version(REGISTRY, '1.6')
    def delete(self, ident: str) -> None:
        with self.lock:
            del self.nodes[self._find(ident)['uuid']]


def _check_media_type(media_types: tuple[str, ...]) -> None:
    """A body must be sent as one of the ``media_types`` the method reads
    (none: it reads no body)."""
    request = pecan.request
    if media_types and request.body and (
            request.content_type not in media_types):
        raise ClientError(f'The body is sent as {" or ".join(media_types)}, '
                          f'not {request.content_type or "no content type"}.',
                          415)


def _check_query(named: frozenset[str]) -> None:
    """Refuse a query argument the method does not name (one it would
    otherwise take with its body's members, and ignore)."""
    request = pecan.request
    for name in request.GET:
        if name not in named:
            raise ClientError(f'{request.method} {request.path} does not '
                              f'take the argument {name!r} (from the query '
                              'string).')


def _json_body() -> Any:
    return read_json(pecan.request.body or b'null')  # a 400 if not JSON


class V1Controller(VersionedRestController):
    """``/v1``."""

    def __init__(self) -> None:
        self.nodes = NodesController()

    @describe(status=200)
    @pecan.expose('json')
    def get(self) -> dict[str, Any]:
        return version_document()


class RootController(VersionedRestController):
    """``/``."""

    def __init__(self) -> None:
        self.v1 = V1Controller()

    @describe(status=200)
    @pecan.expose('json')
    def get(self) -> dict[str, Any]:
        return root_document(name='ironic-style example')


def make_app() -> Any:
    """A fresh WSGI app with no nodes, behind its error envelope."""
    app = pecan.make_app(
        RootController(),
        hooks=[MicroversionHook(REGISTRY, error_renderer=wsme_fault,
                                app_errors='keep')],
        debug=False, force_canonical=False, guess_content_type_from_ext=False)
    return ErrorMessageEnvelope(app)


def main(argv: Optional[list[str]] = None) -> int:
    """Serve the example until SIGINT or SIGTERM."""
    return run_command('python -m pecan_microversions.examples.ironic_style',
                       'Serve the Ironic-style example (baremetal 1.1 to 1.6).',
                       make_app, argv, name='ironic-style example')


if __name__ == '__main__':
    sys.exit(main())
