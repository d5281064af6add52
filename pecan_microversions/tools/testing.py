"""Test helpers: run a test at every version, and a ready-made field contract.

Run a test once per version of a range, with a decorator::

    from pecan_microversions.tools.testing import parametrize_versions, version_headers

    @parametrize_versions(REGISTRY, '1.2')          # 1.2 to the newest
    def test_list(app, api_version):
        app.get('/v1/nodes', headers=version_headers(REGISTRY, api_version))

or with a marker, from the pytest plugin that installing the package
registers (entry point ``pecan_microversions.tools.testing``; turn it off with
``-p no:pecan_microversions.tools.testing``)::

    @pytest.mark.microversions(REGISTRY, '1.0', '1.5')
    def test_list(app, api_version): ...

and drop the field contract into a suite::

    test_fields_follow_history = field_contract_test(REGISTRY, [
        Sample('/v1/nodes', 'Node', collection='nodes'),
        Sample('/v1/nodes/<uuid>', 'Node'),
    ])

It requests each sample at every version of the history (through the
``app`` fixture, a :class:`webtest.TestApp`) and fails if a response object
carries a field that the registry declares for the resource but not at that
version (a field newer than the version, or one already removed), or a value
or a type the version does not have.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Optional

import pytest

from pecan_microversions.core.changes import FIELD_TYPE, FIELD_VALUE
from pecan_microversions.core.registry import STANDARD_HEADER, VersionRegistry
from pecan_microversions.core.version import Version, VersionLike

__all__ = [
    'Sample',
    'assert_fields_follow_history',
    'field_contract_test',
    'field_violations',
    'parametrize_versions',
    'version_headers',
    'versions_between',
]



def _renamed(min_version: Optional[VersionLike],
             max_version: Optional[VersionLike],
             first: Optional[VersionLike], last: Optional[VersionLike],
             where: str) -> tuple[Optional[VersionLike], Optional[VersionLike]]:
    """``min_version``/``max_version``, accepting the old spellings."""
    if first is not None or last is not None:
        warnings.warn(f'{where}(first=, last=) is deprecated: use '
                      'min_version= and max_version=.', DeprecationWarning,
                      stacklevel=3)
        min_version = first if min_version is None else min_version
        max_version = last if max_version is None else max_version
    return min_version, max_version


def versions_between(registry: VersionRegistry,
                     min_version: Optional[VersionLike] = None,
                     max_version: Optional[VersionLike] = None, *,
                     first: Optional[VersionLike] = None,
                     last: Optional[VersionLike] = None) -> list[Version]:
    """The history's versions from ``min_version`` to ``max_version``
    inclusive; they default to the registry's range.  (``first`` and
    ``last`` are their deprecated spellings.)

    :raises ~pecan_microversions.core.registry.UnknownVersionError: a bound is not
        in the history.
    """
    min_version, max_version = _renamed(min_version, max_version, first,
                                        last, 'versions_between')
    low = (registry.min_version if min_version is None
           else registry.known_version(min_version, 'min_version'))
    high = (registry.max_version if max_version is None
            else registry.known_version(max_version, 'max_version'))
    return [v for v in registry.versions if v.matches(low, high)]


def parametrize_versions(registry: VersionRegistry,
                         min_version: Optional[VersionLike] = None,
                         max_version: Optional[VersionLike] = None,
                         argname: str = 'api_version', *,
                         first: Optional[VersionLike] = None,
                         last: Optional[VersionLike] = None) -> Any:
    """``pytest.mark.parametrize`` of ``argname`` over :func:`versions_between`.

    Test ids are the versions (``test_list[1.2]``).
    """
    min_version, max_version = _renamed(min_version, max_version, first,
                                        last, 'parametrize_versions')
    return pytest.mark.parametrize(
        argname, versions_between(registry, min_version, max_version),
        ids=str)


def version_headers(registry: VersionRegistry,
                    version: VersionLike) -> dict[str, str]:
    """``{'OpenStack-API-Version': '<service type> X.Y'}`` for a request."""
    if isinstance(version, str) and version.lower() == 'latest':
        return {STANDARD_HEADER: f'{registry.service_type} latest'}
    return {STANDARD_HEADER: f'{registry.service_type} '
                             f'{registry.known_version(version)}'}


class Sample(NamedTuple):
    """A ``GET`` whose response holds objects of one resource.

    :param path: the URL path (with query string if wanted).
    :param resource: the resource whose fields the registry declares (the
        ``owner`` of its ``field`` declarations).
    :param collection: the key of the list of objects in the body, or
        ``None`` when the body is one object.
    :param min_version: the first version the URL exists at (default:
        all).
    :param max_version: the last version the URL exists at.
    """

    path: str
    resource: str
    collection: Optional[str] = None
    min_version: Optional[VersionLike] = None
    max_version: Optional[VersionLike] = None

    @property
    def first(self) -> Optional[VersionLike]:
        """Deprecated spelling of :attr:`min_version`."""
        warnings.warn('Sample.first is deprecated: use min_version.',
                      DeprecationWarning, stacklevel=2)
        return self.min_version

    @property
    def last(self) -> Optional[VersionLike]:
        """Deprecated spelling of :attr:`max_version`."""
        warnings.warn('Sample.last is deprecated: use max_version.',
                      DeprecationWarning, stacklevel=2)
        return self.max_version


def _range_text(declarations: Sequence[Any]) -> str:
    parts = []
    for d in declarations:
        low = d.min_version if d.min_version is not None else 'the start'
        high = d.max_version if d.max_version is not None else 'the newest'
        parts.append(f'{low} to {high}')
    return ' and '.join(parts)


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    'string': (str,), 'object': (dict,), 'integer': (int,), 'int': (int,),
    'number': (int, float), 'float': (int, float), 'boolean': (bool,),
    'bool': (bool,)}


def _value_rules(registry: VersionRegistry, resource: str, at: Version
                 ) -> dict[str, tuple[Optional[set[str]], Optional[str]]]:
    """Per field: the values ``at`` allows (as text; ``None``: any) and
    the type it has there (``None``: not declared)."""
    rules: dict[str, tuple[Optional[set[str]], Optional[str]]] = {}
    allowed: dict[str, set[str]] = {}
    for d in registry.declarations(FIELD_VALUE, resource):
        field, _, value = d.name.partition('=')
        allowed.setdefault(field, set())
        if d.exists_at(at):
            allowed[field].add(value)
    types = {d.name.partition(':')[0]: d.name.partition(':')[2]
             for d in registry.declarations(FIELD_TYPE, resource, at)}
    for field in set(allowed) | set(types):
        rules[field] = (allowed.get(field), types.get(field))
    return rules


def _value_problem(rules: dict[str, tuple[Optional[set[str]],
                                          Optional[str]]],
                   name: str, value: Any, at: Version) -> Optional[str]:
    """Why ``value`` of field ``name`` breaks the contract at ``at``."""
    if value is None or name not in rules:
        return None
    allowed, type_name = rules[name]
    if type_name is not None:
        kind = (list if type_name.startswith('list of ') else
                dict if type_name.startswith('dict of ') else None)
        expected = (kind,) if kind else _JSON_TYPES.get(type_name)
        if expected is not None and (not isinstance(value, expected) or (
                isinstance(value, bool) and bool not in expected)):
            return (f'is {json.dumps(value)}, not a {type_name} as at '
                    f'version {at}.')
    if allowed is None:
        return None
    # values= of a list field: what each item may be
    for item in value if isinstance(value, list) else [value]:
        if str(item) not in allowed:
            shown = f'item {item!r}' if item is not value else repr(value)
            return (f'has value {shown}, which version {at} does not have '
                    f'(it has {", ".join(sorted(allowed)) or "none"}).')
    return None


def field_violations(app: Any, registry: VersionRegistry,
                     samples: Iterable[Sample], version: VersionLike, *,
                     kind: str = 'field', strict: bool = False,
                     complete: bool = False) -> list[str]:
    """Every field in the samples' responses at ``version`` that should not
    be there, one line each; an empty list means the contract holds.

    :param app: a :class:`webtest.TestApp` (anything with
        ``get(path, headers=..., expect_errors=True)`` returning a response
        with ``status_int`` and ``json``).
    :param kind: the declaration kind of response fields.
    :param strict: also report fields the registry does not declare at all.
    :param complete: also report declared fields that exist at ``version``
        but are missing from an object.

    Values are checked too: a field with declared values must hold one the
    version has (a value map shows newer ones as older ones), and a retyped
    field must hold the JSON type the version has.
    """
    at = registry.known_version(version)
    problems = []
    for sample in samples:
        if not at.matches(
                None if sample.min_version is None
                else registry.known_version(sample.min_version),
                None if sample.max_version is None
                else registry.known_version(sample.max_version)):
            continue
        where = f'{at} GET {sample.path}'
        response = app.get(sample.path, headers=version_headers(registry, at),
                           expect_errors=True)
        if response.status_int >= 300:
            problems.append(f'{where}: answered {response.status_int}, '
                            'not a 2xx response.')
            continue
        body = response.json
        if sample.collection is None:
            objects = [body]
        elif not isinstance(body, dict) or not isinstance(
                body.get(sample.collection), list):
            problems.append(f'{where}: no list {sample.collection!r} in the '
                            'body.')
            continue
        else:
            objects = body[sample.collection]
        declared: dict[str, list[Any]] = {}
        for d in registry.declarations(kind, sample.resource):
            declared.setdefault(d.name, []).append(d)
        expected = {name for name, ds in declared.items()
                    if any(d.exists_at(at) for d in ds)}
        values = _value_rules(registry, sample.resource, at)
        for index, obj in enumerate(objects):
            label = where if sample.collection is None else (
                f'{where} {sample.collection}[{index}]')
            if not isinstance(obj, dict):
                problems.append(f'{label}: not a JSON object.')
                continue
            for name in obj:
                if name in expected:
                    problem = _value_problem(values, name, obj[name], at)
                    if problem:
                        problems.append(f'{label}: {sample.resource} field '
                                        f'{name!r} {problem}')
                    continue
                if name in declared:
                    problems.append(
                        f'{label}: {sample.resource} field {name!r} appears, '
                        'but exists only from '
                        f'{_range_text(declared[name])}.')
                elif strict:
                    problems.append(f'{label}: {sample.resource} field '
                                    f'{name!r} is not declared.')
            if complete:
                for name in sorted(expected - set(obj)):
                    problems.append(f'{label}: {sample.resource} field '
                                    f'{name!r} is missing.')
    return problems


def assert_fields_follow_history(app: Any, registry: VersionRegistry,
                                 samples: Iterable[Sample],
                                 versions: Optional[Iterable[VersionLike]] = None,
                                 **options: Any) -> None:
    """Fail, listing every violation, if a sample breaks the field contract
    at one of ``versions`` (default: every served version).

    ``options`` are :func:`field_violations`'s keywords.
    """
    samples = list(samples)
    problems = []
    for version in (versions_between(registry) if versions is None
                    else versions):
        problems += field_violations(app, registry, samples, version,
                                     **options)
    if problems:
        raise AssertionError('Responses break the version history:\n'
                             + '\n'.join(problems))


def field_contract_test(registry: VersionRegistry, samples: Iterable[Sample],
                        *, app_fixture: str = 'app',
                        min_version: Optional[VersionLike] = None,
                        max_version: Optional[VersionLike] = None,
                        first: Optional[VersionLike] = None,
                        last: Optional[VersionLike] = None,
                        **options: Any) -> Callable[..., None]:
    """A pytest test, parametrized over the versions, asserting the field
    contract; assign it to a ``test_*`` name in a test module.

    :param app_fixture: the name of the fixture giving the webtest app.
    :param options: :func:`field_violations`'s keywords.
    """
    samples = list(samples)
    min_version, max_version = _renamed(min_version, max_version, first,
                                        last, 'field_contract_test')

    @parametrize_versions(registry, min_version, max_version)
    def test_fields_follow_history(api_version: Version,
                                   request: Any) -> None:
        app = request.getfixturevalue(app_fixture)
        problems = field_violations(app, registry, samples, api_version,
                                    **options)
        if problems:
            raise AssertionError(
                f'Responses at {api_version} break the version history:\n'
                + '\n'.join(problems))

    return test_fields_follow_history


# -- pytest plugin (pytest11 entry point pecan_microversions.tools.testing) ---------

def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        'markers', 'microversions(registry, min_version=None, '
                   'max_version=None): run the '
                   'test once per version of the range, as api_version.')


def pytest_generate_tests(metafunc: Any) -> None:
    marker = metafunc.definition.get_closest_marker('microversions')
    if marker is None:
        return
    if 'api_version' not in metafunc.fixturenames:
        raise pytest.UsageError(
            f'{metafunc.definition.nodeid}: the microversions marker needs '
            'an api_version argument.')
    metafunc.parametrize('api_version', versions_between(
        *marker.args, **marker.kwargs), ids=str)
