"""The released command-line clients, ``watcher`` (python-watcherclient)
and ``baremetal`` (python-ironicclient on osc-lib), run as processes
against the examples served by cheroot on a loopback port.

Each command is the console script's own entry point (``main`` of the
client's shell) with ``-f json`` output; the environment carries no
``OS_*`` variable.
"""

import json
import os
import subprocess
import sys

import pytest

from pecan_microversions.examples import ironic_style, watcher_style

_SHELLS = {'watcher': 'watcherclient.shell', 'baremetal': 'ironicclient.shell'}
_ENV = {k: v for k, v in os.environ.items() if not k.startswith('OS_')}


def _run(cli, *args):
    """The CLI's output as JSON; the test fails on a non-zero exit."""
    code = (f'import sys; from {_SHELLS[cli]} import main; '
            'sys.exit(main(sys.argv[1:]))')
    done = subprocess.run([sys.executable, '-c', code, *args],
                          capture_output=True, text=True, timeout=60,
                          env=_ENV, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return json.loads(done.stdout) if '-f' in args else done.stdout


@pytest.fixture
def watcher(serve):
    url = serve(watcher_style.make_app())

    def run(*args, version=None):
        options = ['--no-auth', '--os-endpoint-override', url]
        if version is not None:
            options += ['--os-infra-optim-api-version', version]
        return _run('watcher', *options, *args)

    return run


@pytest.fixture
def baremetal(serve):
    url = serve(ironic_style.make_app())
    return lambda *args: _run('baremetal', '--os-auth-type', 'none',
                              '--os-endpoint', url, *args)


def test_watcher_audit_create_list_and_show(watcher):
    # Before, create's 201 ended in "AttributeError: id" and list and show
    # in "AttributeError: strategy_name".
    created = watcher('audit', 'create', '-g', 'dummy', '-t', 'ONESHOT',
                      '-f', 'json')
    assert (created['Goal'], created['Strategy'], created['State']) == (
        'dummy', 'auto', 'PENDING')
    uuid = created['UUID']
    listed = watcher('audit', 'list', '-f', 'json')
    assert [(a['UUID'], a['Goal'], a['Strategy']) for a in listed] == [
        (uuid, 'dummy', 'auto')]
    shown = watcher('audit', 'show', uuid, '-f', 'json')
    assert (shown['UUID'], shown['Audit Type']) == (uuid, 'ONESHOT')


def test_watcher_audit_list_detail(watcher):
    # Before, a 404: the example had no /v1/audits/detail.
    uuid = watcher('audit', 'create', '-g', 'dummy', '-s', 'basic',
                   '-f', 'json')['UUID']
    (detailed,) = watcher('audit', 'list', '--detail', '-f', 'json')
    assert (detailed['UUID'], detailed['Strategy'], detailed['Force']) == (
        uuid, 'basic', False)
    (limited,) = watcher('audit', 'list', '--detail', '--limit', '1',
                         '--sort-key', 'name', '-f', 'json')
    assert limited['UUID'] == uuid


def test_watcher_cli_at_versions_before_the_strategy(watcher):
    uuid = watcher('audit', 'create', '-g', 'dummy', '-s', 'basic',
                   '-f', 'json')['UUID']
    # Below 1.4 audits have no strategy: strategy_name is null, "auto".
    for version in ('1.0', '1.3'):
        shown = watcher('audit', 'show', uuid, '-f', 'json', version=version)
        assert (shown['Goal'], shown['Strategy']) == ('dummy', 'auto')
        (listed,) = watcher('audit', 'list', '-f', 'json', version=version)
        assert listed['Strategy'] == 'auto'
    assert watcher('audit', 'show', uuid, '-f', 'json',
                   version='1.4')['Strategy'] == 'basic'


def test_baremetal_node_list_long(baremetal):
    # Before, a 404: the example had no /v1/nodes/detail.
    created = baremetal('node', 'create', '--driver', 'ipmi', '--name', 'n1',
                        '-f', 'json')
    (node,) = baremetal('node', 'list', '--long', '-f', 'json')
    assert (node['uuid'], node['name'], node['driver']) == (
        created['uuid'], 'n1', 'ipmi')
    (short,) = baremetal('node', 'list', '-f', 'json')
    assert (short['uuid'], short['provision_state']) == (
        created['uuid'], 'enroll')
    shown = baremetal('node', 'show', 'n1', '-f', 'json')
    assert shown['uuid'] == created['uuid']
