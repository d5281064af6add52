"""The field functions at the current request's version.

Each takes the same arguments as its framework-free counterpart in
:mod:`pecan_microversions.wsme`, with ``version`` defaulting to
``pecan.request``'s, and raises :class:`~pecan_microversions.pecan.errors.
APIError`, which Pecan answers wherever it is raised.  Given a plain-dict
:class:`~pecan_microversions.core.schema.Schema` instead of a WSME type,
each calls the schema's method of the same name (``response_json``: its
``filter``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Optional

from pecan.jsonify import encode as pecan_json

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.schema import Schema
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.request import get_version
from pecan_microversions.wsme import checking, conversion, filtering, patching
from pecan_microversions.wsme.views import encode, view

__all__ = ['apply_patch', 'check_body', 'check_patch', 'filter_response',
           'patch_newest', 'response_json', 'response_text']


def filter_response(obj: Any, version: Optional[Version] = None) -> Any:
    """Unset, in place, what ``version`` does not have; return ``obj``.

    :param obj: a WSME object, or a list, tuple or dict of them.
    :param version: defaults to the current request's version.
    """
    return filtering.filter_response(
        obj, get_version() if version is None else version)


def check_body(datatype: Any, data: Any,
               version: Optional[Version] = None) -> Any:
    """Reject fields of ``data`` (parsed JSON) that ``version`` lacks.

    See :func:`pecan_microversions.wsme.checking.check_body`; returns
    ``None``, or for a :class:`~pecan_microversions.core.schema.Schema` the
    body ready for the service (:meth:`~pecan_microversions.core.schema.
    Schema.check_body`).
    """
    return _at(version, 'check_body', checking.check_body, datatype, data)


def check_patch(datatype: Any, patch: Any,
                version: Optional[Version] = None) -> list[dict[str, Any]]:
    """Check an RFC 6902 patch of a ``datatype`` resource; return it as
    dicts.  See :func:`pecan_microversions.wsme.checking.check_patch`."""
    return _at(version, 'check_patch', checking.check_patch, datatype,
               patch)


def apply_patch(datatype: Any, document: Mapping[str, Any], patch: Any,
                version: Optional[Version] = None) -> dict[str, Any]:
    """Check ``patch``, apply it to a copy of ``document``, check its effect.
    See :func:`pecan_microversions.wsme.patching.apply_patch`."""
    return _at(version, 'apply_patch', patching.apply_patch, datatype,
               document, patch)


def patch_newest(datatype: Any, newest: Mapping[str, Any], patch: Any,
                 version: Optional[Version] = None) -> dict[str, Any]:
    """Apply a JSON patch sent at ``version`` to the resource's newest JSON,
    keeping every field the version cannot see; return the patched newest
    JSON.  See :func:`pecan_microversions.wsme.conversion.patch_newest`."""
    return _at(version, 'patch_newest', conversion.patch_newest, datatype,
               newest, patch)


def response_json(datatype: Any, value: Any,
                  version: Optional[Version] = None) -> Any:
    """The JSON ``version`` shows of ``value``, a WSME object (or a list or
    dict of them) holding the newest representation: hidden fields left
    out, old names, values and types, computed fields.  For methods exposed
    with ``pecan.expose('json')``; ``versioned_wsexpose`` does it for you."""
    version = get_version() if version is None else version
    if isinstance(datatype, Schema):
        return datatype.filter(value, version)
    return view(datatype, version)(value)


def response_text(datatype: Any, value: Any,
                  version: Optional[Version] = None) -> str:
    """:func:`response_json` as JSON text, the bytes ``versioned_wsexpose``
    would send (for a :class:`~pecan_microversions.core.schema.Schema`,
    ``pecan.expose('json')``'s), for methods exposed with
    ``pecan.expose(content_type='application/json')``: Pecan sends a string
    as it is, without a renderer walking the data again."""
    version = get_version() if version is None else version
    if isinstance(datatype, Schema):
        return pecan_json(datatype.filter(value, version))
    return encode(value, datatype, version)


def _at(version: Optional[Version], method: str,
        function: Callable[..., Any], datatype: Any, *args: Any) -> Any:
    """``function(datatype, *args, version)``, or the :class:`Schema`'s
    ``method``, at ``version`` (default: the request's); a refusal as an
    :class:`APIError`."""
    version = get_version() if version is None else version
    try:
        if isinstance(datatype, Schema):
            return getattr(datatype, method)(*args, version)
        return function(datatype, *args, version)
    except RequestError as exc:
        raise APIError.from_error(exc) from None
