"""Framework-free request checks: JSON pointers to fields."""

import jsonpointer
import pytest

from pecan_microversions import VersionRegistry
from pecan_microversions.core.checking import check_member, pointer_parts
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


class _OldContract:
    """A field contract written before ``readonly`` existed."""

    def __init__(self, registry):
        self.registry = registry
        self.resource = 'thing'
        self.ranges = {'name': (None, None)}
        self.values = {}
        self.visible = {v: frozenset({'name'}) for v in registry.versions}


def test_a_contract_without_a_readonly_table_still_checks_with_a_warning():
    registry = VersionRegistry('things', [('1.0', 'First.')])
    contract, version = _OldContract(registry), registry.max_version
    with pytest.warns(DeprecationWarning, match='no readonly table'):
        assert check_member(contract, 'name', 'x', version, 'name',
                            mandatory=False)
    with pytest.raises(RequestError) as refused:
        check_member(contract, 'name', 'x', version, 'name', readonly=True,
                     mandatory=False)
    assert refused.value.error_code == 'microversion.read_only_field'
