"""Versioned controller methods and sub-resources.

A method gets a version range with :func:`api_version`; outside every range
it has, the method does not exist for the request (404, or 405 if asked)::

    class ThingsController(rest.RestController):

        @api_version(REGISTRY, '1.1', '1.4')      # POST exists 1.1 to 1.4 ...
        @wsexpose(Thing, body=ThingV1)
        def post(self, body):
            ...

        @post.version('1.5')                      # ... and differently from 1.5
        @wsexpose(Thing, body=ThingV2, status_code=201)
        def post(self, body):
            ...

:func:`api_version` returns a *dispatcher*: a plain function that Pecan routes
to like the decorated one (same exposure, same signature) and that, when
called, runs the implementation whose range holds the request's version.  The
version is known before routing (the hook sets it in ``on_route``), so
routing-time code such as ``_lookup`` and ``_route`` can use it too;
:class:`ResourceRange` does that to give a whole sub-controller a range.

All checks run when the class body runs, that is at import: versions that are
not in the registry's history, inverted ranges, overlapping implementations,
and implementations that Pecan would route differently all raise a
:class:`~pecan_microversions.core.registry.RegistryError` subclass.  Every
implementation and resource range is declared in the registry (kinds
:data:`METHOD` and :data:`RESOURCE`); :func:`method_changes` lists what each
version added, removed or changed.

The dispatcher copies the implementations' exposure (Pecan's ``_pecan``
dictionary, see :mod:`~pecan_microversions.pecan.exposure`) so that Pecan
routes to it exactly as it would to them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Optional, Protocol

import pecan.rest

from pecan_microversions.compat import exposure, watch_generic_handlers
from pecan_microversions.core.changes import METHOD
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    MismatchedExposureError,
    OverlappingVersionsError,
    VersionedMethodError,
)
from pecan_microversions.core.registry import Declaration, VersionRegistry
from pecan_microversions.core.version import Version, VersionLike, VersionRange
from pecan_microversions.pecan.allow import allowed_methods
from pecan_microversions.pecan.declared import (
    controller_path,
    describe_ranges,
    where,
)
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.exposure import (
    copy_exposure,
    exposure_summary,
    with_arguments_of,
)
from pecan_microversions.pecan.request import get_version, request_line
from pecan_microversions.pecan.unfilled import not_allowed, url_mismatch

__all__ = [
    'Implementation',
    'VersionedFunction',
    'VersionedMethod',
    'api_version',
]

_MISSING_STATUSES = (404, 405)
_NOT_FOUND_CODE = 'microversion.method_not_found'


class Implementation(NamedTuple):
    """One implementation of a versioned method and its version range."""

    function: Callable[..., Any]
    min_version: Version
    max_version: Optional[Version]
    declaration: Declaration

    def exists_at(self, version: Version) -> bool:
        """Whether this implementation serves ``version``."""
        return version.matches(self.min_version, self.max_version)

    def overlaps(self, other: Implementation) -> bool:
        """Whether some version is in both ranges."""
        return ((other.max_version is None
                 or self.min_version <= other.max_version)
                and (self.max_version is None
                     or other.min_version <= self.max_version))


class VersionedMethod:
    """The implementations of one controller method, oldest range first.

    Built by :func:`api_version` and extended by a dispatcher's ``version``;
    read it as ``dispatcher.versioned``.  Immutable: each extension makes a
    new one.
    """

    def __init__(self, registry: VersionRegistry, name: str, owner: str,
                 missing_status: int,
                 implementations: Sequence[Implementation]) -> None:
        self.registry = registry
        self.name = name
        self.owner = owner
        self.missing_status = missing_status
        self.implementations: tuple[Implementation, ...] = tuple(
            sorted(implementations, key=lambda i: i.min_version))
        self._functions: dict[Version, Optional[Callable[..., Any]]] = {}

    def __repr__(self) -> str:
        return f'<VersionedMethod {self.owner} {self.name}: {self.ranges()}>'

    def select(self, version: Version) -> Optional[Implementation]:
        """The implementation serving ``version``, or ``None``."""
        for implementation in self.implementations:
            if implementation.exists_at(version):
                return implementation
        return None

    def function_at(self, version: Version) -> Optional[Callable[..., Any]]:
        """The function serving ``version``, or ``None`` (looked up once
        per version)."""
        try:
            return self._functions[version]
        except KeyError:
            found = self.select(version)
            function = self._functions[version] = (
                None if found is None else found.function)
            return function

    def exists_at(self, version: Version) -> bool:
        """Whether some implementation serves ``version``."""
        return self.select(version) is not None

    def ranges(self) -> str:
        """The versions served, in words: ``1.1 to 1.4 and from 1.6``."""
        return describe_ranges([(i.min_version, i.max_version)
                          for i in self.implementations])


class VersionedFunction(Protocol):
    """What :func:`api_version` returns: a function Pecan routes to.

    Calling it runs the implementation for the request's version or raises
    the method's 404/405 :class:`~pecan_microversions.pecan.errors.APIError`.
    """

    __name__: str
    #: The implementations and their ranges.
    versioned: VersionedMethod

    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

    def version(self, min_version: VersionLike,
                max_version: Optional[VersionLike] = None
                ) -> Callable[[Callable[..., Any]], VersionedFunction]:
        """Add an implementation for another, non-overlapping range."""
        ...

    def refusal(self, *args: Any, **kwargs: Any) -> Optional[APIError]:
        """The 404/405 a call with these arguments (``self`` first) raises
        at the request's version; ``None`` if an implementation serves it."""
        ...


def api_version(registry: VersionRegistry, min_version: VersionLike,
                max_version: Optional[VersionLike] = None, *,
                missing_status: int = 404, endpoint: Optional[str] = None
                ) -> Callable[[Callable[..., Any]], VersionedFunction]:
    """Give a controller method a version range, ``max_version`` inclusive.

    Put it above the exposing decorator (``pecan.expose``, ``wsexpose``),
    or on an unexposed function that ``pecan.expose`` or a generic
    controller's ``when`` then exposes.  Add implementations for other
    ranges with ``@name.version(min, max)`` on a method of the same name.

    :param registry: the service's registry; both bounds must be in its
        history.
    :param max_version: the last version served; ``None``: all later ones.
    :param missing_status: the status when no implementation serves the
        request's version: 404 (the method does not exist) or 405 (another
        method serves the URL; the ``Allow`` header lists the methods that
        exist at the request's version).
    :param endpoint: how the registry and docs name the method, such as
        ``'POST /v1/things'``; by default the controller class's dotted path.
    :raises UnknownVersionError: a bound is not in the history.
    :raises InvertedRangeError: ``max_version`` is below ``min_version``.
    :raises MismatchedExposureError: the function cannot be dispatched.
    """
    if missing_status not in _MISSING_STATUSES:
        raise InvalidDeclarationError(
            f'missing_status must be 404 or 405, not {missing_status!r}.')

    def decorate(function: Callable[..., Any]) -> VersionedFunction:
        _check_function(function)
        name = function.__name__
        owner = endpoint or controller_path(function)
        low, high = _check_range(registry, function, min_version, max_version)
        # In a class body only the last definition of a name stays.
        namespace = sys._getframe(1).f_locals
        if namespace.get('__qualname__') == function.__qualname__.rpartition(
                '.')[0] and '__module__' in namespace:
            _check_not_redefined(namespace.get(name), function, low, high)
            for value in list(namespace.values()):  # generic controllers
                if exposure(value).get('generic'):
                    watch_generic_handlers(value, _check_replaced)
        declaration = registry.declare(METHOD, owner, name, low, high)
        implementation = Implementation(function, low, high, declaration)
        versioned = VersionedMethod(registry, name, owner, missing_status,
                                    [implementation])
        return _make_dispatcher(versioned, function, None)

    return decorate


def _extend(dispatcher: VersionedFunction, min_version: VersionLike,
            max_version: Optional[VersionLike]
            ) -> Callable[[Callable[..., Any]], VersionedFunction]:
    versioned = dispatcher.versioned

    def decorate(function: Callable[..., Any]) -> VersionedFunction:
        _check_function(function)
        if function.__name__ != versioned.name:
            raise MismatchedExposureError(
                f'{where(function)}: @{versioned.name}.version decorates '
                f'{function.__name__!r}; every implementation must be named '
                f'{versioned.name!r}, or Pecan would route both names.')
        first = versioned.implementations[0].function
        _check_same_exposure(first, function)
        low, high = _check_range(versioned.registry, function, min_version,
                                 max_version)
        candidate = Implementation(function, low, high, None)  # type: ignore
        for existing in versioned.implementations:
            if existing.overlaps(candidate):
                raise OverlappingVersionsError(_overlap_message(
                    versioned, existing, candidate))
        declaration = versioned.registry.declare(
            METHOD, versioned.owner, versioned.name, low, high)
        extended = VersionedMethod(
            versioned.registry, versioned.name, versioned.owner,
            versioned.missing_status,
            versioned.implementations + (candidate._replace(
                declaration=declaration),))
        return _make_dispatcher(extended, first, dispatcher)

    return decorate


def _make_dispatcher(versioned: VersionedMethod, first: Callable[..., Any],
                     previous: Optional[VersionedFunction]) -> VersionedFunction:
    made: list[Any] = []  # the dispatcher, for its 404/405 (not callable)

    def dispatcher(*args: Any, **kwargs: Any) -> Any:
        _ = first  # kept in the closure: Pecan's getargspec may look there
        function = versioned.function_at(get_version())
        if function is None:
            raise _missing_error(versioned, made[0], args, kwargs,
                                 get_version())
        return function(*args, **kwargs)

    # The implementation's own arguments, for Pecan's getargspec.
    result: Any = with_arguments_of(first, dispatcher) or dispatcher
    made.append(result)
    result.__name__ = first.__name__
    result.__qualname__ = getattr(first, '__qualname__', first.__name__)
    result.__module__ = first.__module__
    result.__doc__ = first.__doc__
    # No __signature__: an outer functools.wraps wrapper copies __dict__,
    # and Pecan would route the wrapper by the implementation's arguments.
    result.__wrapped__ = first
    result.versioned = versioned
    result.version = lambda low, high=None: _extend(result, low, high)
    result.refusal = lambda *args, **kwargs: None if versioned.function_at(
        get_version()) is not None else _missing_error(
            versioned, result, args, kwargs, get_version())
    source = previous if previous is not None else first
    copy_exposure(source, result)
    return result  # type: ignore[no-any-return]


def _check_function(function: Any) -> None:
    if not callable(function) or not hasattr(function, '__name__'):
        raise MismatchedExposureError(
            f'@api_version decorates functions, not {function!r}.')
    if isinstance(getattr(function, 'versioned', None), VersionedMethod):
        raise MismatchedExposureError(
            f'{where(function)}: {function.__name__} already has a version '
            f'range; add another implementation with '
            f'@{function.__name__}.version(...).')
    if exposure(function).get('generic_handler'):
        raise MismatchedExposureError(
            f'{where(function)}: put @api_version below the generic '
            'controller\'s @....when(...), so that the handler it registers '
            'is the versioned one.')


def _check_not_redefined(earlier: Any, function: Callable[..., Any],
                         low: Optional[Version], high: Optional[Version]
                         ) -> None:
    """Refuse ``@api_version`` on a name the class body already bound to a
    versioned method (not a ``.when`` handler): it would be lost."""
    versioned = getattr(earlier, 'versioned', None)
    if not isinstance(versioned, VersionedMethod) or exposure(earlier).get(
            'generic_handler'):  # registered by .when(): the name is free
        return
    ranges = describe_ranges([(i.min_version, i.max_version)
                        for i in versioned.implementations])
    bounds = ', '.join(repr(str(v)) for v in (low, high) if v is not None)
    raise VersionedMethodError(
        f'{where(function)}: {function.__name__} is defined again with '
        f'@api_version; only the last definition would stay, so the one '
        f'at {where(versioned.implementations[0].function)} ({ranges}) '
        f'would never run. Add this implementation with '
        f'@{function.__name__}.version({bounds}).')


def _check_replaced(method: str, old: Any, new: Any) -> None:
    """Refuse a ``.when`` handler replacing a versioned one it lacks."""
    versioned = getattr(old, 'versioned', None)
    kept = getattr(getattr(new, 'versioned', None), 'implementations', ())
    if isinstance(versioned, VersionedMethod) and not set(
            versioned.implementations) <= set(kept):
        raise VersionedMethodError(
            f'{where(new)}: a second {method} handler replaces the one at '
            f'{where(versioned.implementations[0].function)} '
            f'({versioned.ranges()}), which would never run; add it with '
            f'@{old.__name__}.version(...).')


def _check_same_exposure(first: Callable[..., Any],
                         other: Callable[..., Any]) -> None:
    want, got = exposure_summary(first), exposure_summary(other)
    for key, value in want.items():
        if got[key] != value:
            raise MismatchedExposureError(
                f'{where(other)}: this implementation of {first.__name__} '
                f'has {key} {got[key]!r} but the one at {where(first)} has '
                f'{value!r}. Pecan routes the request before the version '
                'picks an implementation, so all must be exposed alike; '
                'change the schema (WSME types, status codes) instead.')


def _check_range(registry: VersionRegistry, function: Callable[..., Any],
                 min_version: VersionLike, max_version: Optional[VersionLike]
                 ) -> tuple[Version, Optional[Version]]:
    what = f'@api_version on {where(function)}'
    low = registry.known_version(min_version, f'{what}: min_version')
    high = (None if max_version is None
            else registry.known_version(max_version, f'{what}: max_version'))
    VersionRange(low, high, what=what)
    return low, high


def _overlap_message(versioned: VersionedMethod, existing: Implementation,
                     new: Implementation) -> str:
    start = max(existing.min_version, new.min_version)
    ends = [v for v in (existing.max_version, new.max_version) if v is not None]
    end = min(ends) if ends else None
    both = describe_ranges([(start, end)])
    return (f'{where(new.function)}: {versioned.name} for '
            f'{describe_ranges([(new.min_version, new.max_version)])} overlaps the '
            f'implementation for '
            f'{describe_ranges([(existing.min_version, existing.max_version)])} at '
            f'{where(existing.function)} (both claim {both}); each version '
            'must select one implementation.')


def _missing_error(versioned: VersionedMethod, dispatcher: Any,
                   args: tuple[Any, ...], kwargs: dict[str, Any],
                   version: Version) -> APIError:
    controller = args[0] if args else None
    if isinstance(controller, pecan.rest.RestController):
        refusal = url_mismatch(controller, versioned.name,
                               versioned.implementations[0].function,
                               args[1:], kwargs, version)
        if refusal is not None:
            return refusal
    # A HEAD routed here as GET is (not to a head method or a generic
    # controller's HEAD handler) answers as the GET does.
    what = request_line(head_as_get=versioned.name != 'head' and not exposure(
        dispatcher).get('generic_handler'))
    detail = (f'{what} is not available in version {version}: it exists in '
              f'versions {versioned.ranges()}.')
    allow = (allowed_methods(dispatcher, controller, version)
             if versioned.missing_status == 405 else None)
    if not allow:  # a 405 must name what the URL answers: it answers none
        return APIError(detail, status=404, error_code=_NOT_FOUND_CODE)
    return not_allowed(detail, allow)
