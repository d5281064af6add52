"""OpenStack-style API microversions for Pecan/WSME services.

The public API is re-exported here; see the README for a quick start.
One module per job: ``version`` (the X.Y value), ``registry`` (the history
and declarations), ``hook`` (negotiation and response headers), ``fields``,
``params``, ``validation``, ``filtering`` and ``expose`` (versioned WSME
fields and query parameters), ``methods`` (versioned controller methods and
sub-resources), ``deprecation``, ``discovery``, ``config``, ``errors``,
``history`` and ``cli`` (generated history), ``testing`` (pytest helpers).
"""

from pecan_microversions.config import list_opts, register_opts
from pecan_microversions.deprecation import Deprecation
from pecan_microversions.discovery import root_document, version_document
from pecan_microversions.errors import APIError
from pecan_microversions.expose import versioned_wsexpose
from pecan_microversions.fields import versioned, versioned_resource, visible_fields
from pecan_microversions.filtering import filter_response
from pecan_microversions.hook import MicroversionHook
from pecan_microversions.methods import (
    ResourceRange,
    VersionedRestController,
    api_version,
    method_changes,
    versioned_subresource,
)
from pecan_microversions.negotiation import ConfigurationError, VersionLimits
from pecan_microversions.params import param, query_params
from pecan_microversions.registry import RegistryError, VersionRegistry
from pecan_microversions.request import get_limits, get_version
from pecan_microversions.validation import (
    JsonPatchOperation,
    apply_patch,
    check_body,
    check_patch,
)
from pecan_microversions.version import InvalidVersion, Version, parse_version

__all__ = [
    'APIError',
    'ConfigurationError',
    'Deprecation',
    'InvalidVersion',
    'JsonPatchOperation',
    'MicroversionHook',
    'RegistryError',
    'ResourceRange',
    'Version',
    'VersionLimits',
    'VersionRegistry',
    'VersionedRestController',
    'api_version',
    'apply_patch',
    'check_body',
    'check_patch',
    'filter_response',
    'get_limits',
    'get_version',
    'list_opts',
    'method_changes',
    'param',
    'parse_version',
    'query_params',
    'register_opts',
    'root_document',
    'version_document',
    'versioned',
    'versioned_resource',
    'versioned_subresource',
    'versioned_wsexpose',
    'visible_fields',
]
