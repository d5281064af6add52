"""No value outside the requested version reaches a controller or the store.

Property-based (hypothesis): requests to the ``gadget`` service of
``contract_app`` (fields, enum values, nested types and query parameters
that change at every version from 1.0 to 1.5), in both
``unknown_query_params`` modes, with

* bodies for ``POST /gadgets`` (``body=Gadget``) and ``PUT /gadgets/<id>``
  (a ``gadget`` argument taken by name) as JSON (with and without
  charsets), form-encoded, multipart, XML, plain text, in the query string
  (``?gadget.colour=``) and in ``?__body__=``;
* query parameters for ``GET /gadgets`` in the plain, repeated, indexed
  (``tag[0]``) and dotted (``flt.grade``) syntaxes, in the query string, a
  form body, a JSON body and ``__body__``;
* JSON patches of any of the six operations, paths and ``from`` pointers
  into every field, nested objects, lists and dicts, as JSON, form fields
  and XML.

Whatever the answer, it is never a 5xx; what each controller received (it
records it) holds only fields, values and parameters of the requested
version, checked against a reference written in ``contract_app``; and
whatever a patch changed in the stored gadget is valid at that version.
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any, Optional
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile.conftest import profile_name
from tests.hostile.contract_app import (
    GADGET_FIELDS,
    PARAM_VALUES,
    PARAMS,
    PART_FIELDS,
    SEED,
    SEED_DOCUMENT,
    VALUES,
    VERSIONS,
    App,
    exists,
)
from tests.patch_strategies import patch_operations

#: Examples per test, by profile (see ``tests/hostile/conftest.py``).
CONTRACT_EXAMPLES = {'dev': 150, 'ci': 500, 'full': 5000}
_PROFILE = profile_name()
PROFILE = settings(
    max_examples=CONTRACT_EXAMPLES[_PROFILE],
    deadline=None,
    database=None if _PROFILE != 'dev' else settings.default.database,
    derandomize=_PROFILE == 'ci',
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

APPS = {mode: App(mode) for mode in ('reject', 'ignore')}

# --- the reference ---------------------------------------------------------

def bad_value(field: str, value: Any, version: str) -> bool:
    rule = VALUES.get(field)
    if rule is None or value is None:
        return False
    if not isinstance(value, str) or value not in rule:
        return True  # not a value of this field at all
    return not exists(rule[value], version)


def part_problems(part: Any, version: str, where: str) -> list[str]:
    if part is None:
        return []
    if not isinstance(part, dict):
        return [f'{where} is not an object']
    problems = []
    for name, value in part.items():
        if name not in PART_FIELDS or not exists(PART_FIELDS[name], version):
            problems.append(f'{where}.{name} at {version}')
        elif bad_value(name, value, version):
            problems.append(f'{where}.{name}={value!r} at {version}')
    return problems


def field_problems(name: str, value: Any, version: str) -> list[str]:
    """What is wrong with ``value`` of gadget field ``name`` at ``version``."""
    if name not in GADGET_FIELDS or not exists(GADGET_FIELDS[name], version):
        return [f'{name} at {version}']
    if value is None:
        return []
    if name == 'main':
        return part_problems(value, version, name)
    if name == 'parts':
        return [p for i, item in enumerate(value)
                for p in part_problems(item, version, f'parts[{i}]')]
    if name == 'slots':
        return [p for key, item in value.items()
                for p in part_problems(item, version, f'slots[{key}]')]
    if name == 'tags':
        return [f'tags={item!r} at {version}' for item in value
                if bad_value('tags', item, version)]
    if bad_value(name, value, version):
        return [f'{name}={value!r} at {version}']
    return []


def body_problems(body: dict, version: str) -> list[str]:
    problems = ['uuid is read-only'] if 'uuid' in body else []
    for name, value in body.items():
        problems += field_problems(name, value, version)
    return problems


def query_problems(arguments: dict, version: str) -> list[str]:
    problems = []
    for name, value in arguments.items():
        if name not in PARAMS or not exists(PARAMS[name], version):
            problems.append(f'parameter {name} at {version}')
        elif name in PARAM_VALUES:
            for item in value if isinstance(value, list) else [value]:
                rule = PARAM_VALUES[name]
                if item not in rule or not exists(rule[item], version):
                    problems.append(f'{name}={item!r} at {version}')
        elif name == 'flt':
            problems += part_problems(value, version, 'flt')
    return problems


def added(old: list, new: list) -> list[tuple[int, Any]]:
    """Items of ``new`` beyond as many as ``old`` had (a multiset)."""
    remaining = [json.dumps(item, sort_keys=True) for item in old]
    result = []
    for index, item in enumerate(new):
        key = json.dumps(item, sort_keys=True)
        if key in remaining:
            remaining.remove(key)
        else:
            result.append((index, item))
    return result


def change_problems(old: Any, new: Any, version: str,
                    field: str = '') -> list[str]:
    """What a patch changed, from ``old`` to ``new``, that ``version``
    could not have written.  Items that were already in a list (moved
    within it) are not new."""
    if old == new:
        return []
    if not field:  # the gadget
        problems = []
        for name in set(old) | set(new):
            if old.get(name) != new.get(name):
                if name not in new:
                    continue  # removed
                problems += change_problems(old.get(name), new[name],
                                            version, name)
        return problems
    if (field in ('main', 'slots') or field.startswith('parts')) and (
            isinstance(old, dict) and isinstance(new, dict)):
        if field == 'slots':
            return [p for key in new if old.get(key) != new[key]
                    for p in change_problems(old.get(key), new[key],
                                             version, f'parts:{key}')]
        problems = []
        for name in new:
            if old.get(name) != new[name]:
                problems += part_problems({name: new[name]}, version, field)
        return problems
    if field == 'parts' and isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            return [p for i, (a, b) in enumerate(zip(old, new, strict=True))
                    for p in change_problems(a, b, version, f'parts[{i}]')]
        return [p for i, item in added(old, new)
                for p in part_problems(item, version, f'parts[{i}]')]
    if field == 'tags' and isinstance(old, list) and isinstance(new, list):
        return [f'tags={item!r} at {version}' for _, item in added(old, new)
                if bad_value('tags', item, version)]
    if field.startswith('parts'):  # a whole part replaced
        return part_problems(new, version, field)
    return field_problems(field, new, version)


# --- strategies ------------------------------------------------------------

NAMES = st.text('abcxyz-é', min_size=1, max_size=6)


def allowed(field: str, version: Optional[str]) -> st.SearchStrategy:
    """Values of an enum field: all of them (and a bogus one), or only those
    ``version`` has."""
    if version is None:
        return st.sampled_from(sorted(VALUES[field]) + ['bogus'])
    return st.sampled_from(sorted(v for v, bounds in VALUES[field].items()
                                  if exists(bounds, version)))


def fields_of(table: dict, version: Optional[str]) -> list[str]:
    return sorted(name for name, bounds in table.items()
                  if version is None or exists(bounds, version))


@st.composite
def parts(draw, version: Optional[str] = None) -> dict:
    """A part; with ``version``, one valid at that version."""
    names = fields_of(PART_FIELDS, version)
    fields = draw(st.sets(st.sampled_from(names), max_size=3))
    values = {'label': NAMES, 'grade': NAMES,
              'kind': allowed('kind', version)}
    return {name: draw(values[name]) for name in sorted(fields)}


@st.composite
def gadgets(draw, version: Optional[str] = None) -> dict:
    """A gadget body; with ``version``, one valid at that version."""
    values = {
        'uuid': NAMES, 'name': NAMES, 'colour': NAMES,
        'size': st.integers(0, 9), 'mode': allowed('mode', version),
        'main': parts(version),
        'parts': st.lists(parts(version), max_size=2),
        'slots': st.dictionaries(st.sampled_from(['s0', 's1']),
                                 parts(version), max_size=2),
        'tags': st.lists(allowed('tags', version), max_size=3),
    }
    optional = [n for n in fields_of(GADGET_FIELDS, version)
                if n not in ('name', 'uuid')]
    fields = draw(st.sets(st.sampled_from(optional), max_size=4))
    if version is not None or draw(st.integers(0, 9)) > 0:
        fields.add('name')
    if version is None and draw(st.integers(0, 19)) == 0:
        fields.add('uuid')
    return {name: draw(values[name]) for name in sorted(fields)}


ANY_MODE = allowed('mode', None)
ANY_KIND = allowed('kind', None)
ANY_TAG = allowed('tags', None)


def flatten(prefix: str, value: Any, indexed: bool) -> list[tuple[str, str]]:
    """WSME's query/form syntax for ``value`` under ``prefix``."""
    if isinstance(value, dict):
        return [pair for key, item in value.items()
                for pair in flatten(f'{prefix}.{key}', item, indexed)]
    if isinstance(value, list):
        if indexed or any(isinstance(item, dict) for item in value):
            return [pair for i, item in enumerate(value)
                    for pair in flatten(f'{prefix}[{i}]', item, indexed)]
        return [(prefix, str(item)) for item in value]
    return [(prefix, str(value))]


def flatten_slots(prefix: str, slots: dict) -> list[tuple[str, str]]:
    return [pair for key, part in slots.items()
            for pair in flatten(f'{prefix}[{key}]', part, False)]


def form_pairs(name: str, body: dict, indexed: bool) -> list[tuple[str, str]]:
    pairs = []
    for field, value in body.items():
        if field == 'slots':
            pairs += flatten_slots(f'{name}.slots', value)
        else:
            pairs += flatten(f'{name}.{field}', value, indexed)
    return pairs


def xml_of(tag: str, value: Any) -> str:
    if isinstance(value, dict):
        if tag == 'slots':
            inner = ''.join(f'<item><key>{escape(k)}</key>'
                            f'{xml_of("value", v)}</item>'
                            for k, v in value.items())
        else:
            inner = ''.join(xml_of(k, v) for k, v in value.items())
    elif isinstance(value, list):
        inner = ''.join(xml_of('item', item) for item in value)
    else:
        inner = escape(str(value))
    return f'<{tag}>{inner}</{tag}>'


JSON_TYPES = ['application/json', 'application/json; charset=utf-8',
              'application/json; charset=UTF-8',
              'application/json; charset=latin-1',
              'application/json; charset=utf-16',
              'application/json; charset=x-unknown', 'text/javascript']
SOURCES = ['json', 'form', 'form-indexed', 'multipart', 'xml', 'query',
           'dunder-body', 'text-plain']


def encode(source: str, name: str, body: Any, named: bool,
           content_type: str) -> tuple[str, bytes, str]:
    """(query string, body bytes, content type) carrying ``body``."""
    document = {name: body} if named else body
    if source == 'json':
        charset = content_type.partition('charset=')[2].lower() or 'utf-8'
        try:
            raw = json.dumps(document, ensure_ascii=False).encode(charset)
        except (LookupError, UnicodeEncodeError):
            raw = json.dumps(document, ensure_ascii=False).encode('utf-8')
        return '', raw, content_type
    if source == 'text-plain':
        return '', json.dumps(document).encode(), 'text/plain'
    if source == 'dunder-body':
        return (urllib.parse.urlencode({'__body__': json.dumps(document)}),
                b'', 'application/json')
    if source == 'xml':
        root = 'parameters' if named else name
        return '', xml_of(root, document).encode(), 'text/xml'
    pairs = form_pairs(name, body, source == 'form-indexed')
    if source == 'query':
        return urllib.parse.urlencode(pairs), b'', ''
    if source == 'multipart':
        boundary = 'pmvboundary'
        chunks = [f'--{boundary}\r\nContent-Disposition: form-data; '
                  f'name="{key}"\r\n\r\n{value}\r\n' for key, value in pairs]
        raw = (''.join(chunks) + f'--{boundary}--\r\n').encode()
        return '', raw, f'multipart/form-data; boundary={boundary}'
    return ('', urllib.parse.urlencode(pairs).encode(),
            'application/x-www-form-urlencoded')


def send(app: App, method: str, path: str, version: str, query: str,
         raw: bytes, content_type: str):
    if query:
        path = f'{path}?{query}'
    headers = {'OpenStack-API-Version': f'gadget {version}'}
    if content_type:
        headers['Content-Type'] = content_type
    return app.client.request(path, method=method, body=raw,
                              headers=headers, expect_errors=True)


def assert_answer(response) -> None:
    assert response.status_int < 500, (response.status, response.body[:500])
    if response.status_int >= 400:
        assert response.content_type == 'application/json'
        assert response.json['errors'][0]['status'] == response.status_int
    assert 'OpenStack-API-Version' in response.headers


# --- the properties ----------------------------------------------------------

@PROFILE
@given(mode=st.sampled_from(sorted(APPS)), version=st.sampled_from(VERSIONS),
       source=st.sampled_from(SOURCES),
       content_type=st.sampled_from(JSON_TYPES), named=st.booleans(),
       valid=st.booleans(), data=st.data())
def test_bodies_hold_only_the_requested_version(mode, version, source,
                                                content_type, named, valid,
                                                data):
    """Half of the bodies are valid at the version, the others use any
    field and value."""
    body = data.draw(gadgets(version if valid else None), label='body')
    app = APPS[mode]
    app.reset()
    query, raw, content_type = encode(source, 'gadget', body, named,
                                      content_type)
    method, path = ('PUT', '/gadgets/x') if named else ('POST', '/gadgets')
    response = send(app, method, path, version, query, raw, content_type)
    assert_answer(response)
    for kind, seen_version, received in app.received:
        assert (kind, seen_version) == ('body', version)
        assert body_problems(received, version) == [], (source, received)


QUERY_SOURCES = ['query', 'query-indexed', 'json', 'form', 'dunder-body']


@st.composite
def query_arguments(draw) -> dict:
    values = {'q': NAMES, 'colour': NAMES, 'size': st.integers(0, 9),
              'mode': ANY_MODE, 'tag': st.lists(ANY_TAG, min_size=1,
                                                 max_size=3),
              'flt': parts().filter(bool), 'zzz': NAMES}
    fields = draw(st.sets(st.sampled_from(sorted(values)), max_size=4))
    return {name: draw(values[name]) for name in sorted(fields)}


@PROFILE
@given(mode=st.sampled_from(sorted(APPS)), version=st.sampled_from(VERSIONS),
       arguments=query_arguments(), source=st.sampled_from(QUERY_SOURCES))
def test_query_parameters_hold_only_the_requested_version(
        mode, version, arguments, source):
    app = APPS[mode]
    app.reset()
    raw, content_type, query = b'', '', ''
    if source == 'json':
        raw, content_type = json.dumps(arguments).encode(), 'application/json'
    elif source == 'dunder-body':
        query = urllib.parse.urlencode({'__body__': json.dumps(arguments)})
    else:
        pairs = []
        for name, value in arguments.items():
            pairs += flatten(name, value, source == 'query-indexed')
        if source == 'form':
            raw = urllib.parse.urlencode(pairs).encode()
            content_type = 'application/x-www-form-urlencoded'
        else:
            query = urllib.parse.urlencode(pairs)
    response = send(app, 'GET', '/gadgets', version, query, raw,
                    content_type)
    assert_answer(response)
    for kind, seen_version, received in app.received:
        assert (kind, seen_version) == ('query', version)
        assert query_problems(received, version) == [], (source, received)


POINTERS = ['/name', '/colour', '/size', '/mode', '/main', '/main/kind',
            '/main/grade', '/main/label', '/parts', '/parts/0', '/parts/1',
            '/parts/-', '/parts/1/kind', '/parts/0/grade', '/slots',
            '/slots/s0', '/slots/s1', '/slots/s0/kind', '/tags', '/tags/0',
            '/tags/1', '/tags/-', '/uuid', '/bogus']
PATCH_VALUES = st.one_of(
    st.none(), NAMES, st.integers(0, 9), ANY_MODE, ANY_KIND, ANY_TAG,
    parts(), st.lists(parts(), max_size=2), st.lists(ANY_TAG, max_size=2),
    st.dictionaries(st.sampled_from(['s0', 's1']), parts(), max_size=1))


PATCH_OPERATIONS = patch_operations(POINTERS, PATCH_VALUES)


PATCH_SOURCES = ['json', 'json', 'json', 'form', 'xml', 'query']


@PROFILE
@given(mode=st.sampled_from(sorted(APPS)), version=st.sampled_from(VERSIONS),
       patch=st.one_of(st.lists(PATCH_OPERATIONS, min_size=1, max_size=3),
                       st.builds(lambda path, value: [{
                           'op': 'replace', 'path': path, 'value': value}],
                           st.sampled_from(['/name', '/main/label']), NAMES)),
       source=st.sampled_from(PATCH_SOURCES))
def test_patches_change_only_what_the_version_has(mode, version, patch,
                                                  source):
    """Any operations, and replacements of fields every version has."""
    app = APPS[mode]
    app.reset()
    if source == 'json':
        query, raw, content_type = '', json.dumps(patch).encode(), \
            'application/json'
    elif source == 'xml':
        query, raw, content_type = '', xml_of('patch', [
            {('from' if k == 'from' else k): v for k, v in op.items()
             if not isinstance(v, (dict, list))} for op in patch]).encode(), \
            'text/xml'
    else:
        pairs = []
        for index, op in enumerate(patch):
            for key, value in op.items():
                if not isinstance(value, (dict, list)):
                    name = 'from_' if key == 'from' else key
                    pairs.append((f'patch[{index}].{name}', str(value)))
        encoded = urllib.parse.urlencode(pairs)
        query, raw, content_type = (encoded, b'', '') if source == 'query' \
            else ('', encoded.encode(), 'application/x-www-form-urlencoded')
    response = send(app, 'PATCH', f'/gadgets/{SEED}', version, query, raw,
                    content_type)
    assert_answer(response)
    problems = change_problems(SEED_DOCUMENT, app.store[SEED], version)
    assert problems == [], (source, patch, app.store[SEED])


@pytest.mark.parametrize('version, patch', [
    ('1.2', [{'op': 'copy', 'from': '/main/kind', 'path': '/parts/0/kind'}]),
    ('1.2', [{'op': 'copy', 'from': '/main', 'path': '/parts/0'}]),
    ('1.2', [{'op': 'copy', 'from': '/parts/1', 'path': '/parts/-'}]),
    ('1.1', [{'op': 'add', 'path': '/tags/-', 'value': 'c'}]),
    ('1.0', [{'op': 'replace', 'path': '/colour', 'value': 'blue'}]),
])
def test_reference_flags_what_a_patch_may_not_do(version, patch):
    """The reference is not vacuous: these effects are flagged."""
    import jsonpatch
    after = jsonpatch.apply_patch(SEED_DOCUMENT, patch)
    assert change_problems(SEED_DOCUMENT, after, version) != []


def test_reference_flags_bodies_and_queries():
    assert body_problems({'name': 'x', 'colour': 'r'}, '1.0')
    assert body_problems({'name': 'x', 'main': {'grade': 'g'}}, '1.1')
    assert body_problems({'name': 'x', 'tags': ['c']}, '1.3')
    assert not body_problems({'name': 'x', 'tags': ['c']}, '1.4')
    assert query_problems({'tag': ['c']}, '1.3')
    assert query_problems({'flt': {'kind': 'gear'}}, '1.2')
    assert not query_problems({'flt': {'kind': 'gear'}}, '1.3')


# --- controls: each source does carry a valid request -------------------------

VALID = {'name': 'n', 'colour': 'red', 'mode': 'eco',
         'main': {'label': 'm', 'grade': 'g'}, 'tags': ['a', 'b'],
         'parts': [{'label': 'p', 'kind': 'nut'}]}


@pytest.mark.parametrize('source, named', [
    ('json', False), ('form', False), ('form-indexed', True),
    ('xml', False), ('xml', True), ('query', True)])
def test_each_body_source_carries_a_valid_body(source, named):
    """The properties cannot hold by refusing everything: each source gets
    a body valid at 1.2 through, whole.  (A JSON object of arguments by
    name does not: Pecan passes its members as strings first, and WSME
    cannot convert a dict given that way; a 400.)"""
    app = APPS['reject']
    app.reset()
    query, raw, content_type = encode(source, 'gadget', VALID, named,
                                      'application/json')
    method, path = ('PUT', '/gadgets/x') if named else ('POST', '/gadgets')
    response = send(app, method, path, '1.2', query, raw, content_type)
    assert response.status_int in (200, 201), response.body[:300]
    assert app.received == [('body', '1.2', VALID)]


@pytest.mark.parametrize('source, query, raw, content_type', [
    ('query', 'colour=r&tag=a&tag=b&flt.grade=g', b'', ''),
    ('query-indexed', 'colour=r&tag[0]=a&tag[1]=b&flt.grade=g', b'', ''),
    ('json', '', json.dumps({'colour': 'r', 'tag': ['a', 'b'],
                             'flt': {'grade': 'g'}}).encode(),
     'application/json'),
])
def test_each_query_source_carries_valid_parameters(source, query, raw,
                                                   content_type):
    app = APPS['ignore']
    app.reset()
    response = send(app, 'GET', '/gadgets', '1.3', query, raw, content_type)
    assert response.status_int == 200, response.body[:300]
    assert app.received == [('query', '1.3', {
        'colour': 'r', 'tag': ['a', 'b'], 'flt': {'grade': 'g'}})]


@pytest.mark.parametrize('source', ['json', 'form', 'xml'])
def test_each_patch_source_carries_a_valid_patch(source):
    app = APPS['reject']
    app.reset()
    if source == 'json':
        raw, content_type = json.dumps([{
            'op': 'replace', 'path': '/main/grade', 'value': 'g9'}]).encode(), \
            'application/json'
    elif source == 'xml':
        raw, content_type = (b'<patch><item><op>replace</op><path>/main/grade'
                             b'</path><value>g9</value></item></patch>',
                             'text/xml')
    else:
        raw, content_type = (b'patch[0].op=replace&patch[0].path=/main/grade'
                             b'&patch[0].value=g9',
                             'application/x-www-form-urlencoded')
    response = send(app, 'PATCH', f'/gadgets/{SEED}', '1.2', '', raw,
                    content_type)
    assert response.status_int == 200, response.body[:300]
    assert app.store[SEED]['main']['grade'] == 'g9'
