"""A small service whose node resource changes over seven microversions.

=======  ===============================================================
Version  Change
=======  ===============================================================
1.0      nodes: uuid, name, driver, legacy, state (available, active)
1.1      node.description
1.2      node.location {rack}; ``driver`` query parameter on the list
1.3      state value ``deploying``
1.4      location.row; ``sort_key`` value ``owner``
1.5      node.owner
1.6      ``driver`` renamed ``hardware_type`` (mandatory on create);
         ``driver`` query parameter removed
1.7      node.legacy removed
=======  ===============================================================
"""

import copy

import pecan
from pecan import rest
from wsme import types as wtypes
from wsme.rest.json import tojson

from pecan_microversions import (
    JsonPatchOperation,
    MicroversionHook,
    VersionRegistry,
    apply_patch,
    check_body,
    filter_response,
    get_version,
)
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.expose import versioned_wsexpose
from pecan_microversions.pecan.params import param, query_params
from pecan_microversions.wsme.fields import (
    versioned,
    versioned_resource,
    visible_fields,
)

HISTORY = [
    ('1.0', 'Initial version.'),
    ('1.1', 'Nodes have a description.'),
    ('1.2', 'Nodes have a location; the list filters by driver.'),
    ('1.3', 'Nodes can be deploying.'),
    ('1.4', 'Locations have a row; the list sorts by owner.'),
    ('1.5', 'Nodes have an owner.'),
    ('1.6', 'driver is renamed hardware_type.'),
    ('1.7', 'legacy is removed.'),
]


def make_registry(**options):
    return VersionRegistry('shelf', HISTORY, **options)


def build(registry):
    """Declare the types and controllers against ``registry``."""

    @versioned_resource(registry, 'location')
    class Location(wtypes.Base):
        rack = wtypes.text
        row = versioned(int, min_version='1.4')

    @versioned_resource(registry, 'node')
    class Node(wtypes.Base):
        uuid = wtypes.wsattr(wtypes.text, readonly=True)
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        description = versioned(wtypes.text, min_version='1.1')
        location = versioned(Location, min_version='1.2')
        state = versioned(
            wtypes.Enum(str, 'available', 'active', 'deploying'),
            values={'deploying': '1.3'})
        owner = versioned(wtypes.text, min_version='1.5')
        driver = versioned(wtypes.text, max_version='1.5')
        hardware_type = versioned(wtypes.text, min_version='1.6',
                                  replaces='driver', mandatory=True)
        legacy = versioned(bool, max_version='1.6', default=False)

    class NodeCollection(wtypes.Base):
        nodes = [Node]
        next = wtypes.text

    store = {}

    def load(uuid):
        if uuid not in store:
            raise APIError(f'Node {uuid} not found.', status=404,
                           error_code='shelf.node_not_found')
        data = copy.deepcopy(store[uuid])
        location = data.pop('location', None)
        node = Node(**data)
        if location is not None:
            node.location = Location(**location)
        return node

    def save(uuid, document):
        """Store a node document; ``hardware_type`` is stored as driver."""
        data = {k: v for k, v in document.items() if v is not None}
        if 'hardware_type' in data:
            data['driver'] = data.pop('hardware_type')
        data['uuid'] = uuid
        store[uuid] = data

    class NodesController(rest.RestController):

        @query_params(registry, 'GET /v1/nodes',
                      driver=param(min_version='1.2', max_version='1.5'),
                      sort_key=param(values={'name': None, 'uuid': None,
                                             'owner': '1.4'}))
        @versioned_wsexpose(NodeCollection, wtypes.text, wtypes.text)
        def get_all(self, driver=None, sort_key='name'):
            nodes = [load(uuid) for uuid in store]
            if driver is not None:
                nodes = [n for n in nodes if n.driver == driver]
            nodes.sort(key=lambda n: getattr(n, sort_key) or '')
            return NodeCollection(nodes=nodes, next=None)

        @versioned_wsexpose(Node, wtypes.text)
        def get_one(self, uuid):
            return load(uuid)

        @versioned_wsexpose(Node, body=Node, status_code=201)
        def post(self, node):
            uuid = f'uuid-{len(store)}'
            document = tojson(Node, node)
            if node.driver is not wtypes.Unset:  # same value, either name
                document['driver'] = node.driver
            save(uuid, document)
            return load(uuid)

        @versioned_wsexpose(Node, wtypes.text, body=[JsonPatchOperation],
                            patch_of=Node)
        def patch(self, uuid, patch):
            version = get_version()
            document = tojson(Node, filter_response(load(uuid), version))
            patched = apply_patch(Node, document, patch)
            # Write back only what this version shows: newer fields stay.
            merged = tojson(Node, load(uuid))
            for name in visible_fields(Node, version):
                merged.pop(name, None)
                if patched.get(name) is not None:
                    merged[name] = patched[name]
            if 'hardware_type' in visible_fields(Node, version):
                merged.pop('driver', None)
            save(uuid, merged)
            return load(uuid)

    class PlainController:
        """The manual path: pecan.expose, filter_response, check_body."""

        @pecan.expose('json')
        def index(self):
            nodes = filter_response([load(uuid) for uuid in store])
            return {'nodes': [tojson(Node, n) for n in nodes],
                    'version': str(get_version())}

        @pecan.expose('json')
        def check(self):
            check_body(Node, pecan.request.json)
            return {'ok': True}

    class V1Controller:
        nodes = NodesController()
        plain = PlainController()

    class RootController:
        v1 = V1Controller()

    return Node, Location, NodeCollection, RootController, store


def make_app(**registry_options):
    """A fresh app (own registry, types and store) with three nodes."""
    registry = make_registry(**registry_options)
    node, location, _, root, store = build(registry)
    store.update({
        'uuid-a': {'uuid': 'uuid-a', 'name': 'a', 'driver': 'ipmi',
                   'description': 'first', 'state': 'active',
                   'location': {'rack': 'r1', 'row': 3}, 'owner': 'alice',
                   'legacy': True},
        'uuid-b': {'uuid': 'uuid-b', 'name': 'b', 'driver': 'redfish',
                   'state': 'available'},
    })
    app = pecan.make_app(root(), hooks=[MicroversionHook(registry)],
                         debug=False, force_canonical=False,
                         guess_content_type_from_ext=False)
    app.registry = registry
    app.types = {'Node': node, 'Location': location}
    return app
