"""Declaring query parameters, and their allowed values, by microversion.

::

    class NodesController(rest.RestController):

        @query_params(REGISTRY, 'GET /v1/nodes',
                      driver=param(min_version='1.2', max_version='1.5'),
                      sort_key=param(values={'name': None, 'owner': '1.4'}))
        @wsexpose(NodeCollection, wtypes.text, wtypes.text, int)
        def get_all(self, driver=None, sort_key='name', limit=None):
            ...

Before the method runs, each query parameter is checked against the
request's version: one outside its range, or a value outside its range,
gets the registry's ``unavailable_status``; a parameter that is neither
declared nor an argument of the method gets 400, or is ignored when the
registry says ``unknown_query_params='ignore'``.  ``query_params`` goes
above the expose decorator (it refuses otherwise), so it runs before WSME
reads the arguments.
"""

from __future__ import annotations

import functools
import inspect
import json
import warnings
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Optional, TypeVar

from pecan_microversions.compat import (
    exposure,
    function_definition,
    is_wsme_function,
    request_body,
    request_environ,
    route_once,
)
from pecan_microversions.core.contract import (
    ValueRange,
    ValueRule,
    declare_ranged,
)
from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionLike, VersionRange
from pecan_microversions.pecan.arguments import path_conflict, root_name
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.exposure import with_arguments_of
from pecan_microversions.pecan.media import may_have_body, media_type_of
from pecan_microversions.pecan.request import current_request, get_version

__all__ = ['ParamRules', 'QueryParam', 'declared_parameters',
           'declared_query_params', 'param', 'query_params']

#: Where ``query_params`` leaves its rules on a WSME function definition.
_RULES_OPTION = 'pecan_microversions.query_params'
#: Where ``query_params`` leaves its rules on the function it returns.
_DECLARED = '_pmv_query_parameters'

_F = TypeVar('_F', bound=Callable[..., Any])


@dataclass(frozen=True)
class QueryParam:
    """A query parameter's declared range and allowed values (see
    :func:`param`)."""

    min_version: Optional[VersionLike] = None
    max_version: Optional[VersionLike] = None
    values: Optional[Mapping[str, ValueRange]] = None
    multiple: bool = False


def param(min_version: Optional[VersionLike] = None,
          max_version: Optional[VersionLike] = None, *,
          values: Optional[Mapping[str, ValueRange]] = None,
          multiple: bool = False,
          introduced: Optional[VersionLike] = None,
          last: Optional[VersionLike] = None) -> QueryParam:
    """A query parameter that exists from ``min_version`` to
    ``max_version``.

    :param values: for a non-free-form parameter, every allowed value and its
        range: ``None`` (always), ``'X.Y'`` (its min_version) or
        ``(min_version, max_version)``.  Other values get 400.
    :param multiple: whether it may be repeated (``?tag=a&tag=b``); any
        other parameter given twice gets 400 rather than one value being
        silently dropped.

    ``introduced`` and ``last`` are the deprecated spellings of
    ``min_version`` and ``max_version``.
    """
    if introduced is not None or last is not None:
        warnings.warn('param(introduced=, last=) is deprecated: use '
                      'min_version= and max_version=.', DeprecationWarning,
                      stacklevel=2)
        min_version = introduced if min_version is None else min_version
        max_version = last if max_version is None else max_version
    return QueryParam(min_version, max_version, values, multiple)


class ParamRules:
    """The declared parameters of one method, precomputed per version."""

    def __init__(self, registry: VersionRegistry, owner: str,
                 params: Mapping[str, QueryParam]) -> None:
        self.registry = registry
        self.owner = owner
        self.ranges: dict[str, tuple[Optional[Version], Optional[Version]]] = {}
        self.values: dict[str, ValueRule] = {}
        self.multiple = frozenset(n for n, p in params.items()
                                  if isinstance(p, QueryParam) and p.multiple)
        for name, spec in params.items():
            if not isinstance(spec, QueryParam):
                raise InvalidDeclarationError(
                    f'query_params({owner!r}): {name}= must be a param(...), '
                    f'not {spec!r}.')
            self.ranges[name], rule = declare_ranged(
                registry, 'query_parameter', owner, name, spec.min_version,
                spec.max_version, spec.values)
            if rule is not None:
                self.values[name] = rule
        self.available = {
            v: frozenset(n for n, r in self.ranges.items() if v.matches(*r))
            for v in registry.versions}

    def check(self, query: Any, known: frozenset[str],
              version: Version, *, wsme_keys: bool = True) -> None:
        """Check the query string: each key by the argument it sets (``tag``
        for ``tag[0]``, ``flt`` for ``flt.owner``), as WSME reads it.

        :param wsme_keys: whether the method may read WSME's dotted and
            indexed keys (a WSME method, or one taking ``**kwargs``, which
            Pecan passes ``tag[0]`` as it is); if not, such a key for a
            parameter is a 400.
        """
        available = self.available[version]
        for key in query.keys():
            name = root_name(key)
            if not wsme_keys and name != key:
                if name in known:
                    raise APIError(
                        f'Query parameter {key!r}: this URL does not read '
                        f'indexed or dotted keys; give it as {name!r}.',
                        error_code='microversion.unknown_query_parameter')
                name = key
            if name not in self.multiple and len(query.getall(key)) > 1:
                raise APIError(
                    f'Query parameter {key!r} is given '
                    f'{len(query.getall(key))} times; give it once.',
                    error_code='microversion.repeated_query_parameter')
            if name in available:
                rule = self.values.get(name)
                if rule is not None and (key == name or key.startswith(
                        name + '[')):
                    for value in query.getall(key):
                        self._check_value(name, rule, value, version)
            elif name in self.ranges:
                self._unavailable(name, key, version)
            elif (name not in known
                  and self.registry.unknown_query_params == 'reject'):
                raise APIError(f'Unknown query parameter {key!r}.',
                               error_code='microversion.unknown_query_parameter')

    def check_arguments(self, arguments: Mapping[str, Any],
                        version: Version, defaults: Mapping[str, Any],
                        sent: Callable[[], Collection[str]] = frozenset
                        ) -> None:
        """Check the arguments a method is about to receive, whatever their
        source (query string, body, URL path).

        :param defaults: the method's default argument values; Pecan passes
            them too, and the method gets them whatever the version.
        :param sent: the names the request's body gives (called only for
            a value equal to its default): those are checked even then.
        """
        available = self.available[version]
        given: Optional[Collection[str]] = None
        for name, value in arguments.items():
            if name not in self.ranges:
                continue
            if value is None or (name in defaults
                                 and value == defaults[name]):
                if given is None:
                    given = sent()
                if name not in given:
                    continue  # not the client's: the method's default
                if value is None and self.registry.null_as_absent:
                    continue  # the client's null: as if absent
            if name not in available:
                self._unavailable(name, name, version)
            rule = self.values.get(name)
            if rule is not None:
                values = value if isinstance(value, (list, tuple)) else [value]
                for item in values:
                    if item is not None:
                        self._check_value(name, rule, item if isinstance(
                            item, str) else str(item), version)

    def _unavailable(self, name: str, key: str, version: Version) -> None:
        what = repr(name) if key == name else f'{name!r} (as {key!r})'
        raise APIError(
            f'Query parameter {what} is not available at version '
            f'{version}; it exists {VersionRange(*self.ranges[name])}.',
            status=self.registry.unavailable_status,
            error_code='microversion.query_parameter_unavailable')

    def _check_value(self, name: str, rule: ValueRule, value: str,
                     version: Version) -> None:
        rule.check(value, version, f'query parameter {name!r}',
                   self.registry.unavailable_status)


def _check_path_and_query(sent: tuple[tuple[str, Any], ...],
                          bound: Mapping[str, Any],
                          variadic: Optional[str]) -> None:
    """Refuse a query or body parameter (``sent``) naming an argument the
    method gets another value for (from the URL path): Pecan would drop
    it."""
    for key, value in sent:
        if (key in bound and key != variadic and key != 'self'
                and isinstance(bound[key], str) and bound[key] != value):
            raise path_conflict(key)


def _check_once(sent: tuple[tuple[str, Any], ...], bound: Mapping[str, Any],
                multiple: frozenset[str]) -> None:
    """A 400 for a parameter the method takes that the query string and the
    body give more than once together: Pecan passes them as a list."""
    for key, count in Counter(key for key, _ in sent).items():
        if count > 1 and key in bound and key not in multiple:
            raise APIError(f'Parameter {key!r} is given {count} times by the '
                           'query string and body; give it once.',
                           error_code='microversion.invalid_arguments')


def _sent(request: Any) -> Iterator[tuple[str, Any]]:
    """The named values Pecan gives a plain method, as Pecan reads them:
    the query string's and, but for a GET, a JSON object body's (sent as
    exactly ``application/json`` or ``application/javascript``) or else
    the form's (URL-encoded or multipart)."""
    environ = request_environ(request)
    if environ.get('QUERY_STRING'):
        yield from request.GET.items()
    if environ.get('REQUEST_METHOD', 'GET') == 'GET' or not may_have_body(
            environ):
        return
    if media_type_of(environ) in _PECAN_JSON:
        body = request_body(request)
        if body.lstrip()[:1] == b'{':  # only an object gives arguments
            try:  # as Pecan reads it (the hook refused other charsets)
                data = json.loads(body.decode('utf-8'))
            except (ValueError, RecursionError):
                return  # refused by whoever reads it
            yield from data.items()
        return
    yield from request.POST.items()  # nothing for other media types


#: The media types whose object body Pecan passes as arguments.
_PECAN_JSON = ('application/json', 'application/javascript')


def declared_parameters(definition: Any) -> Optional[ParamRules]:
    """The rules :func:`query_params` left on a WSME function definition."""
    options = getattr(definition, 'extra_options', None) or {}
    return options.get(_RULES_OPTION)


def query_params(registry: VersionRegistry, owner: str, /,
                 **params: QueryParam) -> Callable[[_F], _F]:
    """Decorator: declare and enforce a method's versioned query parameters.

    ``registry`` and ``owner`` are positional-only, so any parameter name
    (``owner`` included) can be declared.

    :param owner: names the method in the registry, e.g. ``'GET /v1/nodes'``.
    :param params: ``name=param(...)`` for each versioned parameter; the
        method's other arguments are parameters of every version.
    :raises ~pecan_microversions.core.registry.RegistryError: at decoration, for
        a version outside the history or an inverted range.
    """
    rules = ParamRules(registry, owner, params)

    def decorate(func: _F) -> _F:
        if exposure(func).get('generic_handler'):
            raise InvalidDeclarationError(
                f'query_params({owner!r}) decorates {func!r}, which a '
                'generic controller registered with .when(): Pecan calls '
                'the function it registered, so these rules would never '
                'be checked. Declare query parameters on an exposed or '
                'RestController method.')
        if not getattr(func, 'exposed', False):
            raise InvalidDeclarationError(
                f'query_params({owner!r}) decorates {func!r}, which is not '
                'exposed: put it above @pecan.expose or @wsexpose.')
        signature = None
        variadic = None
        defaults: dict[str, Any] = {}
        positional: tuple[str, ...] = ()
        if is_wsme_function(func):
            definition = function_definition(func)
            arguments = {a.name for a in definition.arguments}
            if registry.unknown_query_params == 'ignore':
                definition.ignore_extra_args = True
            # versioned_wsexpose checks the converted arguments with them.
            definition.extra_options = dict(definition.extra_options or {})
            definition.extra_options[_RULES_OPTION] = rules
        else:
            signature = inspect.signature(func)
            arguments = set(signature.parameters)
            variadic = next((name for name, p in signature.parameters.items()
                             if p.kind is inspect.Parameter.VAR_KEYWORD),
                            None)
            defaults = {name: p.default for name, p
                        in signature.parameters.items()
                        if p.default is not inspect.Parameter.empty}
            # Arguments Pecan passes by position only are bound by zip,
            # as bind_partial binds them, without its cost per request.
            positional = tuple(
                name for name, p in signature.parameters.items()
                if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                              inspect.Parameter.POSITIONAL_OR_KEYWORD))
        known = frozenset(arguments | set(params)) - {'self'}
        # A WSME method, or a plain one taking **kwargs, may read tag[0].
        wsme_keys = signature is None or variadic is not None

        def check(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            request = current_request()
            version = get_version(request)
            try:
                if request_environ(request).get('QUERY_STRING'):  # else none
                    rules.check(request.GET, known, version,
                                wsme_keys=wsme_keys)
                if signature is not None:  # what Pecan passes, any source
                    if not kwargs and len(args) <= len(positional):
                        bound = dict(zip(positional, args, strict=False))
                    else:
                        try:
                            bound = signature.bind_partial(
                                *args, **kwargs).arguments
                        except TypeError:
                            bound = kwargs
                    if variadic is not None and variadic in bound:
                        # ``**kwargs``: the parameters it collects
                        bound = {**bound, **bound[variadic]}
                    sent = tuple(_sent(request))  # what Pecan read by name
                    if sent:  # else nothing given twice or against the path
                        _check_once(sent, bound, rules.multiple)
                        _check_path_and_query(sent, bound, variadic)
                    rules.check_arguments(
                        bound, version, defaults,
                        lambda: {root_name(key) for key, _ in sent})
            except RequestError as exc:
                raise APIError.from_error(exc) from None

        # Above @api_version: a method the version lacks answers its
        # 404/405 first, whatever the query string names.
        refusal = getattr(func, 'refusal', None)

        def call(*args: Any, **kwargs: Any) -> Any:
            if refusal is not None:
                error = refusal(*args, **kwargs)
                if error is not None:
                    raise error
            check(args, kwargs)
            return func(*args, **kwargs)

        # The method's own arguments ((self, *args, **kwargs) for WSME's):
        # Pecan reads them here instead of searching the closures.
        checked = functools.update_wrapper(
            with_arguments_of(func, call) or call, func)
        route_once(checked, func)

        setattr(checked, _DECLARED, rules)
        return checked  # type: ignore[return-value]

    return decorate


def declared_query_params(func: Callable[..., Any]) -> Optional[ParamRules]:
    """The rules :func:`query_params` declared on ``func`` (any exposed
    function, WSME's or not), or ``None`` when it declares none."""
    return getattr(func, _DECLARED, None)
