"""pecan_microversions.tools.testing: per-version parametrization and the contract."""

import textwrap

import pecan
import pytest
import webtest

from pecan_microversions import MicroversionHook, get_version
from pecan_microversions.core.errors import UnknownVersionError
from pecan_microversions.core.version import Version
from pecan_microversions.tools.testing import (
    Sample,
    assert_fields_follow_history,
    field_contract_test,
    field_violations,
    parametrize_versions,
    version_headers,
    versions_between,
)
from tests import history_registries as regs

pytest_plugins = ['pytester']

REGISTRY = regs.build()
WIDGET = {'uuid': 'u-1', 'name': 'one', 'colour': 'red', 'size': 3,
          'weight': 7}


def honest(widget):
    """The widget as the history says each version shows it."""
    version = get_version()
    shown = {'uuid': widget['uuid'], 'name': widget['name']}
    if version >= Version(1, 1):
        shown['colour'] = widget['colour']
    if Version(1, 2) <= version <= Version(1, 3):
        shown['size'] = widget['size']
    if version >= Version(1, 4):
        shown['weight'] = widget['weight']
    return shown


class V1:
    @pecan.expose('json')
    def widgets(self):
        return {'widgets': [honest(WIDGET)]}

    @pecan.expose('json')
    def widget(self):
        return honest(WIDGET)

    @pecan.expose('json')
    def leaky(self):
        # Shows weight before 1.4 and keeps size after 1.3; adds a field
        # nobody declared.
        return {'widgets': [dict(WIDGET, extra=True)]}

    @pecan.expose('json')
    def sparse(self):
        return {'uuid': 'u-1'}

    @pecan.expose('json')
    def parts(self):
        if get_version() > Version(1, 3):
            pecan.abort(404)
        return honest(WIDGET)


class Root:
    v1 = V1()


@pytest.fixture
def app():
    return webtest.TestApp(pecan.make_app(
        Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))


def test_versions_between():
    assert versions_between(REGISTRY) == list(REGISTRY.versions)
    assert versions_between(REGISTRY, '1.2') == [Version(1, 2), Version(1, 3),
                                                 Version(1, 4)]
    assert versions_between(REGISTRY, '1.1', '1.2') == [Version(1, 1),
                                                        Version(1, 2)]
    assert versions_between(regs.build(min_version='1.3')) == [
        Version(1, 3), Version(1, 4)]
    with pytest.raises(UnknownVersionError):
        versions_between(REGISTRY, '1.9')


def test_version_headers():
    assert version_headers(REGISTRY, '1.2') == {
        'OpenStack-API-Version': 'widget 1.2'}
    assert version_headers(REGISTRY, 'latest') == {
        'OpenStack-API-Version': 'widget latest'}
    with pytest.raises(UnknownVersionError):
        version_headers(REGISTRY, '2.0')


SEEN = []


@parametrize_versions(REGISTRY, '1.1', '1.3')
def test_parametrize_versions(app, api_version):
    response = app.get('/v1/widget', headers=version_headers(REGISTRY,
                                                             api_version))
    assert response.headers['OpenStack-API-Version'] == f'widget {api_version}'
    SEEN.append(api_version)


def test_parametrize_versions_ran_each_version():
    assert SEEN == [Version(1, 1), Version(1, 2), Version(1, 3)]


SAMPLES = [Sample('/v1/widgets', 'Widget', collection='widgets'),
           Sample('/v1/widget', 'Widget'),
           Sample('/v1/parts', 'Widget', max_version='1.3')]


def test_honest_service_passes(app):
    for version in REGISTRY.versions:
        assert field_violations(app, REGISTRY, SAMPLES, version,
                                strict=True, complete=True) == []
    assert_fields_follow_history(app, REGISTRY, SAMPLES)


def test_leaks_are_reported(app):
    leaky = [Sample('/v1/leaky', 'Widget', collection='widgets')]
    assert field_violations(app, REGISTRY, leaky, '1.0') == [
        "1.0 GET /v1/leaky widgets[0]: Widget field 'colour' appears, but "
        'exists only from 1.1 to the newest.',
        "1.0 GET /v1/leaky widgets[0]: Widget field 'size' appears, but "
        'exists only from 1.2 to 1.3.',
        "1.0 GET /v1/leaky widgets[0]: Widget field 'weight' appears, but "
        'exists only from 1.4 to the newest.']
    # Older than the version: size was removed after 1.3.
    assert field_violations(app, REGISTRY, leaky, '1.4') == [
        "1.4 GET /v1/leaky widgets[0]: Widget field 'size' appears, but "
        'exists only from 1.2 to 1.3.']
    assert field_violations(app, REGISTRY, leaky, '1.4', strict=True)[-1] == (
        "1.4 GET /v1/leaky widgets[0]: Widget field 'extra' is not declared.")
    with pytest.raises(AssertionError, match='break the version history'):
        assert_fields_follow_history(app, REGISTRY, leaky)


def test_missing_fields_and_bad_responses(app):
    sparse = [Sample('/v1/sparse', 'Widget')]
    assert field_violations(app, REGISTRY, sparse, '1.1') == []
    assert field_violations(app, REGISTRY, sparse, '1.1', complete=True) == [
        "1.1 GET /v1/sparse: Widget field 'colour' is missing.",
        "1.1 GET /v1/sparse: Widget field 'name' is missing."]
    # /v1/parts is gone at 1.4: a sample without a range says so.
    assert field_violations(app, REGISTRY, [Sample('/v1/parts', 'Widget')],
                            '1.4') == [
        '1.4 GET /v1/parts: answered 404, not a 2xx response.']
    assert field_violations(app, REGISTRY, [
        Sample('/v1/widget', 'Widget', collection='widgets')], '1.0') == [
        "1.0 GET /v1/widget: no list 'widgets' in the body."]


# The ready-made contract, dropped into this suite as a service would.
test_contract_on_honest_service = field_contract_test(REGISTRY, SAMPLES,
                                                      strict=True)


def test_contract_test_fails_on_a_leaky_service(pytester):
    pytester.makeconftest(textwrap.dedent('''
        import pecan
        import pytest
        import webtest
        from pecan_microversions import MicroversionHook
        from tests.tools.test_testing_helpers import REGISTRY, Root

        @pytest.fixture
        def service():
            return webtest.TestApp(pecan.make_app(
                Root(), hooks=[MicroversionHook(REGISTRY)], debug=False))
    '''))
    pytester.makepyfile(test_contract=textwrap.dedent('''
        from pecan_microversions.tools.testing import Sample, field_contract_test
        from tests.tools.test_testing_helpers import REGISTRY

        test_leaky = field_contract_test(
            REGISTRY, [Sample('/v1/leaky', 'Widget', collection='widgets')],
            app_fixture='service', min_version='1.2')
    '''))
    result = pytester.runpytest_inprocess('-q', '-p', 'no:cacheprovider')
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines([
        '*test_leaky?1.2?*', '*test_leaky?1.3?*', '*test_leaky?1.4?*',
        "*1.4 GET /v1/leaky widgets?0?: Widget field 'size' appears, but "
        'exists only from 1.2 to 1.3.*'])


def test_marker_plugin(pytester):
    pytester.makeconftest(
        "pytest_plugins = ['pecan_microversions.tools.testing']\n")
    pytester.makepyfile(test_marked=textwrap.dedent('''
        import pytest
        from tests.tools.test_testing_helpers import REGISTRY

        @pytest.mark.microversions(REGISTRY, '1.3')
        def test_each(api_version):
            assert str(api_version) in ('1.3', '1.4')

        @pytest.mark.microversions(REGISTRY)
        def test_forgot_the_argument():
            pass
    '''))
    result = pytester.runpytest_inprocess('-q', '-p', 'no:cacheprovider')
    result.stdout.fnmatch_lines(['*the microversions marker needs an '
                                 'api_version argument*'])
    pytester.makepyfile(test_marked=textwrap.dedent('''
        import pytest
        from tests.tools.test_testing_helpers import REGISTRY

        @pytest.mark.microversions(REGISTRY, '1.3')
        def test_each(api_version):
            assert str(api_version) in ('1.3', '1.4')
    '''))
    result = pytester.runpytest_inprocess('-v', '-p', 'no:cacheprovider')
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(['*test_each?1.3? PASSED*',
                                 '*test_each?1.4? PASSED*'])
