"""A hand-written fleet API: the benchmark's baseline.

It serves the fleet demo's wire contract for ``/v1/nodes`` (list, show,
create, JSON patch) the way a service does without this library: plain
dicts, explicit ``if version >= (1, 4)`` checks and ``json.dumps``, in the
style of Ironic's API since it dropped WSME.  It uses nothing of
pecan-microversions but the demo's node store, so both apps read the same
data at the same cost.  ``tests/bench`` checks that both answer the
benchmarked requests with the same status, version headers and body.
"""

from bench.handwritten.app import make_app

__all__ = ['make_app']
