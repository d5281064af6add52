"""The ``pecan-microversions`` command: main(argv) and the installed script."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import pecan_microversions.demo.app  # noqa: F401 - makes the demo's declarations
from pecan_microversions.core.errors import LoadError
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.tools import history
from pecan_microversions.tools.cli import load_registry
from tests import history_registries as regs
from tests.tools import run

DEMO_PATH = 'pecan_microversions.demo.versions:REGISTRY'
DEMO_IMPORT = ['--import', 'pecan_microversions.demo.app']
CLEAN = 'tests.history_registries:CLEAN'
BROKEN = 'tests.history_registries:BROKEN'
SCRIPT = Path(sys.executable).parent / 'pecan-microversions'


# -- history -------------------------------------------------------------------

@pytest.mark.parametrize('fmt,option', [
    ('rst', []), ('rst', ['--format', 'rst']), ('markdown', ['-f', 'md']),
    ('markdown', ['--format', 'markdown']), ('json', ['--format', 'json'])])
def test_history_on_demo(capsys, fmt, option):
    code, out, err = run(capsys, 'history', DEMO_PATH, *DEMO_IMPORT, *option)
    assert (code, err) == (0, '')
    assert out == history.render(DEMO, fmt, DEMO_PATH)
    if fmt == 'json':
        data = json.loads(out)
        assert [v['version'] for v in data['versions']] == [
            str(v) for v in DEMO.versions]


def test_history_on_broken_registry_still_renders(capsys):
    code, out, _ = run(capsys, 'history', BROKEN)
    assert code == 0
    assert 'Version 1.6\n-----------\n\nWidgets can be archived.\n\nNo ' \
           'declared changes.\n' in out


# -- describe and diff ---------------------------------------------------------

def test_describe_demo(capsys):
    for version in DEMO.versions:
        code, out, _ = run(capsys, 'describe', DEMO_PATH, *DEMO_IMPORT,
                           str(version))
        assert code == 0
        assert json.loads(out) == history.describe(DEMO, version)
    code, out, _ = run(capsys, 'describe', DEMO_PATH, 'latest')
    assert json.loads(out)['version'] == str(DEMO.max_version)


def test_describe_clean(capsys):
    code, out, _ = run(capsys, 'describe', CLEAN, '1.1')
    assert code == 0
    assert json.loads(out)['declarations']['field'] == {
        'Widget': ['colour', 'name', 'uuid']}


@pytest.mark.parametrize('version', ['9.9', '1.x', ''])
def test_describe_unknown_version_is_a_usage_error(capsys, version):
    code, out, err = run(capsys, 'describe', DEMO_PATH, version)
    assert code == 2 and out == ''
    assert err.startswith('pecan-microversions describe: ')


def test_diff_demo(capsys):
    first, last = str(DEMO.versions[0]), str(DEMO.max_version)
    code, out, _ = run(capsys, 'diff', DEMO_PATH, *DEMO_IMPORT, first, last)
    assert code == 0
    assert json.loads(out) == history.diff(DEMO, first, last)


def test_diff_clean_and_unknown(capsys):
    code, out, _ = run(capsys, 'diff', CLEAN, '1.0', '1.1')
    assert json.loads(out)['added'] == {'field': {'Widget': ['colour']}}
    code, out, err = run(capsys, 'diff', CLEAN, '1.0', '3.0')
    assert code == 2 and 'not in the widget history' in err


# -- check ---------------------------------------------------------------------

def test_check_demo(capsys):
    code, out, err = run(capsys, 'check', DEMO_PATH, *DEMO_IMPORT)
    expected = [str(p) for p in history.check(DEMO)]
    assert out.splitlines() == expected
    assert code == (1 if expected else 0)


def test_check_clean(capsys):
    code, out, err = run(capsys, 'check', CLEAN)
    assert (code, out) == (0, '')
    assert err == 'widget: 5 versions, 12 declarations, no problems.\n'


def test_check_broken(capsys):
    code, out, err = run(capsys, 'check', BROKEN)
    assert code == 1
    assert out.splitlines() == [str(p) for p in history.check(regs.BROKEN)]
    assert len(out.splitlines()) == 5


def test_check_release_notes(capsys, tmp_path):
    notes = tmp_path / 'releasenotes' / 'notes'
    notes.mkdir(parents=True)
    code, out, _ = run(capsys, 'check', CLEAN, '--releasenotes',
                       str(tmp_path / 'releasenotes'))
    assert code == 1
    assert out == (f'widget 1.4: no release note in {notes} mentions the '
                   'newest version 1.4.\n')
    (notes / 'weight-1234.yaml').write_text(
        'features:\n  - Microversion 1.4 replaces size with weight.\n')
    assert run(capsys, 'check', CLEAN, '--releasenotes',
               str(tmp_path / 'releasenotes'))[0] == 0
    code, out, err = run(capsys, 'check', CLEAN, '--releasenotes',
                         str(tmp_path / 'missing'))
    assert code == 2 and 'is not a directory' in err


def test_check_release_notes_that_cannot_be_read(capsys, tmp_path):
    notes = tmp_path / 'releasenotes' / 'notes'
    (notes / 'drafts.yaml').mkdir(parents=True)
    (notes / 'weight-1234.yaml').write_text('features:\n  - 1.4.\n')
    assert run(capsys, 'check', CLEAN, '--releasenotes', str(notes))[0] == 0
    (notes / 'latin-1235.yaml').write_bytes(b'fixes:\n  - caf\xe9\n')
    code, out, err = run(capsys, 'check', CLEAN, '--releasenotes', str(notes))
    assert (code, out) == (2, '')
    assert err.startswith(
        'pecan-microversions check: --releasenotes: Release note '
        f'{notes / "latin-1235.yaml"} is not UTF-8 text: ')
    assert 'Traceback' not in err


def test_check_release_notes_with_a_link_to_nothing(capsys, tmp_path):
    notes = tmp_path / 'releasenotes' / 'notes'
    notes.mkdir(parents=True)
    (notes / 'a-weight-1234.yaml').write_text('features:\n  - 1.4.\n')
    (notes / 'z-gone-1236.yaml').symlink_to(tmp_path / 'nowhere.yaml')
    code, out, err = run(capsys, 'check', CLEAN, '--releasenotes', str(notes))
    assert (code, out) == (2, '')
    assert err == (
        'pecan-microversions check: --releasenotes: Cannot read release '
        f'note {notes / "z-gone-1236.yaml"}: it is a link to '
        f'{tmp_path / "nowhere.yaml"}, which does not exist.\n')


def test_check_registry_that_fails_at_import(capsys, tmp_path, monkeypatch):
    (tmp_path / 'sunset_first.py').write_text(
        'import datetime\n'
        'from pecan_microversions import VersionRegistry\n'
        'from pecan_microversions.core.deprecation import Deprecation\n'
        "REGISTRY = VersionRegistry('x', [('1.0', 'One.'), ('1.1', 'Two.')],"
        " deprecations=[Deprecation('1.0', '1.0', datetime.date(2026, 2, 1),"
        ' datetime.date(2026, 1, 1))])\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, _ = run(capsys, 'check', 'sunset_first:REGISTRY')
    assert code == 1
    assert out.startswith("sunset_first:REGISTRY: module 'sunset_first' "
                          'declares an invalid registry: '
                          'SunsetBeforeDeprecationError: ')
    # Other commands cannot run on it: a usage error.
    code, _, err = run(capsys, 'history', 'sunset_first:REGISTRY')
    assert code == 2 and 'SunsetBeforeDeprecationError' in err


def test_import_option_adds_declarations(capsys, tmp_path, monkeypatch):
    (tmp_path / 'gadget_versions.py').write_text(
        'from pecan_microversions import VersionRegistry\n'
        "REGISTRY = VersionRegistry('gadget', [('1.0', 'One.'), "
        "('1.1', 'Gadgets have a hue.')])\n")
    (tmp_path / 'gadget_api.py').write_text(
        'from gadget_versions import REGISTRY\n'
        "REGISTRY.declare('field', 'Gadget', 'hue', '1.1')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out, err = run(capsys, 'check', 'gadget_versions:REGISTRY')
    assert code == 1
    assert out == ("gadget 1.1: declares no change (declare what it added or "
                   "removed, or registry.declare('behaviour', owner, what, "
                   "version)).\n")
    assert 'has no declarations' in err and '--import' in err
    code, out, err = run(capsys, 'check', 'gadget_versions:REGISTRY',
                         '--import', 'gadget_api')
    assert (code, out) == (0, '')


# -- loading and usage -----------------------------------------------------------

@pytest.mark.parametrize('spec,message', [
    ('tests.history_registries', "expected package.module:attribute"),
    (':CLEAN', 'expected package.module:attribute'),
    ('tests.history_registries:', 'expected package.module:attribute'),
    ('tests.no_such_module:REGISTRY', "Cannot import module "
                                      "'tests.no_such_module'"),
    ('tests.history_registries:MISSING', "has no attribute 'MISSING'"),
    ('tests.history_registries:NOT_A_REGISTRY', 'is a int, not a '
                                                'VersionRegistry'),
])
def test_bad_registry_path(capsys, spec, message):
    for command in (['history'], ['describe', '1.0'], ['check']):
        argv = [command[0], spec] + command[1:]
        code, out, err = run(capsys, *argv)
        assert (code, out) == (2, '')
        assert err.startswith(f'pecan-microversions {command[0]}: ')
        assert message in err
    with pytest.raises(LoadError, match=message):
        load_registry(spec)


def test_dotted_attribute():
    assert load_registry(CLEAN) is regs.CLEAN
    assert load_registry('tests.tools.test_cli:regs.CLEAN') is regs.CLEAN


@pytest.mark.parametrize('command', [[], ['history'], ['describe'], ['diff'],
                                     ['check']])
def test_help(capsys, command):
    code, out, _ = run(capsys, *command, '--help')
    assert code == 0
    assert out.startswith('usage: pecan-microversions')
    if command:
        assert 'REGISTRY' in out and '--import' in out


def test_usage_errors(capsys):
    assert run(capsys)[0] == 2
    assert run(capsys, 'frobnicate', DEMO_PATH)[0] == 2
    assert run(capsys, 'history', DEMO_PATH, '--format', 'html')[0] == 2
    assert run(capsys, 'diff', DEMO_PATH, '1.0')[0] == 2


# -- the real thing ---------------------------------------------------------------

def test_installed_console_script():
    assert SCRIPT.exists(), 'pip install -e . registers the console script'
    done = subprocess.run(
        [str(SCRIPT), 'history', DEMO_PATH, '--import',
         'pecan_microversions.demo.app', '--format', 'markdown'],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == history.render(DEMO, 'markdown', DEMO_PATH)
    done = subprocess.run(
        [str(SCRIPT), 'check', BROKEN], capture_output=True, text=True,
        timeout=60, check=False, cwd=Path(__file__).parents[2])
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        str(p) for p in history.check(regs.BROKEN)]


def test_python_dash_m():
    done = subprocess.run(
        [sys.executable, '-m', 'pecan_microversions.tools.cli', 'describe',
         CLEAN, '1.4'], capture_output=True, text=True, timeout=60,
        check=False, cwd=Path(__file__).parents[2])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == history.describe(regs.CLEAN, '1.4')
