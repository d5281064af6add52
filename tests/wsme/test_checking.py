"""check_body, check_patch and apply_patch with explicit versions."""

import pytest
from wsme import types as wtypes

from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import ValueMap
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.checking import (
    JsonPatchOperation,
    body_too_deep,
    check_body,
    check_patch,
)
from pecan_microversions.wsme.conversion import patch_newest
from pecan_microversions.wsme.fields import versioned, versioned_resource
from pecan_microversions.wsme.patching import apply_patch

HISTORY = [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c'), ('1.3', 'd')]
V0, V1, V2, V3 = (Version(1, n) for n in range(4))


def _types(unavailable_status=400):
    registry = VersionRegistry('shelf', HISTORY,
                               unavailable_status=unavailable_status)

    @versioned_resource(registry, 'leaf')
    class Leaf(wtypes.Base):
        c = wtypes.text
        d = versioned(int, min_version='1.2')

    @versioned_resource(registry, 'branch')
    class Branch(wtypes.Base):
        b = [Leaf]

    @versioned_resource(registry, 'node')
    class Node(wtypes.Base):
        uuid = wtypes.wsattr(wtypes.text, readonly=True)
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        owner = versioned(wtypes.text, min_version='1.1')
        kind = versioned(wtypes.text, min_version='1.2', mandatory=True)
        state = versioned(wtypes.Enum(str, 'on', 'off', 'new'),
                          values={'new': '1.3'})
        a = Branch
        tags = {wtypes.text: Leaf}
        extra = {wtypes.text: wtypes.text}

    # WSME holds nested complex types by weak reference: keep them alive.
    Node.nested_types = (Branch, Leaf)
    return Node


@pytest.fixture(scope='module')
def node_type():
    return _types()


def _error(call, *args):
    with pytest.raises(RequestError) as info:
        call(*args)
    return info.value


def test_a_valid_body_passes(node_type):
    assert check_body(node_type, {'name': 'n', 'owner': 'o',
                                  'a': {'b': [{'c': 'x'}]}}, V1) is None
    assert check_body(node_type, {'name': 'n', 'kind': 'k', 'state': 'new',
                                  'a': {'b': [{'c': 'x', 'd': 1}]}},
                      V3) is None


def test_unknown_field(node_type):
    error = _error(check_body, node_type, {'name': 'n', 'bogus': 1}, V0)
    assert error.code == 400
    assert error.error_code == 'microversion.unknown_field'
    assert "'bogus'" in error.detail


def test_read_only_field(node_type):
    error = _error(check_body, node_type, {'name': 'n', 'uuid': 'u'}, V0)
    assert error.code == 400
    assert error.error_code == 'microversion.read_only_field'
    assert error.detail == "Field 'uuid' is read-only."


def test_unavailable_field_with_400(node_type):
    error = _error(check_body, node_type, {'name': 'n', 'owner': 'o'}, V0)
    assert error.code == 400
    assert error.error_code == 'microversion.field_unavailable'
    assert error.detail == ("Field 'owner' of node is not available at "
                            'version 1.0; it exists from version 1.1 on.')


def test_unavailable_field_with_a_406_registry():
    node_type = _types(unavailable_status=406)
    error = _error(check_body, node_type, {'name': 'n', 'owner': 'o'}, V0)
    assert error.code == 406
    assert error.error_code == 'microversion.field_unavailable'
    # Bad values that exist at no version stay 400.
    error = _error(check_body, node_type, {'name': 'n', 'state': 'x'}, V3)
    assert error.code == 400
    error = _error(check_body, node_type, {'name': 'n', 'state': 'new'}, V2)
    assert error.code == 406
    assert error.error_code == 'microversion.value_unavailable'


def test_mandatory_missing_and_null(node_type):
    error = _error(check_body, node_type, {'name': None}, V0)
    assert error.error_code == 'microversion.null_mandatory_field'
    # kind is mandatory only where it exists.
    assert check_body(node_type, {'name': 'n'}, V1) is None
    error = _error(check_body, node_type, {'name': 'n'}, V2)
    assert error.error_code == 'microversion.missing_field'
    assert error.detail == "Mandatory field 'kind' is missing."
    error = _error(check_body, node_type, {'name': 'n', 'kind': None}, V2)
    assert error.error_code == 'microversion.null_mandatory_field'


def test_nested_labels(node_type):
    body = {'name': 'n', 'a': {'b': [{'c': 'x'}, {'c': 'y', 'd': 2}]}}
    error = _error(check_body, node_type, body, V1)
    assert error.error_code == 'microversion.field_unavailable'
    assert "'a.b[1].d' of leaf" in error.detail
    error = _error(check_body, node_type,
                   {'name': 'n', 'a': {'b': [{'e': 1}]}}, V3)
    assert "'a.b[0].e'" in error.detail
    error = _error(check_body, node_type,
                   {'name': 'n', 'tags': {'t1': {'d': 1}}}, V0)
    assert "'tags[t1].d'" in error.detail
    error = _error(check_body, node_type, {'name': 'n', 'a': [1]}, V0)
    assert error.error_code == 'microversion.invalid_body'
    assert error.detail == "Field 'a' must be a JSON object."
    error = _error(check_body, node_type, ['not', 'an', 'object'], V0)
    assert error.detail == 'The body must be a JSON object.'


def test_list_body_type(node_type):
    error = _error(check_body, [node_type], [{'name': 'n'}, {'owner': 'o',
                                                             'name': 'm'}],
                   V0)
    assert "'[1].owner'" in error.detail


def _tree_type():
    """A self-referencing type: bodies as deep as the client likes."""
    registry = VersionRegistry('tree', HISTORY)

    class Tree(wtypes.Base):
        name = wtypes.text
        note = versioned(wtypes.text, min_version='1.1')

    Tree.children = [Tree]
    wtypes.registry.reregister(Tree)
    return versioned_resource(registry, 'tree')(Tree)



def test_body_too_deep():
    tree = _tree_type()
    shallow = {'name': 'a', 'children': [{'name': 'b', 'note': 'x'}]}
    error = _error(check_body, tree, shallow, V0)
    assert "'children[0].note'" in error.detail
    deep = {'name': 'leaf'}
    for _ in range(5000):
        deep = {'children': [deep]}
    error = _error(check_body, tree, deep, V0)
    assert error.code == 400
    assert error.error_code == 'microversion.body_too_deep'
    assert error.detail == 'The JSON body is nested too deeply.'
    assert body_too_deep().error_code == 'microversion.body_too_deep'


def test_patch_value_too_deep():
    tree = _tree_type()
    deep = {'name': 'leaf'}
    for _ in range(5000):
        deep = {'children': [deep]}
    error = _error(check_patch, tree,
                   [{'op': 'add', 'path': '/children/0', 'value': deep}], V0)
    assert error.error_code == 'microversion.body_too_deep'


def test_patch_checks_paths(node_type):
    ok = check_patch(node_type, [{'op': 'replace', 'path': '/owner',
                                  'value': 'o'}], V1)
    assert ok == [{'op': 'replace', 'path': '/owner', 'value': 'o'}]
    error = _error(check_patch, node_type,
                   [{'op': 'replace', 'path': '/owner', 'value': 'o'}], V0)
    assert error.error_code == 'microversion.field_unavailable'
    error = _error(check_patch, node_type,
                   [{'op': 'replace', 'path': '/uuid', 'value': 'u'}], V0)
    assert error.error_code == 'microversion.read_only_field'
    assert error.detail.startswith('Patch operation #0:')
    error = _error(check_patch, node_type,
                   [{'op': 'test', 'path': '/name', 'value': 'n'},
                    {'op': 'remove', 'path': '/name'}], V0)
    assert error.error_code == 'microversion.missing_field'
    assert error.detail.startswith('Patch operation #1:')
    error = _error(check_patch, node_type,
                   [{'op': 'replace', 'path': '/kind', 'value': None}], V2)
    assert error.error_code == 'microversion.missing_field'
    error = _error(check_patch, node_type,
                   [{'op': 'add', 'path': '/a/b/0/d', 'value': 1}], V1)
    assert "'a.b[0].d'" in error.detail
    error = _error(check_patch, node_type,
                   [{'op': 'add', 'path': '/a/b/01', 'value': {}}], V1)
    assert error.error_code == 'microversion.invalid_patch'
    error = _error(check_patch, node_type,
                   [{'op': 'move', 'from': '/owner', 'path': '/name'}], V0)
    assert error.error_code == 'microversion.field_unavailable'


def test_patch_values_are_checked(node_type):
    error = _error(check_patch, node_type,
                   [{'op': 'add', 'path': '/state', 'value': 'new'}], V2)
    assert error.error_code == 'microversion.value_unavailable'
    error = _error(check_patch, node_type,
                   [{'op': 'add', 'path': '/a', 'value': {'b': [{'d': 1}]}}],
                   V0)
    assert "'a.b[0].d'" in error.detail


@pytest.mark.parametrize('patch, words', [
    ({'op': 'add'}, 'must be a JSON patch'),
    ([1], 'must be a JSON object'),
    ([{'op': 'jump', 'path': '/name'}], '"op" must be one of'),
    ([{'op': 'add', 'path': '/name'}], 'has no "value"'),
    ([{'op': 'remove'}], 'has no "path" string'),
    ([{'op': 'remove', 'path': 'name'}], 'invalid "path"'),
    ([{'op': 'remove', 'path': ''}], 'not the whole resource'),
])
def test_malformed_patches(node_type, patch, words):
    error = _error(check_patch, node_type, patch, V0)
    assert error.code == 400
    assert error.error_code == 'microversion.invalid_patch'
    assert words in error.detail


def test_json_pointer_escapes(node_type):
    # ~1 is '/', ~0 is '~': the key under a free-form dict.
    ops = [{'op': 'add', 'path': '/extra/a~1b~0c', 'value': 'v'}]
    assert check_patch(node_type, ops, V0) == ops
    result = apply_patch(node_type, {'name': 'n', 'extra': {}}, ops, V0)
    assert result['extra'] == {'a/b~c': 'v'}
    error = _error(check_patch, node_type,
                   [{'op': 'add', 'path': '/tags/x~1y/d', 'value': 1}], V0)
    assert "'tags[x/y].d'" in error.detail


def test_patch_of_operation_objects(node_type):
    ops = [JsonPatchOperation(op='replace', path='/owner', value='o'),
           JsonPatchOperation(op='move', path='/name', from_='/owner')]
    assert check_patch(node_type, ops, V1) == [
        {'op': 'replace', 'path': '/owner', 'value': 'o'},
        {'op': 'move', 'path': '/name', 'from': '/owner'}]


def test_apply_patch(node_type):
    document = {'name': 'n', 'owner': 'a'}
    patched = apply_patch(node_type, document,
                          [{'op': 'replace', 'path': '/owner', 'value': 'b'}],
                          V1)
    assert patched == {'name': 'n', 'owner': 'b'}
    assert document == {'name': 'n', 'owner': 'a'}  # a copy was patched
    error = _error(apply_patch, node_type, document,
                   [{'op': 'test', 'path': '/owner', 'value': 'zzz'}], V1)
    assert error.error_code == 'microversion.patch_failed'
    error = _error(apply_patch, node_type, document,
                   [{'op': 'remove', 'path': '/owner'}], V0)
    assert error.error_code == 'microversion.field_unavailable'


def test_missing_plain_mandatory_field_is_refused_by_check_body():
    class Plain(wtypes.Base):
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        note = wtypes.text

    with pytest.raises(RequestError) as caught:
        check_body(Plain, {'note': 'x'}, Version(1, 0))
    assert caught.value.error_code == 'microversion.missing_field'
    assert "'name'" in caught.value.detail
    check_body(Plain, {'name': 'n'}, Version(1, 0))


@pytest.mark.parametrize('ops, field', [
    ([{'op': 'replace', 'path': '/owner', 'value': 5}], 'owner'),
    ([{'op': 'replace', 'path': '/state', 'value': 'sideways'}], 'state'),
    ([{'op': 'add', 'path': '/extra/k', 'value': ['not', 'text']}],
     'extra[k]'),
    ([{'op': 'add', 'path': '/a', 'value': {'b': [{'c': 7}]}}], 'a'),
    # a value copied from another field is judged where it lands
    ([{'op': 'copy', 'from': '/extra', 'path': '/owner'}], 'owner'),
])
def test_apply_patch_checks_values_as_wsme_checks_a_body(node_type, ops,
                                                         field):
    document = {'name': 'n', 'owner': 'a', 'extra': {'x': 'y'}}
    error = _error(apply_patch, node_type, document, ops, V2)
    assert error.error_code in ('microversion.invalid_value',
                                'microversion.invalid_body')
    assert repr(field) in error.detail
    assert document == {'name': 'n', 'owner': 'a', 'extra': {'x': 'y'}}


def _retyped_type():
    from pecan_microversions.core.representations import Retype

    registry = VersionRegistry('shelf', HISTORY)

    class Label(wtypes.Base):
        text = wtypes.wsattr(wtypes.StringType(min_length=1, max_length=5),
                             mandatory=True)

    @versioned_resource(registry, 'box')
    class Box(wtypes.Base):
        label = versioned(Label, changes=[Retype(
            lambda label: label.get('text'), lambda text: {'text': text},
            max_version='1.2', type_name='string',
            datatype=wtypes.StringType(min_length=1, max_length=5))])

    Box.nested_types = (Label,)
    return Box


@pytest.mark.parametrize('value, words', [
    ('', 'minimum character requirement of 1'),
    ('x' * 6, 'maximum character requirement of 5'),
    (5, 'at version 1.2 it is a string'),
])
def test_a_retyped_value_is_checked_against_the_older_types_constraints(
        value, words):
    # Checked as the version's type, so the error names the field the
    # client sent, not the newest type's member the value would land in.
    box = _retyped_type()
    for check in (lambda: check_body(box, {'label': value}, V2),
                  lambda: check_patch(box, [{'op': 'add', 'path': '/label',
                                             'value': value}], V2)):
        error = _error(check)
        assert error.code == 400
        assert error.error_code == 'microversion.invalid_value'
        assert "field 'label'" in error.detail and words in error.detail
    check_body(box, {'label': 'x' * 5}, V2)
    check_body(box, {'label': {'text': 'x' * 5}}, V3)


@pytest.mark.parametrize('ops, code', [
    ([{'op': 'copy', 'from': '/a', 'path': '/extra/x'}] * 1,
     'microversion.invalid_value'),
    ([{'op': 'copy', 'from': '/extra/x/-', 'path': '/owner'}],
     'microversion.patch_failed'),
    ([{'op': 'remove', 'path': '/extra/x/0'}], 'microversion.patch_failed'),
    ([{'op': 'copy', 'from': '/extra', 'path': '/tags/t'}],
     'microversion.patch_failed'),
])
def test_apply_patch_a_path_that_does_not_fit_is_a_400(node_type, ops, code):
    document = {'name': 'n', 'a': {'b': []}, 'extra': {'x': 'y'}}
    assert _error(apply_patch, node_type, document, ops, V2).error_code in (
        code, 'microversion.invalid_body')


def test_apply_patch_is_bounded_as_the_plain_dict_path_is(node_type):
    document = {'name': 'n', 'a': {'b': [{'c': 'x'}]}}
    double = [{'op': 'copy', 'from': '/a/b', 'path': '/a/b/-'}] * 20
    assert _error(apply_patch, node_type, document, double,
                  V2).error_code == 'microversion.patch_too_large'
    nest = [{'op': 'add', 'path': '/extra', 'value': {}}] + [
        {'op': 'copy', 'from': '/extra', 'path': '/extra/k'}] * 1200
    assert _error(apply_patch, node_type, document, nest,
                  V2).error_code == 'microversion.body_too_deep'


def test_patch_newest_a_copy_or_move_cannot_null_a_mandatory_field():
    registry = VersionRegistry('shelf', HISTORY)

    @versioned_resource(registry, 'jar')
    class Jar(wtypes.Base):
        name = wtypes.wsattr(wtypes.text, mandatory=True)
        kind = versioned(wtypes.text, min_version='1.1', mandatory=True)
        note = wtypes.text
        state = versioned(wtypes.text, changes=[
            ValueMap({'gone': 'lost'}, max_version='1.0')])

    newest = {'name': 'n', 'kind': 'k', 'note': None}
    for ops in ([{'op': 'copy', 'from': '/note', 'path': '/name'}],
                [{'op': 'move', 'from': '/note', 'path': '/kind'}]):
        error = _error(patch_newest, Jar, newest, ops, V1)
        assert error.error_code == 'microversion.missing_field'
    # a null moved into a field that is not mandatory is kept
    assert patch_newest(Jar, newest, [
        {'op': 'move', 'from': '/note', 'path': '/state'}], V0) == {
        'name': 'n', 'kind': 'k', 'state': None}


def test_patch_newest_judges_nested_fields_as_apply_patch_does():
    # Only top-level mandatory fields were checked: a copy nulled
    # lid.size, which apply_patch refuses.
    registry = VersionRegistry('shelf', HISTORY)

    @versioned_resource(registry, 'lid')
    class Lid(wtypes.Base):
        size = wtypes.wsattr(wtypes.text, mandatory=True)

    @versioned_resource(registry, 'pot')
    class Pot(wtypes.Base):
        note = wtypes.text
        lid = Lid
        state = versioned(wtypes.text, changes=[
            ValueMap({'gone': 'lost'}, max_version='1.0')])

    newest = {'note': None, 'lid': {'size': 's'}}
    ops = [{'op': 'copy', 'from': '/note', 'path': '/lid/size'}]
    for function in (apply_patch, patch_newest):
        error = _error(function, Pot, newest, ops, V1)
        assert error.error_code == 'microversion.missing_field'
        assert "'lid.size'" in error.detail


def test_a_value_map_onto_a_value_the_version_refuses_is_a_declaration_error():
    registry = VersionRegistry('shelf', HISTORY)
    with pytest.raises(InvalidDeclarationError,
                       match=r"Jar\.state: a ValueMap shows 'new' as 'old'"):
        @versioned_resource(registry, 'jar')
        class Jar(wtypes.Base):
            state = versioned(wtypes.Enum(str, 'on', 'new', 'old'),
                              values={'new': '1.3', 'old': (None, '1.1')},
                              changes=[ValueMap({'new': 'old'}, '1.2')])


def _car():
    """A type whose driver (to 1.1) is renamed pilot (from 1.2)."""
    registry = VersionRegistry('shelf', HISTORY)

    @versioned_resource(registry, 'car')
    class Car(wtypes.Base):
        name = wtypes.text
        driver = versioned(wtypes.text, max_version='1.1')
        pilot = versioned(wtypes.text, min_version='1.2', replaces='driver')

    return Car


def test_apply_patch_changes_every_name_of_a_renamed_field():
    Car = _car()

    stored = {'name': 'n', 'driver': 'old', 'pilot': 'old'}
    for version, path in ((V1, '/driver'), (V3, '/pilot')):
        patched = apply_patch(Car, stored, [
            {'op': 'replace', 'path': path, 'value': f'new{version}'}],
            version)
        assert patched == {'name': 'n', 'driver': f'new{version}',
                           'pilot': f'new{version}'}
    removed = apply_patch(Car, stored, [{'op': 'remove', 'path': '/pilot'}],
                          V3)
    assert removed == {'name': 'n'}
    # A document holding one name keeps holding that one.
    assert apply_patch(Car, {'name': 'n', 'pilot': 'p'}, [
        {'op': 'replace', 'path': '/pilot', 'value': 'q'}], V3) == {
            'name': 'n', 'pilot': 'q'}


def test_apply_patch_reaches_a_renamed_field_held_under_another_name():
    Car = _car()

    # Stored under the newest name; a 1.1 patch names the field 'driver'.
    patched = apply_patch(Car, {'name': 'n', 'pilot': 'p'}, [
        {'op': 'replace', 'path': '/driver', 'value': 'q'}], V1)
    assert patched == {'name': 'n', 'pilot': 'q'}
    assert apply_patch(Car, {'name': 'n', 'pilot': 'p'}, [
        {'op': 'remove', 'path': '/driver'}], V1) == {'name': 'n'}


@pytest.mark.parametrize('pointer', ['/name', '/owner', '/extra/k'])
def test_apply_patch_a_move_onto_itself_changes_nothing(node_type, pointer):
    # RFC 6902 allows from == path: a no-op, even of a mandatory field.
    document = {'name': 'n', 'owner': 'o', 'extra': {'k': 'v'}}
    assert apply_patch(node_type, document, [
        {'op': 'move', 'from': pointer, 'path': pointer}], V1) == document


@pytest.mark.parametrize('ops, version, code', [
    ([{'op': 'move', 'from': '/uuid', 'path': '/uuid'}], V1,
     'microversion.read_only_field'),
    ([{'op': 'move', 'from': '/owner', 'path': '/owner'}], V0,
     'microversion.field_unavailable'),
    ([{'op': 'move', 'from': '/name', 'path': '/name/x'}], V1,
     'microversion.missing_field'),
    ([{'op': 'move', 'from': '/a/b/0', 'path': '/a/b/0/c'}], V1,
     'microversion.patch_failed'),
])
def test_apply_patch_a_move_onto_itself_keeps_the_other_checks(
        node_type, ops, version, code):
    document = {'uuid': 'u', 'name': 'n', 'owner': 'o',
                'a': {'b': [{'c': 'x'}, {'c': 'y'}]}}
    assert _error(apply_patch, node_type, document, ops,
                  version).error_code == code
