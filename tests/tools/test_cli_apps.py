"""``pecan-microversions openapi --app``: what it calls, what it refuses,
and the versions it describes (main() in-process, as the command runs it)."""

import json

import pytest
from openapi_spec_validator import validate

from tests.tools import run

APPS = 'tests.described_apps'
IRONIC = 'pecan_microversions.examples.ironic_style'


@pytest.mark.parametrize('factory', ['make_plain', 'Factory.make',
                                     'make_partial'])
def test_factories_are_called(capsys, factory):
    code, out, err = run(capsys, 'openapi', f'{APPS}:PLAIN', '1.0', '--app',
                         f'{APPS}:{factory}')
    assert (code, err) == (0, '')
    document = json.loads(out)
    validate(document)
    assert sorted(document['paths']['/generic/']) == [
        'delete', 'get', 'patch', 'post', 'put']


@pytest.mark.parametrize('command', [('openapi', f'{APPS}:PLAIN', '1.0'),
                                     ('diff', f'{APPS}:PLAIN', '1.0', '1.0',
                                      '--openapi')])
def test_a_class_is_a_usage_error(capsys, command):
    code, out, err = run(capsys, *command, '--app', f'{APPS}:PlainRoot')
    assert (code, out) == (2, '')
    assert err == (f'pecan-microversions {command[0]}: {APPS}:PlainRoot is a '
                   'class: name the Pecan app, a root controller instance, '
                   'or a function returning either.\n')


def test_an_unserved_version_is_a_usage_error(capsys):
    code, out, err = run(capsys, 'openapi', f'{APPS}:FLOOR', '1.0', '--app',
                         f'{APPS}:make_floor')
    assert (code, out) == (2, '')
    assert err == ('pecan-microversions openapi: Version 1.0 is not served: '
                   'floor answers 1.2 to 1.3, and 406 Not Acceptable to a '
                   'request at 1.0.\n')
    code, out, _ = run(capsys, 'openapi', f'{APPS}:FLOOR', '--app',
                       f'{APPS}:make_floor')
    assert code == 0
    assert json.loads(out)['info']['description'] == (
        'Every version from 1.2 to 1.3.')


def test_another_registry_than_the_apps_is_a_usage_error(capsys):
    code, out, err = run(
        capsys, 'openapi', 'pecan_microversions.examples.watcher_style:'
        'REGISTRY', '--app', 'pecan_microversions.demo.app:make_app')
    assert (code, out) == (2, '')
    assert 'The app negotiates with another registry' in err


def test_ironic_example_operations_have_their_own_parameters(capsys):
    code, out, _ = run(capsys, 'openapi', f'{IRONIC}:REGISTRY', '1.6',
                       '--app', f'{IRONIC}:make_app')
    assert code == 0
    document = json.loads(out)
    validate(document)
    names = {(path, method): [p['name'] for p in operation['parameters']
                              if 'name' in p]
             for path, operations in document['paths'].items()
             for method, operation in operations.items()}
    assert names[('/v1/nodes', 'post')] == []
    assert names[('/v1/nodes/{ident}', 'patch')] == ['ident']
