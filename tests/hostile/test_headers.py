"""Hostile version headers: generated values against the hook, checked by an
independent reference of the negotiation rules.

Each example is one ``GET /v1/`` on the demo app, called directly as WSGI
with a hand-built environ (header values are latin-1 ``str``, as a WSGI
server hands them over; a repeated header arrives joined with ``", "``).
The expected answer comes from :func:`expected`, written from the rules in
README.rst, not from the library's code:

* ``OpenStack-API-Version`` is a comma-separated list of
  ``<service> <version>`` entries; the last entry naming ``fleet`` (any case)
  with a version wins; entries without a version are ignored;
* only when no entry names ``fleet`` with a version is the legacy header
  ``X-OpenStack-Fleet-API-Version`` read (its last non-empty
  comma-separated value); the response then echoes it; ``Vary`` names it on
  every response;
* no version named: the default, 1.0; a header naming ``fleet`` without a
  version (``fleet`` alone in the standard header and no legacy header, or
  a legacy header with no non-empty value): 400; ``latest`` (any case):
  1.9; a value longer than 64 characters or not matching
  ``(0|[1-9][0-9]*).(0|[1-9][0-9]*)`` (ASCII digits) after trimming spaces
  and tabs: 400; well formed but outside 1.0-1.9: 406;
* every response, errors included, carries ``OpenStack-API-Version`` (the
  served version, the default for a rejected request), the minimum and
  maximum headers and ``Vary``; errors have the JSON errors body.

Whitespace between entries and around the service name: the library reads the
header with microversion-parse, which splits and strips with Python's
``str.split()``/``str.strip()``, i.e. any whitespace character, not only the
HTTP spaces and tabs.  The reference models that explicitly with
:data:`ENTRY_WHITESPACE` (see doc/source/robustness.rst).

Sizes: ``HYPOTHESIS_PROFILE=ci|full|dev`` (see tests/hostile/conftest.py);
``full`` runs 7 x 15,000 = 105,000 generated requests.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from typing import Any, Optional

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pecan_microversions.demo.app import make_app
from tests.hostile.conftest import EXAMPLES_RUN, HEADER_EXAMPLES, profile_name

SERVICE = 'fleet'
LEGACY = 'X-OpenStack-Fleet-API-Version'
STANDARD_KEY = 'HTTP_OPENSTACK_API_VERSION'
LEGACY_KEY = 'HTTP_X_OPENSTACK_FLEET_API_VERSION'
MINIMUM, MAXIMUM, DEFAULT = (1, 0), (1, 9), (1, 0)
NEWEST = f'{MAXIMUM[0]}.{MAXIMUM[1]}'

#: Characters that separate and surround entries (microversion-parse uses
#: ``str.split()``): the latin-1 whitespace characters, written out.
ENTRY_WHITESPACE = ' \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0'
_VERSION = re.compile(r'(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)', re.ASCII)

_PROFILE = profile_name()
_EXAMPLES = HEADER_EXAMPLES[_PROFILE]
PROFILE = settings(
    max_examples=_EXAMPLES,
    deadline=None,
    database=None if _PROFILE != 'dev' else settings.default.database,
    derandomize=_PROFILE == 'ci',
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)

APP = make_app()


# --- the reference ---------------------------------------------------------

#: Whitespace beyond latin-1 (only reachable by a non-PEP 3333 caller).
_WIDE_WHITESPACE = ''.join(chr(c) for c in range(0x100, 0x3001)
                           if chr(c).isspace())
_ALL_WHITESPACE = ENTRY_WHITESPACE + _WIDE_WHITESPACE
_FIRST_WHITESPACE = re.compile('[' + re.escape(_ALL_WHITESPACE) + ']')


def _strip(text: str) -> str:
    return text.strip(_ALL_WHITESPACE)


def _entry(entry: str) -> Optional[tuple[str, str]]:
    """``(service, version)`` of one list entry, or None if it has no version."""
    entry = _strip(entry)
    gap = _FIRST_WHITESPACE.search(entry)
    if gap is None:
        return None
    return entry[:gap.start()], _strip(entry[gap.start():])


def expected(standard: Optional[str], legacy: Optional[str]
             ) -> tuple[int, tuple[int, int], bool]:
    """``(status, version in the response header, legacy echoed)``."""
    text = None
    legacy_used = False
    named = False  # an entry "fleet" without a version
    if standard:
        for entry in reversed(standard.split(',')):
            parsed = _entry(entry)
            if parsed and parsed[0].lower() == SERVICE:
                text = parsed[1]
                break
            named = named or _strip(entry).lower() == SERVICE
    if text is None and legacy is not None:
        legacy_used = True
        values = [_strip(value) for value in legacy.split(',')]
        text = next((value for value in reversed(values) if value), '')
    if text is None:
        return (400 if named else 200), DEFAULT, legacy_used
    if not text:
        return 400, DEFAULT, legacy_used
    if text.lower() == 'latest':
        return 200, MAXIMUM, legacy_used
    match = _VERSION.fullmatch(text.strip(' \t'))
    if len(text) > 64 or match is None:
        return 400, DEFAULT, legacy_used
    version = (int(match.group(1)), int(match.group(2)))
    if MINIMUM <= version <= MAXIMUM:
        return 200, version, legacy_used
    return 406, DEFAULT, legacy_used


# --- the request -----------------------------------------------------------

def call(standard: Optional[str], legacy: Optional[str]
         ) -> tuple[int, dict[str, list[str]], bytes]:
    environ: dict[str, Any] = {
        'REQUEST_METHOD': 'GET', 'SCRIPT_NAME': '', 'PATH_INFO': '/v1/',
        'QUERY_STRING': '', 'SERVER_NAME': '127.0.0.1', 'SERVER_PORT': '80',
        'SERVER_PROTOCOL': 'HTTP/1.1', 'HTTP_HOST': '127.0.0.1',
        'wsgi.url_scheme': 'http', 'wsgi.input': io.BytesIO(b''),
        'wsgi.errors': io.StringIO(), 'wsgi.version': (1, 0),
        'wsgi.multithread': False, 'wsgi.multiprocess': False,
        'wsgi.run_once': False,
    }
    if standard is not None:
        environ[STANDARD_KEY] = standard
    if legacy is not None:
        environ[LEGACY_KEY] = legacy
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list, exc_info: Any = None):
        seen['status'] = status
        seen['headers'] = headers

    app_iter = APP(environ, start_response)
    try:
        body = b''.join(app_iter)
    finally:
        getattr(app_iter, 'close', lambda: None)()
    headers: dict[str, list[str]] = {}
    for name, value in seen['headers']:
        headers.setdefault(name.lower(), []).append(value)
    return int(seen['status'].split(' ', 1)[0]), headers, body


def check(standard: Optional[str], legacy: Optional[str], test: str) -> None:
    EXAMPLES_RUN[test] += 1
    status, version, legacy_used = expected(standard, legacy)
    got, headers, body = call(standard, legacy)
    shown = f'{version[0]}.{version[1]}'
    assert got == status, (standard, legacy, body[:500])
    assert headers['openstack-api-version'] == [f'{SERVICE} {shown}']
    assert headers['openstack-api-minimum-version'] == ['1.0']
    assert headers['openstack-api-maximum-version'] == [NEWEST]
    vary = [t.strip().lower() for v in headers['vary'] for t in v.split(',')]
    # Either header can choose the version: every response varies on both.
    assert vary == ['openstack-api-version', LEGACY.lower()]
    if legacy_used:
        assert headers[LEGACY.lower()] == [shown]
    else:
        assert LEGACY.lower() not in headers
    assert headers['content-type'][0].startswith('application/json')
    document = json.loads(body)
    if status == 200:
        assert document['version']['max_version'] == NEWEST
    else:
        (error,) = document['errors']
        assert error['status'] == status
        assert error['code'] == ('microversion.invalid' if status == 400
                                 else 'microversion.not_acceptable')
        assert error['title'] and error['detail']
        assert (error['min_version'], error['max_version']) == ('1.0', NEWEST)


# --- strategies ------------------------------------------------------------

LATIN1 = st.characters(min_codepoint=0, max_codepoint=0xff)
CONTROL = st.sampled_from([chr(c) for c in [*range(0x20), 0x7f, *range(0x80, 0xa0)]])
OWS = st.text(st.sampled_from(' \t'), max_size=3)
ANY_WS = st.text(st.sampled_from(ENTRY_WHITESPACE), max_size=3)
SEPARATOR = st.one_of(st.text(st.sampled_from(' \t'), min_size=1, max_size=3),
                      st.text(st.sampled_from(ENTRY_WHITESPACE), min_size=1,
                              max_size=2))


@st.composite
def case_variant(draw, word: str) -> str:
    flips = draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    return ''.join(c.upper() if f else c for c, f in zip(word, flips, strict=True))


SERVICE_NAME = st.one_of(
    case_variant(SERVICE), case_variant(SERVICE), case_variant(SERVICE),
    st.sampled_from(['compute', 'baremetal', 'flee', 'fleets', 'fleet-x',
                     'xfleet', 'fleet.', '*', '']),
    st.text(LATIN1, max_size=8),
)
NUMBER = st.one_of(st.integers(0, 12).map(str),
                   st.integers(0, 10 ** 70).map(str),
                   st.integers(0, 99).map(lambda n: f'0{n}'),
                   st.sampled_from(['-1', '+1', '', ' 1', '1 ', '0x1', '1e1',
                                    '\u00b9', '\u00b2', '\u00bd', '١', '1_0']))
VERSION_TEXT = st.one_of(
    st.integers(0, 8).map(lambda m: f'1.{m}'),           # accepted
    st.builds(lambda a, b: f'{a}.{b}', NUMBER, NUMBER),   # mostly not
    case_variant('latest'),
    st.sampled_from(['1', '1.', '.1', '1.2.3', '1,2', '1..2', 'v1.2', '1.2a',
                     'latest1', 'lates', 'LATEST.', '1.2 3', '1. 2', '',
                     'None', 'null', '１.２', '1.8\x00']),
    st.text(LATIN1, max_size=12),
)


OTHER_SERVICE = st.sampled_from(['compute', 'baremetal', 'flee', 'fleets',
                                 'fleet-x', 'xfleet', 'fleet.', '*'])


@st.composite
def entry(draw, services=SERVICE_NAME) -> str:
    """One list entry: usually ``<service> <version>``, sometimes junk."""
    kind = draw(st.integers(0, 9))
    if kind == 0 and services is SERVICE_NAME:
        return draw(st.text(LATIN1, max_size=20))
    if kind == 1:
        return draw(OWS) + draw(services) + draw(OWS)
    return (draw(st.one_of(OWS, ANY_WS)) + draw(services) + draw(SEPARATOR)
            + draw(VERSION_TEXT) + draw(st.one_of(OWS, ANY_WS)))


def join(entries: list[str], draw) -> str:
    out = ''
    for i, item in enumerate(entries):
        if i:
            out += draw(st.sampled_from([',', ', ', ' ,', ',\t', ',,', ', , ']))
        out += item
    return out


@st.composite
def standard_header(draw, max_entries: int = 8,
                    services=SERVICE_NAME) -> Optional[str]:
    if draw(st.integers(0, 9)) == 0:
        return None
    return join(draw(st.lists(entry(services), max_size=max_entries)), draw)


@st.composite
def legacy_header(draw) -> Optional[str]:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return None
    if kind == 1:
        return draw(st.text(LATIN1, max_size=30))
    values = draw(st.lists(st.builds(lambda a, v, b: a + v + b, OWS, VERSION_TEXT,
                                     OWS), min_size=1, max_size=4))
    return join(values, draw)


# --- the tests -------------------------------------------------------------

@pytest.fixture(autouse=True)
def enough_examples(request):
    """Each generated test must really run its profile's example count."""
    before = sum(EXAMPLES_RUN.values())
    yield
    if hasattr(request.function, 'hypothesis'):
        ran = sum(EXAMPLES_RUN.values()) - before
        assert ran >= _EXAMPLES, (
            f'{request.node.name} ran {ran} examples; the {_PROFILE} profile '
            f'needs {_EXAMPLES}')


@PROFILE
@given(standard=st.one_of(st.none(), st.text(LATIN1, max_size=200)),
       legacy=st.one_of(st.none(), st.text(LATIN1, max_size=80)))
def test_arbitrary_latin1_text(standard, legacy):
    check(standard, legacy, 'arbitrary_latin1_text')


@PROFILE
@given(standard=standard_header(), legacy=legacy_header())
def test_structured_entries(standard, legacy):
    check(standard, legacy, 'structured_entries')


@PROFILE
@given(standard=standard_header(max_entries=3, services=OTHER_SERVICE),
       legacy=legacy_header())
def test_legacy_header(standard, legacy):
    """The standard header names other services only (or is absent)."""
    check(standard, legacy, 'legacy_header')


@PROFILE
@given(parts=st.lists(st.one_of(standard_header(max_entries=3), st.just('')),
                      min_size=2, max_size=20),
       legacy=st.lists(legacy_header(), max_size=4))
def test_repeated_headers(parts, legacy):
    """A header sent several times reaches the app joined with ", "."""
    standard = ', '.join(p for p in parts if p is not None) if any(
        p is not None for p in parts) else None
    legacy_values = [v for v in legacy if v is not None]
    check(standard, ', '.join(legacy_values) if legacy_values else None,
          'repeated_headers')


@PROFILE
@given(entries=st.lists(entry(), min_size=1, max_size=10),
       copies=st.integers(5, 2_000),
       unit=st.one_of(entry(), st.text(LATIN1, min_size=1, max_size=6),
                      st.sampled_from(['1', '9', ',', ' ', 'a', 'fleet 1.1,'])),
       size=st.integers(1, 256 * 1024),
       where=st.integers(0, 3),
       legacy=legacy_header())
def test_huge_values_and_many_entries(entries, copies, unit, size, where,
                                      legacy):
    """Lists of up to 20,000 entries and values up to 256 KiB."""
    many = entries * copies
    unit = unit or ','
    huge = (unit * (size // len(unit) + 1))[:size]
    standard = {0: ', '.join(many),
                1: f'{SERVICE} {huge}',
                2: ', '.join(many) + ', ' + huge,
                3: huge}[where]
    check(standard, legacy if where != 0 else huge[:100_000], 'huge_values')


def _digits(category_digits: list[str]) -> st.SearchStrategy[str]:
    return st.text(st.sampled_from(category_digits), min_size=1, max_size=4)


_NON_ASCII_DIGITS = [chr(c) for c in range(0x80, 0x3000)
                     if unicodedata.category(chr(c)) == 'Nd'
                     or (c <= 0xff and chr(c).isdigit())]


@PROFILE
@given(major=st.one_of(_digits(_NON_ASCII_DIGITS), _digits(list('0123456789'))),
       minor=st.one_of(_digits(_NON_ASCII_DIGITS), _digits(list('0123456789'))),
       as_utf8_bytes=st.booleans(),
       legacy_only=st.booleans())
def test_non_ascii_digits(major, minor, as_utf8_bytes, legacy_only):
    """Digits from other scripts, as Unicode and as UTF-8 bytes read as
    latin-1 (what a WSGI server passes on)."""
    value = f'{major}.{minor}'
    if as_utf8_bytes:
        value = value.encode('utf-8').decode('latin-1')
    if legacy_only:
        check(None, value, 'non_ascii_digits')
    else:
        check(f'{SERVICE} {value}', None, 'non_ascii_digits')


@PROFILE
@given(version=st.sampled_from(['1.0', '1.3', '1.8', '9.9', 'latest', '1.01']),
       service=case_variant(SERVICE),
       inserts=st.lists(st.tuples(st.integers(0, 40), CONTROL), min_size=1,
                        max_size=4),
       legacy=st.booleans())
def test_control_characters(version, service, inserts, legacy):
    """Control characters at any position of an otherwise valid value."""
    value = f'{service} {version}'
    for position, char in inserts:
        position = min(position, len(value))
        value = value[:position] + char + value[position:]
    if legacy:
        check(None, value.split(' ', 1)[-1], 'control_characters')
    else:
        check(value, None, 'control_characters')


def test_reference_matches_readme_table():
    """The reference agrees with README.rst's negotiation table, so it is
    not just restating whatever the library does."""
    table = {
        None: (200, (1, 0)), '': (200, (1, 0)), 'compute 2.1': (200, (1, 0)),
        'fleet': (400, (1, 0)), 'fleet 1.1': (200, (1, 1)),
        'FLEET 1.1': (200, (1, 1)), 'fleet latest': (200, MAXIMUM),
        'fleet LaTeSt': (200, MAXIMUM), 'fleet 1.01': (400, (1, 0)),
        'fleet 1': (400, (1, 0)), 'fleet 1.2.3': (400, (1, 0)),
        'fleet 9.9': (406, (1, 0)),
        'compute 2.1, fleet 1.0, fleet 1.1': (200, (1, 1)),
    }
    for header, (status, version) in table.items():
        assert expected(header, None)[:2] == (status, version), header
        check(header, None, 'readme_table')
    assert expected(None, '1.4') == (200, (1, 4), True)
    assert expected('fleet 1.2', '1.4') == (200, (1, 2), False)
    # The legacy header is a list too: empty values are ignored; one with
    # none names no version, a 400 (as in README.rst).
    legacy = {'1.4,': (200, (1, 4)), ', 1.4 ,,': (200, (1, 4)),
              ',': (400, (1, 0)), '': (400, (1, 0)), ' ': (400, (1, 0))}
    for value, (status, version) in legacy.items():
        assert expected(None, value) == (status, version, True), value
        check(None, value, 'readme_table')
    assert expected('fleet', '1.4') == (200, (1, 4), True)
    assert expected('fleet ' + '1' * 63 + '.0', None)[0] == 400  # 65 chars
    assert expected('fleet ' + '1' * 62 + '.0', None)[0] == 406  # 64 chars
