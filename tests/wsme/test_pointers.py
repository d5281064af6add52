"""walk_pointer: a walk remembered is the same walk, at its version only."""

from __future__ import annotations

import pytest

from pecan_microversions import RequestError, Version
from pecan_microversions.demo.types import Node
from pecan_microversions.wsme import pointers
from pecan_microversions.wsme.pointers import walk_pointer


@pytest.fixture(autouse=True)
def _empty_walks():
    pointers._walks.clear()  # noqa: SLF001 - the cache under test
    yield
    pointers._walks.clear()  # noqa: SLF001


def _walk(path, version, **flags):
    flags.setdefault('changes', True)
    return walk_pointer(Node, {'op': 'replace', 'path': path}, 'path',
                        'Patch operation #0', Version.parse(version), **flags)


def test_a_remembered_walk_answers_what_the_walk_answers():
    first = _walk('/description', '1.8')
    assert first[0] == 'description' and first[4] == 'description'
    assert _walk('/description', '1.8') is first  # remembered
    assert len(pointers._walks) == 1  # noqa: SLF001


def test_a_walk_remembered_at_one_version_is_refused_at_another():
    _walk('/description', '1.8')
    with pytest.raises(RequestError, match='not available at version 1.0'
                       ) as refused:
        _walk('/description', '1.0')
    assert refused.value.error_code == 'microversion.field_unavailable'


def test_a_walk_remembered_for_a_read_is_refused_for_a_change():
    assert _walk('/uuid', '1.8', changes=False)[0] == 'uuid'  # a test op
    with pytest.raises(RequestError, match='read-only'):
        _walk('/uuid', '1.8')


def test_a_walk_remembered_for_a_change_is_refused_for_a_removal():
    _walk('/name', '1.8')
    with pytest.raises(RequestError, match='mandatory'):
        _walk('/name', '1.8', removes=True)


def test_a_refused_walk_is_not_remembered():
    for _ in range(2):
        with pytest.raises(RequestError, match='unknown field'):
            _walk('/colour', '1.8')
    assert pointers._walks == {}  # noqa: SLF001


def test_the_remembered_walks_stay_bounded(monkeypatch):
    monkeypatch.setattr(pointers, '_MAX_WALKS', 3)
    for index in range(4):  # a dict's entries: any key is a pointer
        _walk(f'/owner/name/{index}', '1.9')
    assert len(pointers._walks) == 1  # noqa: SLF001 - emptied when full
    assert _walk('/owner/name/0', '1.9')[0] == 'name'


def test_a_long_pointer_is_walked_but_not_remembered():
    long_key = 'k' * 201  # a free-form dict entry the client names
    assert _walk(f'/owner/name/{long_key[:180]}', '1.9')[0] == 'name'
    assert len(pointers._walks) == 1  # noqa: SLF001
    assert _walk(f'/owner/name/{long_key}', '1.9')[0] == 'name'
    assert len(pointers._walks) == 1  # noqa: SLF001


@pytest.mark.parametrize('name', ['attributes_by_name', 'join_label'])
def test_the_old_spelling_in_checking_warns_and_works(name):
    from pecan_microversions.wsme import checking
    with pytest.warns(DeprecationWarning, match='wsme.pointers'):
        moved = getattr(checking, name)
    assert moved is getattr(pointers, name)
    with pytest.raises(AttributeError):
        checking.no_such_name  # noqa: B018
