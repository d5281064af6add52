"""Lists and dicts of converted items keep each item's hidden parts.

A patch at an old version used to be merged back by guessing which stored
item each patched one was: by position, or by what it looked like at the
version.  A moved item lost the members the version lacks and its mapped
values (``green`` stored as ``blue``); of two items alike at the version,
removing the first kept the hidden parts of the first.  Now an item keeps
what the version cannot see of the stored item the patch kept, moved or
edited; a write that would otherwise drop or rebuild such an item is a 409.
"""

import pytest

from pecan_microversions.core.conversion import Conversion, DictOf, ListOf
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import FieldSpec, ValueMap

REGISTRY = VersionRegistry('lst', [('1.0', 'a'), ('1.1', 'b')])
V10 = REGISTRY.versions[0]
PART = Conversion(REGISTRY, 'part', [
    FieldSpec('label'),
    FieldSpec('size', min_version=REGISTRY.versions[1]),
    FieldSpec('colour', changes=(ValueMap({'green': 'blue'}, '1.0'),))])
THING = Conversion(REGISTRY, 'thing', [
    FieldSpec('parts', nested=ListOf(PART)),
    FieldSpec('spares', nested=ListOf(PART)),
    FieldSpec('byname', nested=DictOf(PART)),
    FieldSpec('grid', nested=ListOf(ListOf(PART)))])

A = {'label': 'A', 'size': 1, 'colour': 'red'}
B = {'label': 'B', 'size': 2, 'colour': 'green'}
NEWEST = {'parts': [A, B], 'spares': [], 'byname': {'k': B}}


def patched(operations, newest=NEWEST):
    return THING.apply_patch(newest, operations, V10)


def refused(operations, newest=NEWEST):
    with pytest.raises(RequestError) as caught:
        patched(operations, newest)
    assert caught.value.code == 409
    assert caught.value.error_code == 'microversion.partly_hidden_value'
    return caught.value.detail


def test_a_moved_item_keeps_its_hidden_members_and_values():
    assert patched([{'op': 'move', 'from': '/parts/1', 'path': '/parts/0'}]
                   )['parts'] == [B, A]


def test_removing_one_of_two_items_alike_keeps_the_other_ones_parts():
    alike = {'parts': [{'label': 'A', 'size': 1}, {'label': 'A', 'size': 2}]}
    assert patched([{'op': 'remove', 'path': '/parts/0'}], alike) == {
        'parts': [{'label': 'A', 'size': 2}]}


def test_a_renamed_dict_entry_keeps_its_hidden_members_and_values():
    assert patched([{'op': 'move', 'from': '/byname/k',
                     'path': '/byname/k2'}])['byname'] == {'k2': B}


def test_items_edited_inserted_moved_and_left_alone_keep_their_own_parts():
    result = patched([
        {'op': 'add', 'path': '/parts/0', 'value': {'label': 'N'}},
        {'op': 'replace', 'path': '/parts/2/label', 'value': 'b'},
        {'op': 'move', 'from': '/parts/2', 'path': '/parts/1'},
        {'op': 'copy', 'from': '/parts/1', 'path': '/parts/-'},
        {'op': 'replace', 'path': '/byname/k/label', 'value': 'K'}])
    assert result['parts'] == [{'label': 'N'}, dict(B, label='b'), A,
                               {'label': 'b', 'colour': 'blue'}]
    assert result['byname'] == {'k': dict(B, label='K')}


@pytest.mark.parametrize('operations, where', [
    # the list sent back in another order: which item is which?
    ([{'op': 'replace', 'path': '/parts',
       'value': [{'label': 'B', 'colour': 'blue'},
                 {'label': 'A', 'colour': 'red'}]}], 'parts[0]'),
    # an item replaced whole (a list's place is no identity)
    ([{'op': 'replace', 'path': '/parts/1',
       'value': {'label': 'b', 'colour': 'blue'}}], 'parts[1]'),
    ([{'op': 'remove', 'path': '/parts/1'},
      {'op': 'add', 'path': '/parts/-', 'value': {'label': 'C'}}],
     'parts[1]'),
    # moved out of its list, or its field moved away whole
    ([{'op': 'move', 'from': '/parts/1', 'path': '/spares/0'}], 'parts[1]'),
    ([{'op': 'move', 'from': '/byname/k', 'path': '/parts/0'}],
     'parts[0]'),  # where it lands (parts is merged first)
    ([{'op': 'move', 'from': '/parts', 'path': '/spares'}], 'parts'),
    # a dict sent back under other keys
    ([{'op': 'replace', 'path': '/byname',
       'value': {'k2': {'label': 'B', 'colour': 'blue'}}}], 'byname[k]'),
])
def test_a_write_that_would_lose_an_items_hidden_parts_is_a_409(operations,
                                                                 where):
    detail = refused(operations)
    assert detail.startswith(f"Field '{where}' of thing holds more than "
                             'version 1.0 shows')


def test_an_item_moved_onto_a_dict_entry_does_not_take_the_entrys_parts():
    # a patch-built entry under an existing key keeps the replaced entry's
    # hidden parts (as an object's member does); one moved in from a list
    # is another item, which may not take them, nor silently drop them
    plain = {'parts': [{'label': 'P', 'colour': 'red'}], 'byname': {'k': B}}
    assert refused([{'op': 'move', 'from': '/parts/0',
                     'path': '/byname/k'}], plain).startswith(
        "Field 'byname[k]' of thing")


def test_nested_lists_name_the_item_refused():
    newest = {'grid': [[A], [A, B]]}
    assert patched([{'op': 'move', 'from': '/grid/1/1',
                     'path': '/grid/1/0'}], newest) == {'grid': [[A], [B, A]]}
    assert refused([{'op': 'replace', 'path': '/grid/1/1',
                     'value': {'label': 'B'}}], newest).startswith(
        "Field 'grid[1][1]' of thing")


def test_what_loses_nothing_is_accepted():
    # the list sent back as read, with an item more
    shown = THING.down(NEWEST, V10)
    result = patched([{'op': 'replace', 'path': '/parts',
                       'value': shown['parts'] + [{'label': 'C'}]}])
    assert result['parts'] == [A, B, {'label': 'C'}]
    # an item replaced by what the version shows of it is left as it is
    assert patched([{'op': 'replace', 'path': '/parts/1',
                     'value': {'label': 'B', 'colour': 'blue'}}]) == NEWEST
    # items holding nothing 1.0 cannot see may be rewritten at will
    plain = {'parts': [{'label': 'A'}, {'label': 'B', 'colour': 'red'}]}
    assert patched([{'op': 'replace', 'path': '/parts',
                     'value': [{'label': 'B', 'colour': 'blue'}]}],
                   plain) == {'parts': [{'label': 'B', 'colour': 'blue'}]}
    # a stored item removed takes its hidden parts with it
    assert patched([{'op': 'remove', 'path': '/parts/1'},
                    {'op': 'remove', 'path': '/byname/k'}]) == {
        'parts': [A], 'spares': [], 'byname': {}}
    # an entry replaced under its key keeps the hidden parts of the one it
    # replaces, and a new entry under the key of one moved away none
    assert patched([{'op': 'replace', 'path': '/byname/k',
                     'value': {'label': 'Z', 'colour': 'red'}}])[
        'byname'] == {'k': {'label': 'Z', 'size': 2, 'colour': 'red'}}
    assert patched([{'op': 'move', 'from': '/byname/k', 'path': '/byname/j'},
                    {'op': 'add', 'path': '/byname/k',
                     'value': {'label': 'Z'}}])['byname'] == {
        'j': B, 'k': {'label': 'Z'}}


def test_merge_without_a_patch_keeps_only_items_unchanged_in_place():
    shown = THING.down(NEWEST, V10)
    assert THING.merge(NEWEST, shown, dict(shown, parts=shown['parts'][:1]),
                       V10)['parts'] == [A]
    with pytest.raises(RequestError) as caught:
        THING.merge(NEWEST, shown, dict(shown, parts=shown['parts'][::-1]),
                    V10)
    assert caught.value.code == 409


PLAIN = Conversion(REGISTRY, 'plain', [
    FieldSpec('parts', nested=ListOf(PART)),
    FieldSpec('main', nested=PART),
    FieldSpec('grid', nested=ListOf(ListOf(PART))),
    FieldSpec('byname', nested=DictOf(PART)),
    FieldSpec('extra')])


@pytest.mark.parametrize('newest, operations', [
    # moved out, then the list it came from removed: never merged, so only
    # where it lands can tell
    ({'parts': [B], 'grid': []},
     [{'op': 'move', 'from': '/parts/0', 'path': '/grid/-'},
      {'op': 'remove', 'path': '/parts'}]),
    ({'grid': [[], [B]]},
     [{'op': 'move', 'from': '/grid/1/0', 'path': '/grid/0/0'},
      {'op': 'remove', 'path': '/grid/1'}]),
    # moved into a field that converts nothing, or a key none declares
    ({'byname': {'k': B}},
     [{'op': 'move', 'from': '/byname/k', 'path': '/extra'},
      {'op': 'remove', 'path': '/byname'}]),
    ({'parts': [A, B]},
     [{'op': 'move', 'from': '/parts', 'path': '/extra'}]),
    ({'byname': {'k': B}},
     [{'op': 'move', 'from': '/byname/k', 'path': '/undeclared'},
      {'op': 'remove', 'path': '/byname'}]),
    # onto a nested object's field: not merged member by member into it
    ({'parts': [B], 'main': {'label': 'M', 'size': 9}},
     [{'op': 'move', 'from': '/parts/0', 'path': '/main'},
      {'op': 'remove', 'path': '/parts'}]),
])
def test_an_item_moved_away_is_refused_wherever_it_lands(newest, operations):
    with pytest.raises(RequestError) as caught:
        PLAIN.apply_patch(newest, operations, V10)
    assert caught.value.code == 409
    assert caught.value.error_code == 'microversion.partly_hidden_value'


def test_an_item_holding_nothing_more_moves_anywhere():
    bare = {'label': 'C', 'colour': 'red'}
    assert PLAIN.apply_patch(
        {'parts': [bare], 'byname': {}},
        [{'op': 'move', 'from': '/parts/0', 'path': '/extra'},
         {'op': 'remove', 'path': '/parts'}], V10) == {
        'byname': {}, 'extra': bare}


def test_a_nested_refusal_names_the_path_from_the_resource_patched():
    box = Conversion(REGISTRY, 'box', [FieldSpec('items', nested=ListOf(PART))])
    shelf = Conversion(REGISTRY, 'shelf', [
        FieldSpec('boxes', nested=ListOf(box))])
    with pytest.raises(RequestError) as caught:
        shelf.apply_patch({'boxes': [{'items': [A, B]}]}, [
            {'op': 'replace', 'path': '/boxes/0/items/1',
             'value': {'label': 'B'}}], V10)
    assert caught.value.detail.startswith(
        "Field 'boxes[0].items[1]' of shelf holds more than version 1.0")
