"""The examples' command line: ``--host`` and ``--port``, then serve."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import Any, Optional

from pecan_microversions.demo.server import serve

__all__ = ['run']


def run(prog: str, description: str, make_app: Callable[[], Any],
        name: str, argv: Optional[list[str]] = None) -> int:
    """Parse ``argv``, serve ``make_app()`` until a signal; the exit status."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument('--host', default='127.0.0.1',
                        help='address to listen on (default: %(default)s)')
    parser.add_argument('--port', type=int, default=8080,
                        help='port to listen on, 0 for any free one '
                             '(default: %(default)s)')
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(asctime)s %(levelname)s %(name)s %(message)s')
    try:
        serve(make_app(), args.host, args.port, name=name)
    except OSError as exc:
        logging.getLogger('pecan_microversions.demo').error(
            'Cannot listen on %s:%d: %s', args.host, args.port, exc)
        return 1
    return 0
