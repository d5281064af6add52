"""The requests ``versus_handwritten.py`` measures, shared with its tests.

Both apps serve a store seeded by ``NodeStore.seeded(NODES)``.  The writing
cases leave the store changed (POST adds a node per request, PATCH changes
one seeded node); the benchmark puts the seeded nodes back after every run
of a writing case, so that every run of every case sees the same 50 nodes.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

#: Nodes in each app's store.
NODES = 50
#: Node 1 (shown) and node 50 (patched) of the seeded store.
SHOWN = '00000000-0000-0000-0000-000000000001'
PATCHED = '00000000-0000-0000-0000-000000000032'


class Case(NamedTuple):
    """One benchmarked request and the status both apps must answer."""

    name: str
    method: str
    path: str
    version: str
    status: int
    body: Optional[bytes] = None
    content_type: Optional[str] = None

    @property
    def writes(self) -> bool:
        return self.method != 'GET'

    @property
    def headers(self) -> dict[str, str]:
        headers = {'OpenStack-API-Version': f'fleet {self.version}'}
        if self.content_type:
            headers['Content-Type'] = self.content_type
        return headers


CASES = [
    Case('list-1.0', 'GET', '/v1/nodes', '1.0', 200),
    Case('list-1.8', 'GET', '/v1/nodes', '1.8', 200),
    Case('show', 'GET', f'/v1/nodes/{SHOWN}', '1.8', 200),
    Case('post', 'POST', '/v1/nodes', '1.8', 201,
         b'{"name": "bench-node", "hardware_type": "ipmi", '
         b'"description": "Created by the benchmark.", "owner": "bench"}',
         'application/json'),
    Case('patch', 'PATCH', f'/v1/nodes/{PATCHED}', '1.8', 200,
         b'[{"op": "replace", "path": "/description", '
         b'"value": "Patched by the benchmark."}, '
         b'{"op": "replace", "path": "/owner", "value": "bench"}]',
         'application/json'),
    Case('406', 'GET', f'/v1/nodes/{SHOWN}', '1.10', 406),
]
