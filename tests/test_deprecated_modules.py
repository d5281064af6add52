"""The 0.x flat module paths still import, warn and alias the new ones."""

import json
import subprocess
import sys

import pytest

from pecan_microversions.deprecated_modules import MOVED

_SCRIPT = '''
import importlib, json, sys, warnings
old, new = sys.argv[1], sys.argv[2]
import pecan_microversions
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    module = importlib.import_module(old)
again = importlib.import_module(old)
print(json.dumps({
    'same': module is importlib.import_module(new) is again,
    'name': module.__name__,
    'warnings': [(w.category.__name__, str(w.message)) for w in caught],
}))
'''


@pytest.mark.parametrize('old, new', sorted(
    (old, new) for old, new in MOVED.items() if isinstance(new, str)))
def test_old_path_imports_warns_and_is_the_new_module(old, new):
    result = subprocess.run([sys.executable, '-c', _SCRIPT, old, new],
                            capture_output=True, text=True, check=True)
    report = json.loads(result.stdout)
    assert report['same'] is True
    assert report['name'] == new
    deprecations = [m for c, m in report['warnings']
                    if c == 'DeprecationWarning' and old in m]
    assert len(deprecations) == 1
    assert f'has moved to {new}' in deprecations[0]


def test_every_new_path_exists_and_old_ones_are_not_files():
    import importlib
    import pathlib

    import pecan_microversions
    package = pathlib.Path(pecan_microversions.__file__).parent
    for old, new in MOVED.items():
        for name in (new,) if isinstance(new, str) else new:
            assert importlib.import_module(name).__name__ == name
        assert not (package / (old.rsplit('.', 1)[1] + '.py')).exists()


def test_from_import_of_a_name_through_an_old_path():
    script = ('import warnings, pecan_microversions\n'
              'warnings.simplefilter("error", DeprecationWarning)\n'
              'try:\n'
              '    from pecan_microversions.version import Version\n'
              'except DeprecationWarning as exc:\n'
              '    print("warned", exc)\n')
    out = subprocess.run([sys.executable, '-c', script], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith('warned pecan_microversions.version has moved')
    code = ('from pecan_microversions.version import Version; '
            'from pecan_microversions.core.version import Version as V; '
            'print(Version is V)')
    out = subprocess.run([sys.executable, '-W', 'ignore', '-c', code],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == 'True'


def test_old_validation_path_gathers_checking_and_patching():
    code = ('import warnings, json, pecan_microversions\n'
            'with warnings.catch_warnings(record=True) as caught:\n'
            '    warnings.simplefilter("always")\n'
            '    from pecan_microversions.validation import (\n'
            '        apply_patch, check_body, check_patch, JsonPatchOperation)\n'
            'from pecan_microversions.wsme import checking, patching\n'
            'print(json.dumps([apply_patch is patching.apply_patch,\n'
            '    check_body is checking.check_body,\n'
            '    [str(w.message) for w in caught\n'
            '     if w.category is DeprecationWarning]]))\n')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True,
                         text=True, check=True).stdout
    same_patch, same_check, messages = json.loads(out)
    assert same_patch and same_check
    assert len(messages) == 1 and 'wsme.patching' in messages[0]
