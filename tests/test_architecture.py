"""The package's layering, checked from its source (see architecture.rst)."""

import ast
import pathlib
import re

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / 'pecan_microversions'
#: Each layer may import only from itself and the layers before it.
LAYERS = ['core', 'compat', 'wsme', 'pecan', 'tools', 'demo', 'examples']
FRAMEWORKS = ('pecan', 'wsme', 'wsmeext', 'webob')
#: Framework internals that only compat.py may name.
INTERNALS = ('_pecan', '_custom_actions', '_get_dataholder', 'adhoc_attrs',
             'FunctionDefinition', 'lookup_controller', 'when_for',
             'iswsmefunction')
MAX_LINES = 400


def modules():
    for path in sorted(PACKAGE.rglob('*.py')):
        yield path, ast.parse(path.read_text(), str(path))


def layer_of(dotted):
    parts = dotted.split('.')
    if parts[0] != 'pecan_microversions' or len(parts) < 2:
        return None
    return parts[1] if parts[1] in LAYERS else None


def imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []


def own_layer(path):
    relative = path.relative_to(PACKAGE).with_suffix('')
    return relative.parts[0] if relative.parts[0] in LAYERS else None


@pytest.mark.parametrize('path,tree', list(modules()),
                         ids=lambda v: str(v) if isinstance(v, pathlib.Path)
                         else '')
def test_module_follows_the_layers(path, tree):
    name = path.relative_to(PACKAGE)
    mine = own_layer(path)
    for module, names in imports(tree):
        private = [n for n in names if n.startswith('_')
                   and module.startswith('pecan_microversions')]
        assert not private, f'{name} imports private {private} of {module}'
        target = layer_of(module)
        if mine is not None and target is not None:
            assert LAYERS.index(target) <= LAYERS.index(mine), (
                f'{name} ({mine}) imports upward from {module} ({target})')
        if mine == 'core':
            assert module.split('.')[0] not in FRAMEWORKS, (
                f'{name} is in the framework-free core but imports {module}')
    if path.name != 'compat.py':
        from_compat = {n for module, names in imports(tree)
                       if module == 'pecan_microversions.compat'
                       for n in names}
        code = ast.unparse(tree)  # no comments; docstrings stay
        found = [i for i in INTERNALS if i not in from_compat
                 and re.search(rf'(?<![\w`]){i}(?![\w`])', code)]
        assert not found, f'{name} names framework internals {found}'
    lines = len(path.read_text().splitlines())
    assert lines <= MAX_LINES, f'{name} has {lines} lines'


def test_layers_are_folders():
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir()
                  and (p / '__init__.py').exists()) == sorted(
        set(LAYERS) - {'compat'})


def test_checker_sees_an_upward_import(tmp_path):
    # The check above can fail: an upward import is detected.
    tree = ast.parse('from pecan_microversions.pecan.hook import X')
    target = layer_of(next(imports(tree))[0])
    assert LAYERS.index(target) > LAYERS.index('core')
