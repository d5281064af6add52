"""The ``error_message`` envelope Ironic- and Watcher-style services put
around error bodies, and that their clients unwrap.

python-ironicclient and python-watcherclient read an error's text from
``{"error_message": "<JSON text of a WSME fault>"}``: a JSON string holding
``faultstring`` (the message shown to the user) and ``debuginfo``.  The
services write it with a WSGI middleware of their own; this one does the
same for the examples.  It is the service's own code, outside the library:
the library's errors reach it as WSME faults
(:func:`~pecan_microversions.core.rendering.wsme_fault`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ['ErrorMessageEnvelope']

_JSON = 'application/json'
#: The error bodies wrapped: JSON, and the text pages of Pecan's and WebOb's
#: routing errors (an XML fault a client asked for goes out as it is).
_WRAPPED = frozenset([_JSON, 'text/plain', 'text/html', ''])


class ErrorMessageEnvelope:
    """WSGI middleware: a 4xx/5xx JSON body ``B`` becomes
    ``{"error_message": "<B as JSON text>"}``, and a text page (a routing
    error Pecan wrote) a WSME fault there; an XML fault, and version
    headers and every other header, pass through."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def describe_error(self, schema: dict[str, Any]) -> dict[str, Any]:
        """The JSON Schema of the error bodies sent, from that of the
        bodies wrapped (read by the OpenAPI documents)."""
        return {'type': 'object', 'required': ['error_message'],
                'additionalProperties': False,
                'description': 'An error; error_message holds the JSON text '
                               'of the error body described by its '
                               'contentSchema.',
                'properties': {'error_message': {
                    'type': 'string', 'contentMediaType': _JSON,
                    'contentSchema': schema}}}

    def __call__(self, environ: dict[str, Any],
                 start_response: Callable[..., Any]) -> Iterable[bytes]:
        seen: dict[str, Any] = {}

        def remember(status: str, headers: list[tuple[str, str]],
                     exc_info: Any = None) -> Callable[[bytes], Any]:
            seen.update(status=status, headers=headers, exc_info=exc_info)
            return lambda data: None  # bodies come back through the iterable

        chunks = self.app(environ, remember)
        try:
            body = b''.join(chunks)
        finally:
            close = getattr(chunks, 'close', None)
            if close is not None:
                close()
        status: str = seen['status']
        headers: list[tuple[str, str]] = seen['headers']
        content_type = next((v for n, v in headers
                             if n.lower() == 'content-type'), '')
        media_type = content_type.split(';')[0].strip().lower()
        if status[0] in '45' and media_type in _WRAPPED:
            headers = [(n, v) for n, v in headers
                       if n.lower() not in ('content-length', 'content-type')]
            headers.append(('Content-Type', _JSON))
            if environ.get('REQUEST_METHOD') == 'HEAD':
                # No body to wrap: the length a GET would send is unknown.
                body = b''
            else:
                text = body.decode('utf-8', 'replace')
                if media_type != _JSON:
                    text = _fault(status, text)  # Pecan's or WebOb's page
                body = json.dumps({'error_message': text}).encode('utf-8')
                headers.append(('Content-Length', str(len(body))))
        start_response(status, headers, seen['exc_info'])
        return [body]


def _fault(status: str, text: str) -> str:
    """A WSME fault's JSON text for an error page that is not JSON (a
    routing error Pecan wrote as text): its explanation, below the status
    line, as ``faultstring``."""
    lines = [line.strip() for line in text.splitlines()[1:] if line.strip()]
    return json.dumps({
        'faultcode': 'Client' if status[0] == '4' else 'Server',
        'faultstring': ' '.join(lines) or status.partition(' ')[2],
        'debuginfo': None})
