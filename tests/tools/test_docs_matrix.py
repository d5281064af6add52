"""The history page's field-by-version pictures, built by the docs build.

The documentation is built with the HTML builder (as ``tox -e docs`` does,
warnings being errors); the demo history page must hold one SVG matrix per
resource whose filled cells are exactly the versions at which the registry
says each field exists.
"""

import re
from xml.etree import ElementTree

import pytest

import pecan_microversions.demo.app  # noqa: F401 - the demo's declarations
from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.matrix import field_matrix_svg
from tests.test_docs import SOURCE, build

SVG = '{http://www.w3.org/2000/svg}'


@pytest.fixture(scope='module')
def history_page(tmp_path_factory):
    out = tmp_path_factory.mktemp('html')
    assert build(SOURCE, out, 'html') == ''
    return (out / 'demo-history.html').read_text()


def pictures(page):
    found = {}
    for text in re.findall(r'<svg .*?</svg>', page, re.S):
        svg = ElementTree.fromstring(text)
        found[svg.get('data-resource')] = svg
    return found


def test_page_has_one_matrix_per_resource(history_page):
    assert set(pictures(history_page)) == {'node', 'node_collection',
                                           'node_states'}
    assert 'Fields by version' in history_page


@pytest.mark.parametrize('resource', ['node', 'node_collection',
                                      'node_states'])
def test_matrix_cells_are_the_declared_ranges(history_page, resource):
    svg = pictures(history_page)[resource]
    cells = {}
    for rect in svg.iter(f'{SVG}rect'):
        cells.setdefault(rect.get('data-field'), set())
        if rect.get('class') == 'present':
            cells[rect.get('data-field')].add(rect.get('data-version'))
    expected = {}
    for declaration in REGISTRY.declarations('field', resource):
        expected[declaration.name] = {
            str(v) for v in REGISTRY.versions if declaration.exists_at(v)}
    for declaration in REGISTRY.declarations('field_value', resource):
        field = declaration.name.split('=', 1)[0]  # a value within its field
        expected[declaration.name] = {
            str(v) for v in REGISTRY.versions if declaration.exists_at(v)
        } & expected[field]
    assert cells == expected
    assert len(list(svg.iter(f'{SVG}rect'))) == (
        len(expected) * len(REGISTRY.versions))


def test_node_matrix_shows_the_rename():
    svg = ElementTree.fromstring(field_matrix_svg(REGISTRY, 'node'))
    present = {(r.get('data-field'), r.get('data-version'))
               for r in svg.iter(f'{SVG}rect') if r.get('class') == 'present'}
    assert ('driver', '1.5') in present and ('driver', '1.6') not in present
    assert ('hardware_type', '1.6') in present
    assert ('hardware_type', '1.5') not in present


def test_values_are_rows_under_their_field():
    from wsme import types as wtypes

    from pecan_microversions import VersionRegistry, versioned, versioned_resource
    registry = VersionRegistry('x', [('1.0', 'One.'), ('1.1', 'Two.'),
                                     ('1.2', 'Three.'), ('1.3', 'Four.')])

    @versioned_resource(registry, 'job')
    class Job(wtypes.Base):
        name = wtypes.text
        state = versioned(wtypes.Enum(str, 'new', 'done', 'failed'),
                          max_version='1.2', values={'failed': '1.1'})

    svg = ElementTree.fromstring(field_matrix_svg(registry, 'job'))
    rows = []
    present = set()
    for rect in svg.iter(f'{SVG}rect'):
        if rect.get('data-field') not in rows:
            rows.append(rect.get('data-field'))
        if rect.get('class') == 'present':
            present.add((rect.get('data-field'), rect.get('data-version')))
    assert rows[:2] == ['name', 'state']
    assert set(rows[2:]) == {'state=new', 'state=done', 'state=failed'}
    # a value exists only where its field does: failed at 1.1 and 1.2
    assert {v for f, v in present if f == 'state=failed'} == {'1.1', '1.2'}
    assert {v for f, v in present if f == 'state=new'} == {'1.0', '1.1',
                                                           '1.2'}
    with pytest.raises(ValueError, match='declares no fields of'):
        field_matrix_svg(registry, 'node')
