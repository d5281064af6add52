"""Version and VersionRange as values: formatting, comparison, hashing."""

import copy
import operator
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pecan_microversions.core.errors import InvalidVersion, InvertedRangeError
from pecan_microversions.core.version import Version, VersionRange


def test_formats_as_x_dot_y_everywhere():
    v = Version(1, 12)
    assert str(v) == '1.12'
    assert '%s' % v == '1.12'  # noqa: UP031 (the %-format is the point)
    assert f'{v}' == '1.12'
    assert format(v, '>5') == ' 1.12'
    assert format(v, '<6') + '|' == '1.12  |'
    assert repr(v) == 'Version(1, 12)'


def test_compares_with_versions_tuples_and_strings():
    v = Version(1, 2)
    assert v == Version(1, 2)
    assert v == (1, 2)
    assert v == '1.2'
    assert v != '1.3'
    assert v != (2, 1)
    assert v < Version(1, 10)   # numeric, not lexical
    assert v < (1, 3)
    assert v < '1.10'
    assert v >= '1.2'
    assert v >= (1, 1)
    assert not v >= '1.3'
    assert v > '0.99'
    assert v <= (1, 2)


def test_sorting_mixed_values():
    # One string among versions: every comparison involves a Version.
    with_strings = sorted([Version(1, 10), '1.9', Version(0, 5),
                           Version(1, 11)])
    assert [str(x) for x in with_strings] == ['0.5', '1.9', '1.10', '1.11']
    assert with_strings[1] == '1.9' and type(with_strings[1]) is str
    with_tuples = sorted([(1, 9), Version(1, 2), Version(1, 10)])
    assert with_tuples == [Version(1, 2), (1, 9), Version(1, 10)]
    assert type(with_tuples[1]) is tuple
    assert (1, 9) > Version(1, 2)
    assert '1.9' < Version(1, 10)
    assert max(Version(1, 2), '1.10') == '1.10'


def test_equality_with_a_malformed_string_is_false():
    v = Version(1, 2)
    assert (v == '1.02') is False
    assert (v == 'one.two') is False
    assert (v != 'garbage') is True
    assert (v == (1, -2)) is False


_PARTS = st.tuples(st.integers(0, 30), st.integers(0, 30))
_ORDERINGS = [operator.lt, operator.le, operator.gt, operator.ge,
              operator.eq, operator.ne]


@given(_PARTS, _PARTS)
def test_every_ordering_is_the_tuples_both_ways(a, b):
    """Each operator, against a version, a tuple or an ``X.Y`` string, on
    either side, orders as the ``(X, Y)`` tuples do."""
    va, vb = Version(*a), Version(*b)
    for compare in _ORDERINGS:
        expected = compare(a, b)
        assert compare(va, vb) is expected
        assert compare(va, b) is expected
        assert compare(a, vb) is expected
        assert compare(va, f'{b[0]}.{b[1]}') is expected
        assert compare(f'{a[0]}.{a[1]}', vb) is expected


@pytest.mark.parametrize('other', ['1.02', 'x', '', (1, 2, 3)])
def test_ordering_with_a_malformed_value_raises(other):
    v = Version(1, 2)
    with pytest.raises(InvalidVersion):
        v < other  # noqa: B015
    with pytest.raises(InvalidVersion):
        v >= other  # noqa: B015


def test_ordering_with_an_unrelated_type_is_a_type_error():
    with pytest.raises(TypeError):
        Version(1, 2) < 1.2  # noqa: B015
    assert Version(1, 2) != 1.2


def test_hash_is_the_tuple_hash_and_dict_lookups_work():
    v = Version(3, 7)
    assert hash(v) == hash((3, 7))
    table = {Version(3, 7): 'a', Version(3, 8): 'b'}
    assert table[Version(3, 7)] == 'a'
    assert table[Version.parse('3.8')] == 'b'
    assert table[(3, 7)] == 'a'  # equal and same hash: same key
    assert len({Version(1, 0), Version(1, 0), (1, 0)}) == 1


def test_immutable():
    v = Version(1, 2)
    with pytest.raises(AttributeError):
        v.major = 2
    with pytest.raises(AttributeError):
        v.anything = 1
    assert v == (1, 2)
    r = VersionRange('1.0', '1.2')
    with pytest.raises(AttributeError):
        r.min_version = Version(0, 1)


def test_pickle_and_copy_round_trip():
    v = Version(2, 93)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(v, protocol))
        assert back == v and type(back) is Version
        assert hash(back) == hash(v)
    assert copy.deepcopy(v) == v
    assert list(v) == [2, 93]


@pytest.mark.parametrize('major, minor', [(-1, 0), (1, -1), (1.0, 2),
                                          ('1', 2), (True, 1)])
def test_constructor_refuses_non_whole_numbers(major, minor):
    with pytest.raises(InvalidVersion):
        Version(major, minor)


def test_range_containment_and_unbounded_sides():
    closed = VersionRange('1.2', '1.5')
    assert Version(1, 2) in closed
    assert Version(1, 5) in closed
    assert Version(1, 1) not in closed
    assert Version(1, 6) not in closed
    assert '1.3' not in closed  # only Version objects are members
    low_only = VersionRange('1.2')
    assert Version(99, 0) in low_only and Version(1, 1) not in low_only
    high_only = VersionRange(None, '1.5')
    assert Version(0, 0) in high_only and Version(1, 6) not in high_only
    every = VersionRange()
    assert Version(0, 0) in every and Version(9, 9) in every


def test_range_accepts_tuples_and_versions():
    assert VersionRange((1, 2), Version(1, 4)) == VersionRange('1.2', '1.4')
    assert list(VersionRange('1.2')) == [Version(1, 2), None]
    assert hash(VersionRange('1.2', '1.4')) == hash(
        VersionRange((1, 2), (1, 4)))


@pytest.mark.parametrize('a, b, expected', [
    (('1.0', '1.2'), ('1.2', '1.5'), True),    # touch at one version
    (('1.0', '1.2'), ('1.3', '1.5'), False),
    (('1.3', None), ('1.0', '1.2'), False),
    ((None, '1.2'), ('1.2', None), True),
    ((None, None), ('5.0', '5.1'), True),
    (('1.4', '1.4'), ('1.0', None), True),
    (('1.4', '1.4'), (None, '1.3'), False),
])
def test_range_overlaps(a, b, expected):
    first, second = VersionRange(*a), VersionRange(*b)
    assert first.overlaps(second) is expected
    assert second.overlaps(first) is expected


@pytest.mark.parametrize('bounds, words, short', [
    (('1.2', '1.5'), 'from version 1.2 to 1.5', '1.2 to 1.5'),
    (('1.2', None), 'from version 1.2 on', '1.2 and later'),
    ((None, '1.4'), 'up to version 1.4', 'up to 1.4'),
    (('1.3', '1.3'), 'only at version 1.3', '1.3'),
    ((None, None), 'at every version', 'every version'),
])
def test_range_wording(bounds, words, short):
    r = VersionRange(*bounds)
    assert str(r) == words
    assert r.short() == short


def test_inverted_range_names_what():
    with pytest.raises(InvertedRangeError) as info:
        VersionRange('1.5', '1.2', what='field node.owner')
    message = str(info.value)
    assert message.startswith('field node.owner:')
    assert '1.2' in message and '1.5' in message
    with pytest.raises(InvertedRangeError, match=r'^range:'):
        VersionRange('2.0', '1.9')
