"""Request bodies: the formats WSME reads, and whether there is a body.

Shared by the checks before routing (:mod:`pecan_microversions.pecan.
encoding`) and those of a method's arguments
(:mod:`pecan_microversions.pecan.arguments`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

__all__ = ['FORMATS', 'JSON_PATCH', 'body_length', 'may_have_body',
           'media_format', 'media_type_of']

#: The request body formats WSME reads, by the name
#: ``VersionRegistry(request_formats=...)`` uses, and their media types.
FORMATS: Mapping[str, frozenset[str]] = {
    'json': frozenset(['application/json', 'text/javascript',
                       'application/javascript']),
    'form': frozenset(['application/x-www-form-urlencoded']),
    'xml': frozenset(['text/xml']),
}
_FORMAT_OF = {t: name for name, types in FORMATS.items() for t in types}
#: The media type of a JSON patch document (RFC 6902), read as JSON for
#: a method that takes one (``versioned_wsexpose(..., patch_of=...)``).
JSON_PATCH = 'application/json-patch+json'


def media_format(media_type: str, *, patch: bool = False) -> Optional[str]:
    """``'json'``, ``'form'`` or ``'xml'`` for a body WSME reads, else None.

    :param patch: the body is a JSON patch document: :data:`JSON_PATCH` is
        ``'json'`` too.
    """
    media_type = media_type.strip().lower()  # 'application/json ;...'
    if patch and media_type == JSON_PATCH:
        return 'json'
    return _FORMAT_OF.get(media_type)


def may_have_body(environ: Mapping[str, Any]) -> bool:
    """Whether the request can have a body: ``False`` only where WebOb's
    ``request.body`` is certainly empty (no or a zero ``Content-Length``,
    and the input not marked readable without one), read without it."""
    length = environ.get('CONTENT_LENGTH')
    if length is None or length == '':
        return bool(environ.get('wsgi.input_terminated',
                                environ.get('webob.is_body_readable', False)))
    return length != '0'


def media_type_of(environ: Mapping[str, Any]) -> str:
    """WebOb's ``request.content_type``, read from the environ: the
    ``Content-Type`` header up to its first ``;`` (``''`` for none)."""
    return environ.get('CONTENT_TYPE', '').split(';', 1)[0]  # type: ignore[no-any-return]


def body_length(environ: Mapping[str, Any]) -> Optional[int]:
    """WebOb's ``request.content_length``, read from the environ: the
    ``Content-Length`` as a number, ``None`` for none or a malformed one."""
    length = environ.get('CONTENT_LENGTH')
    if not length:
        return None
    try:
        return int(length)
    except ValueError:
        return None
