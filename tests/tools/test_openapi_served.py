"""The newest version a service serves, where an operator caps it below
the registry's: what ``latest`` names on the command line, what the
version headers' examples name; and the served range read at one moment
while the configuration is reloaded."""

import json

import pecan
import webtest
from openapi_spec_validator import validate
from oslo_config import cfg

from pecan_microversions.demo.app import make_app as make_demo
from pecan_microversions.demo.versions import REGISTRY as DEMO
from pecan_microversions.pecan.config import register_opts
from pecan_microversions.pecan.hook import MicroversionHook
from pecan_microversions.tools.openapi import openapi_document, served_range
from tests import described_apps as apps
from tests.tools import run

REGISTRY = 'pecan_microversions.demo.versions:REGISTRY'
CAPPED = 'tests.described_apps:make_capped_demo'
LEGACY = 'X-OpenStack-Fleet-API-Version'


def test_latest_is_the_newest_version_the_app_serves(capsys):
    assert DEMO.max_version == '1.9'  # the operator caps it at 1.7
    code, out, err = run(capsys, 'openapi', REGISTRY, 'latest', '--app',
                         CAPPED)
    assert (code, err) == (0, '')
    document = json.loads(out)
    validate(document)
    assert document['info']['version'] == '1.7'
    assert out == run(capsys, 'openapi', REGISTRY, '1.7', '--app',
                      CAPPED)[1]
    # a client asking for latest gets 1.7 too
    answer = webtest.TestApp(apps.make_capped_demo()).get(
        '/v1/nodes', headers={'OpenStack-API-Version': 'fleet latest'})
    assert answer.headers['OpenStack-API-Version'] == 'fleet 1.7'


def test_diff_to_latest_compares_with_the_newest_served(capsys):
    code, out, err = run(capsys, 'diff', REGISTRY, '1.7', 'latest',
                         '--openapi', '--app', CAPPED)
    assert (code, out, err) == (0, '[]\n', '')
    code, out, err = run(capsys, 'diff', REGISTRY, '1.6', 'latest',
                         '--openapi', '--app', CAPPED)
    assert (code, err) == (0, '')
    assert out == run(capsys, 'diff', REGISTRY, '1.6', '1.7', '--openapi',
                      '--app', CAPPED)[1]


def test_the_version_header_examples_name_a_served_version():
    app = apps.make_capped_demo()
    client = webtest.TestApp(app)
    for version in ('1.5', None):
        document = openapi_document(DEMO, app, version)
        validate(document)
        parameters = document['components']['parameters']
        standard = parameters['OpenStackAPIVersion']['example']
        legacy = parameters[LEGACY.replace('-', '')]['example']
        assert (standard, legacy) == ('fleet 1.7', '1.7')
        for headers in ({'OpenStack-API-Version': standard},
                        {LEGACY: legacy}):
            answer = client.get('/v1/nodes', headers=headers)
            assert answer.headers['OpenStack-API-Version'] == 'fleet 1.7'


class ReloadedWhileRead(MicroversionHook):
    """A hook whose configuration is reloaded right after its limits are
    first read: the moment a reload between two reads would mix them."""

    reload = None

    @property
    def limits(self):
        found = super().limits
        reload, self.reload = self.reload, None
        if reload is not None:
            reload()
        return found


def test_the_served_range_is_read_at_one_moment(tmp_path):
    settings = tmp_path / 'floor.conf'
    settings.write_text('[api_microversions]\nmin_version = 1.3\n'
                        'max_version = 1.3\n')
    conf = cfg.ConfigOpts()
    register_opts(conf)
    conf([], project='floor', default_config_files=[str(settings)])
    hook = ReloadedWhileRead(apps.FLOOR, conf=conf)
    app = pecan.make_app(apps.FloorRoot(), hooks=[hook], debug=False)

    def reload():
        settings.write_text('[api_microversions]\nmin_version = 1.2\n'
                            'max_version = 1.2\n')
        conf.mutate_config_files()

    hook.reload = reload
    assert served_range(apps.FLOOR, app) == ('1.3', '1.3')  # not 1.3 to 1.2
    assert hook.reload is None  # the reload happened
    assert served_range(apps.FLOOR, app) == ('1.2', '1.2')


def test_the_served_document_follows_a_reloaded_cap(tmp_path):
    # The demo's /v1/openapi.json named the registry's newest version (1.9)
    # in its examples whatever the operator's cap, and kept its documents
    # after a reload changed the cap.
    settings = tmp_path / 'fleet.conf'
    settings.write_text('[api_microversions]\nmax_version = 1.7\n')
    conf = cfg.ConfigOpts()
    register_opts(conf)
    conf([], project='fleet', default_config_files=[str(settings)])
    client = webtest.TestApp(make_demo(conf))

    def examples():
        document = client.get('/v1/openapi.json', headers={
            'OpenStack-API-Version': 'fleet 1.5'}).json
        validate(document)
        parameters = document['components']['parameters']
        return (parameters['OpenStackAPIVersion']['example'],
                parameters[LEGACY.replace('-', '')]['example'])

    assert examples() == ('fleet 1.7', '1.7')
    settings.write_text('[api_microversions]\nmax_version = 1.6\n')
    conf.mutate_config_files()
    assert examples() == ('fleet 1.6', '1.6')
    answer = client.get('/v1/nodes', headers={
        'OpenStack-API-Version': 'fleet latest'})
    assert answer.headers['OpenStack-API-Version'] == 'fleet 1.6'
