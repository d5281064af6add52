"""The fleet service's version history: the single source of truth."""

from pecan_microversions import VersionRegistry

REGISTRY = VersionRegistry(
    'fleet',
    [
        ('1.0', 'Initial version: list, show and create nodes; node power '
                'states.'),
        ('1.1', 'Nodes have a description.'),
        ('1.2', 'Node list filters by driver and sorts by sort_key and '
                'sort_dir.'),
        ('1.3', 'Nodes can be updated with a JSON patch.'),
        ('1.4', 'Nodes have an owner; the list filters and sorts by owner.'),
        ('1.5', 'Creating a node answers 201 Created with a Location '
                'header.'),
        ('1.6', 'The driver field is renamed hardware_type.'),
        ('1.7', 'The node states sub-resource is removed.'),
        ('1.8', 'The node list is paginated with limit and marker.'),
        ('1.9', 'Nodes show the cancelled provision state (older versions '
                'see failed), owner is an object with a name and a domain '
                '(older versions see the name), and the available flag is '
                'removed (older versions see it computed from the state).'),
    ],
    legacy_headers=['X-OpenStack-Fleet-API-Version'],
)
