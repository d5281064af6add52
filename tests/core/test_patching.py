"""Applying a patch to a copy: the document is never changed."""

import datetime
import json

import pytest

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import json_copy, patched_copy


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
