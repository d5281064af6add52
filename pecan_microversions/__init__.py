"""OpenStack-style API microversions for Pecan/WSME services.

The public API, by task (``doc/source/api.rst`` documents each name):

* declare the history: :class:`VersionRegistry`, :class:`Deprecation`,
  :class:`Version`, :class:`VersionRange`;
* negotiate and label responses: :class:`MicroversionHook`,
  :func:`get_version`, :func:`get_limits`, :func:`register_opts`;
* version WSME fields: :func:`versioned`, :func:`versioned_resource`,
  :func:`versioned_wsexpose`, :func:`visible_fields`,
  :func:`filter_response`, :func:`check_body`, :func:`check_patch`,
  :func:`apply_patch`;
* convert between versions (old names, values, types; computed fields):
  :class:`ValueMap`, :class:`Computed`, :class:`Renamed`, :class:`Retype`,
  :func:`patch_newest`, :func:`response_json`,
  :func:`response_text`;
* version query parameters: :func:`query_params`, :func:`param`;
* version methods and sub-resources: :func:`api_version`,
  :class:`ResourceRange`, :func:`versioned_subresource`,
  :class:`VersionedRestController`, :func:`method_changes`;
* answer errors and discovery: :class:`APIError`, :func:`root_document`,
  :func:`version_document`, :func:`api_wg_errors` and :func:`wsme_fault`
  (error formats);
* version plain-dict resources: :class:`Schema`, :func:`field`.

The package is layered (``doc/source/architecture.rst``): ``core`` is
framework-free, ``wsme`` and ``pecan`` adapt it, ``tools`` sit on top.
"""

from pecan_microversions import deprecated_modules
from pecan_microversions.core.changes import method_changes
from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.core.errors import (
    ConfigurationError,
    InvalidVersion,
    MicroversionError,
    RegistryError,
    RequestError,
)
from pecan_microversions.core.negotiation import VersionLimits
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.rendering import api_wg_errors, wsme_fault
from pecan_microversions.core.representations import (
    Computed,
    Renamed,
    Retype,
    ValueMap,
)
from pecan_microversions.core.schema import Schema, field
from pecan_microversions.core.version import Version, VersionRange, parse_version
from pecan_microversions.pecan.config import list_opts, register_opts
from pecan_microversions.pecan.current import (
    apply_patch,
    check_body,
    check_patch,
    filter_response,
    patch_newest,
    response_json,
    response_text,
)
from pecan_microversions.pecan.discovery import root_document, version_document
from pecan_microversions.pecan.errors import APIError
from pecan_microversions.pecan.expose import versioned_wsexpose
from pecan_microversions.pecan.hook import MicroversionHook
from pecan_microversions.pecan.methods import api_version
from pecan_microversions.pecan.params import param, query_params
from pecan_microversions.pecan.request import get_limits, get_version
from pecan_microversions.pecan.subresources import (
    ResourceRange,
    VersionedRestController,
    versioned_subresource,
)
from pecan_microversions.wsme.checking import JsonPatchOperation
from pecan_microversions.wsme.fields import (
    versioned,
    versioned_resource,
    visible_fields,
)

deprecated_modules.install()

__all__ = [
    'APIError',
    'Computed',
    'ConfigurationError',
    'Deprecation',
    'InvalidVersion',
    'JsonPatchOperation',
    'MicroversionError',
    'MicroversionHook',
    'RegistryError',
    'Renamed',
    'RequestError',
    'ResourceRange',
    'Retype',
    'Schema',
    'ValueMap',
    'Version',
    'VersionLimits',
    'VersionRange',
    'VersionRegistry',
    'VersionedRestController',
    'api_version',
    'api_wg_errors',
    'apply_patch',
    'check_body',
    'check_patch',
    'field',
    'filter_response',
    'get_limits',
    'get_version',
    'list_opts',
    'method_changes',
    'param',
    'patch_newest',
    'parse_version',
    'query_params',
    'register_opts',
    'response_json',
    'response_text',
    'root_document',
    'version_document',
    'versioned',
    'versioned_resource',
    'versioned_subresource',
    'versioned_wsexpose',
    'visible_fields',
    'wsme_fault',
]
