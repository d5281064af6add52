"""Schema: the field declarations for plain-dict resources."""

import re

import pytest

from pecan_microversions import (
    Computed,
    Renamed,
    RequestError,
    Retype,
    ValueMap,
    Version,
    VersionRegistry,
)
from pecan_microversions.core.errors import InvalidDeclarationError, UnknownVersionError
from pecan_microversions.core.json_bodies import read_json
from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.schema import Schema, field

V10, V11, V12, V13 = (Version(1, n) for n in range(4))


def _schema(_extra=None, **options):
    """A book at four versions; ``_extra``: more fields of its own."""
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
        **(_extra or {}),
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


# -- patches judged by their effect (copy, move, nested paths) -------------

BOOK = {'id': 1, 'title': 't', 'writer': 'w', 'author': 'w', 'colour': 'c',
        'format': 'paper', 'notes': 'ebook', 'tags': ['clay', None]}


def _book():
    """_schema()'s book, with free-form notes and tags."""
    return _schema({'notes': field(), 'tags': field()})


@pytest.mark.parametrize('patch, version, code', [
    # copy and move cannot bring what add and replace may not send
    ([{'op': 'copy', 'from': '/notes', 'path': '/format'}], V12,
     'microversion.value_unavailable'),
    ([{'op': 'move', 'from': '/notes', 'path': '/format'}], V12,
     'microversion.value_unavailable'),
    ([{'op': 'move', 'from': '/tags/0', 'path': '/format'}], V13,
     'microversion.invalid_value'),
    ([{'op': 'copy', 'from': '/tags', 'path': '/format'}], V13,
     'microversion.invalid_value'),
    ([{'op': 'copy', 'from': '/tags/1', 'path': '/title'}], V13,
     'microversion.missing_field'),
    ([{'op': 'move', 'from': '/tags/1', 'path': '/title'}], V13,
     'microversion.missing_field'),
    # a change below a field is judged on the field's new value
    ([{'op': 'add', 'path': '/format', 'value': {}},
      {'op': 'add', 'path': '/format/x', 'value': 'paper'}], V13,
     'microversion.invalid_value'),
])
def test_copy_and_move_are_judged_by_their_effect(patch, version, code):
    schema = _book()
    _refused(lambda: schema.apply_patch(BOOK, patch, version), code)
    assert BOOK['format'] == 'paper'


def test_copy_and_move_of_allowed_values_apply():
    schema = _book()
    patched = schema.apply_patch(BOOK, [
        {'op': 'copy', 'from': '/notes', 'path': '/format'},
        {'op': 'move', 'from': '/tags/0', 'path': '/colour'}], V13)
    assert (patched['format'], patched['colour'], patched['tags']) == (
        'ebook', 'clay', [None])
    # a value left as it was is not judged again
    stored = dict(BOOK, format='clay')
    assert schema.apply_patch(stored, [
        {'op': 'replace', 'path': '/colour', 'value': 'x'}], V13)[
        'format'] == 'clay'


@pytest.mark.parametrize('op', ['copy', 'move'])
def test_check_patch_alone_refuses_copy_and_move_into_listed_values(op):
    # check_patch accepted them: a service applying what it checks set an
    # ebook format at 1.2 by copying it from notes
    schema = _book()
    patch = [{'op': op, 'from': '/notes', 'path': '/format'}]
    detail = _refused(lambda: schema.check_patch(patch, V12),
                      'microversion.invalid_patch')
    verb = {'copy': 'copies', 'move': 'moves'}[op]
    assert detail == (
        f"Patch operation #0 ({op}) into '/format': what it {verb} depends "
        "on the resource, and this field's values depend on the version; "
        'send the value with "add" or "replace".')
    # into free-form fields, and below them, they stay
    for path in ('/colour', '/tags/-'):
        free = [{'op': op, 'from': '/notes', 'path': path}]
        assert schema.check_patch(free, V12) == free
    # apply_patch and patch_newest see the value and judge it
    assert schema.apply_patch(BOOK, patch, V13)['format'] == 'ebook'
    assert schema.patch_newest(BOOK, patch, V13)['format'] == 'ebook'
    _refused(lambda: schema.apply_patch(BOOK, patch, V12),
             'microversion.value_unavailable')


@pytest.mark.parametrize('patch', [
    [{'op': 'copy', 'from': '/tags/-', 'path': '/colour'}],
    [{'op': 'move', 'from': '/tags/-', 'path': '/colour'}],
    [{'op': 'remove', 'path': '/tags/-'}],
    [{'op': 'replace', 'path': '/tags/-', 'value': 1}],
    [{'op': 'test', 'path': '/tags/-', 'value': 1}],
    [{'op': 'add', 'path': '/tags/-/x', 'value': 1}],
])
def test_a_dash_only_ends_an_add_copy_or_move_path(patch):
    detail = _refused(lambda: _book().apply_patch(BOOK, patch, V13),
                      'microversion.invalid_patch')
    assert '"-"' in detail
    assert _book().apply_patch(BOOK, [
        {'op': 'copy', 'from': '/colour', 'path': '/tags/-'}], V13)[
        'tags'] == ['clay', None, 'c']


@pytest.mark.parametrize('patch', [
    [{'op': 'remove', 'path': '/colour/0'}],
    [{'op': 'copy', 'from': '/colour/0', 'path': '/tags/-'}],
    [{'op': 'copy', 'from': '/colour/x', 'path': '/tags/-'}],
    [{'op': 'move', 'from': '/colour/0', 'path': '/tags/-'}],
    [{'op': 'replace', 'path': '/tags/0/x', 'value': 1}],
])
def test_a_path_through_a_string_is_a_400_not_a_500(patch):
    schema = _book()
    _refused(lambda: schema.apply_patch(BOOK, patch, V13),
             'microversion.patch_failed')
    _refused(lambda: schema.patch_newest(BOOK, patch, V13),
             'microversion.patch_failed')


@pytest.mark.parametrize('method', ['apply_patch', 'patch_newest'])
def test_patches_are_bounded_in_size_and_depth(method):
    apply = getattr(_book(), method)
    double = [{'op': 'copy', 'from': '/tags', 'path': '/tags/-'}] * 20
    nest = [{'op': 'copy', 'from': '/notes', 'path': '/notes/a'}] * 1200
    _refused(lambda: apply(BOOK, double, V13), 'microversion.patch_too_large')
    _refused(lambda: apply(dict(BOOK, notes={}), nest, V13),
             'microversion.body_too_deep')


@pytest.mark.parametrize('method', ['apply_patch', 'patch_newest'])
def test_a_deep_stored_document_can_still_be_patched(method):
    # a body some 600 levels deep passes check_body; patching it was then a
    # 400 body_too_deep whatever the patch (json_copy recursed)
    schema = _book()
    depth = 600
    stored = schema.check_body(read_json(
        '{"title": "t", "notes": ' + '[' * depth + ']' * depth + '}'), V13)
    patched = getattr(schema, method)(stored, [
        {'op': 'replace', 'path': '/title', 'value': 'u'},
        {'op': 'add', 'path': '/notes' + '/0' * (depth - 1) + '/-',
         'value': 1}],
        V13)
    assert patched['title'] == 'u'
    inner, levels = patched['notes'], 1
    while inner != [1]:
        inner, levels = inner[0], levels + 1
    assert levels == depth


# -- renamed fields: one value for every name -------------------------------

def test_a_patch_of_a_renamed_field_shows_at_every_version():
    schema = _schema()
    stored = schema.check_body({'title': 't', 'writer': 'orig'}, V12)
    stored = schema.apply_patch(stored, [
        {'op': 'replace', 'path': '/writer', 'value': 'new'}], V12)
    assert schema.filter(stored, V10)['author'] == 'new'
    stored = schema.apply_patch(stored, [
        {'op': 'replace', 'path': '/author', 'value': 'older'}], V10)
    assert schema.filter(stored, V12)['writer'] == 'older'
    assert stored['writer'] == stored['author'] == 'older'
    removed = schema.apply_patch(stored, [
        {'op': 'remove', 'path': '/author'}], V11)
    assert 'author' not in removed and 'writer' not in removed


@pytest.mark.parametrize('operation', [
    {'op': 'replace', 'path': '/author', 'value': 'x'},
    {'op': 'add', 'path': '/author', 'value': 'x'},
])
def test_the_old_name_patches_a_document_holding_the_new_one(operation):
    schema = _schema()
    stored = {'title': 't', 'writer': 'orig'}
    patched = schema.apply_patch(stored, [operation], V10)
    assert patched == {'title': 't', 'writer': 'x'}  # the same keys
    assert schema.filter(patched, V12)['writer'] == 'x'
    # a patch that leaves it alone leaves the keys alone
    assert schema.apply_patch(stored, [
        {'op': 'test', 'path': '/author', 'value': 'orig'},
        {'op': 'replace', 'path': '/title', 'value': 'u'}], V10) == {
        'title': 'u', 'writer': 'orig'}


def test_a_renamed_and_converted_field_reaches_the_newest_representation():
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b'),
                                     ('1.2', 'c')])
    schema = Schema(registry, 'node', {
        'driver': field(max_version='1.0'),
        'hw': field(min_version='1.1', replaces='driver', changes=[
            ValueMap({'new-ipmi': 'ipmi'}, '1.0', up={'ipmi': 'new-ipmi'})]),
        'size': field(max_version='1.0'),
        'dims': field(min_version='1.1', replaces='size', changes=[
            Retype(down=lambda d: d['w'], up=lambda w: {'w': w, 'h': 0},
                   max_version='1.0')]),
    })
    body = schema.check_body({'driver': 'ipmi', 'size': 3}, V10)
    assert body == {'driver': 'ipmi', 'size': 3, 'hw': 'new-ipmi',
                    'dims': {'w': 3, 'h': 0}}
    # Stored as it is (converting it up again would convert twice).
    assert schema.filter(body, V10) == {'driver': 'ipmi', 'size': 3}
    assert schema.filter(body, V12) == {'hw': 'new-ipmi',
                                        'dims': {'w': 3, 'h': 0}}
    # whatever order the names come in, the converted value wins
    assert schema.conversion.up({'hw': 'raw', 'driver': 'ipmi'}, V10) == {
        'hw': 'new-ipmi'}


def test_check_body_returns_every_converted_field_in_its_newest_form():
    # Only renamed fields were converted up: a 1.0 owner was returned (and
    # stored) as the string sent, and every later GET at 1.0 was a 500.
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b'),
                                     ('1.2', 'c')])
    schema = Schema(registry, 'node', {
        'name': field(),
        'owner': field(changes=[Retype(
            down=lambda o: o['name'], max_version='1.0',
            up=lambda n: {'name': n, 'domain': 'default'})]),
        'state': field(changes=[ValueMap({'deployed': 'active'}, '1.1',
                                         up={'active': 'deployed'})]),
        'driver': field(max_version='1.0'),
        'hw': field(min_version='1.1', replaces='driver', changes=[
            ValueMap({'new-ipmi': 'ipmi'}, '1.1', up={'ipmi': 'new-ipmi'})]),
        'label': field(max_version='1.0', changes=[
            Computed(lambda d: 'L', reads=['name'])]),
    })
    owner = {'name': 'alice', 'domain': 'default'}
    body = schema.check_body({'name': 'n', 'owner': 'alice', 'state': 'active',
                              'driver': 'ipmi'}, V10)
    assert body == {'name': 'n', 'owner': owner, 'state': 'deployed',
                    'driver': 'ipmi', 'hw': 'new-ipmi'}
    assert schema.filter(body, V10) == {'name': 'n', 'owner': 'alice',
                                        'state': 'active', 'driver': 'ipmi',
                                        'label': 'L'}
    # the newest name at a version whose values still differ: converted
    assert schema.check_body({'owner': owner, 'state': 'active',
                              'hw': 'ipmi'}, V11) == {
        'owner': owner, 'state': 'deployed', 'hw': 'new-ipmi'}
    newest = {'owner': owner, 'state': 'active', 'hw': 'ipmi'}
    assert schema.check_body(newest, V12) == newest
    # what apply_patch stores for the same request at the same version
    assert schema.apply_patch({'name': 'n'}, [
        {'op': 'add', 'path': '/owner', 'value': 'alice'},
        {'op': 'add', 'path': '/state', 'value': 'active'}], V10) == {
        'name': 'n', 'owner': owner, 'state': 'deployed'}


@pytest.mark.parametrize('patch, version', [
    ([{'op': 'add', 'path': '/author', 'value': 'a'}], V10),
    ([{'op': 'copy', 'from': '/title', 'path': '/author'}], V10),
    ([{'op': 'add', 'path': '/writer', 'value': 'a'}], V12),
])
def test_a_renamed_field_added_beside_converted_fields_is_never_lost(
        patch, version):
    # With a field declaring changes=, filter converts down, reading the
    # newest name only: added at 1.0 under "author" alone, the value the
    # client set was missing from every response.
    schema = _schema({'state': field(changes=[
        ValueMap({'new': 'old'}, '1.1')])})
    stored = schema.check_body({'title': 'a', 'state': 'new'}, V12)
    patched = schema.apply_patch(stored, patch, version)
    assert patched == schema.check_body(
        {'title': 'a', 'state': 'new', 'writer': 'a'}, V12)
    assert schema.filter(patched, V10)['author'] == 'a'
    assert schema.filter(patched, V12)['writer'] == 'a'
    # a document holding the old name alone shows it at every version too
    old = {'title': 't', 'author': 'a', 'state': 'new'}
    assert schema.filter(old, V10) == {'title': 't', 'author': 'a',
                                       'state': 'old'}
    assert schema.filter(old, V12) == {'title': 't', 'state': 'new',
                                       'writer': 'a'}


# -- patch_newest -------------------------------------------------------------

def _converted():
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b')])
    return Schema(registry, 'thing', {
        'name': field(mandatory=True),
        'extra': field(),
        'state': field(values={'active': None, 'failed': None,
                               'cancelled': '1.1'},
                       changes=[ValueMap({'cancelled': 'failed'}, '1.0')]),
        'summary': field(max_version='1.0', changes=[
            Computed(lambda d: f'S:{d.get("name")}', reads=['name'])]),
    })


@pytest.mark.parametrize('old, new', [
    (1, True), (0, False), (True, 1), (1, 1.0), ([1, 0], [True, False]),
    ({'a': 1}, {'a': True}), ({'a': [0]}, {'a': [False]})])
def test_patch_newest_keeps_a_change_python_calls_equal(old, new):
    schema = _converted()
    patched = schema.patch_newest({'name': 'n', 'extra': old}, [
        {'op': 'replace', 'path': '/extra', 'value': new}], V11)
    assert same_json(patched['extra'], new)


@pytest.mark.parametrize('operation', [
    {'op': 'remove', 'path': '/summary'},
    {'op': 'move', 'from': '/summary', 'path': '/extra'},
    {'op': 'replace', 'path': '/summary', 'value': 'x'},
    {'op': 'add', 'path': '/summary', 'value': 'x'},
    {'op': 'copy', 'from': '/name', 'path': '/summary'},
])
def test_a_computed_field_cannot_change(operation):
    schema = _converted()
    for patching in (schema.check_patch, lambda patch, version:
                     schema.apply_patch({'name': 'n'}, patch, version),
                     lambda patch, version: schema.patch_newest(
                         {'name': 'n'}, patch, version)):
        detail = _refused(lambda p=patching: p([operation], V10),
                          'microversion.read_only_field')
        assert detail == "Patch operation #0: field 'summary' is read-only."
    assert schema.patch_newest({'name': 'n'}, [
        {'op': 'copy', 'from': '/summary', 'path': '/extra'}], V10) == {
        'name': 'n', 'extra': 'S:n'}


def test_a_body_cannot_set_a_computed_field():
    # It was dropped from the body returned: accepted, never stored.
    schema = _converted()
    assert _refused(lambda: schema.check_body(
        {'name': 'n', 'summary': 'S:n'}, V10),
        'microversion.read_only_field') == "Field 'summary' is read-only."
    assert schema.check_body({'name': 'n'}, V10) == {'name': 'n'}


@pytest.mark.parametrize('operation, code', [
    ({'op': 'move', 'from': '/extra', 'path': '/name'},
     'microversion.missing_field'),
    ({'op': 'copy', 'from': '/extra', 'path': '/name'},
     'microversion.missing_field'),
    ({'op': 'copy', 'from': '/name', 'path': '/state'},
     'microversion.value_unavailable'),
])
def test_patch_newest_judges_copies_and_moves(operation, code):
    _refused(lambda: _converted().patch_newest(
        {'name': 'cancelled', 'extra': None}, [operation], V10), code)


def test_patch_newest_maps_a_copied_value_up():
    patched = _converted().patch_newest({'name': 'failed'}, [
        {'op': 'copy', 'from': '/name', 'path': '/state'}], V10)
    assert patched == {'name': 'failed', 'state': 'failed'}


# -- declarations ---------------------------------------------------------------

@pytest.mark.parametrize('fields, match', [
    ({'uuid': field(mandatory=True, readonly=True)},
     "Schema 'thing': uuid is both mandatory and read-only"),
    ({'state': field(values={'active': None, 'deleting': '1.1'},
                     changes=[ValueMap({'deleting': 'deleted'}, '1.0')])},
     "Schema 'thing': state: a ValueMap shows 'deleting' as 'deleted' at "
     "version 1.0, but values= does not allow 'deleted' there"),
    ({'state': field(values={'active': None, 'gone': (None, '1.0'),
                             'deleting': '1.2'},
                     changes=[ValueMap({'deleting': 'gone'}, '1.1')])},
     "shows 'deleting' as 'gone' at version 1.1"),
    ({'old': field(max_version='1.0', changes=[Computed(len)]),
      'new': field(min_version='1.1', replaces='old')},
     "replaces 'old', which declares changes="),
    # a Schema's checks and patches follow replaces= only: a Renamed
    # change was accepted, then the old name refused where it exists
    ({'name': field(), 'hw': field(changes=[Renamed('driver', '1.0')])},
     "Schema 'thing': hw declares Renamed('driver', '1.0') in changes=; a "
     "Schema renames with replaces=: declare 'driver': field(max_version="
     "'1.0') and 'hw': field(min_version=<the version after 1.0>, "
     "replaces='driver')."),
    ({'hw': field(changes=[ValueMap({'a': 'b'}, '1.0'),
                           Renamed('driver', '1.1')])},
     "hw declares Renamed('driver', '1.1')"),
    # an up= map onto a value values= forbids: stored, then shown at every
    # version, and refused when a client sent back what it read
    ({'state': field(values={'x': None, 'y': '1.2'},
                     changes=[ValueMap({'y': 'x'}, '1.1', up={'x': 'zzz'})])},
     "Schema 'thing': state: a ValueMap stores 'x', sent at version 1.0, as "
     "'zzz', but values= does not allow 'zzz' at version 1.2 (allowed: 'x', "
     "'y')."),
    # a Schema checks no types: the older one was silently ignored
    ({'size': field(changes=[Retype(down=str, up=int, max_version='1.1',
                                    datatype=str)])},
     "Schema 'thing': size declares Retype(datatype=<class 'str'>); a Schema "
     "checks no types: leave datatype= out and refuse what older clients "
     "may not send in up= (raise ValueError)."),
])
def test_declarations_no_request_could_satisfy(fields, match):
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                         ('1.2', 'c')])
    with pytest.raises(InvalidDeclarationError, match=re.escape(match)):
        Schema(registry, 'thing', fields)


def test_a_value_map_up_onto_null_is_accepted():
    # Old clients sent '' for unset; values= never rules out null.
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {'state': field(
        values={'on': None, 'off': None, '': (None, '1.0')},
        changes=[ValueMap({None: ''}, '1.0', up={'': None})])})
    assert schema.check_body({'state': ''}, V10) == {'state': None}


def test_a_value_map_onto_allowed_values_is_accepted():
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {'state': field(
        values={'active': None, 'failed': None, 'cancelled': '1.1'},
        changes=[ValueMap({'cancelled': 'failed'}, '1.0')])})
    shown = schema.filter({'state': 'cancelled'}, V10)
    assert schema.check_body(shown, V10) == {'state': 'failed'}


@pytest.mark.parametrize('pointer', ['/title', '/colour', '/tags/0'])
def test_a_move_onto_itself_changes_nothing(pointer):
    # RFC 6902 allows from == path: a no-op, even of a mandatory field.
    assert _book().apply_patch(BOOK, [
        {'op': 'move', 'from': pointer, 'path': pointer}], V13) == BOOK


@pytest.mark.parametrize('patch, version, code', [
    ([{'op': 'move', 'from': '/id', 'path': '/id'}], V13,
     'microversion.read_only_field'),
    ([{'op': 'move', 'from': '/colour', 'path': '/colour'}], V10,
     'microversion.field_unavailable'),
    ([{'op': 'move', 'from': '/title', 'path': '/title/x'}], V13,
     'microversion.missing_field'),
    # a proper prefix inside an array: jsonpatch would add into the next item
    ([{'op': 'move', 'from': '/tags/0', 'path': '/tags/0/x'}], V13,
     'microversion.patch_failed'),
])
def test_a_move_onto_itself_keeps_the_other_checks(patch, version, code):
    stored = dict(BOOK, tags=[{'a': 1}, {'b': 2}])
    _refused(lambda: _book().apply_patch(stored, patch, version), code)


def _retyped_schema():
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')])
    return Schema(registry, 'node', {
        'size': field(max_version='1.0'),
        'dims': field(min_version='1.1', replaces='size', changes=[
            Retype(down=lambda d: d['w'], up=lambda w: {'w': w, 'h': 0},
                   max_version='1.0')]),
        'name': field(),
    })


@pytest.mark.parametrize('document', [
    {'size': 3, 'dims': {'w': 3, 'h': 0}},   # as check_body stores it
    {'dims': {'w': 3, 'h': 0}},               # the newest name only
])
def test_a_patch_of_a_renamed_retyped_field_keeps_each_name_in_its_form(
        document):
    """Patched at 1.0 under its old name, the newest name holds the value
    converted up, as check_body stores it: 1.2 never sees 1.0's form."""
    schema = _retyped_schema()
    patched = schema.apply_patch(
        document, [{'op': 'replace', 'path': '/size', 'value': 5}],
        Version(1, 0))
    assert patched['dims'] == {'w': 5, 'h': 0}
    assert schema.filter(patched, Version(1, 2)) == {'dims': {'w': 5, 'h': 0}}
    assert schema.filter(patched, Version(1, 0))['size'] == 5


@pytest.mark.parametrize('patch', [
    [{'op': 'add', 'path': '/size', 'value': 5}],
    [{'op': 'copy', 'from': '/name', 'path': '/size'}],
])
def test_a_renamed_retyped_field_added_at_an_old_version_is_stored_as_sent(
        patch):
    """Added where the document held neither name, it is stored as
    check_body stores it: every version sees it, each in its own form."""
    schema = _retyped_schema()
    document = {'name': 5}
    patched = schema.apply_patch(document, patch, Version(1, 0))
    assert patched == schema.check_body({'name': 5, 'size': 5}, Version(1, 0))
    assert schema.filter(patched, Version(1, 0)) == {'size': 5, 'name': 5}
    assert schema.filter(patched, Version(1, 2)) == {
        'dims': {'w': 5, 'h': 0}, 'name': 5}
    assert document == {'name': 5}


def test_a_computed_field_is_computed_from_the_whole_document():
    # It was computed from the renamed fields alone: a KeyError (a 500)
    # on any patch at an old version, or its value refused as a change.
    registry = VersionRegistry('z', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'node', {
        'name': field(),
        'size': field(max_version='1.0'),
        'dims': field(min_version='1.1', replaces='size', changes=[
            Retype(down=lambda d: d['w'], up=lambda w: {'w': w, 'h': 0},
                   max_version='1.0')]),
        'label': field(max_version='1.0', changes=[
            Computed(lambda d: 'S:' + d['name'])]),
    })
    document = {'name': 'n', 'dims': {'w': 3, 'h': 0}}
    assert schema.apply_patch(document, [
        {'op': 'replace', 'path': '/name', 'value': 'm'}], Version(1, 0)
    ) == {'name': 'm', 'dims': {'w': 3, 'h': 0}}


def test_an_older_names_copy_never_hides_a_change_made_at_a_newer_version():
    """A copy stored under the old name is not rewritten in the newest
    form: it is dropped, and the old version reads the newest value."""
    schema = _retyped_schema()
    stored = schema.check_body({'size': 3}, Version(1, 0))
    patched = schema.apply_patch(stored, [
        {'op': 'replace', 'path': '/dims', 'value': {'w': 7, 'h': 1}}],
        Version(1, 2))
    assert patched == {'dims': {'w': 7, 'h': 1}}
    assert schema.filter(patched, Version(1, 0)) == {'size': 7}
    assert schema.apply_patch(patched, [
        {'op': 'test', 'path': '/size', 'value': 7}], Version(1, 0)) == patched


def test_a_patch_at_an_old_version_never_erases_what_it_cannot_see():
    schema = _retyped_schema()
    document = {'dims': {'w': 3, 'h': 7}, 'name': 'n'}
    with pytest.raises(RequestError) as info:
        schema.apply_patch(document, [
            {'op': 'replace', 'path': '/size', 'value': 5}], Version(1, 0))
    assert info.value.code == 409
    other = schema.apply_patch(document, [
        {'op': 'replace', 'path': '/name', 'value': 'm'}], Version(1, 0))
    assert other == {'dims': {'w': 3, 'h': 7}, 'name': 'm'}


@pytest.mark.parametrize('stray', [5, '', 'nonsense', '/title'])
def test_a_from_an_operation_does_not_define_is_ignored(stray):
    # RFC 6902: members an operation does not define are ignored; the
    # effect check read every "from" and refused these with a message
    # naming no operation.
    schema = _schema()
    document = {'id': 1, 'title': 't', 'writer': 'w'}
    patch = [{'op': 'add', 'path': '/colour', 'value': 'r', 'from': stray}]
    assert schema.check_patch(patch, V12) == patch
    for apply in (schema.apply_patch, schema.patch_newest):
        assert apply(document, patch, V12)['colour'] == 'r'


def test_an_up_conversion_failing_on_what_a_client_sent_is_a_400():
    # An IndexError (or an ArithmeticError) from a service's up= was a 500.
    registry = VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b')])
    schema = Schema(registry, 'thing', {'owner': field(changes=[Retype(
        down=lambda owner: owner['name'] + '@' + owner['domain'],
        up=lambda text: {'name': text.split('@')[0],
                         'domain': text.split('@')[1]},
        max_version='1.0')])})
    stored = {'owner': {'name': 'a', 'domain': 'd'}}
    detail = _refused(lambda: schema.check_body({'owner': 'alice'}, V10),
                      'microversion.invalid_value')
    assert detail == ("Field 'owner' of thing cannot be read at version 1.0: "
                      'list index out of range')
    patch = [{'op': 'replace', 'path': '/owner', 'value': 'alice'}]
    for apply in (schema.apply_patch, schema.patch_newest):
        _refused(lambda apply=apply: apply(stored, patch, V10),
                 'microversion.invalid_value')
    assert stored == {'owner': {'name': 'a', 'domain': 'd'}}
