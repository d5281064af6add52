"""The fleet demo's WSME types, each field declared with its version range."""

from __future__ import annotations

import datetime
from typing import Any

from wsme import types as wtypes

from pecan_microversions import versioned, versioned_resource
from pecan_microversions.demo.versions import REGISTRY

#: Fields a JSON patch may change (each only at versions that have it).
PATCHABLE = frozenset(['name', 'description', 'owner'])


class Link(wtypes.Base):
    """A hyperlink to a resource."""

    rel = wtypes.text
    href = wtypes.text


@versioned_resource(REGISTRY, 'node')
class Node(wtypes.Base):
    """A node. ``driver`` (1.0-1.5) is renamed ``hardware_type`` in 1.6."""

    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    name = wtypes.wsattr(wtypes.StringType(min_length=1, max_length=255),
                         mandatory=True)
    created_at = wtypes.wsattr(datetime.datetime, readonly=True)
    driver = versioned(wtypes.text, max_version='1.5', mandatory=True)
    hardware_type = versioned(wtypes.text, min_version='1.6',
                              replaces='driver', mandatory=True)
    description = versioned(wtypes.text, min_version='1.1')
    owner = versioned(wtypes.text, min_version='1.4')
    links = wtypes.wsattr([Link], readonly=True)

    @classmethod
    def from_stored(cls, stored: dict[str, Any], base_url: str) -> Node:
        """A node with every field set; the response filter hides by version."""
        return cls(uuid=stored['uuid'], name=stored['name'],
                   created_at=stored['created_at'],
                   driver=stored['driver'], hardware_type=stored['driver'],
                   description=stored['description'], owner=stored['owner'],
                   links=[Link(rel='self',
                               href=f'{base_url}/v1/nodes/{stored["uuid"]}')])


@versioned_resource(REGISTRY, 'node_collection')
class NodeCollection(wtypes.Base):
    """A page of nodes; ``next`` (from 1.8) links to the following page."""

    nodes = [Node]
    next = versioned(wtypes.text, min_version='1.8')


@versioned_resource(REGISTRY, 'node_states')
class NodeStates(wtypes.Base):
    """A node's power state (a sub-resource removed in 1.7)."""

    power_state = wtypes.Enum(str, 'power on', 'power off')
