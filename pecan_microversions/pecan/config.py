"""Operator options (oslo.config): the default version, a floor and a cap.

Register them with :func:`register_opts` and hand the ``ConfigOpts`` to the
hook.  ``min_version`` and ``max_version`` are mutable: a reload through
``ConfigOpts.mutate_config_files()`` (SIGHUP in oslo.service) changes the
accepted and advertised range without a restart.  ``oslo-config-generator
--namespace pecan_microversions`` lists them.
"""

from __future__ import annotations

from typing import Optional

from oslo_config import cfg

from pecan_microversions.core.negotiation import VersionLimits, limits_for
from pecan_microversions.core.registry import VersionRegistry

__all__ = ['DEFAULT_GROUP', 'OPTS', 'list_opts', 'read_limits',
           'register_opts']

#: The option group used when the application names none.
DEFAULT_GROUP = 'api_microversions'

OPTS = [
    cfg.StrOpt(
        'default_version',
        help='Microversion (X.Y) served to requests that do not ask for one. '
             'Defaults to the service\'s own default, raised to '
             'min_version if that is set.'),
    cfg.StrOpt(
        'min_version', mutable=True,
        help='Oldest microversion (X.Y) this deployment accepts; requests '
             'below it get 406 Not Acceptable. Defaults to the oldest the '
             'service supports.'),
    cfg.StrOpt(
        'max_version', mutable=True,
        help='Newest microversion (X.Y) this deployment accepts and '
             'advertises. Pin it to the older release\'s maximum during a '
             'rolling upgrade, so clients do not see versions some API '
             'servers lack. Defaults to the newest the service supports.'),
]


def register_opts(conf: cfg.ConfigOpts, group: str = DEFAULT_GROUP) -> None:
    """Register the options in ``group`` of ``conf`` (safe to repeat)."""
    conf.register_opts(OPTS, group=group)


def list_opts() -> list[tuple[str, list[cfg.Opt]]]:
    """The ``oslo.config.opts`` entry point, for oslo-config-generator."""
    return [(DEFAULT_GROUP, list(OPTS))]


def read_limits(registry: VersionRegistry, conf: Optional[cfg.ConfigOpts],
                group: str = DEFAULT_GROUP) -> VersionLimits:
    """The accepted range from ``conf``'s ``group`` (the registry's if None).

    :raises ~pecan_microversions.core.negotiation.ConfigurationError: an option is
        not a version of the registry or the options contradict each other.
    """
    if conf is None:
        return limits_for(registry)
    options = conf[group]
    return limits_for(registry, min_version=options.min_version,
                      max_version=options.max_version,
                      default_version=options.default_version)
