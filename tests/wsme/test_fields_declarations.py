"""Declarations: recorded in the registry, wrong ones refused at import."""

import pecan
import pytest
from wsme import types as wtypes
from wsmeext.pecan import wsexpose

from pecan_microversions import Renamed, ValueMap, filter_response
from pecan_microversions.core.errors import (
    InvalidDeclarationError,
    UnknownVersionError,
)
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version
from pecan_microversions.pecan.params import param, query_params
from pecan_microversions.wsme.fields import (
    versioned,
    versioned_resource,
    visible_fields,
)
from tests import versioned_app


def registry():
    return VersionRegistry('shelf', [('1.0', 'a'), ('1.1', 'b'),
                                     ('1.2', 'c')])


def test_registry_answers_fields_values_and_changes():
    app = versioned_app.make_app()
    reg = app.registry
    at_1_5 = {d.name for d in reg.declarations('field', 'node',
                                               Version(1, 5))}
    assert at_1_5 == {'uuid', 'name', 'description', 'location', 'state',
                      'owner', 'driver', 'legacy'}
    assert {d.name for d in reg.declarations('field', 'location',
                                             Version(1, 3))} == {'rack'}
    params = {d.name for d in reg.declarations('query_parameter',
                                               'GET /v1/nodes', Version(1, 6))}
    assert params == {'sort_key'}
    values = {d.name for d in reg.declarations('query_parameter_value',
                                               'GET /v1/nodes', Version(1, 3))}
    assert values == {'sort_key=name', 'sort_key=uuid'}
    added, removed = reg.changes('1.6')
    assert {(d.kind, d.name) for d in added} == {
        ('field', 'hardware_type'), ('rename', 'driver->hardware_type')}
    assert {(d.kind, d.name) for d in removed} == {
        ('field', 'driver'), ('query_parameter', 'driver')}
    added, _ = reg.changes('1.3')
    assert [(d.kind, d.owner, d.name) for d in added] == [
        ('field_value', 'node', 'state=deploying')]


def test_visible_fields():
    node = versioned_app.make_app().types['Node']
    assert visible_fields(node, '1.0') == {'uuid', 'name', 'state', 'driver',
                                           'legacy'}
    with pytest.raises(UnknownVersionError):
        visible_fields(node, '1.9')


def test_plain_types_are_untouched():
    class Plain(wtypes.Base):
        a = wtypes.text
        b = wtypes.wsattr(int, mandatory=True, default=3)

    obj = Plain(a='x')
    assert filter_response(obj, Version(1, 0)) is obj
    assert (obj.a, obj.b) == ('x', 3)
    assert visible_fields(Plain, '1.0') == {'a', 'b'}


def test_wsattr_options_are_kept():
    reg = registry()

    @versioned_resource(reg, 'thing')
    class Thing(wtypes.Base):
        ident = versioned(wtypes.text, '1.1', name='id', readonly=True)
        size = versioned(int, default=4)
        colour = versioned(wtypes.text, '1.1', mandatory=True)

    attrs = {a.key: a for a in wtypes.list_attributes(Thing)}
    assert attrs['ident'].name == 'id' and attrs['ident'].readonly
    assert Thing().size == 4
    # Bounded: WSME sees it optional, the library enforces it from 1.1.
    assert not attrs['colour'].mandatory
    assert attrs['colour'].mandatory_when_available
    assert visible_fields(Thing, '1.0') == {'size'}


@pytest.mark.parametrize('kwargs, error, words', [
    ({'min_version': '1.9'}, UnknownVersionError,
     'min_version names version 1.9'),
    ({'max_version': '2.0'}, UnknownVersionError,
     'max_version names version 2.0'),
    ({'min_version': '1.01'}, UnknownVersionError, "'1.01'"),
    ({'min_version': '1.2', 'max_version': '1.1'}, InvalidDeclarationError,
     'max_version 1.1 is below min_version 1.2'),
    ({'values': {'z': '1.9'}}, UnknownVersionError, 'thing.v=z'),
    ({'values': {'z': object()}}, InvalidDeclarationError, 'value range'),
])
def test_bad_field_declarations_fail_at_import(kwargs, error, words):
    with pytest.raises(error) as caught:
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            v = versioned(wtypes.text, **kwargs)
    assert words in str(caught.value)


def test_enum_values_must_be_enum_members():
    with pytest.raises(InvalidDeclarationError, match='not among the Enum'):
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            v = versioned(wtypes.Enum(str, 'a', 'b'), values={'c': '1.1'})


@pytest.mark.parametrize('old, new, words', [
    ((None, None), ('1.1', None), 'needs a max_version below'),
    ((None, '1.1'), ('1.1', None), 'needs a max_version below'),
    ((None, '1.0'), (None, None), 'needs a max_version below'),
])
def test_bad_renames(old, new, words):
    with pytest.raises(InvalidDeclarationError, match=words):
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            a = versioned(wtypes.text, *old)
            b = versioned(wtypes.text, *new, replaces='a')


def test_renamed_among_changes_is_refused_at_import():
    # It was silently ignored: responses and bodies kept the newest name.
    with pytest.raises(InvalidDeclarationError) as raised:
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            serial = versioned(wtypes.text, changes=[
                Renamed('sn', max_version='1.0')])
    assert str(raised.value) == (
        "test_renamed_among_changes_is_refused_at_import.<locals>.Thing."
        "serial declares Renamed('sn', '1.0') in changes=; a WSME type "
        "renames with replaces=: declare sn = versioned(..., "
        "max_version='1.0') and serial = versioned(..., min_version=<the "
        "version after 1.0>, replaces='sn').")


def test_rename_of_missing_attribute():
    with pytest.raises(InvalidDeclarationError, match="replaces 'zz'"):
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            b = versioned(wtypes.text, '1.1', replaces='zz')


def test_resource_bound_twice_and_bad_targets():
    reg = registry()

    @versioned_resource(reg, 'thing')
    class One(wtypes.Base):
        a = wtypes.text

    with pytest.raises(InvalidDeclarationError, match='already bound'):
        @versioned_resource(reg, 'thing')
        class Two(wtypes.Base):
            a = wtypes.text

    with pytest.raises(InvalidDeclarationError, match='wsme.types.Base'):
        versioned_resource(reg, 'other')(dict)


def test_undecorated_versioned_type_is_refused():
    class Loose(wtypes.Base):
        a = versioned(wtypes.text, '1.1')

    with pytest.raises(InvalidDeclarationError, match='versioned_resource'):
        filter_response(Loose(a='x'), Version(1, 0))


def test_undecorated_versioned_type_fails_when_the_method_is_defined():
    from pecan_microversions import versioned_wsexpose

    class Loose(wtypes.Base):
        a = versioned(wtypes.text, '1.1')

    class Wrapper(wtypes.Base):
        items = [Loose]

    # Returned directly, nested in a list of another type, or as the body:
    # refused at import, not with a 500 at the first request.
    for exposure in [dict(return_type=Loose), dict(return_type=Wrapper),
                     dict(return_type=None, body=Loose)]:
        with pytest.raises(InvalidDeclarationError, match='Loose.*not bound'):
            class Controller:
                @versioned_wsexpose(**exposure)
                def post(self, thing=None):
                    return thing


@pytest.mark.parametrize('spec, error, words', [
    (param('1.9'), UnknownVersionError, 'query_parameter GET /x.p'),
    (param('1.2', '1.1'), InvalidDeclarationError, 'is below'),
    (param(values={'a': '3.0'}), UnknownVersionError, 'p=a'),
    ('1.1', InvalidDeclarationError, 'param(...)'),
])
def test_bad_query_parameter_declarations(spec, error, words):
    with pytest.raises(error) as caught:
        query_params(registry(), 'GET /x', p=spec)
    assert words in str(caught.value)


def test_query_params_must_be_above_the_expose_decorator():
    decorator = query_params(registry(), 'GET /x', p=param('1.1'))
    with pytest.raises(InvalidDeclarationError, match='above'):
        decorator(lambda self, p=None: None)
    assert decorator(pecan.expose('json')(lambda self, p=None: None))
    assert decorator(wsexpose(wtypes.text, wtypes.text)(
        lambda self, p=None: None))


def test_registry_options_are_checked():
    with pytest.raises(InvalidDeclarationError, match='400 or 406'):
        VersionRegistry('x', [('1.0', 'a')], unavailable_status=404)
    with pytest.raises(InvalidDeclarationError, match='ignore'):
        VersionRegistry('x', [('1.0', 'a')], unknown_query_params='drop')


def test_old_range_spelling_warns_and_still_works():
    with pytest.warns(DeprecationWarning, match='min_version= and max_version'):
        old = versioned(wtypes.text, introduced='1.1', last='1.2')
    assert (old.range.min_version, old.range.max_version) == (
        Version(1, 1), Version(1, 2))


def test_changes_on_an_older_name_fail_at_import():
    """As for a plain-dict schema: the older name's changes would never
    apply (a rename chain converts from its newest attribute)."""
    with pytest.raises(InvalidDeclarationError,
                       match="declares changes=: declare them on 'b'"):
        @versioned_resource(registry(), 'thing')
        class Thing(wtypes.Base):
            a = versioned(wtypes.text, max_version='1.0',
                          changes=[ValueMap({'x': 'y'}, '1.0')])
            b = versioned(wtypes.text, '1.1', replaces='a')
