"""Public names moved within the package keep their old spelling a release."""

import pytest

from pecan_microversions.pecan import arguments, encoding


def test_check_encoding_old_spelling_warns_and_works():
    with pytest.warns(DeprecationWarning, match='pecan.encoding'):
        moved = arguments.check_encoding
    assert moved is encoding.check_encoding


def test_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError):
        arguments.no_such_name  # noqa: B018
