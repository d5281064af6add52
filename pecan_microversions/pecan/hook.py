"""The Pecan hook: a version on every request, version headers on every response.

Register it in the application's configuration::

    app = {
        'root': 'myservice.api.controllers.root.RootController',
        'hooks': lambda: [MicroversionHook(myservice.api.versions.REGISTRY,
                                           conf=CONF)],
    }

or pass ``hooks=[MicroversionHook(...)]`` to ``pecan.make_app``.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, NamedTuple, Optional

import webob.exc
import wsme.exc
from oslo_config import cfg
from pecan.hooks import PecanHook

from pecan_microversions.compat import (
    ADHOC_ATTRS_KEY,
    RESPONSE_HEADERLIST,
    RESPONSE_STATUS,
    plain_getattr,
)
from pecan_microversions.core.errors import ConfigurationError, RequestError
from pecan_microversions.core.headers import (
    Header,
    merge_headers,
    response_headers,
)
from pecan_microversions.core.negotiation import (
    STANDARD_ENVIRON_KEY,
    VersionLimits,
    requested_version_text,
    resolve,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.rendering import ErrorRenderer, api_wg_errors
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.client_errors import (
    answered_client_error,
    raised_client_error,
)
from pecan_microversions.pecan.config import (
    DEFAULT_GROUP,
    read_limits,
    register_opts,
)
from pecan_microversions.pecan.encoding import check_encoding
from pecan_microversions.pecan.errors import (
    ERROR_KEY,
    INTERNAL_ERROR,
    APIError,
    error_from_app_response,
    error_from_raised,
    error_response,
    is_wsme_fault_of,
    page_for_head,
)
from pecan_microversions.pecan.overrides import check_override
from pecan_microversions.pecan.request import (
    LEGACY_KEY,
    NEGOTIATION_ATTR,
    Negotiation,
)
from pecan_microversions.pecan.subresources import judged_refusal

__all__ = ['MicroversionHook']

LOG = logging.getLogger(__name__)


class _Planned(NamedTuple):
    """The response headers of one (version, legacy header) pair."""

    headers: tuple[Header, ...]
    #: the same, (name, value), to append when none is set yet
    pairs: tuple[tuple[str, str], ...]
    #: lower-case names of those a value already set must meet by mode
    merged: frozenset[str]


#: What ``after`` adds for a usual request: the headers (name, value),
#: unless the response already has one of their names (lower case; their
#: first letters, both cases, are a cheap first test).
_Appended = tuple[tuple[tuple[str, str], ...], str, frozenset[str]]


class _FastPath(NamedTuple):
    limits: VersionLimits
    #: the usual header value ("<service> X.Y") of each accepted version,
    #: and None (no header) for the default: the version, its negotiation
    #: and what ``after`` appends
    accepted: dict[Optional[str], tuple[Version, Negotiation, _Appended]]
    #: what ``after`` appends for each accepted version (no legacy header)
    appended: dict[Version, _Appended]
    #: the negotiation every request under ``limits`` is served by
    negotiation: Negotiation
    #: the headers of each accepted version with each legacy header (or
    #: none), for the responses ``after`` cannot simply append to
    planned: dict[tuple[Version, Optional[str]], _Planned]


_NOTHING: dict[str, Any] = {}  # read-only stand-in for a missing dict
#: Where on_error notes the error response it rendered.
_RENDERED_KEY = 'pecan_microversions.rendered'
#: The routing state attribute on_route leaves an ``_Appended`` in.
_HEADERS_ATTR = 'pecan_microversions_headers'


class MicroversionHook(PecanHook):
    """Negotiates each request's microversion and labels each response.

    Before routing it reads ``OpenStack-API-Version`` (then the registry's
    legacy headers), sets ``pecan.request.api_version``, and answers 400 for
    a malformed version or 406 for one outside the accepted range.  After
    every response, errors included, it sets ``OpenStack-API-Version``, the
    minimum and maximum headers, and appends ``OpenStack-API-Version`` and
    the registry's legacy headers to ``Vary``.  Error responses get the
    JSON errors body (see :mod:`pecan_microversions.pecan.errors`), or the
    ``error_renderer``'s.

    :param registry: the service's :class:`VersionRegistry`.
    :param conf: an oslo.config ``ConfigOpts`` holding the operator options
        (registered here if the application did not); ``None`` serves the
        registry's full range.
    :param group: the option group.
    :param error_renderer: writes error bodies: the default
        :func:`~pecan_microversions.core.rendering.api_wg_errors`,
        :func:`~pecan_microversions.core.rendering.wsme_fault`, or a
        callable of the service's own.
    :param app_errors: ``'render'`` (the default) writes the application's
        errors too (but an error body it wrote itself) with ``error_renderer``
        (a 5xx's text replaced by a generic sentence); ``'keep'`` renders
        only the library's errors (and :class:`APIError` raised by the
        application) and leaves the application's own error responses
        (WSME faults, WebOb/Pecan HTTP errors, exceptions) as they are,
        adding only the version headers.
    :raises ~pecan_microversions.core.negotiation.ConfigurationError: the
        configured versions do not fit the registry.
    """

    priority = 10  # on_route early, after (which runs in reverse) late

    def __init__(self, registry: VersionRegistry,
                 conf: Optional[cfg.ConfigOpts] = None,
                 group: str = DEFAULT_GROUP, *,
                 error_renderer: ErrorRenderer = api_wg_errors,
                 app_errors: str = 'render') -> None:
        if app_errors not in ('render', 'keep'):
            raise ValueError(
                f"app_errors must be 'render' or 'keep', not {app_errors!r}.")
        if not callable(error_renderer):
            raise TypeError(f'error_renderer must be callable, not '
                            f'{error_renderer!r}.')
        self.registry = registry
        self._group = group
        self._render = error_renderer
        self._keep_app_errors = app_errors == 'keep'
        if conf is not None:
            register_opts(conf, group)
        limits = read_limits(registry, conf, group)
        self._lock = threading.Lock()
        self._legacy_keys = tuple(
            (name, 'HTTP_' + name.upper().replace('-', '_'))
            for name in registry.legacy_headers)
        self._legacy_environ_keys = tuple(key for _, key in self._legacy_keys)
        self._fast = self._fast_path(limits)
        if conf is not None:  # last: a reload finds the tables in place
            conf.register_mutate_hook(self._reload)

    @property
    def error_renderer(self) -> ErrorRenderer:
        """The callable writing error bodies (the OpenAPI documents read
        it)."""
        return self._render

    @property
    def limits(self) -> VersionLimits:
        """The range accepted now, after the operator's floor and cap."""
        return self._fast.limits

    def _reload(self, conf: cfg.ConfigOpts, fresh: Any) -> None:
        """Mutate hook: re-read the floor and cap after a config reload."""
        with self._lock:
            try:
                limits = read_limits(self.registry, conf, self._group)
            except ConfigurationError as exc:
                LOG.error('Keeping API versions %s to %s: the reloaded '
                          'configuration is invalid: %s', self.limits.min_version,
                          self.limits.max_version, exc)
                return
            # One assignment: a request sees the old tables or the new.
            self._fast = self._fast_path(limits)
        LOG.info('API versions now %s to %s (default %s).', limits.min_version,
                 limits.max_version, limits.default_version)

    def _fast_path(self, limits: VersionLimits) -> _FastPath:
        """Everything a request needs under ``limits``, built once per
        configuration: per accepted version, the response headers ready to
        append."""
        service = self.registry.service_type
        versions = [v for v in self.registry.versions
                    if v.matches(limits.min_version, limits.max_version)]
        planned = {}
        for legacy in (None, *self.registry.legacy_headers):
            for v in versions:
                hs = response_headers(self.registry, v, limits, legacy)
                planned[v, legacy] = _Planned(
                    hs, tuple((h.name, h.value) for h in hs),
                    frozenset(h.name.lower() for h in hs if h.mode != 'add'))
        negotiation = Negotiation(limits, self.registry)
        # Any of our names already set sends ``after`` the general way,
        # which merges them or adds ours after (same-name lines keep their
        # order: RFC 9110, 5.3).
        names = frozenset(h.name.lower() for v in versions
                          for h in planned[v, None].headers)
        initials = ''.join(sorted({c for name in names
                                   for c in (name[0], name[0].upper())}))
        appended = {v: (planned[v, None].pairs, initials, names)
                    for v in versions}
        accepted: dict[Optional[str], tuple[Version, Negotiation,
                                            _Appended]]
        accepted = {f'{service} {v}': (v, negotiation, appended[v])
                    for v in versions}
        accepted[None] = accepted[f'{service} {limits.default_version}']
        return _FastPath(limits, accepted, appended, negotiation, planned)

    def on_route(self, state: Any) -> None:
        environ = plain_getattr(state.request, 'environ')
        # Fast path: "<service> X.Y" exactly, X.Y accepted, or no header at
        # all (the default) and no legacy header either.  Anything else goes
        # the general way (legacy headers are not read when the standard
        # header names this service).
        raw = environ.get(STANDARD_ENVIRON_KEY)
        found = self._fast.accepted.get(raw)
        if raw is None:
            for key in self._legacy_environ_keys:
                if key in environ:
                    found = None
                    break
        # ``request.api_version = ...`` is stored here by WebOb (Pecan has
        # made it); write it directly, without WebOb's generic __setattr__.
        try:
            attrs = environ[ADHOC_ATTRS_KEY]
        except KeyError:
            attrs = environ[ADHOC_ATTRS_KEY] = {}
        if found is not None:
            # what after() appends, on the per-request state (_HEADERS_ATTR)
            attrs['api_version'], attrs[NEGOTIATION_ATTR], \
                state.pecan_microversions_headers = found
        else:
            self._negotiate(state, environ, attrs)
        # After the version: a 4xx carries it.  Nothing to check without a
        # content type or a query string.
        if environ.get('CONTENT_TYPE') or environ.get('QUERY_STRING'):
            check_encoding(environ)
            check_override(environ)

    def _negotiate(self, state: Any, environ: dict[str, Any],
                   attrs: dict[str, Any]) -> None:
        """``on_route``'s general way: legacy headers, other spellings,
        errors."""
        fast = self._fast  # one read: consistent after a reload
        attrs[NEGOTIATION_ATTR] = fast.negotiation
        text, legacy = requested_version_text(environ, self.registry,
                                              self._legacy_keys)
        if legacy is not None:  # noted first: a 400 echoes it too
            environ[LEGACY_KEY] = legacy
        try:
            version = resolve(text, fast.limits, self.registry)
        except RequestError as exc:
            # Raised as is, not as a WebOb error: Pecan then leaves the
            # response to on_error, which renders it once.
            environ[ERROR_KEY] = exc
            raise
        attrs['api_version'] = version
        if legacy is None:
            state.pecan_microversions_headers = fast.appended[version]

    def on_error(self, state: Any,
                 e: BaseException) -> Optional[webob.Response]:
        if isinstance(e, APIError):
            return None  # Pecan made it the response; after() renders it
        if isinstance(e, RequestError):  # from on_route or framework-free code
            # A client error needs no traceback; without it the frames it
            # holds (and the environ noting it) are freed at once, not by
            # the garbage collector.
            e.__traceback__ = None
            environ = state.request.environ
            response = environ[_RENDERED_KEY] = error_response(
                e, environ, self._render)
            return response
        # An error the application made and caught earlier is not this one.
        state.request.environ.pop(ERROR_KEY, None)
        refused = raised_client_error(state, e)  # Pecan's, the client's
        if refused is not None:
            return refused
        judged = judged_refusal(e)  # first: it restores a 405's Allow
        if self._keep_app_errors and not judged:
            return None  # the application's (or Pecan's) own handling
        if isinstance(e, (webob.exc.HTTPException, wsme.exc.ClientSideError)):
            return error_from_raised(e, state.request.method)
        LOG.exception('Unexpected error serving %s %s',
                      state.request.method, state.request.path)
        return APIError(INTERNAL_ERROR, status=500,
                        error_code='http.internal_server_error')

    def after(self, state: Any) -> None:
        response = state.response
        # Set by on_route for a request negotiated the usual way; absent
        # when it took the general way or did not run.
        appended = getattr(state, _HEADERS_ATTR, None)
        if appended is not None and getattr(
                response, RESPONSE_STATUS)[0] in '12':
            # The common case: a success, no legacy header, and none of our
            # headers (Vary included) set by the controller.  Append and go.
            # (A redirect goes the general way: a HEAD needs its page.)
            headers, initials, merged = appended
            headerlist = getattr(response, RESPONSE_HEADERLIST)
            for name, _ in headerlist:
                if name[0] in initials and name.lower() in merged:
                    break
            else:
                # First (none of their names is set): Pecan and WebOb then
                # look Content-Type up from the end without passing ours.
                headerlist[:0] = headers
                return
        self._after(state, plain_getattr(state.request, 'environ'), response)

    def _after(self, state: Any, environ: dict[str, Any],
               response: Any) -> None:
        """``after`` for errors, redirects, legacy headers, merged headers."""
        error = environ.get(ERROR_KEY)
        if isinstance(error, APIError) and error is not response and (
                not is_wsme_fault_of(error, response)):
            error = None  # caught by the application: not this response's
        if error is None and isinstance(response, APIError):
            error = response
        if environ.get(_RENDERED_KEY) is response:
            pass  # on_error's rendering, the response Pecan sends
        elif error is not None or response.status[0] not in '123':
            status = response.status_int
            if error is None and status >= 400:  # WSME's for PUT /v1/nodes
                error = answered_client_error(state, response)
                status = status if error is None else error.code
            if error is None and status >= 400 and not self._keep_app_errors:
                error = error_from_app_response(response,
                                                state.request.method)
            if error is not None and status == error.code:
                varies = response.headers.getall('Vary')
                response = state.response = error_response(
                    error, environ, self._render)
                for value in varies:  # the body changes; its Vary stays
                    response.headers.add('Vary', value)
        response = state.response = page_for_head(response, environ)
        attrs = environ.get(ADHOC_ATTRS_KEY) or _NOTHING
        negotiation = attrs.get(NEGOTIATION_ATTR)
        fast = self._fast
        limits = fast.limits if negotiation is None else negotiation.limits
        version = attrs.get('api_version') or limits.default_version
        legacy = environ.get(LEGACY_KEY)
        if negotiation is None:  # Pecan failed before on_route: as asked
            text, legacy = requested_version_text(environ, self.registry,
                                                  self._legacy_keys)
            try:
                version = resolve(text, limits, self.registry)
            except RequestError:  # the default for a bad one
                version, legacy = limits.default_version, None
        planned = (fast.planned.get((version, legacy))
                   if limits is fast.limits else None)
        if planned is None:  # negotiated before a reload
            merge_headers(response.headers, response_headers(
                self.registry, version, limits, legacy))
            return
        headerlist = response.headerlist
        for name, _ in headerlist:
            if name.lower() in planned.merged:
                merge_headers(response.headers, planned.headers)
                return
        headerlist.extend(planned.pairs)

