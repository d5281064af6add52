"""The demo's in-memory node store: thread-safe, seeded with three nodes.

A node is a flat dict whose values are immutable scalars (text, numbers,
booleans, ``None``, dates), checked on every write, as is that an owned
node names its owner's domain (``owner_domain``, never null).  Readers
therefore get a shallow copy, a few hundred nanoseconds, instead of a deep
copy: changing the copy cannot reach the stored node, and no value inside
it can be changed in place.
"""

from __future__ import annotations

import datetime
import threading
import uuid as uuidlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Optional

#: The types a stored field may hold: immutable, so copies can share them.
SCALARS = (str, int, float, bool, type(None), datetime.datetime,
           datetime.date)
_SEEDS = [('node-0', 'ipmi', 'alice'), ('node-1', 'redfish', 'bob'),
          ('node-2', 'ipmi', None)]
#: The seeds' provision states (the third one is shown as failed before 1.9).
_STATES = ('available', 'active', 'cancelled')
_SEED_TIME = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def _random_uuid() -> str:
    return str(uuidlib.uuid4())


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


class NodeStore:
    """Nodes as plain dicts keyed by uuid, in creation order.

    :param new_uuid: makes the uuid of each created node (default: random).
    :param clock: gives each created node's ``created_at`` (default: now).
    """

    def __init__(self, *, new_uuid: Callable[[], str] = _random_uuid,
                 clock: Callable[[], datetime.datetime] = _now) -> None:
        self._nodes: dict[str, dict[str, Any]] = {}
        self._lock = threading.RLock()
        self._new_uuid = new_uuid
        self._clock = clock

    @classmethod
    def seeded(cls, count: int = 3, **options: Any) -> NodeStore:
        """A store holding ``count`` seed nodes, the same on every call.

        Node *i* has uuid ``UUID(int=i + 1)``, name ``node-<i>`` and was
        created *i* hours after 2026-01-01T00:00Z; the first three are the
        demo's documented seeds, the others alternate their drivers and
        owners the same way.  ``options`` go to the constructor.
        """
        store = cls(**options)
        for i in range(count):
            name, driver, owner = (_SEEDS[i] if i < len(_SEEDS) else
                                   (f'node-{i}', _SEEDS[i % 3][1],
                                    _SEEDS[i % 3][2]))
            store.create({'name': name, 'driver': driver, 'owner': owner,
                          'owner_domain': None if owner is None else 'default',
                          'provision_state': _STATES[i % 3],
                          'description': f'Seed node {i}.',
                          'power_state': 'power off'},
                         uuid=str(uuidlib.UUID(int=i + 1)),
                         created_at=_SEED_TIME + datetime.timedelta(hours=i))
        return store

    def create(self, fields: Mapping[str, Any], uuid: Optional[str] = None,
               created_at: Optional[datetime.datetime] = None
               ) -> dict[str, Any]:
        """Store a new node made of ``fields``; return a copy of it.

        :raises TypeError: a value is not an immutable scalar.
        :raises ValueError: an owner without a domain.
        """
        node: dict[str, Any] = {
            'uuid': uuid or self._new_uuid(),
            'created_at': created_at or self._clock(),
            'name': None, 'driver': None, 'description': None,
            'owner': None, 'owner_domain': None,
            'provision_state': 'available', 'power_state': 'power off'}
        node.update(fields)
        _check_node(node)
        with self._lock:
            self._nodes[node['uuid']] = node
        return dict(node)

    def get(self, uuid: str) -> Optional[dict[str, Any]]:
        """A copy of the node, or ``None``."""
        node = self._nodes.get(uuid)  # one dict read: atomic
        return None if node is None else dict(node)

    def list(self) -> list[dict[str, Any]]:
        """Copies of all nodes, in creation order."""
        with self._lock:
            nodes = list(self._nodes.values())
        return [dict(n) for n in nodes]

    def delete(self, uuid: str) -> bool:
        """Forget the node; whether it existed."""
        with self._lock:
            return self._nodes.pop(uuid, None) is not None

    def load(self, nodes: Iterable[Mapping[str, Any]]) -> None:
        """Replace every node by ``nodes`` (each with its ``uuid``), at once.

        :raises TypeError: a value is not an immutable scalar.
        :raises ValueError: an owner without a domain.
        """
        fresh = {}
        for node in nodes:
            copied = dict(node)
            _check_node(copied)
            fresh[copied['uuid']] = copied
        with self._lock:
            self._nodes = fresh

    @contextmanager
    def updating(self, uuid: str) -> Iterator[Optional[dict[str, Any]]]:
        """Yield a copy of the node; store it only if the block succeeds.

        Other writers wait until the block ends; readers see the node as it
        was until then.

        :raises TypeError: the block left a value that is not a scalar.
        :raises ValueError: the block left an owner without a domain.
        """
        with self._lock:
            node = self._nodes.get(uuid)
            if node is None:
                yield None
                return
            draft = dict(node)
            yield draft
            _check_node(draft)
            # A new dict replaces the old one: copies already handed out,
            # and readers holding the old node, are unaffected.
            self._nodes[uuid] = dict(draft)


def _check_node(node: Mapping[str, Any]) -> None:
    for name, value in node.items():
        if not isinstance(value, SCALARS):
            raise TypeError(f'Node field {name!r} must be an immutable '
                            f'scalar, not {type(value).__name__}.')
    if node.get('owner') is not None and not node.get('owner_domain'):
        # Shown as it is: a null would read as "another domain" to the
        # versions that show the owner as its name (a 409 on renaming it).
        raise ValueError(f'Node {node.get("uuid")!r} has an owner but no '
                         'owner_domain.')
