"""Applying a patch to a copy: the document is never changed."""

import copy
import datetime
import json
import sys

import jsonpatch
import jsonpointer
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import (
    MAX_COPIED,
    MAX_DEPTH,
    json_copy,
    patched_copy,
    same_json,
)


def test_json_copy_copies_containers_and_keeps_scalars():
    shared = ['x']
    document = {'a': [1, 2.5, {'b': None, 'c': True}], 'd': 'text',
                'e': shared, 'f': shared, 'when': datetime.date(2026, 1, 2),
                'pair': (1, [2])}
    copied = json_copy(document)
    assert copied == document
    assert copied is not document
    assert copied['a'] is not document['a']
    assert copied['a'][2] is not document['a'][2]
    assert copied['d'] is document['d']
    assert copied['e'] is not shared and copied['f'] is not shared
    assert copied['pair'] == (1, [2]) and copied['pair'][1] is not \
        document['pair'][1]  # not JSON: deep-copied as copy.deepcopy does
    copied['a'][2]['b'] = 'changed'
    assert document['a'][2]['b'] is None


def test_patched_copy_leaves_the_document_alone():
    document = {'name': 'n', 'tags': ['a'], 'extra': {'k': 'v'}}
    before = json.dumps(document, sort_keys=True)
    patched = patched_copy(document, [
        {'op': 'add', 'path': '/tags/-', 'value': 'b'},
        {'op': 'replace', 'path': '/extra/k', 'value': 'w'},
        {'op': 'copy', 'from': '/tags', 'path': '/copied'}])
    assert json.dumps(document, sort_keys=True) == before
    assert patched == {'name': 'n', 'tags': ['a', 'b'], 'extra': {'k': 'w'},
                       'copied': ['a', 'b']}
    patched['copied'].append('c')
    assert patched['tags'] == ['a', 'b']


@pytest.mark.parametrize('operation', [
    {'op': 'remove', 'path': '/missing'},
    {'op': 'test', 'path': '/name', 'value': 'other'},
    {'op': 'replace', 'path': '/tags/5', 'value': 1}])
def test_a_patch_that_cannot_be_applied_is_a_400(operation):
    document = {'name': 'n', 'tags': ['a']}
    with pytest.raises(RequestError) as raised:
        patched_copy(document, [operation])
    assert raised.value.code == 400
    assert raised.value.error_code == 'microversion.patch_failed'
    assert document == {'name': 'n', 'tags': ['a']}


def _code(call):
    with pytest.raises(RequestError) as raised:
        call()
    return raised.value.code, raised.value.error_code


@pytest.mark.parametrize('operation', [
    {'op': 'copy', 'from': '/tags/-', 'path': '/x'},
    {'op': 'move', 'from': '/tags/-', 'path': '/x'},
    {'op': 'test', 'path': '/tags/-', 'value': 'a'},
    {'op': 'remove', 'path': '/name/0'},
    {'op': 'replace', 'path': '/name/0', 'value': 'x'},
    {'op': 'add', 'path': '/name/0', 'value': 'x'},
    {'op': 'copy', 'from': '/name/0', 'path': '/x'},
    {'op': 'move', 'from': '/name/0', 'path': '/x'},
    {'op': 'test', 'path': '/name/0', 'value': 'n'},
    {'op': 'copy', 'from': '/count/x', 'path': '/x'},
    {'op': 'remove', 'path': '/tags/-'},
    {'op': 'remove', 'path': '/tags/-/x'},
    {'op': 'add', 'path': '/tags/01', 'value': 'x'},
    {'op': 'copy', 'from': '/tags/01', 'path': '/x'},
    {'op': 'copy', 'path': '/x'},
    {'op': 'test', 'path': '/name'},
    {'op': 'add', 'path': 'name', 'value': 1},
])
def test_a_well_formed_patch_that_does_not_fit_is_a_400_not_a_500(operation):
    # jsonpatch raises TypeError, KeyError... or indexes into the string.
    document = {'name': 'n', 'tags': ['a'], 'count': 5}
    assert _code(lambda: patched_copy(document, [operation])) == (
        400, 'microversion.patch_failed')
    assert document == {'name': 'n', 'tags': ['a'], 'count': 5}


def test_values_are_compared_as_json():
    assert same_json({'a': [1, {'b': None}]}, {'a': [1, {'b': None}]})
    for a, b in [(1, True), (0, False), (1, 1.0), ([1, 0], [True, False]),
                 ({'a': 1}, {'a': True}), ({'a': 1}, {'b': 1}), ([1], [1, 1]),
                 ('1', 1), (None, False)]:
        assert not same_json(a, b) and not same_json(b, a)
    assert same_json(1, 1.0, numbers=True)
    assert not same_json(1, True, numbers=True)
    assert same_json(_nested(5000), _nested(5000))  # no recursion
    assert not same_json(_nested(5000), _nested(4999))


def _nested(depth):
    top = inner = []
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


@pytest.mark.parametrize('document, value, equal', [
    ({'n': 1}, True, False), ({'n': 0}, False, False), ({'n': 1}, 1.0, True),
    ({'n': [1]}, [True], False), ({'n': True}, True, True)])
def test_the_test_operation_compares_json_types(document, value, equal):
    patch = [{'op': 'test', 'path': '/n', 'value': value}]
    if equal:
        assert patched_copy(document, patch) == document
    else:
        assert _code(lambda: patched_copy(document, patch)) == (
            400, 'microversion.patch_failed')


def test_copies_are_bounded():
    # Each copy doubles the list: 20 operations of a 1 KB body made 7 MB.
    patch = [{'op': 'copy', 'from': '/tags', 'path': '/tags/-'}] * 20
    assert _code(lambda: patched_copy({'tags': ['x']}, patch)) == (
        400, 'microversion.patch_too_large')
    big = {'text': 'x' * MAX_COPIED}
    assert _code(lambda: patched_copy(big, [
        {'op': 'copy', 'from': '/text', 'path': '/again'}])) == (
        400, 'microversion.patch_too_large')
    # what the patch carries itself is the server's body limit's business
    assert patched_copy({}, [{'op': 'add', 'path': '/text',
                              'value': 'x' * MAX_COPIED}])['text'] == \
        'x' * MAX_COPIED
    half = {'a': 'x' * (MAX_COPIED // 2 - 10)}
    assert patched_copy(half, [{'op': 'copy', 'from': '/a', 'path': '/b'}])


@pytest.mark.parametrize('patch', [
    [{'op': 'copy', 'from': '/notes', 'path': '/notes/a'}] * 1200,
    [{'op': 'add', 'path': '/notes', 'value': {'x': _nested(50)}}] +
    [{'op': 'copy', 'from': '/notes', 'path': '/notes/a'}] * 60,
    [{'op': 'add', 'path': '/wrap', 'value': {}},
     {'op': 'move', 'from': '/notes', 'path': '/wrap/notes'},
     {'op': 'move', 'from': '/wrap', 'path': '/notes'}] * 150,
])
def test_a_shallow_patch_cannot_nest_a_value_too_deep(patch):
    # 1200 copies of /notes into /notes/a: a RecursionError, a 500, before.
    assert _code(lambda: patched_copy({'notes': {}}, patch)) == (
        400, 'microversion.body_too_deep')


def test_a_deep_value_is_refused_and_a_deep_document_can_still_be_patched():
    deep = {}
    inner = deep
    for _ in range(MAX_DEPTH):
        inner['a'] = {}
        inner = inner['a']
    assert _code(lambda: patched_copy({}, [
        {'op': 'add', 'path': '/x', 'value': deep}])) == (
        400, 'microversion.body_too_deep')
    # a document already deeper than the limit: a patch that does not
    # nest it deeper applies
    stored = {'x': deep}
    assert patched_copy(stored, [{'op': 'add', 'path': '/y', 'value': 1},
                                 {'op': 'copy', 'from': '/x/a',
                                  'path': '/z'}])['y'] == 1
    assert _code(lambda: patched_copy(stored, [
        {'op': 'add', 'path': '/x/b', 'value': deep}])) == (
        400, 'microversion.body_too_deep')


def test_a_document_deeper_than_the_recursion_limit_is_copied_and_patched():
    # json_copy recursed: a stored document some 500 levels deep (which
    # read_json accepts) made every later patch a 400 body_too_deep.
    depth = sys.getrecursionlimit() + 100
    document = {'name': 'n', 'deep': _nested(depth)}
    copied = json_copy(document)
    assert same_json(copied, document) and copied['deep'] is not \
        document['deep']
    patched = patched_copy(document, [
        {'op': 'replace', 'path': '/name', 'value': 'm'}])
    assert patched['name'] == 'm' and same_json(patched['deep'],
                                                document['deep'])
    inner = patched['deep']
    while inner:
        assert inner is not document['deep']
        inner = inner[0]


def test_added_values_are_copied():
    value = {'k': ['v']}
    patch = [{'op': 'add', 'path': '/a', 'value': value},
             {'op': 'add', 'path': '/b', 'value': value}]
    patched = patched_copy({}, patch)
    patched['a']['k'].append('w')
    assert patched['b'] == {'k': ['v']} and value == {'k': ['v']}


def test_json_copy_of_a_value_holding_itself_stops():
    # Only a service's own value can hold itself (parsed JSON never does):
    # a RecursionError, which a patch turns into a 400, not a loop that
    # takes all memory.
    from pecan_microversions.core.json_values import json_copy

    looped: dict = {'a': 1}
    looped['self'] = looped
    with pytest.raises(RecursionError):
        json_copy(looped)
    deep: list = []
    for _ in range(5_000):
        deep = [deep]
    copied, depth = json_copy(deep), 0
    while copied:
        assert copied is not deep
        copied, deep, depth = copied[0], deep[0], depth + 1
    assert depth == 5_000


_KEYS = st.sampled_from(['a', 'b', 'c', '0', '1', '-', 'a~1b', ''])
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                    st.text(max_size=3))
_DOCUMENTS = st.recursive(
    _SCALAR, lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(['a', 'b', 'c', '0', 'a/b']), inner,
                        max_size=3)), max_leaves=8)
_PATHS = st.lists(_KEYS, min_size=1, max_size=3).map(
    lambda parts: '/' + '/'.join(parts))
_OPERATIONS = st.one_of(
    st.builds(lambda op, path, value: {'op': op, 'path': path,
                                       'value': value},
              st.sampled_from(['add', 'replace']), _PATHS, _DOCUMENTS),
    st.builds(lambda path: {'op': 'remove', 'path': path}, _PATHS))


@settings(max_examples=400, deadline=None)
@given(document=st.dictionaries(st.sampled_from(['a', 'b', 'c', 'a/b', '-']),
                                _DOCUMENTS, max_size=4),
       operations=st.lists(_OPERATIONS, min_size=1, max_size=3))
def test_add_replace_and_remove_apply_as_jsonpatch_applies_them(
        document, operations):
    """The library applies these itself where they change an object: the
    result, or the message of the refusal, is jsonpatch's."""
    try:
        expected = jsonpatch.apply_patch(copy.deepcopy(document),
                                         copy.deepcopy(operations))
    except (jsonpatch.JsonPatchException,
            jsonpointer.JsonPointerException, TypeError, KeyError,
            IndexError) as exc:
        if "'path' with '-' can't be applied" in str(exc):
            return  # jsonpatch < 1.34 in an object: see the test below
        with pytest.raises(RequestError) as refused:
            patched_copy(document, operations)
        if isinstance(exc, jsonpatch.JsonPatchConflict):  # same words,
            if str(exc).startswith('unable to fully resolve json pointer'):
                # but for a pointer through a scalar, which the library
                # names ("'0' is inside a string").
                assert ' is inside a ' in refused.value.detail
            else:
                assert str(exc) in refused.value.detail
        return
    assert same_json(patched_copy(document, operations), expected)


@pytest.mark.parametrize('document, operations, expected', [
    ([], [{'op': 'copy', 'from': '', 'path': '/0'}], [[]]),
    ({'a': 1}, [{'op': 'copy', 'from': '', 'path': '/b'}],
     {'a': 1, 'b': {'a': 1}}),
    ({'a': 1}, [{'op': 'copy', 'from': '', 'path': ''}], {'a': 1}),
    ({'a': 1}, [{'op': 'move', 'from': '', 'path': ''}], {'a': 1}),
    ({'a': [1]}, [{'op': 'move', 'from': '/a', 'path': '/a'}], {'a': [1]}),
    (None, [{'op': 'replace', 'path': '', 'value': {}},
            {'op': 'copy', 'from': '', 'path': ''}], {}),
])
def test_the_whole_document_as_a_source(document, operations, expected):
    # RFC 6902: "from" is any pointer, "" included; a move onto itself is
    # a no-op.  (jsonpatch 1.33 fails on both with "None".)
    assert patched_copy(document, operations) == expected


def test_moving_the_whole_document_into_itself_is_refused():
    with pytest.raises(RequestError) as refused:
        patched_copy({'a': 1}, [{'op': 'move', 'from': '', 'path': '/b'}])
    assert 'own children' in refused.value.detail


def test_an_objects_dash_member_is_a_member_like_any_other():
    # RFC 6901: '-' names the end of an array only; in an object it is a
    # member name (jsonpatch before 1.34 refused to replace it).
    patched = patched_copy({'-': 1, 'a': [0]}, [
        {'op': 'replace', 'path': '/-', 'value': 2},
        {'op': 'add', 'path': '/a/-', 'value': 3}])
    assert patched == {'-': 2, 'a': [0, 3]}
    assert patched_copy({'-': 1}, [{'op': 'remove', 'path': '/-'}]) == {}


def test_a_pointer_through_a_scalar_names_it():
    with pytest.raises(RequestError) as refused:
        patched_copy({'a': ''}, [{'op': 'add', 'path': '/a/0', 'value': 1}])
    assert "'0' is inside a string" in refused.value.detail


_ANY_PATHS = st.one_of(st.just(''), _PATHS)
_EVERY_OPERATION = st.one_of(
    st.builds(lambda op, path, value: {'op': op, 'path': path,
                                       'value': value},
              st.sampled_from(['add', 'replace', 'test']), _ANY_PATHS,
              _DOCUMENTS),
    st.builds(lambda path: {'op': 'remove', 'path': path}, _ANY_PATHS),
    st.builds(lambda op, source, path: {'op': op, 'from': source,
                                        'path': path},
              st.sampled_from(['copy', 'move']), _ANY_PATHS, _ANY_PATHS))


@settings(max_examples=600, deadline=None)
@given(document=_DOCUMENTS,
       operations=st.lists(_EVERY_OPERATION, min_size=1, max_size=3))
def test_every_operation_on_any_document_as_jsonpatch_or_a_400(
        document, operations):
    """Whole-document pointers and scalar documents included: the result
    is jsonpatch's, or the patch is refused with a message naming the
    problem (never an internal error's words)."""
    # jsonpatch cannot take the whole document as a source (it looks up a
    # member named None): see the test below.
    assume(all(operation.get('from') != '' for operation in operations))
    try:
        expected = jsonpatch.apply_patch(copy.deepcopy(document),
                                         copy.deepcopy(operations))
    except (jsonpatch.JsonPatchException,
            jsonpointer.JsonPointerException, TypeError, KeyError,
            IndexError, AttributeError) as exc:
        if "'path' with '-' can't be applied" in str(exc):
            # jsonpatch < 1.34 refuses to replace an object's member "-",
            # which RFC 6901 makes a member like any other: see
            # test_an_objects_dash_member_is_a_member_like_any_other.
            return
        with pytest.raises(RequestError) as refused:
            patched_copy(document, operations)
        assert 'index out of range' not in refused.value.detail
        return
    try:
        result = patched_copy(document, operations)
    except RequestError as refused:
        # the library refuses what jsonpatch does wrongly: a pointer
        # through a scalar (jsonpatch indexes the string), a move into
        # the value's own children inside an array, '-' in an object
        # ... and a ``test`` jsonpatch passes by Python's ``==`` alone
        # (``0 == False``), which JSON (RFC 6902) tells apart
        assert ('is inside a' in refused.detail
                or 'own children' in refused.detail
                or 'names no item' in refused.detail
                or (' is not ' in refused.detail and _mixes_booleans(
                    document, operations))), refused.detail
        return
    assert same_json(result, expected)


def _mixes_booleans(document, operations):
    """Whether jsonpatch passed a ``test`` only by Python's ``0 == False``:
    with booleans spelled as strings it fails that ``test``."""
    def spelled(value):
        if isinstance(value, bool):
            return f'<{value}>'
        if isinstance(value, list):
            return [spelled(v) for v in value]
        if isinstance(value, dict):
            return {k: spelled(v) for k, v in value.items()}
        return value
    try:
        jsonpatch.apply_patch(spelled(document), [
            dict(o, value=spelled(o['value'])) if 'value' in o else o
            for o in operations])
    except jsonpatch.JsonPatchTestFailed:
        return True
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException,
            TypeError, KeyError, IndexError, AttributeError):
        return False
    return False
