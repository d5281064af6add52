"""Error body formats: what an error response's JSON body looks like.

The hook writes every error it renders with one *error renderer*: a callable
that takes an :class:`ErrorReport` and returns the JSON-serialisable body.
Two are built in:

* :func:`api_wg_errors` (the default), the API Working Group's format::

    {"errors": [{"status": 406, "code": "microversion.not_acceptable",
                 "title": "Not Acceptable", "detail": "...",
                 "min_version": "1.0", "max_version": "1.8"}]}

* :func:`wsme_fault`, the body WSME's ``wsexpose`` writes, for services whose
  clients read it (Watcher, Ironic and other WSME-era services)::

    {"faultcode": "Client", "faultstring": "...", "debuginfo": null}

A service with a format of its own passes any callable of the same shape:
``MicroversionHook(REGISTRY, error_renderer=my_renderer)``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Protocol

from pecan_microversions.core.errors import RequestError

__all__ = ['ErrorRenderer', 'ErrorReport', 'api_wg_errors', 'report_of',
           'wsme_fault']


class ErrorReport(NamedTuple):
    """One error, as every renderer sees it.

    ``status`` is the HTTP status, ``code`` the machine-readable dotted name
    (``microversion.not_acceptable``), ``title`` the status's reason phrase,
    ``detail`` the sentence for the client; ``request_id`` is set when a
    middleware gave the request one; ``members`` holds the error's extra
    members (``min_version`` and ``max_version`` for version errors).
    """

    status: int
    code: str
    title: str
    detail: str
    request_id: Optional[str]
    members: dict[str, Any]


def report_of(error: RequestError,
              request_id: Optional[str] = None) -> ErrorReport:
    """The :class:`ErrorReport` of a library error."""
    return ErrorReport(error.code, error.error_code, error.title,
                       str(error.detail), request_id, dict(error.members))


class ErrorRenderer(Protocol):
    """A callable turning an :class:`ErrorReport` into a JSON body."""

    def __call__(self, report: ErrorReport) -> Any: ...


def api_wg_errors(report: ErrorReport) -> dict[str, Any]:
    """The API Working Group's ``{"errors": [{...}]}`` body (the default)."""
    error: dict[str, Any] = {
        'status': report.status,
        'code': report.code,
        'title': report.title,
        'detail': report.detail,
    }
    if report.request_id:
        error['request_id'] = report.request_id
    error.update(report.members)
    return {'errors': [error]}


def wsme_fault(report: ErrorReport) -> dict[str, Any]:
    """WSME's fault body: ``faultcode`` (``Client`` for a 4xx, ``Server``
    for a 5xx), ``faultstring`` (the detail) and ``debuginfo`` (null)."""
    return {
        'faultcode': 'Client' if report.status < 500 else 'Server',
        'faultstring': report.detail,
        'debuginfo': None,
    }
