"""Client errors in the API Working Group's JSON errors format.

Every error the library raises in a controller is an :class:`APIError`.  It
is a WebOb HTTP exception, so Pecan turns it into a response wherever it is
raised, and it carries a numeric ``code`` so that WSME's ``wsexpose`` keeps
its status.  (Version errors, raised before routing, stay framework-free
``RequestError``: the hook's ``on_error`` answers them with
:func:`error_response`.)  The
:class:`~pecan_microversions.pecan.hook.MicroversionHook` then writes the body,
whatever the request's ``Accept`` header says::

    {"errors": [{"status": 406, "code": "microversion.not_acceptable",
                 "title": "Not Acceptable", "detail": "...",
                 "request_id": "req-...", "min_version": "1.0",
                 "max_version": "1.8"}]}

``request_id`` appears when a middleware (oslo.middleware's ``RequestId``)
put ``openstack.request_id`` in the WSGI environ.
"""

from __future__ import annotations

import http.client
import json
import logging
from collections.abc import Mapping
from typing import Any, Optional
from xml.etree import ElementTree

import pecan
import webob
import webob.exc
import webob.util
import wsme.exc

from pecan_microversions.core.errors import (
    RequestError,
    http_code,
    is_error_status,
)
from pecan_microversions.core.rendering import ErrorRenderer, api_wg_errors, report_of
from pecan_microversions.pecan.request import named_method

__all__ = ['APIError', 'ERROR_CONTENT_TYPE', 'ERROR_KEY', 'INTERNAL_ERROR',
           'error_from_app_response', 'error_from_http_exception',
           'error_from_raised', 'error_from_wsme_fault', 'error_response',
           'is_wsme_fault_of', 'page_for_head']

LOG = logging.getLogger(__name__)

ERROR_CONTENT_TYPE = 'application/json'
#: Where an error raised during a request is noted in the WSGI environ.
ERROR_KEY = 'pecan_microversions.error'
_REQUEST_ID_KEY = 'openstack.request_id'
#: What a client is told of a server-side failure.
INTERNAL_ERROR = ('The server could not complete the request; the error '
                   'is logged.')


class APIError(RequestError, webob.exc.WSGIHTTPException):
    """A :class:`~pecan_microversions.core.errors.RequestError` that Pecan
    answers as a response wherever it is raised.

    It carries a numeric ``code`` so that WSME's ``wsexpose`` keeps its
    status; the hook then writes the body in the service's error format.
    Takes the arguments of ``RequestError``.
    """

    def __init__(self, detail: str, *, status: int = 400,
                 error_code: str = 'microversion.bad_request',
                 headers: Optional[Mapping[str, str]] = None,
                 **members: Any) -> None:
        RequestError.__init__(self, detail, status=status,
                              error_code=error_code, headers=headers,
                              **members)
        webob.exc.WSGIHTTPException.__init__(
            self, detail=self.detail,
            headers=list(headers.items()) if headers else None)
        self.code = status
        _remember(self)

    @classmethod
    def from_error(cls, error: RequestError) -> APIError:
        """The same error as an :class:`APIError` (itself if it is one)."""
        if isinstance(error, APIError):
            return error
        return cls(error.detail, status=error.code,
                   error_code=error.error_code,
                   headers=error.extra_headers, **error.members)

    def to_response(self, environ: Mapping[str, Any],
                    renderer: ErrorRenderer = api_wg_errors
                    ) -> webob.Response:
        """A fresh JSON response for this error, with its extra headers.

        :param renderer: writes the body (see
            :mod:`pecan_microversions.core.rendering`).
        """
        return error_response(self, environ, renderer)


def error_response(error: RequestError, environ: Mapping[str, Any],
                   renderer: ErrorRenderer = api_wg_errors
                   ) -> webob.Response:
    """A fresh JSON response for ``error`` (an :class:`APIError` or any
    ``RequestError``), with its extra headers.

    :param renderer: writes the body (see
        :mod:`pecan_microversions.core.rendering`).
    """
    body = json.dumps(renderer(report_of(
        error, environ.get(_REQUEST_ID_KEY)))).encode('utf-8')
    status: Any
    if isinstance(error, APIError):  # its headers may have been changed
        status, extra = error.status, error.headers
    elif webob.util.status_reasons.get(error.code) == error.title:
        status, extra = error.code, error.extra_headers  # WebOb's line
    else:
        status = f'{error.code} {error.title}'
        extra = error.extra_headers
    response = webob.Response(body=body, status=status,
                              content_type=ERROR_CONTENT_TYPE, charset=None)
    if extra:
        response.headerlist.extend(
            (name, value) for name, value in extra.items()
            if name.lower() not in ('content-type', 'content-length'))
    return response


def _remember(error: APIError) -> None:
    """Note the error on the current request, for WSME's code path.

    ``wsexpose`` catches exceptions and writes its own fault body; the hook
    finds the error here and writes the JSON errors body instead.
    """
    try:
        pecan.request.environ[ERROR_KEY] = error
    except AttributeError:  # outside a request, or use_context_locals=False
        pass


def error_from_wsme_fault(response: webob.Response) -> Optional[APIError]:
    """Our error for a WSME fault body (``faultcode``/``faultstring``).

    ``wsexpose`` answers invalid input and unexpected exceptions in its own
    format; services using this library answer every error in one format.
    A server-side fault's text is logged by WSME and not shown to clients.
    """
    text = _fault_text(response)
    if text is None:
        return None
    status = response.status_int
    detail = INTERNAL_ERROR if status >= 500 else text
    return APIError(detail, status=status, error_code=http_code(status))


def is_wsme_fault_of(error: APIError | wsme.exc.ClientSideError,
                     response: webob.Response) -> bool:
    """Whether ``response`` is the fault ``wsexpose`` wrote for ``error``
    (its status and text), not one for another error raised after the
    application caught ``error``."""
    if response.status_int != error.code:
        return False
    text = _fault_text(response)
    if text is None:
        return False
    # Compared word by word (XML reads a CR as a newline); WSME writes the
    # error's own ``faultstring`` where it has one.
    written = getattr(error, 'faultstring', None)
    return text.split() == str(error if written is None else written).split()


def _fault_text(response: webob.Response) -> Optional[str]:
    """A WSME fault body's ``faultstring`` (None: no fault body)."""
    fault: Any = None
    if response.content_type == 'application/json':
        try:
            fault = json.loads(response.body)
        except ValueError:
            return None
    elif response.content_type in ('application/xml', 'text/xml'):
        # What wsexpose answers to ``Accept: application/xml``:
        # <error><faultcode/><faultstring/><debuginfo/></error>.
        try:
            root = ElementTree.fromstring(response.body)
        except ElementTree.ParseError:
            return None
        if root.tag == 'error' and root.find('faultstring') is not None:
            fault = {'faultstring': root.findtext('faultstring')}
    if not isinstance(fault, dict) or 'faultstring' not in fault:
        return None
    return str(fault['faultstring'])


def error_from_app_response(response: webob.Response,
                            method: str = '') -> Optional[APIError]:
    """Our error for an error response the application returned rather than
    raised: a WebOb HTTP error with WebOb's own page (``return
    webob.exc.HTTPConflict()``) or a WSME fault body; ``None`` for a body
    of the application's own, which is kept, but a 5xx's, whose text is
    hidden (logged, :data:`INTERNAL_ERROR` sent).

    :param method: the request's HTTP method, named in a 405's detail.
    """
    if isinstance(response, webob.exc.HTTPException) and not (
            response.has_body):  # WebOb writes its page when it is sent
        return error_from_http_exception(response, method)
    fault = error_from_wsme_fault(response)
    return _own_body(response) if fault is None else fault


def error_from_raised(error: Exception, method: str = ''
                      ) -> Optional[APIError]:
    """Our error for a WebOb HTTP error (``pecan.abort`` included) or a
    WSME ``ClientSideError`` the application raised; ``None`` for a
    redirect, and for a 4xx carrying a body of the application's own
    (``HTTPConflict(json_body=...)``), which Pecan then sends as it would
    a returned one: it is kept, as a returned one is
    (:func:`error_from_app_response`); a 5xx's text is always hidden.  A
    ``ClientSideError`` whose status is no HTTP error status
    (``status_code=200``) is the service's bug: a 500 with the generic
    sentence, logged with its traceback.

    Pecan writes a JSON page of its own over a raised HTTP error's body,
    before any hook runs, when the client prefers JSON (``Accept:
    application/json``): whatever body the application gave it is gone,
    and the error is rendered like one without a body.

    :param method: the request's HTTP method, named in a 405's detail.
    """
    if isinstance(error, wsme.exc.ClientSideError):  # from a pecan.expose
        if not is_error_status(error.code):  # the service's bug: a 500
            LOG.error('Answering 500 for %r raised with status %r, not an '
                      'HTTP error status.', error, error.code,
                      exc_info=error)
            return APIError(INTERNAL_ERROR, status=500,
                            error_code=http_code(500))
        return _server_text_hidden(error.faultstring, error.code)
    response: webob.Response = error  # type: ignore[assignment]
    status = response.status_int
    if status < 400:
        return None
    if response.has_body and not _pecan_page(response):
        return _own_body(response)
    return error_from_http_exception(response, method)


def _own_body(response: webob.Response) -> Optional[APIError]:
    """``None`` for an error body of the application's own, which is kept;
    but a 5xx's, whose text is not the client's business: hidden."""
    if response.status_int < 500:
        return None
    return _server_text_hidden(repr(response.body[:500]),
                               response.status_int, _kept_headers(response))


def _pecan_page(response: webob.Response) -> bool:
    """Whether ``response``, a raised HTTP error, holds the JSON page Pecan
    writes over it: ``{"code": ..., "title": ..., "description": ...}``."""
    if response.content_type != 'application/json':
        return False
    try:
        page = json.loads(response.body)
    except ValueError:
        return False
    return page == {'code': response.status_int,
                    'title': getattr(response, 'title', None),
                    'description': getattr(response, 'detail', None)}


def error_from_http_exception(exc: webob.exc.HTTPException,
                         method: str = '') -> APIError:
    """Wrap one of Pecan's or WebOb's HTTP errors (404, 405, ...) as ours.

    A 5xx's text is replaced by :data:`INTERNAL_ERROR` (and logged).

    :param method: the request's HTTP method, named in a 405's detail: a
        ``HEAD`` is named ``GET`` unless ``Allow`` lists ``GET`` (its
        refusal is then the ``HEAD``'s own), so that it reads as the
        ``GET``'s refusal, to the byte (see
        :func:`~pecan_microversions.pecan.request.named_method`).
    """
    response: webob.Response = exc  # type: ignore[assignment]
    status = response.status_int
    detail = getattr(exc, 'detail', None)
    if not detail and status == 405:
        allowed = {m.strip().upper()
                   for m in response.headers.get('Allow', '').split(',')}
        named = named_method(method, head_as_get='GET' not in allowed)
        detail = f'The method {named} is not allowed for this URL.'
    elif not detail:
        detail = getattr(exc, 'explanation', '') or http.client.responses.get(
            status, '')
    return _server_text_hidden(str(detail), status, _kept_headers(response))


def _kept_headers(response: webob.Response) -> dict[str, str]:
    """The headers of the application's error that ours keeps."""
    return {name: value for name, value in response.headers.items()
            if name.lower() in ('allow', 'location', 'retry-after',
                                'www-authenticate')}


def _server_text_hidden(detail: str, status: int,
                        headers: Optional[Mapping[str, str]] = None
                        ) -> APIError:
    """The application's error as ours, a 5xx's text (not the client's
    business) logged and replaced by :data:`INTERNAL_ERROR`."""
    if status >= 500:
        LOG.warning('Answering %d with the generic sentence instead of: %s',
                    status, detail)
        detail = INTERNAL_ERROR
    return APIError(detail, status=status, error_code=http_code(status),
                    headers=headers)


def page_for_head(response: webob.Response,
                  environ: Mapping[str, Any]) -> webob.Response:
    """``response`` as a ``HEAD`` request must get it: the ``GET``'s
    status and headers, ``Content-Length`` included, without a body.

    WebOb writes the page of an HTTP error (or redirect) without a body
    when it sends it, but not for a ``HEAD``: it then sends
    ``Content-Length: 0`` and another ``Content-Type`` than the ``GET``
    gets.  Such a response is replaced by the one a ``GET`` gets, page
    written; WebOb sends it to the ``HEAD`` without the body.  Any other
    response is returned as it is.
    """
    if (environ.get('REQUEST_METHOD') != 'HEAD'
            or not isinstance(response, webob.exc.WSGIHTTPException)
            or response.has_body or response.empty_body):
        return response
    as_get = webob.Request(dict(environ, REQUEST_METHOD='GET'))
    return as_get.get_response(response)  # type: ignore[no-any-return]
