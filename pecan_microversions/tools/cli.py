"""The ``pecan-microversions`` console command.

::

    pecan-microversions history  myservice.api.versions:REGISTRY [--format md]
    pecan-microversions describe myservice.api.versions:REGISTRY 1.4
    pecan-microversions diff     myservice.api.versions:REGISTRY 1.2 1.6
    pecan-microversions check    myservice.api.versions:REGISTRY \\
        --releasenotes releasenotes/
    pecan-microversions openapi  myservice.api.versions:REGISTRY 1.4 \\
        --app myservice.api.app:make_app
    pecan-microversions matrix   myservice.api.versions:REGISTRY node

Declarations are made when the modules holding the fields and methods are
imported; if the registry's module does not import them, name them with
``--import myservice.api.controllers`` (repeatable).  Exit status: 0 on
success, 1 when ``check`` finds problems, 2 for usage errors (a bad import
path, an unknown version or one the app does not serve, a missing directory
or an unreadable release note, an ``--app`` that is a class or serves
another registry).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import inspect
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, Optional, TextIO

from pecan_microversions.core.errors import LoadError, RegistryError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version
from pecan_microversions.tools import history, matrix, openapi, routes

__all__ = ['LoadError', 'load_app', 'load_registry', 'main']


def _import(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except RegistryError as exc:
        raise LoadError(f'{what} {module!r} declares an invalid registry: '
                        f'{type(exc).__name__}: {exc}', exc) from exc
    except ImportError as exc:
        raise LoadError(f'Cannot import {what} {module!r}: {exc}',
                        exc) from exc
    except Exception as exc:  # noqa: BLE001 - any error at import is reported
        raise LoadError(f'Importing {what} {module!r} failed: '
                        f'{type(exc).__name__}: {exc}', exc) from exc


def load_registry(spec: str, imports: Sequence[str] = ()) -> VersionRegistry:
    """The :class:`VersionRegistry` at ``package.module:attribute``.

    ``attribute`` may be dotted (``module:Class.REGISTRY``).  The modules in
    ``imports`` are imported afterwards, so their declarations are recorded.
    The current directory is searched first, as with ``python -m``.

    :raises LoadError: the path is malformed, does not import, has no such
        attribute, or names something other than a registry.
    """
    module_name, sep, attribute = spec.partition(':')
    if not sep or not module_name or not attribute:
        raise LoadError(f'Invalid registry path {spec!r}: expected '
                        'package.module:attribute, e.g. '
                        'myservice.api.versions:REGISTRY.')
    if os.getcwd() not in sys.path and '' not in sys.path:
        sys.path.insert(0, os.getcwd())
    target: Any = _import(module_name, 'module')
    for part in attribute.split('.'):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise LoadError(f'Module {module_name!r} has no attribute '
                            f'{attribute!r}.') from None
    if not isinstance(target, VersionRegistry):
        raise LoadError(f'{spec} is a {type(target).__name__}, not a '
                        'VersionRegistry.')
    for name in imports:
        _import(name, 'module')
    return target


def load_app(spec: str) -> Any:
    """The Pecan app or root controller at ``package.module:attribute``.

    A factory there (a function such as ``make_app``, a method such as a
    classmethod, a ``functools.partial``) is called without arguments and
    its result used.

    :raises LoadError: the path does not load, names a class (not the
        instance Pecan routes into), or the factory fails.
    """
    module_name, sep, attribute = spec.partition(':')
    if not sep or not module_name or not attribute:
        raise LoadError(f'Invalid app path {spec!r}: expected '
                        'package.module:attribute, e.g. '
                        'myservice.api.app:make_app.')
    target: Any = _import(module_name, 'module')
    for part in attribute.split('.'):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise LoadError(f'Module {module_name!r} has no attribute '
                            f'{attribute!r}.') from None
    if inspect.isclass(target):
        raise LoadError(f'{spec} is a class: name the Pecan app, a root '
                        'controller instance, or a function returning '
                        'either.')
    if inspect.isroutine(target) or isinstance(target, functools.partial):
        try:
            target = target()
        except Exception as exc:  # noqa: BLE001 - reported to the user
            raise LoadError(f'Calling {spec}() failed: '
                            f'{type(exc).__name__}: {exc}', exc) from exc
        if inspect.isclass(target):
            raise LoadError(f'{spec}() returned a class: it must return the '
                            'Pecan app or a root controller instance.')
    return target


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog='pecan-microversions',
        description='Generate and check an API microversion history from its '
                    'registry (package.module:attribute).')
    commands = parser.add_subparsers(dest='command', metavar='COMMAND',
                                     required=True)

    def command(name: str, help: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument('registry', metavar='REGISTRY',
                         help='the registry, as package.module:attribute')
        sub.add_argument('--import', dest='imports', action='append',
                         default=[], metavar='MODULE',
                         help='import MODULE first, for the declarations it '
                              'makes (repeatable)')
        return sub

    sub = command('history', 'Print the version history: each version, its '
                             'description and what it added, removed and '
                             'changed.')
    sub.add_argument('--format', '-f', default='rst',
                     choices=['rst', 'markdown', 'md', 'json'],
                     help='output format (default: %(default)s)')
    sub = command('describe', 'Print, as JSON, the API as it stands at a '
                              'version: every declared field, method, query '
                              'parameter and value.')
    sub.add_argument('version', metavar='VERSION',
                     help='X.Y, or latest')
    sub = command('diff', 'Print, as JSON, what changes between two versions.')
    sub.add_argument('first', metavar='V1', help='X.Y, or latest')
    sub.add_argument('second', metavar='V2', help='X.Y, or latest')
    sub.add_argument('--openapi', action='store_true',
                     help='compare the two versions\' OpenAPI documents '
                          '(needs --app), one entry per JSON pointer')
    sub.add_argument('--app', metavar='MODULE:APP',
                     help='the Pecan app, its root controller instance, or a '
                          'factory returning either')
    sub = command('openapi', 'Print the OpenAPI 3.1 document of a version, '
                             'or without VERSION the combined document with '
                             'x-openstack version ranges.')
    sub.add_argument('version', metavar='VERSION', nargs='?',
                     help='X.Y, or latest (default: every version)')
    sub.add_argument('--app', metavar='MODULE:APP', required=True,
                     help='the Pecan app, its root controller instance, or a '
                          'factory returning either (called without '
                          'arguments)')
    sub.add_argument('--title', help='the document\'s info.title')
    sub = command('matrix', 'Print, as SVG, the fields of a resource by '
                            'version.')
    sub.add_argument('resource', metavar='RESOURCE',
                     help='a resource name given to @versioned_resource')
    sub = command('check', 'Check the registry; print one line per problem '
                           'and exit 1 if there is any.')
    sub.add_argument('--releasenotes', metavar='DIR',
                     help='a reno releasenotes/ directory: a note must '
                          'mention the newest version as X.Y')
    return parser


def _json(data: Any, out: TextIO) -> None:
    try:
        text = json.dumps(data, indent=2)
    except (TypeError, ValueError) as exc:  # a value of a service's own type
        raise ValueError(f'The result cannot be written as JSON: {exc}.'
                         ) from None
    out.write(text + '\n')


def main(argv: Optional[Sequence[str]] = None, *,
         stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command with ``argv`` (``sys.argv[1:]`` if omitted).

    :returns: the exit status.
    """
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help or a usage error
        return int(exc.code or 0)
    try:
        registry = load_registry(args.registry, args.imports)
    except LoadError as exc:
        if args.command == 'check' and isinstance(exc.cause, RegistryError):
            out.write(f'{args.registry}: {exc}\n')
            return 1
        err.write(f'pecan-microversions {args.command}: {exc}\n')
        return 2
    try:
        if args.command == 'history':
            fmt = 'markdown' if args.format == 'md' else args.format
            out.write(history.render(registry, fmt, args.registry))
        elif args.command == 'describe':
            _json(history.describe(registry, args.version), out)
        elif args.command == 'diff' and args.openapi:
            return _openapi_diff(registry, args, out, err)
        elif args.command == 'diff':
            _json(history.diff(registry, args.first, args.second), out)
        elif args.command == 'openapi':
            app = load_app(args.app)
            _json(openapi.openapi_document(
                registry, app, _version_arg(registry, args.version, app),
                title=args.title, operations=_operations(app, args.app)),
                out)
        elif args.command == 'matrix':
            out.write(matrix.field_matrix_svg(registry, args.resource))
        else:
            return _check(registry, args, out, err)
    except (RegistryError, LoadError, ValueError) as exc:  # bad arguments
        err.write(f'pecan-microversions {args.command}: {exc}\n')
        return 2
    return 0


def _version_arg(registry: VersionRegistry, value: Optional[str],
                 app: Any) -> Optional[Version]:
    """The version named on the command line; ``latest`` is the newest
    version ``app`` serves (its operator's cap included), as for a
    request."""
    if value is None:
        return None
    if value.strip().lower() == 'latest':
        return openapi.served_range(registry, app)[1]
    return registry.known_version(value)


def _openapi_diff(registry: VersionRegistry, args: argparse.Namespace,
                  out: TextIO, err: TextIO) -> int:
    if not args.app:
        err.write('pecan-microversions diff: --openapi needs --app '
                  'MODULE:APP.\n')
        return 2
    app = load_app(args.app)
    operations = _operations(app, args.app)
    first, second = (openapi.openapi_document(
        registry, app, _version_arg(registry, v, app), operations=operations)
        for v in (args.first, args.second))
    _json(openapi.openapi_diff(first, second), out)
    return 0


def _operations(app: Any, spec: str) -> list[routes.Operation]:
    found = routes.api_operations(app)
    if not found:
        raise LoadError(f'{spec} is a {type(app).__name__} with no exposed '
                        'operations: name a Pecan app, its root controller, '
                        'or a function returning either.')
    return found


def _check(registry: VersionRegistry, args: argparse.Namespace,
           out: TextIO, err: TextIO) -> int:
    try:
        problems = history.check(registry, args.releasenotes)
    except (OSError, history.ReleaseNoteError) as exc:
        err.write(f'pecan-microversions check: --releasenotes: {exc}\n')
        return 2
    for problem in problems:
        out.write(f'{problem}\n')
    count = sum(1 for _ in registry.declarations())
    if not count:
        err.write(f'Note: {args.registry} has no declarations; name the '
                  'modules that declare fields and methods with --import.\n')
    if problems:
        return 1
    err.write(f'{registry.service_type}: {len(registry.versions)} versions, '
              f'{count} declarations, no problems.\n')
    return 0


if __name__ == '__main__':  # python -m pecan_microversions.tools.cli
    sys.exit(main())
