"""``pecan-microversions openapi`` and ``diff --openapi`` on the demo, run as
a user runs them: the command's own process, its output parsed."""

import json
import subprocess
import sys

import webtest
from openapi_spec_validator import validate

from pecan_microversions.demo.app import make_app
from pecan_microversions.tools.testing import version_headers

DEMO = 'pecan_microversions.demo.versions:REGISTRY'
APP = ['--app', 'pecan_microversions.demo.app:make_app']


def command(*argv):
    return subprocess.run(
        [sys.executable, '-m', 'pecan_microversions.tools.cli', *argv],
        capture_output=True, text=True, timeout=60)


def test_openapi_prints_the_served_document_of_a_version():
    from pecan_microversions.demo.versions import REGISTRY
    result = command('openapi', DEMO, '1.4', *APP, '--title', 'Fleet API')
    assert (result.returncode, result.stderr) == (0, '')
    printed = json.loads(result.stdout)
    validate(printed)
    served = webtest.TestApp(make_app()).get(
        '/v1/openapi.json', headers=version_headers(REGISTRY, '1.4')).json
    assert served.pop('servers') == [{'url': 'http://localhost'}]
    assert printed == served


def test_openapi_without_version_prints_the_combined_document():
    result = command('openapi', DEMO, *APP)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    validate(document)
    assert document['info']['x-openstack'] == {'min-ver': '1.0',
                                               'max-ver': '1.9'}
    assert document['paths']['/v1/nodes/{uuid}/states']['get'][
        'x-openstack'] == {'max-ver': '1.6'}  # from the first version


def test_openapi_latest_is_the_newest_version():
    result = command('openapi', DEMO, 'latest', *APP)
    assert json.loads(result.stdout)['info']['version'] == '1.9'


def test_diff_openapi_lists_what_the_rename_changed():
    result = command('diff', DEMO, '1.5', '1.6', '--openapi', *APP)
    assert result.returncode == 0, result.stderr
    changes = {(c['change'], c['pointer']) for c in json.loads(result.stdout)}
    assert ('removed', '/components/schemas/Node/properties/driver') in changes
    assert ('added',
            '/components/schemas/Node/properties/hardware_type') in changes
    parameters = [c for c in json.loads(result.stdout)
                  if c['pointer'].startswith('/paths/~1v1~1nodes/get/param')]
    assert {(c['change'], (c.get('before') or c.get('after'))['name'])
            for c in parameters} == {('removed', 'driver'),
                                     ('added', 'hardware_type')}


def test_diff_openapi_of_a_version_with_itself_is_empty():
    result = command('diff', DEMO, '1.3', '1.3', '--openapi', *APP)
    assert (result.returncode, json.loads(result.stdout)) == (0, [])


def test_usage_errors_exit_2_with_a_message():
    result = command('openapi', DEMO, '7.7', *APP)
    assert result.returncode == 2
    assert 'names version 7.7, which is not in the fleet history' in (
        result.stderr)
    result = command('openapi', DEMO, *APP[:1], 'no.such.module:make_app')
    assert result.returncode == 2
    assert "Cannot import module 'no.such.module'" in result.stderr
    result = command('diff', DEMO, '1.0', '1.1', '--openapi')
    assert result.returncode == 2
    assert '--openapi needs --app' in result.stderr
    result = command('openapi', DEMO, '1.0')
    assert result.returncode == 2
    assert '--app' in result.stderr


def test_matrix_prints_the_svg_of_a_resource():
    from pecan_microversions.demo.versions import REGISTRY
    from pecan_microversions.tools.matrix import field_matrix_svg
    result = command('matrix', DEMO, 'node', '--import',
                     'pecan_microversions.demo.app')
    assert result.returncode == 0, result.stderr
    import pecan_microversions.demo.app  # noqa: F401 - declarations
    assert result.stdout == field_matrix_svg(REGISTRY, 'node')
    result = command('matrix', DEMO, 'rack', '--import',
                     'pecan_microversions.demo.app')
    assert result.returncode == 2
    assert "declares no fields of 'rack'; resources: node" in result.stderr


def test_openapi_of_something_that_is_not_an_app_is_a_usage_error():
    for argv in (('openapi', DEMO, '1.0', '--app', 'os:path'),
                 ('diff', DEMO, '1.0', '1.1', '--openapi', '--app',
                  'os:path')):
        result = command(*argv)
        assert result.returncode == 2
        assert result.stdout == ''
        assert 'os:path is a module with no exposed operations' in (
            result.stderr)
