"""``python -m pecan_microversions.demo [--host H] [--port P]``."""

from __future__ import annotations

import sys
from typing import Optional

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.server import run_command


def main(argv: Optional[list[str]] = None) -> int:
    return run_command(
        'python -m pecan_microversions.demo',
        'Serve the fleet demo API (microversions 1.0 to 1.9).', make_app,
        argv)


if __name__ == '__main__':
    sys.exit(main())
