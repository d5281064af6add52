"""check_effect judging only the fields a patch touched.

``patch_newest`` passes :func:`touched_fields` of the patch to
:func:`check_effect`, which then compares only those top-level fields of
the document before and after the patch.  A patch changes nothing else
(RFC 6902: an operation changes its ``path``, and a ``move`` its ``from``),
so the verdict must be the one a comparison of every field gives: this
property test applies random patches, top-level and nested, of every
operation, and compares the two verdicts.
"""

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wsme import types as wtypes

from pecan_microversions import RequestError, Version, versioned, versioned_resource
from pecan_microversions.core.checking import touched_fields
from pecan_microversions.core.patching import patched_copy
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.wsme.patch_effects import check_effect
from tests.patch_strategies import patch_operations

REGISTRY = VersionRegistry('effects', [('1.0', 'Initial.'), ('1.1', 'More.')])
V10, V11 = Version(1, 0), Version(1, 1)


class Part(wtypes.Base):
    label = wtypes.wsattr(wtypes.StringType(min_length=1), mandatory=True)
    size = int


@versioned_resource(REGISTRY, 'effects_thing')
class Thing(wtypes.Base):
    name = wtypes.wsattr(wtypes.StringType(max_length=8), mandatory=True)
    serial = wtypes.wsattr(wtypes.text, readonly=True)
    count = int
    note = versioned(wtypes.text, min_version='1.1')
    part = Part
    parts = [Part]
    tags = {wtypes.text: int}


DOCUMENT = {'name': 'a', 'serial': 's1', 'count': 1, 'note': 'n',
            'part': {'label': 'p', 'size': 2},
            'parts': [{'label': 'x', 'size': 1}, {'label': 'y'}],
            'tags': {'k': 1}}
POINTERS = ['/name', '/serial', '/count', '/note', '/part', '/part/label',
            '/part/size', '/parts', '/parts/0', '/parts/1/label',
            '/parts/-', '/tags', '/tags/k', '/tags/new', '/unknown']
VALUES = st.sampled_from([None, 'b', 'much too long', 3, True, [],
                          {'label': 'z'}, {'label': ''}, {'size': 4},
                          [{'label': 'q'}], {'k': 2}, {'k': 'x'}])
OPERATIONS = patch_operations(POINTERS, VALUES)


def _verdict(call: Any) -> Any:
    try:
        call()
    except RequestError as exc:
        return exc.code, str(exc)
    return None


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OPERATIONS, min_size=1, max_size=4),
       st.sampled_from([V10, V11]))
def test_judging_the_touched_fields_is_judging_every_field(ops, version):
    before = {k: v for k, v in DOCUMENT.items()
              if k != 'note' or version >= V11}
    try:
        after = patched_copy(before, ops)
    except RequestError:
        return  # the patch does not apply: nothing to judge
    whole = _verdict(lambda: check_effect(Thing, before, after, version))
    touched = _verdict(lambda: check_effect(Thing, before, after, version,
                                            touched_fields(ops)))
    assert touched == whole


@pytest.mark.parametrize('ops, fields', [
    ([{'op': 'replace', 'path': '/name', 'value': 'b'}], {'name'}),
    ([{'op': 'move', 'from': '/count', 'path': '/part/size'}],
     {'count', 'part'}),
    ([{'op': 'copy', 'from': '/count', 'path': '/tags/n'}], {'tags'}),
    ([{'op': 'test', 'path': '/name', 'value': 'a'}], set()),
])
def test_touched_fields_are_the_paths_and_a_moves_source(ops, fields):
    assert touched_fields(ops) == fields


def test_a_change_outside_the_named_fields_is_not_judged():
    """The fields are the caller's promise: a change elsewhere is not
    looked at (here a read-only field's, which a full judgement refuses)."""
    after = dict(DOCUMENT, serial='s2')
    with pytest.raises(RequestError, match='read-only'):
        check_effect(Thing, DOCUMENT, after, V11)
    check_effect(Thing, DOCUMENT, after, V11, ['name'])
