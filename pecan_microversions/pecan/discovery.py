"""Version discovery documents, as keystoneauth1 and openstacksdk read them.

Serve :func:`root_document` at ``GET /`` and :func:`version_document` at
``GET /v1/``.  Both report the range in force for the request (after the
operator's floor and cap), so clients never negotiate a version the
deployment refuses.
"""

from __future__ import annotations

from typing import Any, Optional

from pecan_microversions.core.deprecation import (
    discovery_entries,
    fully_deprecated,
)
from pecan_microversions.pecan.request import (
    current_request,
    get_limits,
    negotiation_of,
)

__all__ = ['root_document', 'version_document', 'version_object']


def version_object(request: Optional[Any] = None, *, id: str = 'v1',
                   path: Optional[str] = None,
                   status: str = 'CURRENT') -> dict[str, Any]:
    """One version entry: ``id``, ``status``, ``min_version``,
    ``max_version``, ``version`` (the maximum) and a ``self`` link.

    :param request: the current request (``pecan.request`` if omitted).
    :param id: the major version's id, also its URL path segment.
    :param path: the path of the versioned endpoint below the application
        URL; ``"<id>/"`` by default.

    When the registry deprecates versions in the accepted range, the object
    also lists them under ``deprecated_versions`` (``min_version``,
    ``max_version``, ``deprecation``, ``sunset``, ``links``); a ``CURRENT``
    status becomes ``DEPRECATED`` once every accepted version is deprecated.
    """
    request = current_request(request)
    limits = get_limits(request)
    href = request.application_url.rstrip('/') + '/' + (
        f'{id}/' if path is None else path.lstrip('/'))
    document: dict[str, Any] = {
        'id': id,
        'status': status,
        'min_version': str(limits.min_version),
        'max_version': str(limits.max_version),
        'version': str(limits.max_version),
        'links': [{'rel': 'self', 'href': href}],
    }
    registry = negotiation_of(request).registry  # type: ignore[union-attr]
    deprecations = registry.deprecations
    if deprecations:
        entries = discovery_entries(deprecations, limits)
        if entries:
            document['deprecated_versions'] = entries
        if status == 'CURRENT' and fully_deprecated(
                deprecations, registry.versions, limits):
            document['status'] = 'DEPRECATED'
    return document


def root_document(request: Optional[Any] = None, *, id: str = 'v1',
                  name: Optional[str] = None,
                  description: Optional[str] = None) -> dict[str, Any]:
    """The root document: ``{"versions": [...], "default_version": {...}}``,
    plus ``name`` and ``description`` when given."""
    current = version_object(request, id=id)
    document: dict[str, Any] = {}
    if name is not None:
        document['name'] = name
    if description is not None:
        document['description'] = description
    document['versions'] = [current]
    document['default_version'] = current
    return document


def version_document(request: Optional[Any] = None, *, id: str = 'v1',
                     links: Optional[list[dict[str, str]]] = None,
                     **members: Any) -> dict[str, Any]:
    """The versioned document ``{"version": {...}}`` for ``GET /<id>/``.

    :param links: further links (``{"rel": ..., "href": ...}``) after the
        ``self`` link, such as the endpoint's resource collections.
    :param members: further members of the version object.
    """
    current = version_object(request, id=id)
    current['links'].extend(links or ())
    current.update(members)
    return {'version': current}
