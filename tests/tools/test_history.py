"""The history, describe, diff and check functions, and the renderers."""

import json
import os

import docutils.core
import docutils.utils
import pytest

import pecan_microversions.demo.app  # noqa: F401 - makes the demo's declarations
from pecan_microversions.core import changes
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.tools import history
from tests import history_registries as regs

C = changes.Change


def by_version(registry):
    return {str(v.version): v for v in changes.version_changes(registry)}


def test_changes_per_version():
    v = by_version(regs.CLEAN)
    assert list(v) == ['1.0', '1.1', '1.2', '1.3', '1.4']
    # The first version lists everything that exists at it.
    assert set(v['1.0'].added) == {
        C('field', 'Widget', 'uuid'), C('field', 'Widget', 'name'),
        C('method', '/v1/widgets', 'get_all'),
        C('method', '/v1/widgets', 'post'),
        C('resource', '/v1/widgets/{uuid}/parts', '*')}
    assert v['1.1'].added == (C('field', 'Widget', 'colour'),)
    assert v['1.1'].removed == v['1.1'].changed == ()
    assert set(v['1.2'].added) == {
        C('field', 'Widget', 'size'),
        C('query_parameter', '/v1/widgets', 'sort_key'),
        C('query_parameter_value', '/v1/widgets', 'sort_key=name'),
        C('query_parameter_value', '/v1/widgets', 'sort_key=size')}
    # A new implementation of the same method is a change, not add + remove.
    assert v['1.3'].changed == (C('method', '/v1/widgets', 'post'),)
    assert v['1.3'].added == v['1.3'].removed == ()
    assert v['1.4'].added == (C('field', 'Widget', 'weight'),)
    assert set(v['1.4'].removed) == {
        C('resource', '/v1/widgets/{uuid}/parts', '*'),
        C('field', 'Widget', 'size'),
        C('query_parameter_value', '/v1/widgets', 'sort_key=size')}
    assert v['1.2'].description == regs.HISTORY[2][1]
    assert not any(x.empty for x in v.values())


def test_changes_are_grouped_by_kind_then_owner():
    added = by_version(regs.CLEAN)['1.0'].added
    assert [c.kind for c in added] == ['resource', 'method', 'method',
                                       'field', 'field']
    grouped = changes.group(added)
    assert list(grouped) == ['resource', 'method', 'field']
    assert grouped['field'] == {'Widget': ['name', 'uuid']}
    # Unknown kinds come last, and still render.
    assert list(changes.group([C('zebra', 'o', 'n'), C('field', 'o', 'n')])
                ) == ['field', 'zebra']


def test_describe():
    at = history.describe(regs.CLEAN, '1.2')
    assert at['version'] == '1.2'
    assert at['description'] == regs.HISTORY[2][1]
    assert at['served'] is True and at['deprecation'] is None
    d = at['declarations']
    assert d['field'] == {'Widget': ['colour', 'name', 'size', 'uuid']}
    assert d['method'] == {'/v1/widgets': ['get_all', 'post']}
    assert d['query_parameter'] == {'/v1/widgets': ['sort_key']}
    assert d['query_parameter_value'] == {
        '/v1/widgets': ['sort_key=name', 'sort_key=size']}
    assert history.describe(regs.CLEAN, 'latest')['version'] == '1.4'
    assert history.describe(regs.CLEAN, Version(1, 0))['declarations'][
        'field'] == {'Widget': ['name', 'uuid']}
    json.dumps(at)  # JSON-ready


@pytest.mark.parametrize('version', ['1.5', '2.0', 'one', '1.01'])
def test_describe_unknown_version(version):
    with pytest.raises(UnknownVersionError):
        history.describe(regs.CLEAN, version)


def test_diff():
    forward = history.diff(regs.CLEAN, '1.1', '1.4')
    assert forward['from'] == '1.1' and forward['to'] == '1.4'
    assert [v['version'] for v in forward['versions']] == ['1.2', '1.3', '1.4']
    assert forward['added'] == {
        'field': {'Widget': ['weight']},
        'query_parameter': {'/v1/widgets': ['sort_key']},
        'query_parameter_value': {'/v1/widgets': ['sort_key=name']}}
    assert forward['removed'] == {
        'resource': {'/v1/widgets/{uuid}/parts': ['*']}}
    assert forward['changed'] == {'method': {'/v1/widgets': ['post']}}
    backward = history.diff(regs.CLEAN, '1.4', '1.1')
    assert backward['added'] == forward['removed']
    assert backward['removed'] == forward['added']
    assert backward['versions'] == forward['versions']
    same = history.diff(regs.CLEAN, '1.2', '1.2')
    assert same['added'] == same['removed'] == same['changed'] == {}
    assert same['versions'] == []


def test_check_clean_registry():
    assert history.check(regs.CLEAN) == []


def test_check_broken_registry():
    lines = [str(p) for p in history.check(regs.BROKEN)]
    assert lines == [
        'widget field Widget archived: min_version 1.9 is not in the '
        'history (1.0 to 1.6).',
        'widget method /v1/widgets archive: max_version 1.2 is below '
        'min_version 1.4.',
        "widget 1.5: no description (found 'TODO').",
        'widget 1.5: declares no change (declare what it added or removed, '
        "or registry.declare('behaviour', owner, what, version)).",
        'widget 1.6: declares no change (declare what it added or removed, '
        "or registry.declare('behaviour', owner, what, version)).",
    ]


def test_check_empty_description_edited_after_the_fact():
    registry = regs.build()
    entries = list(registry.history)
    entries[1] = entries[1]._replace(description='  ')
    registry.history = tuple(entries)
    assert [str(p) for p in history.check(registry)] == [
        "widget 1.1: no description (found '  ')."]


def test_a_behaviour_declaration_is_a_change():
    registry = regs.build(regs.HISTORY + [('1.5', 'Deleting answers 204.')])
    assert history.check(registry)[0].where == 'widget 1.5'
    registry.declare('behaviour', 'DELETE /v1/widgets/{uuid}',
                     'answers 204 No Content', '1.5')
    assert history.check(registry) == []
    assert 'Behaviour ``DELETE /v1/widgets/{uuid}``: ``answers 204 No ' \
           'Content``' in history.render_rst(registry)


def test_first_version_needs_no_declarations():
    registry = VersionRegistry('bare', [('1.0', 'Initial version.')])
    assert history.check(registry) == []
    assert 'No declared changes.' in history.render_rst(registry)


def write_note(directory, name, text):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text(text, encoding='utf-8')


def test_check_release_notes(tmp_path):
    notes = tmp_path / 'releasenotes' / 'notes'
    write_note(notes, 'older-0000.yaml', 'features:\n  - Version 1.3.\n')
    problems = history.check(regs.CLEAN, tmp_path / 'releasenotes')
    assert [str(p) for p in problems] == [
        f'widget 1.4: no release note in {notes} mentions the newest version '
        '1.4.']
    # Neither a longer number nor a comment counts.
    write_note(notes, 'near-0001.yaml',
               '# mentions 1.4 in a comment\nfeatures:\n'
               '  - Microversions 11.4, 1.40 and 1.4.1.\n')
    assert len(history.check(regs.CLEAN, notes)) == 1
    write_note(notes, 'weight-0002.yaml',
               'features:\n  - |\n    API microversion 1.4: widgets have a '
               'weight.\n')
    assert history.check(regs.CLEAN, tmp_path / 'releasenotes') == []
    assert history.check(regs.CLEAN, notes) == []  # the notes/ dir itself


def test_check_release_notes_missing_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        history.check(regs.CLEAN, tmp_path / 'nowhere')


def test_check_reads_only_note_files(tmp_path):
    notes = tmp_path / 'notes'
    (notes / 'drafts.yaml').mkdir(parents=True)  # a directory, not a note
    write_note(notes, 'weight-0002.yaml', 'features:\n  - Version 1.4.\n')
    assert history.check(regs.CLEAN, notes) == []


def test_an_unreadable_note_is_named(tmp_path):
    notes = tmp_path / 'notes'
    write_note(notes, 'weight-0002.yaml', 'features:\n  - Version 1.4.\n')
    (notes / 'latin-0003.yaml').write_bytes(b'features:\n  - caf\xe9 1.4\n')
    with pytest.raises(history.ReleaseNoteError) as caught:
        history.check(regs.CLEAN, notes)
    assert str(caught.value).startswith(
        f'Release note {notes / "latin-0003.yaml"} is not UTF-8 text: ')


def test_every_note_is_read_before_the_version_is_looked_for(tmp_path):
    # a note mentioning the version, read first, must not hide a later
    # note that cannot be read: the result may not depend on file order
    notes = tmp_path / 'notes'
    write_note(notes, 'a-weight-0002.yaml', 'features:\n  - Version 1.4.\n')
    (notes / 'z-latin-0003.yaml').write_bytes(b'fixes:\n  - caf\xe9\n')
    with pytest.raises(history.ReleaseNoteError) as caught:
        history.check(regs.CLEAN, notes)
    assert str(caught.value).startswith(
        f'Release note {notes / "z-latin-0003.yaml"} is not UTF-8 text: ')


@pytest.mark.parametrize('name', ['a-gone-0004.yaml', 'z-gone-0004.yaml'])
def test_a_note_linking_to_nothing_cannot_be_read(tmp_path, name):
    notes = tmp_path / 'notes'
    write_note(notes, 'm-weight-0002.yaml', 'features:\n  - Version 1.4.\n')
    (notes / name).symlink_to(tmp_path / 'moved-0004.yaml')
    with pytest.raises(history.ReleaseNoteError) as caught:
        history.check(regs.CLEAN, notes)
    assert str(caught.value) == (
        f'Cannot read release note {notes / name}: it is a link to '
        f'{tmp_path / "moved-0004.yaml"}, which does not exist.')
    (tmp_path / 'moved-0004.yaml').write_text('fixes:\n  - 1.3\n')
    assert history.check(regs.CLEAN, notes) == []  # the link now reads


def test_a_fifo_named_like_a_note_is_not_read(tmp_path):
    notes = tmp_path / 'notes'
    write_note(notes, 'weight-0002.yaml', 'features:\n  - Version 1.4.\n')
    os.mkfifo(notes / 'pipe-0005.yaml')  # reading it would block forever
    assert history.check(regs.CLEAN, notes) == []


def parse_rst(text):
    """The doctree, failing on any docutils warning."""
    return docutils.core.publish_doctree(
        text, settings_overrides={'report_level': 2, 'halt_level': 2})


def test_render_rst_is_valid_and_has_one_section_per_version():
    text = history.render_rst(regs.CLEAN, 'tests.history_registries:CLEAN')
    tree = parse_rst(text)
    titles = [n.astext() for n in tree.findall(docutils.nodes.title)]
    assert titles == ['widget API version history'] + [
        f'Version {v}' for v, _ in regs.HISTORY]
    assert '``tests.history_registries:CLEAN``' in text
    assert ('* Fields ``Widget``: ``name``, ``uuid``' in text)
    assert '* Resource ``/v1/widgets/{uuid}/parts``\n' in text
    assert 'Changed:\n\n* Method ``/v1/widgets``: ``post``' in text
    assert text.endswith('\n') and not text.endswith('\n\n')


def test_render_markdown():
    text = history.render_markdown(regs.CLEAN)
    assert text.startswith('# widget API version history\n')
    for version, description in regs.HISTORY:
        assert f'## Version {version}\n\n{description}\n' in text
    assert '- Field `Widget`: `colour`' in text
    assert '**Removed:**' in text


def test_render_json_matches_history_data():
    data = json.loads(history.render_json(regs.CLEAN, 'x:Y'))
    assert data == history.history_data(regs.CLEAN, 'x:Y')
    assert data['service_type'] == 'widget' and data['source'] == 'x:Y'
    assert data['versions'][1] == {
        'version': '1.1', 'description': 'Widgets have a colour.',
        'deprecation': None, 'added': {'field': {'Widget': ['colour']}},
        'removed': {}, 'changed': {}}


def test_render_rejects_unknown_format():
    with pytest.raises(ValueError, match='rst, markdown, json'):
        history.render(regs.CLEAN, 'html')


def test_deprecation_appears_in_history():
    text = history.render_rst(regs.DEPRECATING)
    parse_rst(text)
    section = text.split('Version 1.1\n')[1].split('Version 1.2\n')[0]
    assert ('*Deprecated on 2025-01-01, sunset on 2026-06-30.* See `the '
            'deprecation notice <https://widget.example.org/deprecations>`__.'
            in section)
    assert 'Deprecated' not in text.split('Version 1.2\n')[1]
    assert 'See [the deprecation notice](https://widget.example.org/' \
           'deprecations).' in history.render_markdown(regs.DEPRECATING)
    described = history.describe(regs.DEPRECATING, '1.0')['deprecation']
    assert described['sunset'] == '2026-06-30T00:00:00Z'
    assert history.describe(regs.DEPRECATING, '1.2')['deprecation'] is None


def test_versions_no_longer_served_are_flagged():
    registry = regs.build(min_version='1.2')
    assert 'versions before 1.2 are no longer served' in history.render_rst(
        registry)
    assert history.describe(registry, '1.1')['served'] is False


# -- The demo's registry: expectations generated from it ----------------------

def test_demo_history_has_every_version():
    text = history.render_rst(DEMO)
    parse_rst(text)
    for entry in DEMO.history:
        assert f'Version {entry.version}\n---' in text
        assert entry.description in text
    data = history.history_data(DEMO)
    assert [v['version'] for v in data['versions']] == [
        str(v) for v in DEMO.versions]


def test_demo_describe_and_diff_agree_with_declarations():
    first, latest = DEMO.versions[0], DEMO.max_version
    for version in DEMO.versions:
        described = history.describe(DEMO, str(version))['declarations']
        present = {(d.kind, d.owner, d.name)
                   for d in DEMO.declarations(at=version)}
        shown = {(k, o, n) for k, owners in described.items()
                 for o, names in owners.items() for n in names}
        assert shown <= present
        for kind, owner, name in present - shown:  # values of absent params
            assert kind.endswith('_value')
            assert (kind[:-6], owner, name.split('=')[0]) not in present
    changed = history.diff(DEMO, str(first), str(latest))
    assert len(changed['versions']) == len(DEMO.versions) - 1


def test_demo_check_reports_only_known_kinds_of_problem():
    for problem in history.check(DEMO):
        assert problem.where.startswith('fleet ')
        assert ('declares no change' in problem.message
                or 'no description' in problem.message
                or 'not in the history' in problem.message)


def test_values_exist_only_with_their_parameter():
    registry = regs.build()
    registry.declare('query_parameter', '/v1/widgets', 'sort_dir', '1.2')
    for value in ('asc', 'desc'):  # declared "always", as an Enum leaves them
        registry.declare('query_parameter_value', '/v1/widgets',
                         f'sort_dir={value}')
    v = by_version(registry)
    assert C('query_parameter_value', '/v1/widgets', 'sort_dir=asc') not in \
        v['1.0'].added
    assert {C('query_parameter', '/v1/widgets', 'sort_dir'),
            C('query_parameter_value', '/v1/widgets', 'sort_dir=asc'),
            C('query_parameter_value', '/v1/widgets', 'sort_dir=desc')} <= \
        set(v['1.2'].added)
    assert 'sort_dir=asc' not in str(history.describe(registry, '1.1'))
    assert history.describe(registry, '1.2')['declarations'][
        'query_parameter_value']['/v1/widgets'][:2] == ['sort_dir=asc',
                                                        'sort_dir=desc']


def test_diff_is_symmetric_across_a_rename():
    forward = history.diff(DEMO, '1.2', '1.6')
    backward = history.diff(DEMO, '1.6', '1.2')
    assert forward['changed']['rename'] == {'node': ['driver->hardware_type']}
    assert backward['changed']['rename'] == {
        'node': ['hardware_type->driver']}
    assert 'field' not in forward['removed']
    assert backward['added'] == forward['removed']
    assert backward['removed'] == forward['added']
