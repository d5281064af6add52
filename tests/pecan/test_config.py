"""Operator options: registration, the generator entry point, validation at
start-up and reloading the floor and cap without a restart."""

import importlib.metadata
import logging
import subprocess
import sys
import textwrap

import pytest
import webtest
from oslo_config import cfg

from pecan_microversions import (
    ConfigurationError,
    MicroversionHook,
    Version,
    list_opts,
    register_opts,
)
from pecan_microversions.pecan.config import DEFAULT_GROUP, OPTS, read_limits
from tests import example_app

STANDARD = 'OpenStack-API-Version'


def fresh_conf(*args):
    conf = cfg.ConfigOpts()
    conf(list(args), project='widget', default_config_files=[])
    return conf


def test_register_opts_is_idempotent():
    conf = fresh_conf()
    register_opts(conf)
    register_opts(conf)
    MicroversionHook(example_app.REGISTRY, conf=conf)  # registers again
    group = conf[DEFAULT_GROUP]
    assert group.default_version is None
    assert group.min_version is None
    assert group.max_version is None


def test_register_opts_in_another_group():
    conf = fresh_conf()
    register_opts(conf, 'widget_api')
    conf.set_override('max_version', '1.1', group='widget_api')
    hook = MicroversionHook(example_app.REGISTRY, conf=conf,
                            group='widget_api')
    assert hook.limits.max_version == Version(1, 1)
    assert DEFAULT_GROUP not in conf


def test_list_opts():
    [(group, opts)] = list_opts()
    assert group == 'api_microversions'
    assert {o.name: o.mutable for o in opts} == {
        'default_version': False, 'min_version': True, 'max_version': True}
    assert all(o.help for o in opts)
    assert opts == OPTS and opts is not OPTS  # a copy callers may not alter


def test_entry_point_is_list_opts():
    points = importlib.metadata.entry_points(group='oslo.config.opts')
    [point] = [p for p in points if p.name == 'pecan_microversions']
    assert point.value == 'pecan_microversions.pecan.config:list_opts'
    assert point.load() is list_opts


def test_oslo_config_generator_lists_the_options():
    result = subprocess.run(
        [sys.executable, '-m', 'oslo_config.generator',
         '--namespace', 'pecan_microversions'],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert '[api_microversions]' in out
    for name in ('default_version', 'min_version', 'max_version'):
        assert f'#{name} = <None>' in out
    flat = ' '.join(line.lstrip('# ') for line in out.splitlines())
    assert 'served to requests that do not ask for one' in flat
    assert 'requests below it get 406 Not Acceptable' in flat
    assert 'during a rolling upgrade' in flat
    # The two mutable options say so.
    assert flat.count('This option can be changed without restarting') == 2


@pytest.mark.parametrize('options, message', [
    ({'max_version': '1.9'}, r'max_version = 1\.9 is not a version this '
                             r'service offers: widget supports 1\.0 to 1\.3'),
    ({'min_version': '0.1'}, r'min_version = 0\.1 is not a version'),
    ({'default_version': '2.0'}, r'default_version = 2\.0 is not a version'),
    ({'max_version': '1.01'}, r"max_version: Invalid version string '1\.01'"),
    ({'min_version': 'latest'}, 'min_version: Invalid version string'),
    ({'max_version': '1'}, 'max_version: Invalid version string'),
    ({'min_version': '1.2', 'max_version': '1.1'},
     r'max_version 1\.1 is below min_version 1\.2'),
    ({'default_version': '1.3', 'max_version': '1.2'},
     r'default_version 1\.3 is outside the accepted range 1\.0 to 1\.2'),
    ({'default_version': '1.0', 'min_version': '1.1'},
     r'default_version 1\.0 is outside the accepted range 1\.1 to 1\.3'),
])
def test_invalid_options_fail_at_start_up(options, message):
    conf = fresh_conf()
    register_opts(conf)
    for name, value in options.items():
        conf.set_override(name, value, group=DEFAULT_GROUP)
    with pytest.raises(ConfigurationError, match=message):
        MicroversionHook(example_app.REGISTRY, conf=conf)
    with pytest.raises(ConfigurationError, match=message):
        example_app.make_app(conf=conf)


@pytest.mark.parametrize('options, expected', [
    ({}, ((1, 0), (1, 3), (1, 0))),
    ({'max_version': '1.2'}, ((1, 0), (1, 2), (1, 0))),
    ({'min_version': '1.2'}, ((1, 2), (1, 3), (1, 2))),  # default raised
    ({'min_version': '1.1', 'default_version': '1.3'},
     ((1, 1), (1, 3), (1, 3))),
    ({'min_version': '1.2', 'max_version': '1.2'}, ((1, 2), (1, 2), (1, 2))),
    ({'max_version': ' 1.2 '}, ((1, 0), (1, 2), (1, 0))),
    ({'max_version': ''}, ((1, 0), (1, 3), (1, 0))),  # empty means unset
])
def test_valid_options(options, expected):
    conf = fresh_conf()
    register_opts(conf)
    for name, value in options.items():
        conf.set_override(name, value, group=DEFAULT_GROUP)
    limits = read_limits(example_app.REGISTRY, conf)
    assert (limits.min_version, limits.max_version, limits.default_version) == expected
    assert MicroversionHook(example_app.REGISTRY, conf=conf).limits == limits


def test_no_conf_serves_the_registry_range():
    hook = MicroversionHook(example_app.REGISTRY)
    assert tuple(hook.limits) == ((1, 0), (1, 3), (1, 0))


# --- reloading a real configuration file ------------------------------------

@pytest.fixture
def configured(tmp_path):
    """An app reading a real config file; ``write(text)`` rewrites it."""
    path = tmp_path / 'widget.conf'

    def write(body):
        path.write_text(textwrap.dedent(body))

    write("""
        [api_microversions]
        max_version = 1.3
        """)
    conf = fresh_conf('--config-file', str(path))
    test_app = webtest.TestApp(example_app.make_app(conf=conf))
    return conf, test_app, write


def served(test_app, value='widget latest', status=200):
    response = test_app.get('/v1/echo', headers={STANDARD: value},
                            status=status)
    return (response.headers[STANDARD],
            response.headers['OpenStack-API-Minimum-Version'],
            response.headers['OpenStack-API-Maximum-Version'])


def test_reload_changes_advertised_and_accepted_range(configured):
    conf, test_app, write = configured
    assert served(test_app) == ('widget 1.3', '1.0', '1.3')
    assert served(test_app, 'widget 1.3') == ('widget 1.3', '1.0', '1.3')

    write("""
        [api_microversions]
        max_version = 1.2
        """)
    conf.mutate_config_files()
    assert conf.api_microversions.max_version == '1.2'
    assert served(test_app) == ('widget 1.2', '1.0', '1.2')
    assert served(test_app, 'widget 1.3', 406) == ('widget 1.0', '1.0', '1.2')
    error = test_app.get('/v1/echo', headers={STANDARD: 'widget 1.3'},
                         status=406).json['errors'][0]
    assert (error['min_version'], error['max_version']) == ('1.0', '1.2')
    # The discovery document follows too.
    version = test_app.get('/v1/').json['version']
    assert (version['min_version'], version['max_version'],
            version['version']) == ('1.0', '1.2', '1.2')

    write("""
        [api_microversions]
        min_version = 1.1
        max_version = 1.2
        """)
    conf.mutate_config_files()
    assert served(test_app, 'widget 1.0', 406) == ('widget 1.1', '1.1', '1.2')
    assert test_app.get('/v1/echo').json == {'version': '1.1'}  # default up

    write("""
        [api_microversions]
        """)
    conf.mutate_config_files()
    assert served(test_app) == ('widget 1.3', '1.0', '1.3')
    assert test_app.get('/v1/echo').json == {'version': '1.0'}


@pytest.mark.parametrize('bad', [
    'max_version = 1.9',
    'max_version = one',
    'min_version = 1.3\nmax_version = 1.1',
])
def test_invalid_reload_keeps_the_old_range(configured, caplog, bad):
    conf, test_app, write = configured
    write("""
        [api_microversions]
        max_version = 1.2
        """)
    conf.mutate_config_files()
    assert served(test_app) == ('widget 1.2', '1.0', '1.2')

    write('[api_microversions]\n' + bad + '\n')
    with caplog.at_level(logging.ERROR, logger='pecan_microversions.pecan.hook'):
        conf.mutate_config_files()
    assert served(test_app) == ('widget 1.2', '1.0', '1.2')
    assert served(test_app, 'widget 1.3', 406) == ('widget 1.0', '1.0', '1.2')
    [record] = [r for r in caplog.records
                if r.name == 'pecan_microversions.pecan.hook']
    assert 'Keeping API versions 1.0 to 1.2' in record.getMessage()

    # A valid file afterwards is applied again.
    write("""
        [api_microversions]
        max_version = 1.1
        """)
    conf.mutate_config_files()
    assert served(test_app) == ('widget 1.1', '1.0', '1.1')


def test_default_version_is_not_mutable(configured, caplog):
    conf, test_app, write = configured
    write("""
        [api_microversions]
        default_version = 1.2
        """)
    conf.mutate_config_files()
    # Immutable: the value read at start-up (unset: the minimum) stays.
    assert test_app.get('/v1/echo').json == {'version': '1.0'}


def test_every_hook_on_a_conf_follows_a_reload(tmp_path):
    path = tmp_path / 'widget.conf'
    path.write_text('[api_microversions]\n')
    conf = fresh_conf('--config-file', str(path))
    first = webtest.TestApp(example_app.make_app(conf=conf))
    second = webtest.TestApp(example_app.make_app(conf=conf))
    path.write_text('[api_microversions]\nmax_version = 1.1\n')
    conf.mutate_config_files()
    for test_app in (first, second):
        assert served(test_app) == ('widget 1.1', '1.0', '1.1')
