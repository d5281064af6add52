"""The fleet demo's controllers."""

from __future__ import annotations

import pecan

from pecan_microversions import root_document, version_document
from pecan_microversions.demo.store import NodeStore


class V1Controller:
    """``/v1/``: the versioned discovery document."""

    def __init__(self, store: NodeStore) -> None:
        self.store = store

    @pecan.expose('json')
    def index(self) -> dict:
        base = pecan.request.application_url
        return version_document(links=[
            {'rel': 'nodes', 'href': f'{base}/v1/nodes'}])


class RootController:
    """``/``: the root discovery document."""

    def __init__(self, store: NodeStore) -> None:
        self.v1 = V1Controller(store)

    @pecan.expose('json')
    def index(self) -> dict:
        return root_document(name='fleet',
                             description='The fleet demo service of '
                                         'pecan-microversions.')
