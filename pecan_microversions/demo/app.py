"""Building the fleet demo's Pecan application."""

from __future__ import annotations

from typing import Any, Optional

import pecan
from oslo_config import cfg

from pecan_microversions import MicroversionHook
from pecan_microversions.demo.controllers import RootController
from pecan_microversions.demo.store import NodeStore
from pecan_microversions.demo.versions import REGISTRY


def make_app(conf: Optional[cfg.ConfigOpts] = None,
             store: Optional[NodeStore] = None) -> Any:
    """A fresh demo app with its own in-memory store seeded with 3 nodes."""
    if conf is None:
        conf = cfg.ConfigOpts()
        conf([], project='fleet-demo', default_config_files=[])
    return pecan.make_app(
        RootController(store or NodeStore.seeded()),
        hooks=[MicroversionHook(REGISTRY, conf=conf)],
        debug=False, force_canonical=False, guess_content_type_from_ext=False)
