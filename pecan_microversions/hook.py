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

import json
import logging
import threading
from typing import Any, NamedTuple, Optional

import webob.exc
import wsme.exc
from oslo_config import cfg
from pecan.hooks import PecanHook

from pecan_microversions.config import (
    DEFAULT_GROUP,
    read_limits,
    register_opts,
)
from pecan_microversions.deprecation import (
    deprecation_headers,
)
from pecan_microversions.errors import (
    _ERROR_KEY,
    _INTERNAL_ERROR,
    APIError,
    _from_http_exception,
    _from_wsme_fault,
    _http_code,
)
from pecan_microversions.negotiation import (
    _STANDARD_ENVIRON_KEY,
    ConfigurationError,
    VersionLimits,
    requested_version_text,
    resolve,
)
from pecan_microversions.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.request import (
    _ADHOC_KEY,
    _LEGACY_KEY,
    _NEGOTIATION_ATTR,
    _Negotiation,
)
from pecan_microversions.version import Version

__all__ = ['MicroversionHook']

LOG = logging.getLogger(__name__)
_MIN_HEADER = 'OpenStack-API-Minimum-Version'
_MAX_HEADER = 'OpenStack-API-Maximum-Version'


class _FastPath(NamedTuple):
    limits: VersionLimits
    #: the usual header value ("<service> X.Y") of each accepted version,
    #: and None (no header) for the default
    accepted: dict[Optional[str], Version]
    #: each accepted version's negotiation, response headers ready
    negotiated: dict[Version, _Negotiation]
    #: the negotiation for requests whose headers are worked out later
    general: _Negotiation


_NOTHING: dict[str, Any] = {}  # read-only stand-in for a missing dict
#: Headers a controller may have set that ``after`` must merge, not append.
_MERGED = frozenset(['vary', STANDARD_HEADER.lower(), _MIN_HEADER.lower(),
                     _MAX_HEADER.lower()])


class MicroversionHook(PecanHook):
    """Negotiates each request's microversion and labels each response.

    Before routing it reads ``OpenStack-API-Version`` (then the registry's
    legacy headers), sets ``pecan.request.api_version``, and answers 400 for
    a malformed version or 406 for one outside the accepted range.  After
    every response, errors included, it sets ``OpenStack-API-Version``, the
    minimum and maximum headers, and appends ``OpenStack-API-Version`` to
    ``Vary``.  Error responses get the JSON errors body (see
    :mod:`pecan_microversions.errors`).

    :param registry: the service's :class:`VersionRegistry`.
    :param conf: an oslo.config ``ConfigOpts`` holding the operator options
        (registered here if the application did not); ``None`` serves the
        registry's full range.
    :param group: the option group.
    :raises ~pecan_microversions.negotiation.ConfigurationError: the
        configured versions do not fit the registry.
    """

    priority = 10  # on_route early, after (which runs in reverse) late

    def __init__(self, registry: VersionRegistry,
                 conf: Optional[cfg.ConfigOpts] = None,
                 group: str = DEFAULT_GROUP) -> None:
        self.registry = registry
        self._group = group
        if conf is not None:
            register_opts(conf, group)
        limits = read_limits(registry, conf, group)
        self._lock = threading.Lock()
        self._legacy_keys = tuple(
            (name, 'HTTP_' + name.upper().replace('-', '_'))
            for name in registry.legacy_headers)
        self._legacy_environ_keys = tuple(key for _, key in self._legacy_keys)
        # Deprecation, Sunset and Link values per deprecated version.
        self._deprecation_headers = deprecation_headers(registry)
        self._fast = self._fast_path(limits)
        if conf is not None:  # last: a reload finds the tables in place
            conf.register_mutate_hook(self._reload)

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
                          'configuration is invalid: %s', self.limits.minimum,
                          self.limits.maximum, exc)
                return
            # One assignment: a request sees the old tables or the new.
            self._fast = self._fast_path(limits)
        LOG.info('API versions now %s to %s (default %s).', limits.minimum,
                 limits.maximum, limits.default)

    def _fast_path(self, limits: VersionLimits) -> _FastPath:
        """Everything a request needs under ``limits``, built once per
        configuration: per accepted version, the response headers (version,
        range, ``Vary``, deprecation) ready to append."""
        service = self.registry.service_type
        versions = [v for v in self.registry.versions
                    if v.matches(limits.minimum, limits.maximum)]
        accepted: dict[Optional[str], Version] = {
            f'{service} {v}': v for v in versions}
        accepted[None] = limits.default  # no header
        return _FastPath(
            limits,
            accepted,
            {v: _Negotiation(limits, self.registry,
                             self._pairs(v, limits)
                             + tuple(self._deprecation_headers.get(v, ())))
             for v in versions},
            _Negotiation(limits, self.registry, None))

    def on_route(self, state: Any) -> None:
        environ = state.request.environ
        # ``request.api_version = ...`` is stored here by WebOb; write it
        # directly, without WebOb's generic __setattr__.
        attrs = environ.get(_ADHOC_KEY)
        if attrs is None:
            attrs = environ[_ADHOC_KEY] = {}
        fast = self._fast  # one read: consistent after a reload
        # Fast path: "<service> X.Y" exactly, X.Y accepted, or no header at
        # all (the default) and no legacy header either.  Anything else goes
        # the general way (legacy headers are not read when the standard
        # header names this service).
        raw = environ.get(_STANDARD_ENVIRON_KEY)
        version = fast.accepted.get(raw)
        if raw is None:
            for key in self._legacy_environ_keys:
                if key in environ:
                    version = None
                    break
        if version is not None:
            attrs[_NEGOTIATION_ATTR] = fast.negotiated[version]
        else:
            attrs[_NEGOTIATION_ATTR] = fast.general  # in place if we raise
            text, legacy = requested_version_text(environ, self.registry,
                                                  self._legacy_keys)
            if legacy is not None:  # noted first: a 400 echoes it too
                environ[_LEGACY_KEY] = legacy
            version = resolve(text, fast.limits, self.registry)
            if legacy is None:
                attrs[_NEGOTIATION_ATTR] = fast.negotiated[version]
        attrs['api_version'] = version

    def on_error(self, state: Any, e: BaseException) -> Optional[APIError]:
        if isinstance(e, APIError):
            return None  # Pecan made it the response; after() renders it
        if isinstance(e, webob.exc.HTTPException):
            if getattr(e, 'code', 0) >= 400:
                return _from_http_exception(e, state.request.method)
            return None
        if isinstance(e, wsme.exc.ClientSideError):  # from a pecan.expose
            return APIError(e.faultstring, status=e.code,
                            error_code=_http_code(e.code))
        if isinstance(e, RecursionError) and _json_too_deep(state.request):
            # Pecan parses JSON bodies while routing, before any controller.
            return APIError('The JSON body is nested too deeply.',
                            error_code='microversion.body_too_deep')
        LOG.exception('Unexpected error serving %s %s',
                      state.request.method, state.request.path)
        return APIError(_INTERNAL_ERROR, status=500,
                        error_code='http.internal_server_error')

    def after(self, state: Any) -> None:
        environ = state.request.environ
        response = state.response
        attrs = environ.get(_ADHOC_KEY) or _NOTHING
        negotiation = attrs.get(_NEGOTIATION_ATTR)
        headers = None if negotiation is None else negotiation.headers
        if headers is not None and response.status[0] in '123':
            # The common case: a success, no legacy header, and none of our
            # headers or Vary set by the controller.  Append and go.
            headerlist = response.headerlist
            for name, _ in headerlist:
                if name[0] in 'OoVv' and name.lower() in _MERGED:
                    break
            else:
                headerlist.extend(headers)
                return
        self._after(state, environ, response)

    def _after(self, state: Any, environ: dict[str, Any],
               response: Any) -> None:
        """``after`` for errors, legacy headers and headers to merge."""
        error = environ.get(_ERROR_KEY)
        if error is None and isinstance(response, APIError):
            error = response
        if error is not None or response.status[0] not in '123':
            status = response.status_int
            if error is None and status >= 400:
                error = _from_wsme_fault(response)
            if error is not None and status == error.code:
                response = state.response = error.to_response(environ)
        attrs = environ.get(_ADHOC_KEY) or _NOTHING
        negotiation = attrs.get(_NEGOTIATION_ATTR)
        limits = self.limits if negotiation is None else negotiation.limits
        version = attrs.get('api_version') or limits.default
        deprecated = self._deprecation_headers.get(version)
        if deprecated is not None:
            response.headerlist.extend(deprecated)
        (_, standard), (_, minimum), (_, maximum), _ = self._pairs(
            version, limits)
        headers = response.headers
        headers[STANDARD_HEADER] = standard
        headers[_MIN_HEADER] = minimum
        headers[_MAX_HEADER] = maximum
        vary = [STANDARD_HEADER]
        legacy = environ.get(_LEGACY_KEY)
        if legacy is not None:
            headers[legacy] = str(version)
            vary.append(legacy)
        _append_vary(headers, vary)

    def _pairs(self, version: Any, limits: VersionLimits
               ) -> tuple[tuple[str, str], ...]:
        """The version headers and ``Vary`` for ``version`` under ``limits``.

        The minimum and maximum are the range this request was judged by,
        even if a reload came since.
        """
        return ((STANDARD_HEADER, f'{self.registry.service_type} {version}'),
                (_MIN_HEADER, str(limits.minimum)),
                (_MAX_HEADER, str(limits.maximum)),
                ('Vary', STANDARD_HEADER))


def _json_too_deep(request: Any) -> bool:
    """Whether the request's body is JSON too deep for the parser."""
    try:
        json.loads(request.body)
    except RecursionError:
        return True
    except ValueError:
        return False
    return False


def _append_vary(headers: Any, names: list[str]) -> None:
    current = headers.get('Vary')
    if not current:
        headers['Vary'] = ', '.join(names)
        return
    present = {token.strip().lower() for token in current.split(',')}
    if '*' in present:
        return
    missing = [n for n in names if n.lower() not in present]
    if missing:
        headers['Vary'] = ', '.join([current] + missing)
