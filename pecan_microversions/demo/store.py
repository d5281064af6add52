"""The demo's in-memory node store: thread-safe, seeded with three nodes."""

from __future__ import annotations

import copy
import datetime
import threading
import uuid as uuidlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Optional


class NodeStore:
    """Nodes as plain dicts keyed by uuid, in creation order."""

    def __init__(self) -> None:
        self._nodes: dict[str, dict[str, Any]] = {}
        self._lock = threading.RLock()

    @classmethod
    def seeded(cls) -> NodeStore:
        store = cls()
        base = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        for i, (name, driver, owner) in enumerate([
                ('node-0', 'ipmi', 'alice'),
                ('node-1', 'redfish', 'bob'),
                ('node-2', 'ipmi', None)]):
            store.create({'name': name, 'driver': driver, 'owner': owner,
                          'description': f'Seed node {i}.',
                          'power_state': 'power off'},
                         uuid=str(uuidlib.UUID(int=i + 1)),
                         created_at=base + datetime.timedelta(hours=i))
        return store

    def create(self, fields: dict[str, Any], uuid: Optional[str] = None,
               created_at: Optional[datetime.datetime] = None
               ) -> dict[str, Any]:
        node: dict[str, Any] = {'uuid': uuid or str(uuidlib.uuid4()),
                'created_at': created_at or datetime.datetime.now(
                    datetime.timezone.utc),
                'name': None, 'driver': None, 'description': None,
                'owner': None, 'power_state': 'power off'}
        node.update(fields)
        with self._lock:
            self._nodes[node['uuid']] = node
        return copy.deepcopy(node)

    def get(self, uuid: str) -> Optional[dict[str, Any]]:
        with self._lock:
            node = self._nodes.get(uuid)
            return None if node is None else copy.deepcopy(node)

    def list(self) -> list[dict[str, Any]]:
        with self._lock:
            return [copy.deepcopy(n) for n in self._nodes.values()]

    @contextmanager
    def updating(self, uuid: str) -> Iterator[Optional[dict[str, Any]]]:
        """Yield a copy of the node; store it only if the block succeeds."""
        with self._lock:
            node = self._nodes.get(uuid)
            if node is None:
                yield None
                return
            draft = copy.deepcopy(node)
            yield draft
            self._nodes[uuid] = draft
