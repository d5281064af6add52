"""The fleet demo's controllers: one of each kind of versioned change.

=======  ==============================================  =====================
Version  Change                                          How it is declared
=======  ==============================================  =====================
1.1      ``description`` field                           ``versioned(...)``
1.2      list filters and sorting                        ``query_params``
1.3      ``PATCH /v1/nodes/<uuid>``                      ``api_version``
1.4      ``owner`` field, filter and sort value          both
1.5      POST answers 201 with ``Location``              ``post.version``
1.6      ``driver`` renamed ``hardware_type``            ``replaces=``
1.7      ``/v1/nodes/<uuid>/states`` removed             ``ResourceRange``
1.8      ``limit``/``marker`` pagination, ``next`` link  both
1.9      ``cancelled`` state (``failed`` before 1.9),    ``changes=[...]``
         ``owner`` an object (a name before 1.9),
         ``available`` computed for versions before 1.9
=======  ==============================================  =====================
"""

from __future__ import annotations

import urllib.parse
from typing import Any, Optional

import pecan
from wsme import types as wtypes

from pecan_microversions import (
    APIError,
    ResourceRange,
    VersionedRestController,
    api_version,
    get_version,
    param,
    patch_newest,
    query_params,
    response_json,
    response_text,
    root_document,
    version_document,
    versioned_wsexpose,
    visible_fields,
)
from pecan_microversions.core.json_bodies import read_json
from pecan_microversions.demo.store import NodeStore
from pecan_microversions.demo.types import (
    DEFAULT_DOMAIN,
    PATCHABLE,
    Node,
    NodeCollection,
    NodeStates,
    node_data,
    shown_name,
)
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.openapi import OpenAPIEndpoint
from pecan_microversions.tools.responses import describe

_MAX_LIMIT = 1000
#: ``/v1/nodes/<uuid>/states`` exists up to 1.6 (declared once, at import).
STATES = ResourceRange(REGISTRY, '/v1/nodes/{uuid}/states', '1.0', '1.6')
_PATCH_TYPES = frozenset(['application/json', 'application/json-patch+json'])


def _base_url() -> str:
    return pecan.request.application_url


def _not_found(uuid: str) -> APIError:
    return APIError(f'Node {uuid} could not be found.', status=404,
                    error_code='fleet.node_not_found')


def _bad_request(detail: str, code: str) -> APIError:
    return APIError(detail, status=400, error_code=code)


class NodeStatesController(VersionedRestController):
    """``/v1/nodes/<uuid>/states`` (1.0 to 1.6)."""

    def __init__(self, store: NodeStore) -> None:
        self.store = store

    @versioned_wsexpose(NodeStates, wtypes.text)
    def get_all(self, node_uuid: str) -> NodeStates:
        stored = self.store.get(node_uuid)
        if stored is None:
            raise _not_found(node_uuid)
        return NodeStates(power_state=stored['power_state'])


class NodesController(VersionedRestController):
    """``/v1/nodes``."""

    def __init__(self, store: NodeStore) -> None:
        self.store = store
        self.states = STATES.gate(NodeStatesController(store))

    def _stored(self, uuid: str) -> dict[str, Any]:
        stored = self.store.get(uuid)
        if stored is None:
            raise _not_found(uuid)
        return stored

    @query_params(
        REGISTRY, 'GET /v1/nodes',
        driver=param(min_version='1.2', max_version='1.5'),
        hardware_type=param(min_version='1.6'),
        owner=param(min_version='1.4'),
        sort_key=param(min_version='1.2',
                       values={'name': None, 'created_at': None,
                               'owner': '1.4'}),
        sort_dir=param(min_version='1.2', values={'asc': None, 'desc': None}),
        limit=param(min_version='1.8'),
        marker=param(min_version='1.8'))
    @versioned_wsexpose(NodeCollection, wtypes.text, wtypes.text, wtypes.text,
                        wtypes.text, wtypes.text, wtypes.text, wtypes.text)
    def get_all(self, driver: Optional[str] = None,
                hardware_type: Optional[str] = None,
                owner: Optional[str] = None, sort_key: str = 'created_at',
                sort_dir: str = 'asc', limit: Optional[str] = None,
                marker: Optional[str] = None) -> dict[str, Any]:
        nodes = self.store.list()
        wanted_driver = driver if hardware_type is None else hardware_type
        if wanted_driver is not None:
            nodes = [n for n in nodes if n['driver'] == wanted_driver]
        if owner is not None:
            nodes = [n for n in nodes if n['owner'] == owner]
        nodes.sort(key=lambda n: (n['created_at'], n['uuid']))
        # None sorts last whichever the direction, like SQL's NULLS LAST.
        present = [n for n in nodes if n[sort_key] is not None]
        missing = [n for n in nodes if n[sort_key] is None]
        present.sort(key=lambda n: n[sort_key], reverse=sort_dir == 'desc')
        nodes = present + missing
        page_size = None if limit is None else _parse_limit(limit)
        if marker is not None:
            position = next((i for i, n in enumerate(nodes)
                             if n['uuid'] == marker), None)
            if position is None:
                raise _bad_request(
                    f'marker {marker!r} is not a node of this listing.',
                    'fleet.invalid_marker')
            nodes = nodes[position + 1:]
        # Plain dicts in the newest representation: the collection's
        # compiled view writes them at the request's version.
        collection: dict[str, Any] = {}
        if page_size is not None and len(nodes) > page_size:
            nodes = nodes[:page_size]
            collection['next'] = _next_url(nodes[-1]['uuid'], {
                'driver': driver, 'hardware_type': hardware_type,
                'owner': owner, 'limit': limit,
                'sort_key': None if sort_key == 'created_at' else sort_key,
                'sort_dir': None if sort_dir == 'asc' else sort_dir})
        base = _base_url()
        collection['nodes'] = [node_data(n, base) for n in nodes]
        return collection

    @versioned_wsexpose(Node, wtypes.text)
    def get_one(self, uuid: str) -> dict[str, Any]:
        return node_data(self._stored(uuid), _base_url())

    def _create(self, node: Node) -> dict[str, Any]:
        # The body arrives in the newest representation whatever the version:
        # ``hardware_type`` (``driver`` too), ``owner`` as an object.
        owner = _value(node.owner)
        return self.store.create({
            'name': node.name, 'driver': node.hardware_type,
            'description': _value(node.description),
            'owner': None if owner is None else owner.name,
            'owner_domain': None if owner is None else _domain(owner.domain)})

    @api_version(REGISTRY, '1.0', '1.4', endpoint='POST /v1/nodes')
    @versioned_wsexpose(Node, body=Node)
    def post(self, node: Node) -> dict[str, Any]:
        return node_data(self._create(node), _base_url())

    @post.version('1.5')  # type: ignore[no-redef]
    @describe(headers={'Location': 'The URL of the new node.'})
    @versioned_wsexpose(Node, body=Node, status_code=201)
    def post(self, node: Node) -> dict[str, Any]:  # noqa: F811
        created = node_data(self._create(node), _base_url())
        pecan.response.headers['Location'] = created['links'][0]['href']
        return created

    @api_version(REGISTRY, '1.3', missing_status=405,
                 endpoint='PATCH /v1/nodes/{uuid}')
    @query_params(REGISTRY, 'PATCH /v1/nodes/{uuid}')  # none: refuse any
    @describe(status=200, patch_of=Node, returns=Node,  # 409: a partly
              media_types=sorted(_PATCH_TYPES), errors=(409,))  # hidden value
    @pecan.expose(content_type='application/json')  # JSON text, sent as is
    def patch(self, uuid: str) -> str:
        request = pecan.request
        if request.content_type.lower() not in _PATCH_TYPES:
            raise APIError(
                f'A patch is sent as {" or ".join(sorted(_PATCH_TYPES))}, '
                f'not {request.content_type or "no content type"}.',
                status=415, error_code='fleet.unsupported_media_type')
        operations = read_json(request.body)  # a 400 for what is not JSON
        base = _base_url()
        with self.store.updating(uuid) as stored:
            if stored is None:
                raise _not_found(uuid)
            newest = response_json(Node, node_data(stored, base),
                                   REGISTRY.max_version)
            # Applied to the newest node: what this version cannot see
            # (newer fields, nested ones, the owner's domain) is kept.
            patched = patch_newest(Node, newest, operations)
            changed = sorted(k for k in set(newest) | set(patched)
                             if newest.get(k) != patched.get(k))
            fixed = [k for k in changed if k not in PATCHABLE]
            if fixed:
                version = get_version()
                allowed = PATCHABLE & visible_fields(Node, version)
                raise _bad_request(
                    f'Field {shown_name(fixed[0], version)!r} cannot be '
                    'changed by a patch; '
                    f'patchable fields are {", ".join(sorted(allowed))}.',
                    'fleet.field_not_patchable')
            # patch_newest checked each changed value as WSME checks a body
            # (types, lengths): the patched JSON is written as it is.
            stored['name'] = patched['name']
            stored['description'] = patched.get('description')
            owner = patched.get('owner')
            stored['owner'] = None if owner is None else owner['name']
            stored['owner_domain'] = None if owner is None else _domain(
                owner.get('domain'))
        # Leaving the block stored the draft; answer with what is stored now.
        return response_text(Node, node_data(self._stored(uuid), base))


def _value(value: Any) -> Any:
    return None if value is wtypes.Unset else value


def _domain(domain: Optional[str]) -> str:
    """The domain stored for an owner sent with ``domain``: a null one is
    the default domain (an empty one was refused as too short)."""
    return DEFAULT_DOMAIN if domain is None else domain


def _parse_limit(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 4
            and 1 <= int(text) <= _MAX_LIMIT):
        raise _bad_request(
            f'limit must be a whole number from 1 to {_MAX_LIMIT}, '
            f'not {text!r}.', 'fleet.invalid_limit')
    return int(text)


def _next_url(marker: str, given: dict[str, Optional[str]]) -> str:
    """The next page's URL: the request's query, and the arguments
    ``given`` in the body instead (not their defaults), with ``marker``."""
    query = [(k, v) for k, v in pecan.request.GET.items() if k != 'marker']
    named = {k for k, _ in query}
    query += [(k, v) for k, v in given.items()
              if v is not None and k not in named]
    query.append(('marker', marker))
    return f'{_base_url()}/v1/nodes?{urllib.parse.urlencode(query)}'


def _get_only() -> None:
    """Refuse, with 405 and ``Allow``, methods other than GET and HEAD."""
    method = pecan.request.method
    if method not in ('GET', 'HEAD'):
        raise APIError(f'The method {method} is not allowed for this URL.',
                       status=405, error_code='http.method_not_allowed',
                       headers={'Allow': 'GET, HEAD'})


class V1Controller:
    """``/v1/``: the versioned discovery document, the nodes, and the
    OpenAPI document of the request's version at ``/v1/openapi.json``."""

    def __init__(self, store: NodeStore, root: Any) -> None:
        self.nodes = NodesController(store)
        self._openapi = OpenAPIEndpoint(REGISTRY, root, title='Fleet API')

    @describe(status=200)
    @query_params(REGISTRY, 'GET /v1/')  # none: refuse any
    @pecan.expose('json')
    def index(self) -> dict:
        _get_only()
        return version_document(links=[
            {'rel': 'nodes', 'href': f'{_base_url()}/v1/nodes'},
            {'rel': 'describedby', 'type': 'application/openapi+json',
             'href': f'{_base_url()}/v1/openapi.json'}])

    @describe(status=200)
    @query_params(REGISTRY, 'GET /v1/openapi.json')  # none: refuse any
    @pecan.expose('json', route='openapi.json')
    def openapi(self) -> dict:
        """The OpenAPI 3.1 document of the request's version."""
        _get_only()
        return self._openapi.respond()


class RootController:
    """``/``: the root discovery document."""

    def __init__(self, store: NodeStore) -> None:
        self.v1 = V1Controller(store, self)

    @describe(status=200)
    @query_params(REGISTRY, 'GET /')  # none: refuse any
    @pecan.expose('json')
    def index(self) -> dict:
        _get_only()
        return root_document(name='fleet',
                             description='The fleet demo service of '
                                         'pecan-microversions.')
