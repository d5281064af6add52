"""``python -m pecan_microversions.demo [--host H] [--port P]``."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Optional

from pecan_microversions.demo.app import make_app
from pecan_microversions.demo.server import serve


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog='python -m pecan_microversions.demo',
        description='Serve the fleet demo API (microversions 1.0 to 1.9).')
    parser.add_argument('--host', default='127.0.0.1',
                        help='address to listen on (default: %(default)s)')
    parser.add_argument('--port', type=int, default=8080,
                        help='port to listen on, 0 for any free one '
                             '(default: %(default)s)')
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format='%(asctime)s %(levelname)s %(name)s %(message)s')
    try:
        serve(make_app(), args.host, args.port)
    except OSError as exc:
        logging.getLogger('pecan_microversions.demo').error(
            'Cannot listen on %s:%d: %s. If the port is taken, choose '
            'another with --port (for example --port 8081, or --port 0 for '
            'any free port).', args.host, args.port, exc)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
