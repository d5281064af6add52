"""tracked_patch: a patched copy that copies only what the patch touches.

Of an object document, tracked_patch copies the members the patch may
change (where its paths, and a ``move``'s source, start) and shares the
others; the result must be patched_copy's, refusals included, and the
document must stay as it was.
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pecan_microversions.core.checking import touched_fields
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.patch_identity import tracked_patch
from pecan_microversions.core.patching import patched_copy
from tests.core.test_patching import _DOCUMENTS, _EVERY_OPERATION

_OBJECTS = st.dictionaries(st.sampled_from(['a', 'b', 'c', 'a/b', '-', '~']),
                           _DOCUMENTS, max_size=4)


def _outcome(call):
    try:
        return 'result', call()
    except RequestError as refused:
        return 'refused', refused.detail


@settings(max_examples=600, deadline=None)
@given(document=st.one_of(_OBJECTS, _DOCUMENTS),
       operations=st.lists(_EVERY_OPERATION, min_size=1, max_size=3))
def test_the_result_is_patched_copys_and_the_document_is_left_alone(
        document, operations):
    before = copy.deepcopy(document)
    expected = _outcome(lambda: patched_copy(document, operations))
    found = _outcome(lambda: tracked_patch(document, operations)[0])
    assert found[0] == expected[0]
    if found[0] == 'result':
        assert same_json(found[1], expected[1])
    else:
        assert found[1] == expected[1]
    assert same_json(document, before)
    try:  # the caller's own touched_fields, as patch_newest passes them
        touched = touched_fields(operations)
    except RequestError:
        return  # a pointer to the whole document: nothing to pass
    given = _outcome(lambda: tracked_patch(document, operations,
                                           touched=touched)[0])
    assert given[0] == found[0] and (same_json(given[1], found[1])
                                     if given[0] == 'result'
                                     else given[1] == found[1])
    assert same_json(document, before)


def test_untouched_members_are_shared_and_touched_ones_tracked():
    document = {'a': [1, {'x': 2}], 'b': {'y': [3]}, 'c/d': {'z': 4},
                'e~f': [5]}
    result, identity = tracked_patch(document, [
        {'op': 'move', 'from': '/c~1d', 'path': '/a/-'},
        {'op': 'copy', 'from': '/b', 'path': '/e~0f/0'},
        {'op': 'test', 'path': '/b/y/0', 'value': 3}])
    assert result['b'] is document['b']  # only read: shared
    assert result['a'] is not document['a']
    assert identity.source(result['a']) is document['a']
    assert identity.source(result['a'][1]) is document['a'][1]
    assert identity.source(result['a'][2]) is document['c/d']  # moved
    assert identity.source(result['e~f'][0]) is None  # a copy: new
    assert 'c/d' not in result and document['c/d'] == {'z': 4}


@pytest.mark.parametrize('pointer', ['', 'a', 1])
def test_a_pointer_to_the_whole_document_copies_it_all(pointer):
    document = {'a': {'b': 1}}
    operations = [{'op': 'add', 'path': pointer, 'value': {'a': {'b': 2}}}]
    expected = _outcome(lambda: patched_copy(document, operations))
    found = _outcome(lambda: tracked_patch(document, operations)[0])
    assert found[0] == expected[0] and same_json(found[1], expected[1])
