"""The version value: strict X.Y grammar, ordering, hashing, matches()."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pecan_microversions import InvalidVersion, Version, parse_version
from pecan_microversions.core.version import LATEST, as_version

GRAMMAR = re.compile(r'^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$')


@pytest.mark.parametrize('text, expected', [
    ('0.0', (0, 0)),
    ('1.0', (1, 0)),
    ('1.2', (1, 2)),
    ('2.10', (2, 10)),
    ('10.20', (10, 20)),
    ('123456789.987654321', (123456789, 987654321)),
    (' 1.2', (1, 2)),
    ('1.2 ', (1, 2)),
    ('   1.2   ', (1, 2)),
    ('\t1.2\t', (1, 2)),
    ('1.' + '1' * 62, (1, int('1' * 62))),  # exactly 64 characters
])
def test_valid_versions_parse(text, expected):
    version = parse_version(text)
    assert version == Version(*expected)
    assert (version.major, version.minor) == expected
    assert type(version.major) is int and type(version.minor) is int


@pytest.mark.parametrize('text', [
    '1',             # no minor
    '1.2.3',         # three parts
    '1.01',          # leading zero in minor
    '01.1',          # leading zero in major
    '00.0',
    '1.00',
    '1.-1',          # sign
    '-1.1',
    '1.+1',
    '+1.1',
    '1.1_0',         # underscore, which int() accepts
    '1_0.1',
    '1.',            # empty parts
    '.1',
    '.',
    '',
    '   ',
    '1 .2',          # inner space
    '1. 2',
    '1,2',
    'a.b',
    '1.a',
    '0x1.2',
    '1e1.0',
    '1.2\n',         # only spaces and tabs are trimmed
    '\n1.2',
    '1.2\x00',
    'v1.2',
    'latest',        # a request keyword, not a version
    '١.٢',           # Arabic-Indic digits
    '１.２',          # full-width digits
    '1.²',           # superscript two (latin-1, isdigit() is True)
    '1.٢',
    '1.' + '1' * 63,                # 65 characters, grammar otherwise fine
    ' ' * 30 + '1.2' + ' ' * 32,    # 65 characters with the spaces
])
def test_invalid_versions_are_rejected(text):
    with pytest.raises(InvalidVersion) as info:
        parse_version(text)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    if len(text) > 64:
        assert '64' in message and str(len(text)) in message
    else:
        assert repr(text) in message
        assert 'MAJOR.MINOR' in message


@pytest.mark.parametrize('value', [None, 1.2, 12, b'1.2', ('1', '2')])
def test_non_strings_are_rejected(value):
    with pytest.raises(InvalidVersion, match='must be a string'):
        parse_version(value)


def test_version_parse_classmethod_is_parse_version():
    assert Version.parse('3.4') == Version(3, 4)
    with pytest.raises(InvalidVersion):
        Version.parse('3.04')


def test_str_and_repr_forms():
    assert str(Version(1, 2)) == '1.2'
    assert str(Version(2, 10)) == '2.10'
    assert f'{Version(0, 0)}' == '0.0'
    assert str(parse_version(' 7.30 ')) == '7.30'


def test_ordering_is_numeric_not_textual():
    assert Version(1, 2) < Version(1, 10)
    assert Version(1, 10) > Version(1, 9)
    assert Version(2, 0) > Version(1, 99)
    assert Version(1, 2) <= Version(1, 2) <= Version(1, 3)
    assert sorted(map(parse_version, ['1.10', '2.0', '1.2', '1.9'])) == [
        Version(1, 2), Version(1, 9), Version(1, 10), Version(2, 0)]
    assert max(Version(1, 9), Version(1, 10)) == Version(1, 10)


def test_equality_and_hashing():
    assert parse_version('1.2') == Version(1, 2)
    assert parse_version('1.2') != Version(1, 3)
    assert hash(parse_version(' 1.2')) == hash(Version(1, 2))
    assert len({Version(1, 2), parse_version('1.2'), Version(2, 1)}) == 2
    table = {Version(1, 2): 'a'}
    assert table[parse_version('1.2')] == 'a'


@pytest.mark.parametrize('low, high, expected', [
    (None, None, True),
    ((1, 2), None, True),
    ((1, 3), None, False),
    (None, (1, 2), True),
    (None, (1, 1), False),
    ((1, 0), (1, 2), True),
    ((1, 2), (1, 2), True),
    ((1, 3), (2, 0), False),
    ((0, 1), (1, 1), False),
    ((1, 10), (1, 20), False),  # 1.2 < 1.10 numerically
])
def test_matches_with_null_bounds(low, high, expected):
    low = None if low is None else Version(*low)
    high = None if high is None else Version(*high)
    assert Version(1, 2).matches(low, high) is expected


def test_matches_defaults_to_unbounded():
    assert Version(0, 0).matches()
    assert Version(99, 99).matches(min_version=Version(1, 0))
    assert not Version(0, 9).matches(min_version=Version(1, 0))
    assert not Version(2, 0).matches(max_version=Version(1, 9))


def test_latest_keyword():
    assert LATEST == 'latest'


@pytest.mark.parametrize('value, expected', [
    ('1.2', Version(1, 2)),
    ((1, 2), Version(1, 2)),
    (Version(3, 4), Version(3, 4)),
])
def test_as_version_accepts_declaration_forms(value, expected):
    assert as_version(value) == expected


@pytest.mark.parametrize('value', [
    (1,), (1, 2, 3), (-1, 0), (1, -2), (True, 1), (1.0, 2), ('1', '2'), '1.02',
])
def test_as_version_rejects_bad_declarations(value):
    with pytest.raises(InvalidVersion):
        as_version(value)


@given(st.integers(min_value=0, max_value=10**29),
       st.integers(min_value=0, max_value=10**29))
def test_round_trip_of_any_version(major, minor):
    text = f'{major}.{minor}'
    version = parse_version(text)
    assert version == (major, minor)
    assert str(version) == text
    assert parse_version(f' {text}\t') == version


@given(st.text(max_size=70))
def test_parse_agrees_with_the_grammar(text):
    """Any text: accepted exactly when the trimmed text fits the grammar."""
    trimmed = text.strip(' \t')
    should_parse = len(text) <= 64 and GRAMMAR.fullmatch(trimmed) is not None
    # [0-9] in the reference grammar is ASCII-only; \d would not be.
    if should_parse:
        version = parse_version(text)
        assert str(version) == trimmed
    else:
        with pytest.raises(InvalidVersion):
            parse_version(text)


@given(st.from_regex(r'\A[0-9٠-٩０-９²³¹.+_ -]{1,12}\Z'))
def test_only_ascii_digit_versions_are_accepted(text):
    try:
        version = parse_version(text)
    except InvalidVersion:
        return
    assert text.strip(' ').isascii()
    assert str(version) == text.strip(' ')
