"""Registries for the history and CLI tests: one consistent, one broken.

Declarations are made with ``registry.declare`` directly, with the kinds the
field, parameter and method declarations use, so these tests do not depend on
how those modules build them.
"""

import datetime

from pecan_microversions.core.deprecation import Deprecation
from pecan_microversions.core.registry import Declaration, VersionRegistry
from pecan_microversions.core.version import Version

HISTORY = [
    ('1.0', 'Initial version.'),
    ('1.1', 'Widgets have a colour.'),
    ('1.2', 'Widgets have a size; the list sorts by sort_key.'),
    ('1.3', 'Creating a widget answers 201 Created.'),
    ('1.4', 'Widgets have a weight instead of a size; the parts sub-resource '
            'is removed.'),
]


def build(history=HISTORY, **kwargs):
    """A widget registry with a declaration behind every version."""
    registry = VersionRegistry('widget', history, **kwargs)
    declare = registry.declare
    declare('field', 'Widget', 'uuid')
    declare('field', 'Widget', 'name')
    declare('field', 'Widget', 'colour', '1.1')
    declare('field', 'Widget', 'size', '1.2', '1.3')
    declare('field', 'Widget', 'weight', '1.4')
    declare('method', '/v1/widgets', 'get_all')
    declare('method', '/v1/widgets', 'post', None, '1.2')
    declare('method', '/v1/widgets', 'post', '1.3')
    declare('query_parameter', '/v1/widgets', 'sort_key', '1.2')
    declare('query_parameter_value', '/v1/widgets', 'sort_key=name', '1.2')
    declare('query_parameter_value', '/v1/widgets', 'sort_key=size', '1.2',
            '1.3')
    declare('resource', '/v1/widgets/{uuid}/parts', '*', None, '1.3')
    return registry


#: Consistent: ``check`` finds nothing.
CLEAN = build()

#: Consistent, with 1.0 and 1.1 deprecated.
DEPRECATING = build(deprecations=[Deprecation(
    '1.0', '1.1', deprecated_on=datetime.date(2025, 1, 1),
    sunset_on=datetime.date(2026, 6, 30),
    link='https://widget.example.org/deprecations')])

#: Broken in every way ``check`` reports.
BROKEN = build(HISTORY + [('1.5', 'TODO'),
                          ('1.6', 'Widgets can be archived.')])
# A stale record, as left by a history edited after the fact: 1.9 and 2.0
# are not (or no longer) in the history, and the range is inverted.
BROKEN._declarations.append(
    Declaration('field', 'Widget', 'archived', Version(1, 9), None))
BROKEN._declarations.append(
    Declaration('method', '/v1/widgets', 'archive', Version(1, 4),
                Version(1, 2)))

#: Not a registry, for the loader's error.
NOT_A_REGISTRY = 42
