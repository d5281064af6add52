"""Declarations that cannot work are refused at import, with what to
declare instead: a rename with versions in between that have neither
name, an old name reused by another field, ``values=`` beside a
``Retype``.  Each was accepted and served inconsistently before."""

import re

import pytest
from wsme import types as wtypes

from pecan_microversions import (
    Renamed,
    Retype,
    ValueMap,
    Version,
    VersionRegistry,
    response_json,
    versioned,
    versioned_resource,
)
from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import InvalidDeclarationError, RegistryError
from pecan_microversions.core.representations import FieldSpec
from pecan_microversions.core.schema import Schema, field


def _registry(name='gap'):
    return VersionRegistry(name, [('1.0', 'a'), ('1.1', 'b'), ('1.2', 'c')])


GAP = ("b replaces 'a', whose last version is 1.0, but starts at 1.2: a "
       "renamed field is one field, there at every version under one name "
       "or the other. Declare min_version='1.1' on 'b' (or end 'a' at the "
       "version before 1.2); a field missing in between is another field: "
       "declare it without replaces=.")


@pytest.mark.parametrize('changes', [[], [ValueMap({'z': 'y'}, '1.0')]])
def test_a_plain_dict_rename_with_a_gap_is_refused(changes):
    # 1.1 has neither name: its filter showed 'b' once any field declared
    # changes=, though visible_fields('1.1') left it out.
    with pytest.raises(InvalidDeclarationError,
                       match=re.escape(f"Schema 'thing': {GAP}")):
        Schema(_registry(), 'thing', {
            'a': field(max_version='1.0'),
            'b': field(min_version='1.2', replaces='a'),
            'st': field(changes=changes)})


def test_a_wsme_rename_with_a_gap_is_refused():
    registry = _registry()
    with pytest.raises(InvalidDeclarationError, match=re.escape(f'T.{GAP}')):
        @versioned_resource(registry, 'thing')
        class T(wtypes.Base):
            a = versioned(wtypes.text, max_version='1.0')
            b = versioned(wtypes.text, '1.2', replaces='a')
            st = versioned(wtypes.text,
                           changes=[ValueMap({'z': 'y'}, '1.0')])


def test_a_rename_right_after_the_old_name_is_served_at_every_version():
    schema = Schema(_registry(), 'thing', {
        'a': field(max_version='1.0'),
        'b': field(min_version='1.1', replaces='a'),
        'st': field(changes=[ValueMap({'z': 'y'}, '1.0')])})
    for version, name in (('1.0', 'a'), ('1.1', 'b'), ('1.2', 'b')):
        assert schema.visible_fields(version) == {name, 'st'}
        assert schema.filter({'b': 'v', 'st': 'q'},
                             Version.parse(version)) == {name: 'v',
                                                         'st': 'q'}


def test_the_error_is_a_registry_error():
    assert issubclass(InvalidDeclarationError, RegistryError)


@pytest.mark.parametrize('fields, match', [
    # 'a' is renamed to 'b' after 1.0, then a new field takes 'a' at 1.2:
    # a patch of 'b' at 1.2 erased the new 'a'
    ([FieldSpec('b', changes=(Renamed('a', '1.0'),)),
      FieldSpec('a', min_version=Version(1, 2))],
     "thing.b Renamed('a', '1.0'): 'a' is also the name of thing.a; a name "
     "stays with the field that had it, at every version: give thing.a "
     "another name."),
    ([FieldSpec('a', changes=(Renamed('a', '1.0'),))],
     "thing.a Renamed('a', '1.0'): 'a' is also its newest name"),
    ([FieldSpec('a', changes=(Renamed('x', '1.0'), Renamed('b', '1.1'))),
      FieldSpec('c', Version(1, 1), changes=(Renamed('x', '1.1'),))],
     "thing.c Renamed('x', '1.1'): 'x' is also an older name of thing.a"),
])
def test_a_name_a_field_had_is_not_reused(fields, match):
    with pytest.raises(InvalidDeclarationError, match=re.escape(match)):
        Conversion(_registry('reuse'), 'thing', fields)


def test_a_renamed_field_and_a_new_one_are_kept_apart():
    conversion = Conversion(_registry('apart'), 'thing', [
        FieldSpec('b', changes=(Renamed('a', '1.0'),)),
        FieldSpec('c', min_version=Version(1, 2))])
    assert conversion.apply_patch(
        {'b': 1, 'c': 'new'}, [{'op': 'replace', 'path': '/b', 'value': 2}],
        Version(1, 2)) == {'b': 2, 'c': 'new'}


RETYPED = ("declares values= and Retype(..., '1.0'): values= lists values "
           "of the newest type, which versions up to 1.0 show as another "
           "type, and a field cannot yet gate values by version across a "
           "retype: leave values= out (refuse in up=, raising ValueError, "
           "what clients up to 1.0 may not send).")


def test_values_beside_a_retype_are_refused_on_a_wsme_type():
    # 1.0 showed '1' yet refused both '1' and 1; its schema said
    # {'type': ['string', 'null'], 'enum': [1, None]}
    registry = VersionRegistry('rv', [('1.0', 'a'), ('1.1', 'b')])
    with pytest.raises(InvalidDeclarationError,
                       match=re.escape(f'T.size {RETYPED}')):
        @versioned_resource(registry, 'thing')
        class T(wtypes.Base):
            size = versioned(wtypes.Enum(int, 1, 2), values={2: '1.1'},
                             changes=[Retype(str, int, '1.0',
                                             datatype=wtypes.text)])


def test_values_beside_a_retype_are_refused_on_a_plain_dict_schema():
    registry = VersionRegistry('rv', [('1.0', 'a'), ('1.1', 'b')])
    with pytest.raises(InvalidDeclarationError,
                       match=re.escape(f"Schema 'thing': s {RETYPED}")):
        Schema(registry, 'thing', {'s': field(
            values={'X': None, 'Y': '1.1'},
            changes=[Retype(str.lower, str.upper, '1.0')])})


def test_a_retype_without_values_is_still_served():
    registry = VersionRegistry('rv', [('1.0', 'a'), ('1.1', 'b')])

    @versioned_resource(registry, 'thing')
    class T(wtypes.Base):
        size = versioned(wtypes.Enum(int, 1, 2),
                         changes=[Retype(str, int, '1.0',
                                         datatype=wtypes.text)])
    assert response_json(T, {'size': 1}, Version(1, 0)) == {'size': '1'}
