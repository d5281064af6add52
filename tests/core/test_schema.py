"""Schema: the field declarations for plain-dict resources."""

import pytest

from pecan_microversions import (
    Computed,
    RequestError,
    Version,
    VersionRegistry,
)
from pecan_microversions.core.errors import InvalidDeclarationError, UnknownVersionError
from pecan_microversions.core.schema import Schema, field

V10, V11, V12, V13 = (Version(1, n) for n in range(4))


def _schema(**options):
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                         ('1.2', 'c'), ('1.3', 'd')],
                               **options)
    return Schema(registry, 'book', {
        'id': field(readonly=True),
        'title': field(mandatory=True),
        'author': field(max_version='1.1'),
        'writer': field(min_version='1.2', replaces='author'),
        'colour': field(min_version='1.1'),
        'format': field(values={'paper': None, 'ebook': '1.3',
                                'scroll': (None, '1.1')}),
    })


def _refused(call, code, status=400):
    with pytest.raises(RequestError) as caught:
        call()
    assert (caught.value.code, caught.value.error_code) == (status, code)
    return caught.value.detail


def test_declared_in_the_registry():
    schema = _schema()
    names = {(d.name, d.min_version, d.max_version)
             for d in schema.registry.declarations('field', 'book')}
    assert ('writer', V12, None) in names and ('author', None, V11) in names
    values = {d.name for d in schema.registry.declarations('field_value')}
    assert values == {'format=paper', 'format=ebook', 'format=scroll'}
    assert schema.visible_fields('1.0') == {'id', 'title', 'author', 'format'}


def test_filter_by_version_and_rename():
    schema = _schema()
    stored = {'id': 1, 'title': 't', 'author': 'a', 'colour': 'red',
              'extra': True}
    assert schema.filter(stored, V10) == {'id': 1, 'title': 't',
                                          'author': 'a', 'extra': True}
    assert schema.filter([stored], V12) == [{
        'id': 1, 'title': 't', 'writer': 'a', 'colour': 'red',
        'extra': True}]
    with pytest.raises(TypeError):
        schema.filter('text', V10)


def test_check_body_accepts_and_fills_renames():
    body = _schema().check_body({'title': 't', 'writer': 'w'}, V12)
    assert body == {'title': 't', 'writer': 'w', 'author': 'w'}


@pytest.mark.parametrize('data, version, code, status', [
    ({'title': 't', 'colour': 'red'}, V10, 'microversion.field_unavailable',
     406),
    ({'title': 't', 'author': 'a'}, V12, 'microversion.field_unavailable',
     406),
    ({'title': 't', 'nope': 1}, V12, 'microversion.unknown_field', 400),
    ({'title': 't', 'id': 1}, V12, 'microversion.read_only_field', 400),
    ({'title': None}, V12, 'microversion.null_mandatory_field', 400),
    ({}, V12, 'microversion.missing_field', 400),
    ({'title': 't', 'format': 'ebook'}, V12, 'microversion.value_unavailable',
     406),
    ({'title': 't', 'format': 'scroll'}, V12,
     'microversion.value_unavailable', 406),
    ({'title': 't', 'format': 'clay'}, V13, 'microversion.invalid_value',
     400),
    (['title'], V12, 'microversion.invalid_body', 400),
])
def test_check_body_refuses(data, version, code, status):
    schema = _schema(unavailable_status=406)
    detail = _refused(lambda: schema.check_body(data, version), code, status)
    assert detail


def test_unavailable_status_default_is_400():
    _refused(lambda: _schema().check_body({'title': 't', 'colour': 'r'}, V10),
             'microversion.field_unavailable', 400)


def test_null_as_absent_both_sides():
    _refused(lambda: _schema().check_body({'title': 't', 'colour': None},
                                          V10),
             'microversion.field_unavailable')
    lenient = _schema(null_as_absent=True)
    assert lenient.check_body({'title': 't', 'colour': None}, V10) == {
        'title': 't'}
    _refused(lambda: lenient.check_body({'title': 't', 'colour': 'r'}, V10),
             'microversion.field_unavailable')


def test_patch_checked_and_applied():
    schema = _schema()
    document = {'id': 1, 'title': 't', 'writer': 'w'}
    assert schema.apply_patch(document, [
        {'op': 'replace', 'path': '/writer', 'value': 'x'},
        {'op': 'add', 'path': '/format', 'value': 'ebook'}], V13) == {
        'id': 1, 'title': 't', 'writer': 'x', 'format': 'ebook'}
    assert document['writer'] == 'w'  # a copy was patched


@pytest.mark.parametrize('patch, code', [
    ({'op': 'add'}, 'microversion.invalid_patch'),
    ([{'op': 'jump', 'path': '/title'}], 'microversion.invalid_patch'),
    ([{'op': 'add', 'path': '/title'}], 'microversion.invalid_patch'),
    ([{'op': 'add', 'path': ''}], 'microversion.invalid_patch'),
    ([{'op': 'add', 'path': '/author', 'value': 'a'}],
     'microversion.field_unavailable'),
    ([{'op': 'replace', 'path': '/id', 'value': 2}],
     'microversion.read_only_field'),
    ([{'op': 'remove', 'path': '/title'}], 'microversion.missing_field'),
    ([{'op': 'replace', 'path': '/title', 'value': None}],
     'microversion.missing_field'),
    ([{'op': 'add', 'path': '/nope', 'value': 1}],
     'microversion.unknown_field'),
    ([{'op': 'add', 'path': '/format', 'value': 'ebook'}],
     'microversion.value_unavailable'),
    ([{'op': 'remove', 'path': '/colour/deep'}], 'microversion.patch_failed'),
])
def test_patch_refused(patch, code):
    schema = _schema()
    document = {'id': 1, 'title': 't', 'writer': 'w', 'colour': 'r'}
    _refused(lambda: schema.apply_patch(document, patch, V12), code)


@pytest.mark.parametrize('fields, error, match', [
    ({'a': field(min_version='9.9')}, UnknownVersionError, '9.9'),
    ({'a': field(min_version='1.2', max_version='1.1')},
     InvalidDeclarationError, 'below min_version'),
    ({'a': field(replaces='b')}, InvalidDeclarationError, 'not another'),
    ({'a': field(), 'b': field(min_version='1.1', replaces='a')},
     InvalidDeclarationError, 'max_version'),
    ({'a': 'text'}, InvalidDeclarationError, 'field'),
])
def test_declaration_mistakes(fields, error, match):
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                         ('1.2', 'c')])
    with pytest.raises(error, match=match):
        Schema(registry, 'book', fields)


def test_a_resource_is_declared_once():
    schema = _schema()
    with pytest.raises(InvalidDeclarationError, match='already'):
        Schema(schema.registry, 'book', {'x': field()})


def test_a_computed_field_reads_only_what_it_declares():
    registry = VersionRegistry('s', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {
        'state': field(), 'label': field(),
        'seen': field(max_version='1.0', readonly=True, changes=[
            Computed(lambda doc: sorted(doc), reads=['state'])])})
    assert schema.filter({'state': 'x', 'label': 'l'}, Version(1, 0)) == {
        'state': 'x', 'label': 'l', 'seen': ['state']}
    with pytest.raises(InvalidDeclarationError, match="reads 'nope'"):
        Schema(VersionRegistry('t', [('1.0', 'a'), ('1.1', 'b')]), 'thing', {
            'state': field(), 'seen': field(max_version='1.0', changes=[
                Computed(len, reads=['nope'])])})
