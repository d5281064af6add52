"""The fleet demo's WSME types, each field declared with its version range."""

from __future__ import annotations

import datetime
from typing import Any

from wsme import types as wtypes

from pecan_microversions import (
    Computed,
    Retype,
    ValueMap,
    Version,
    versioned,
    versioned_resource,
)
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.wsme.fields import binding_of

#: Fields a JSON patch may change (each only at versions that have it).
PATCHABLE = frozenset(['name', 'description', 'owner'])


class Link(wtypes.Base):
    """A hyperlink to a resource."""

    rel = wtypes.text
    href = wtypes.text


#: Provision states; ``cancelled`` is new in 1.9.
PROVISION_STATES = ('available', 'active', 'failed', 'cancelled')


#: An owner's name; before 1.9 the owner is sent and shown as its name.
_OWNER_NAME = wtypes.StringType(min_length=1, max_length=255)


#: The domain of an owner sent without one, or with a null one, and of
#: every owner sent before 1.9 (as a name).
DEFAULT_DOMAIN = 'default'


class Owner(wtypes.Base):
    """Who owns a node; a domain left out or null is "default", "" a 400.

    An object from 1.9; before, the owner is sent and shown as its name.
    """

    name = wtypes.wsattr(_OWNER_NAME, mandatory=True)
    domain = wtypes.wsattr(wtypes.StringType(min_length=1),
                           default=DEFAULT_DOMAIN)


def _owner_up(name: Any) -> Any:
    """What a client before 1.9 sends (a name) as the newest owner."""
    return {'name': name, 'domain': DEFAULT_DOMAIN}


def _owner_down(owner: Any) -> Any:
    """The newest owner as clients before 1.9 see it: its name."""
    return owner.get('name') if isinstance(owner, dict) else owner


def _available(node: Any) -> bool:
    """The ``available`` flag older clients see, from the newest node."""
    return node.get('provision_state') == 'available'


@versioned_resource(REGISTRY, 'node')
class Node(wtypes.Base):
    """A node. ``driver`` (1.0-1.5) is renamed ``hardware_type`` in 1.6;
    1.9 changes ``provision_state``'s values, ``owner``'s type and computes
    ``available`` for older clients."""

    uuid = wtypes.wsattr(wtypes.text, readonly=True)
    name = wtypes.wsattr(wtypes.StringType(min_length=1, max_length=255),
                         mandatory=True)
    created_at = wtypes.wsattr(datetime.datetime, readonly=True)
    driver = versioned(wtypes.text, max_version='1.5', mandatory=True)
    hardware_type = versioned(wtypes.text, min_version='1.6',
                              replaces='driver', mandatory=True)
    description = versioned(wtypes.text, min_version='1.1')
    owner = versioned(Owner, min_version='1.4', changes=[
        Retype(_owner_down, _owner_up, max_version='1.8', type_name='string',
               datatype=_OWNER_NAME)])
    provision_state = versioned(
        wtypes.Enum(str, *PROVISION_STATES), readonly=True,
        values={'cancelled': '1.9'},
        changes=[ValueMap({'cancelled': 'failed'}, max_version='1.8')])
    available = versioned(bool, max_version='1.8', readonly=True,
                          changes=[Computed(_available,
                                            reads=['provision_state'])])
    links = wtypes.wsattr([Link], readonly=True)

    @classmethod
    def from_stored(cls, stored: dict[str, Any], base_url: str) -> Node:
        """The newest node as a WSME object (see :func:`node_data`)."""
        owner = None if stored['owner'] is None else Owner(
            name=stored['owner'], domain=stored['owner_domain'])
        return cls(uuid=stored['uuid'], name=stored['name'],
                   created_at=stored['created_at'],
                   hardware_type=stored['driver'],
                   description=stored['description'], owner=owner,
                   provision_state=stored['provision_state'],
                   links=[Link(rel='self',
                               href=f'{base_url}/v1/nodes/{stored["uuid"]}')])


def node_data(stored: dict[str, Any], base_url: str) -> dict[str, Any]:
    """The newest node as a plain dict keyed by public names.

    What the controllers return: ``versioned_wsexpose(Node)`` writes it at
    the request's version with the node's compiled view, as it would a
    :class:`Node` object, without building WSME objects.
    """
    owner = stored['owner']
    uuid = stored['uuid']
    return {'uuid': uuid, 'name': stored['name'],
            'created_at': stored['created_at'],
            'hardware_type': stored['driver'],
            'description': stored['description'],
            'owner': None if owner is None else {
                'name': owner, 'domain': stored['owner_domain']},
            'provision_state': stored['provision_state'],
            'links': [{'rel': 'self',
                       'href': f'{base_url}/v1/nodes/{uuid}'}]}


def shown_name(name: str, version: Version) -> str:
    """What clients at ``version`` call the node's field ``name`` (its
    newest name): ``driver`` for ``hardware_type`` before 1.6."""
    binding = binding_of(Node)
    renames = () if binding is None else binding.renames[version]
    return next((shown for shown, group in renames if name in group), name)


@versioned_resource(REGISTRY, 'node_collection')
class NodeCollection(wtypes.Base):
    """A page of nodes; ``next`` (from 1.8) links to the following page."""

    nodes = [Node]
    next = versioned(wtypes.text, min_version='1.8')


@versioned_resource(REGISTRY, 'node_states')
class NodeStates(wtypes.Base):
    """A node's power state (a sub-resource removed in 1.7)."""

    power_state = wtypes.Enum(str, 'power on', 'power off')
