"""OpenStack-style API microversions for Pecan/WSME services.

The public API is re-exported here; see the README for a quick start.
"""

from pecan_microversions.config import list_opts, register_opts
from pecan_microversions.discovery import root_document, version_document
from pecan_microversions.errors import APIError
from pecan_microversions.hook import MicroversionHook
from pecan_microversions.negotiation import ConfigurationError, VersionLimits
from pecan_microversions.registry import RegistryError, VersionRegistry
from pecan_microversions.request import get_limits, get_version
from pecan_microversions.version import InvalidVersion, Version, parse_version

__all__ = [
    'APIError',
    'ConfigurationError',
    'InvalidVersion',
    'MicroversionHook',
    'RegistryError',
    'Version',
    'VersionLimits',
    'VersionRegistry',
    'get_limits',
    'get_version',
    'list_opts',
    'parse_version',
    'register_opts',
    'root_document',
    'version_document',
]
