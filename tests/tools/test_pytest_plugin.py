"""The pytest plugin loads from the package's ``pytest11`` entry point.

The package's metadata is generated exactly as pip does it (pbr's
``egg_info``, from setup.cfg) into a temporary directory; a fresh pytest
process with that directory on its path runs a project that has no
``conftest.py`` and no ``pytest_plugins`` line, and the ``microversions``
marker works.  ``-p no:<name>`` turns it off.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = 'pecan_microversions.tools.testing'

TEST_MODULE = textwrap.dedent('''
    import pytest
    from pecan_microversions import VersionRegistry

    REGISTRY = VersionRegistry('thing', [('1.0', 'First.'), ('1.1', 'Next.'),
                                         ('1.2', 'Last.')])

    @pytest.mark.microversions(REGISTRY, '1.1')
    def test_each(api_version):
        assert str(api_version) in ('1.1', '1.2')
''')


@pytest.fixture(scope='module')
def metadata(tmp_path_factory):
    """The installed-package metadata (entry points) pip would write."""
    out = tmp_path_factory.mktemp('metadata')
    subprocess.run([sys.executable, 'setup.py', '-q', 'egg_info',
                    '--egg-base', str(out)], cwd=ROOT, check=True,
                   capture_output=True)
    (entry_points,) = out.glob('*.egg-info/entry_points.txt')
    assert f'[pytest11]\n{PLUGIN} = {PLUGIN}' in entry_points.read_text()
    return out


def _run_pytest(metadata, project, *options):
    env = dict(os.environ,
               PYTHONPATH=os.pathsep.join([str(metadata), str(ROOT)]))
    env.pop('PYTEST_ADDOPTS', None)
    env.pop('PYTEST_PLUGINS', None)
    return subprocess.run(
        [sys.executable, '-m', 'pytest', '-v', '--strict-markers',
         '-p', 'no:cacheprovider', *options], cwd=project, env=env,
        capture_output=True, text=True, timeout=120)


def test_plugin_is_active_without_pytest_plugins(metadata, tmp_path):
    (tmp_path / 'test_marked.py').write_text(TEST_MODULE)
    result = _run_pytest(metadata, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert 'test_each[1.1] PASSED' in result.stdout
    assert 'test_each[1.2] PASSED' in result.stdout
    assert 'test_each[1.0]' not in result.stdout


def test_plugin_can_be_turned_off(metadata, tmp_path):
    (tmp_path / 'test_marked.py').write_text(TEST_MODULE)
    result = _run_pytest(metadata, tmp_path, '-p', f'no:{PLUGIN}')
    assert result.returncode != 0
    assert "'microversions' not found in `markers`" in result.stdout


def test_explicit_pytest_plugins_line_still_works(metadata, tmp_path):
    (tmp_path / 'conftest.py').write_text(f'pytest_plugins = [{PLUGIN!r}]\n')
    (tmp_path / 'test_marked.py').write_text(TEST_MODULE)
    result = _run_pytest(metadata, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert '2 passed' in result.stdout
