"""JSON responses of ``versioned_wsexpose`` methods, by compiled views.

When Pecan chose JSON for the response, :func:`render_json` writes the
result with the (type, version) view of :mod:`pecan_microversions.wsme.views`
(the bytes WSME's JSON renderer would write, after response filtering);
other content types (XML) keep going through WSME.
"""

from __future__ import annotations

from typing import Any

from pecan_microversions.compat import response_content_type
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.views import encode

__all__ = ['JSON_CONTENT_TYPE', 'render_json']

#: The content type WSME's JSON renderer answers with.
JSON_CONTENT_TYPE = 'application/json'


def render_json(result: Any, datatype: Any, version: Version,
                request: Any, response: Any) -> bool:
    """Write ``result`` as ``response``'s JSON body, if Pecan chose JSON.

    :returns: whether it did: ``False`` when the response is not JSON and
        WSME must render it.
    """
    if response_content_type(request) != JSON_CONTENT_TYPE:
        return False
    response.content_type = JSON_CONTENT_TYPE  # WebOb adds no charset
    response.body = encode(result, datatype, version).encode('utf-8')
    return True
