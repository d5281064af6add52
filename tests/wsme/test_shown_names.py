"""shown_names: what a version calls the renamed fields of a body type and
of the types it holds (the names WSME's errors about a converted body use).
"""

from wsme import types as wtypes

from pecan_microversions import (
    ValueMap,
    Version,
    VersionRegistry,
    versioned,
    versioned_resource,
)
from pecan_microversions.wsme.conversion import shown_names

REGISTRY = VersionRegistry('toys', [('1.0', 'a'), ('1.1', 'b')])


@versioned_resource(REGISTRY, 'wheel')
class Wheel(wtypes.Base):
    size = versioned(wtypes.text, max_version='1.0')
    diameter = versioned(wtypes.text, min_version='1.1', replaces='size')


@versioned_resource(REGISTRY, 'cart')
class Cart(wtypes.Base):
    kind = versioned(wtypes.text, max_version='1.0')
    model = versioned(wtypes.text, min_version='1.1', replaces='kind')
    state = versioned(wtypes.text, changes=[ValueMap({'new': 'old'}, '1.0')])
    wheels = [Wheel]


@versioned_resource(REGISTRY, 'plank')
class Plank(wtypes.Base):
    length = versioned(wtypes.text, max_version='1.0')
    model = versioned(wtypes.text, min_version='1.1', replaces='length')


@versioned_resource(REGISTRY, 'wagon')
class Wagon(wtypes.Base):
    cart = Cart
    planks = {wtypes.text: Plank}


def test_the_newest_names_map_to_the_versions_nested_types_included():
    assert shown_names(Cart, Version(1, 0)) == {'model': 'kind',
                                                'diameter': 'size'}
    assert shown_names([Cart], Version(1, 0)) == {'model': 'kind',
                                                  'diameter': 'size'}
    assert shown_names(Cart, Version(1, 1)) == {'kind': 'model',
                                                'size': 'diameter'}


def test_a_name_two_types_rename_differently_is_left_out():
    # model is Cart's kind and Plank's length at 1.0: neither can be told.
    assert shown_names(Wagon, Version(1, 0)) == {'diameter': 'size'}


@versioned_resource(REGISTRY, 'tyre')
class Tyre(wtypes.Base):
    model = wtypes.text  # a field of its own, never renamed


@versioned_resource(REGISTRY, 'trolley')
class Trolley(wtypes.Base):
    kind = versioned(wtypes.text, max_version='1.0')
    model = versioned(wtypes.text, min_version='1.1', replaces='kind')
    tyres = [Tyre]


def test_a_name_another_type_uses_as_its_own_is_left_out():
    # An error about a tyre's model must not be reported as 'kind'.
    assert shown_names(Trolley, Version(1, 0)) == {}
