"""The operations of a Pecan application, found by walking its controllers.

:func:`api_operations` starts from the root controller *instance* (the one
given to ``pecan.make_app``) and follows what Pecan's own routing follows:

* attributes holding controllers, ``index`` and other exposed methods
  (``custom_route`` names included) of plain object controllers; a generic
  controller (``expose(generic=True)``) is each of its ``when`` handlers'
  HTTP methods on its own path, and its default handler every one of
  ``GET``, ``POST``, ``PUT``, ``PATCH`` and ``DELETE`` no handler takes, as
  Pecan routes them to it (a handler is never an operation of its own:
  Pecan answers 404 at its name);
* ``RestController`` conventions: ``get_all``/``get`` and ``post`` on the
  collection; ``get_one``, ``put``, ``patch`` and ``delete`` on the item,
  whose first argument names the path parameter; sub-controllers after the
  ids the controller's ``get_one`` (or ``get``) takes
  (``/nodes/{uuid}/states``, their parents' ids filling their first
  arguments), or right below it by name when that method takes none or
  there is none (``/v1`` under a root with ``get(self)``), as Pecan's
  ``_find_sub_controllers`` routes them; ``_custom_actions``;
* :class:`~pecan_microversions.pecan.subresources.ResourceGate` sub-resources, which
  bound every operation below them to their range.

Routing written as code (``_lookup``, ``_default``, ``_route``) cannot be
walked; declare those operations' controllers as attributes to have them
described.  A path parameter named like one before it in the path gets a
suffix (``{id}``, ``{id_2}``).  A method's arguments are those Pecan
fills: ``*args`` and ``**kwargs`` only collect what is left over, so they
are neither query parameters nor path segments, and a keyword-only argument
is filled only through ``**kwargs``.  Each operation carries its
implementations, each with its version range and the function Pecan calls
(with WSME's definition when it has one).
"""

from __future__ import annotations

import inspect
import types
from collections.abc import Iterator
from typing import Any, NamedTuple, Optional

import pecan.core
import pecan.rest

from pecan_microversions.compat import (
    custom_actions,
    exposure,
    function_definition,
    generic_handlers,
    is_wsme_function,
)
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.hook import MicroversionHook
from pecan_microversions.pecan.methods import VersionedMethod
from pecan_microversions.pecan.subresources import ResourceGate

__all__ = ['Implementation', 'Operation', 'api_operations', 'arguments',
           'find_root', 'microversion_hook', 'required_arguments',
           'wsgi_chain']

_Range = tuple[Optional[Version], Optional[Version]]
_MAX_DEPTH = 32  # controllers nested deeper than this are not walked
_COLLECTION = (('GET', ('get_all', 'get')), ('POST', ('post',)))
_ITEM = (('GET', ('get_one',)), ('PUT', ('put',)), ('PATCH', ('patch',)),
         ('DELETE', ('delete',)))
#: The methods a generic controller's default handler is described under
#: where no ``when`` handler takes them (Pecan sends it every such one).
_DEFAULT_METHODS = ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')
_REST_NAMES = frozenset(['get_all', 'get', 'post', 'get_one', 'put', 'patch',
                         'delete', 'index'])


class Implementation(NamedTuple):
    """One implementation of an operation and the versions it serves."""

    function: Any
    min_version: Optional[Version]
    max_version: Optional[Version]
    #: What Pecan routes to (around ``function`` when it is versioned).
    handler: Any = None

    @property
    def definition(self) -> Any:
        """WSME's ``FunctionDefinition``, or ``None`` for a plain method."""
        if is_wsme_function(self.function):
            return function_definition(self.function)
        return None

    def exists_at(self, version: Version) -> bool:
        """Whether this implementation serves ``version``."""
        return version.matches(self.min_version, self.max_version)


class Operation(NamedTuple):
    """An HTTP method on a path template, and its implementations.

    ``path_params`` names the template's parameters in order; the first
    ``len(path_params)`` arguments of each implementation receive them.
    """

    method: str
    path: str
    path_params: tuple[str, ...]
    implementations: tuple[Implementation, ...]

    def select(self, version: Version) -> Optional[Implementation]:
        """The implementation serving ``version``, or ``None``."""
        for implementation in self.implementations:
            if implementation.exists_at(version):
                return implementation
        return None


def find_root(app: Any) -> Any:
    """The root controller of a Pecan app, also through WSGI wrappers
    (``app``, ``application`` attributes), or ``app`` itself when it is not
    an app."""
    chain = wsgi_chain(app)
    if isinstance(chain[-1], pecan.core.Pecan):
        return chain[-1].root
    return app


def wsgi_chain(app: Any) -> list[Any]:
    """``app`` and the applications it wraps (``app``, ``application``
    attributes), outermost first, down to the Pecan app if there is one."""
    chain = [app]
    while not isinstance(chain[-1], pecan.core.Pecan):
        inner = getattr(chain[-1], 'application', None) or getattr(
            chain[-1], 'app', None)
        if inner is None or any(inner is seen for seen in chain):
            break
        chain.append(inner)
    return chain


def microversion_hook(app: Any) -> Optional[MicroversionHook]:
    """The :class:`MicroversionHook` of ``app`` (a Pecan app, or WSGI
    middleware around one); ``None`` when none can be seen (a root
    controller, an app without the hook)."""
    hooks = getattr(wsgi_chain(app)[-1], 'hooks', None) or ()
    return next((h for h in hooks if isinstance(h, MicroversionHook)), None)


def api_operations(root: Any, prefix: str = '') -> list[Operation]:
    """Every operation under ``root`` (a controller instance or a Pecan app),
    sorted by path then method.

    :param prefix: the path the root is served at (``''`` for ``/``).
    :raises TypeError: ``root`` is a class: Pecan routes into an instance.
    """
    if isinstance(root, type):
        raise TypeError(
            f'{root.__module__}.{root.__qualname__} is a class: give the root '
            'controller instance (or the Pecan app) that serves requests.')
    found: dict[tuple[str, str], Operation] = {}
    for operation in _walk(find_root(root), prefix, (), (None, None), set()):
        if not operation.path:  # a RestController root's collection
            operation = operation._replace(path='/')
        found.setdefault((operation.path, operation.method), operation)
    return sorted(found.values(), key=lambda o: (o.path, o.method))


def _walk(controller: Any, path: str, params: tuple[str, ...],
          bounds: _Range, seen: set[int]) -> Iterator[Operation]:
    if id(controller) in seen or len(seen) > _MAX_DEPTH:
        return
    seen = seen | {id(controller)}
    if isinstance(controller, ResourceGate):
        resource = controller.resource
        yield from _walk(controller.controller, path, params,
                         _intersect(bounds, (resource.min_version,
                                             resource.max_version)), seen)
        return
    if isinstance(controller, pecan.rest.RestController):
        yield from _rest(controller, path, params, bounds, seen)
        return
    for name, handler in _members(controller):
        if _is_exposed(handler):
            route = getattr(handler, 'custom_route', None) or name
            where = f'{path}/' if route == 'index' else f'{path}/{route}'
            yield from _operations(handler, where, params, bounds)
        elif _is_controller(handler):
            yield from _walk(handler, f'{path}/{name}', params, bounds, seen)


def _rest(controller: Any, path: str, params: tuple[str, ...],
          bounds: _Range, seen: set[int]) -> Iterator[Operation]:
    item_name = _unique(_item_param(controller, params), params)
    item = f'{path}/{{{item_name}}}'
    item_params = params + (item_name,)
    for method, names in _COLLECTION:
        handler = _first(controller, names)
        if handler is not None:
            yield from _operations(handler, path, params, bounds, method)
    for method, names in _ITEM:
        handler = _first(controller, names)
        if handler is not None:
            yield from _operations(handler, item, item_params, bounds, method)
    for action, methods in custom_actions(controller).items():
        for method in methods:
            handler = _first(controller, (f'{method.lower()}_{action}',
                                          action))
            if handler is not None:
                yield from _operations(handler, f'{path}/{action}', params,
                                       bounds, method.upper())
    actions = set(custom_actions(controller))
    # Pecan reaches a sub-controller after the ids its get_one (or get)
    # takes beyond those already routed (/nodes/{uuid}/states), or by its
    # name right below the controller when that method takes none (/v1).
    ids = _sub_resource_params(controller, params)
    below = ''.join(f'/{{{name}}}' for name in ids)
    for name, member in _members(controller):
        if (name not in _REST_NAMES and name not in actions
                and not _is_exposed(member) and _is_controller(member)):
            yield from _walk(member, f'{path}{below}/{name}', params + ids,
                             bounds, seen)


def _sub_resource_params(controller: Any, params: tuple[str, ...]
                         ) -> tuple[str, ...]:
    """The path parameters Pecan's ``_find_sub_controllers`` consumes
    before a sub-controller's name: the arguments of ``get_one`` (or
    ``get``) after the ``params`` already routed."""
    for name in ('get_one', 'get'):
        handler = getattr(controller, name, None)
        if callable(handler):
            ids: tuple[str, ...] = ()
            for argument in _arguments(handler, positional=True)[
                    len(params):]:
                ids += (_unique(argument, params + ids),)
            return ids
    return ()


def _unique(name: str, taken: tuple[str, ...]) -> str:
    """``name``, or ``name_2``, ``name_3``... when a path already has it."""
    found, number = name, 2
    while found in taken:
        found, number = f'{name}_{number}', number + 1
    return found


def _operations(handler: Any, path: str, params: tuple[str, ...],
                bounds: _Range, method: Optional[str] = None
                ) -> Iterator[Operation]:
    if exposure(handler).get('generic') and method is None:
        handlers = dict(generic_handlers(handler))
        default = handlers.pop('DEFAULT', None)
        if default is not None:  # Pecan sends it what no handler takes
            for name in _DEFAULT_METHODS:
                handlers.setdefault(name, default)
        for name in sorted(handlers):
            yield from _operations(handlers[name], path, params, bounds,
                                   name)
        return
    ranges: list[tuple[Any, _Range]]
    versioned = getattr(handler, 'versioned', None)
    if isinstance(versioned, VersionedMethod):
        ranges = [(i.function, (i.min_version, i.max_version))
                  for i in versioned.implementations]
    else:
        ranges = [(handler, (None, None))]
    implementations = []
    for function, bounded in ranges:
        low, high = _intersect(bounds, bounded)
        if low is None or high is None or low <= high:
            implementations.append(Implementation(function, low, high,
                                                  handler))
    if implementations:
        yield Operation(method or 'GET', path, params,
                        tuple(implementations))


def _members(controller: Any) -> Iterator[tuple[str, Any]]:
    names = {n for n in dir(type(controller)) if not n.startswith('_')}
    names |= {n for n in vars(controller) if not n.startswith('_')} if hasattr(
        controller, '__dict__') else set()
    for name in sorted(names):
        if isinstance(getattr(type(controller), name, None), property):
            continue
        yield name, getattr(controller, name, None)
    for name in sorted(n for n in dir(type(controller)) if '.' in n):
        yield name, getattr(controller, name)  # pecan.route('a.json', ...)


def _is_exposed(member: Any) -> bool:
    """Whether Pecan routes to ``member`` by its name: exposed, and not a
    generic controller's ``when`` handler (Pecan answers 404 there; the
    handler serves its method on the generic controller's path)."""
    return (callable(member) and bool(getattr(member, 'exposed', False))
            and not exposure(member).get('generic_handler'))


def _is_controller(member: Any) -> bool:
    """Whether Pecan could route into ``member``: any object of a class of
    its own (what it holds decides whether operations are found)."""
    if member is None or isinstance(member, (type, types.ModuleType,
                                             types.FunctionType,
                                             types.MethodType)):
        return False
    return type(member).__module__ not in ('builtins', 'threading',
                                           'collections', 'datetime')


def _first(controller: Any, names: tuple[str, ...]) -> Any:
    for name in names:
        handler = getattr(controller, name, None)
        if _is_exposed(handler):
            return handler
    return None


def _item_param(controller: Any, params: tuple[str, ...]) -> str:
    for name in ('get_one', 'put', 'patch', 'delete'):
        handler = _first(controller, (name,))
        if handler is not None:
            arguments = _arguments(handler, positional=True)
            if len(arguments) > len(params):
                return arguments[len(params)]
    return 'id'


#: The parameters Pecan fills from the path or by name (a query parameter,
#: a form field): those ``getfullargspec`` lists as ``args``.
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY,
               inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _parameters(handler: Any, positional: bool = False
                ) -> list[inspect.Parameter]:
    """The parameters after ``self`` Pecan fills: not ``*args`` nor
    ``**kwargs``, which only collect what is left over, and a keyword-only
    one only through ``**kwargs`` (``positional``: only those a path
    segment can fill)."""
    found = [p for p in inspect.signature(handler).parameters.values()
             if p.name != 'self']
    by_name = not positional and any(p.kind is p.VAR_KEYWORD for p in found)
    return [p for p in found if p.kind in _POSITIONAL
            or (by_name and p.kind is p.KEYWORD_ONLY)]


def _arguments(handler: Any, positional: bool = False) -> list[str]:
    """The handler's argument names after ``self``, as Pecan passes them
    (``positional``: only those a path segment can fill)."""
    versioned = getattr(handler, 'versioned', None)
    if isinstance(versioned, VersionedMethod):
        handler = versioned.implementations[0].function
    if is_wsme_function(handler):
        definition = function_definition(handler)
        return [a.name for a in definition.arguments]
    return [p.name for p in _parameters(handler, positional)]


def arguments(implementation: Implementation) -> list[str]:
    """The argument names of an implementation after ``self`` that Pecan
    fills (not ``*args`` or ``**kwargs``; a keyword-only one only when
    ``**kwargs`` takes what Pecan passes by name)."""
    return _arguments(implementation.function)


def required_arguments(implementation: Implementation) -> frozenset[str]:
    """The arguments of an implementation a request must give: WSME's
    mandatory ones, or for a plain method those without a default."""
    definition = implementation.definition
    if definition is not None:
        return frozenset(a.name for a in definition.arguments
                         if a.mandatory)
    return frozenset(p.name for p in _parameters(implementation.function)
                     if p.default is inspect.Parameter.empty)


def _intersect(first: _Range, second: _Range) -> _Range:
    lows = [v for v in (first[0], second[0]) if v is not None]
    highs = [v for v in (first[1], second[1]) if v is not None]
    return (max(lows) if lows else None, min(highs) if highs else None)
