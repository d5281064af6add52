"""Framework-free request checks: JSON pointers to fields."""

import jsonpointer
import pytest

from pecan_microversions.core.checking import pointer_parts
from pecan_microversions.core.errors import RequestError


@pytest.mark.parametrize('pointer', [
    '/a', '/a/b', '/', '//', '/a/', '/-', '/0', '/a b', '/é/ü',
    '/a~0b', '/a~1b', '/~01', '/x/~1/y'])
def test_pointer_parts_are_rfc6901s(pointer):
    assert pointer_parts({'path': pointer}, 'path', 'op') == \
        jsonpointer.JsonPointer(pointer).parts


@pytest.mark.parametrize('pointer', ['', 'a', 'a/b', '/a~2', '/~', 7])
def test_malformed_or_empty_pointers_are_refused(pointer):
    with pytest.raises(RequestError) as raised:
        pointer_parts({'path': pointer}, 'path', 'Patch operation #0')
    assert raised.value.code == 400
    assert 'Patch operation #0' in raised.value.detail
