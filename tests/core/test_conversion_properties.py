"""Property tests of conversion over random histories and random resources.

Each example builds a registry of 2 to 6 versions and a resource whose
fields have random ranges and random changes (a value shown as another, a
rename, a retype from integers to strings, a computed field) and a nested
list of sub-resources generated the same way.  Then:

* a response at V holds only keys and values V has;
* a PATCH at V, read back at the newest version, keeps every field the
  patch did not name, nested ones and ones V cannot see included;
* a body converted up then down round-trips.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pecan_microversions.core.conversion import Conversion, ListOf
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import (
    Computed,
    FieldSpec,
    Renamed,
    Retype,
    ValueMap,
)
from pecan_microversions.core.version import Version

NEW_VALUE = 'cancelled'
BASE_VALUES = ('available', 'failed')


@dataclass
class Model:
    """What the test knows of one generated field."""

    name: str
    low: Optional[Version]
    high: Optional[Version]
    new_value_at: Optional[Version] = None   # NEW_VALUE exists from here
    retyped_until: Optional[Version] = None  # a string up to here
    computed: bool = False
    renames: list[tuple[str, Version]] = field(default_factory=list)
    nested: Optional[Resource] = None

    def key_at(self, version: Version) -> str:
        for old, until in sorted(self.renames, key=lambda r: r[1]):
            if version <= until:
                return old
        return self.name


@dataclass
class Resource:
    conversion: Conversion
    models: list[Model]

    def at(self, version: Version) -> list[Model]:
        return [m for m in self.models if version.matches(m.low, m.high)]


def _registry(size: int) -> VersionRegistry:
    return VersionRegistry('things', [(f'1.{i}', f'Version 1.{i}.')
                                      for i in range(size)])


@st.composite
def resources(draw: Any, registry: VersionRegistry, prefix: str,
              depth: int = 0) -> Resource:
    versions = registry.versions
    newest = versions[-1]
    models = []
    specs = []
    for index in range(draw(st.integers(1, 4))):
        name = f'{prefix}f{index}'
        low_i = draw(st.integers(0, len(versions) - 1))
        high_i = draw(st.integers(low_i, len(versions) - 1))
        low = versions[low_i] if low_i else None
        high = versions[high_i] if high_i < len(versions) - 1 else None
        model = Model(name, low, high)
        changes: list[Any] = []
        last = versions[high_i]
        # Changes end strictly before the field's newest version.
        before = [v for v in versions[low_i:high_i]]
        kind = draw(st.sampled_from(['plain', 'value', 'retype', 'computed']))
        if kind == 'value' and before:
            until = draw(st.sampled_from(before))
            model.new_value_at = registry.next(until)
            changes.append(ValueMap({NEW_VALUE: 'failed'}, max_version=until))
        elif kind == 'retype' and before:
            until = draw(st.sampled_from(before))
            model.retyped_until = until
            changes.append(Retype(str, int, max_version=until,
                                  type_name='string'))
        elif kind == 'computed':
            model.computed = True
            changes.append(Computed(lambda doc: len(doc)))
        if before and not model.computed and draw(st.booleans()):
            until = draw(st.sampled_from(before))
            model.renames.append((f'{name}_old', until))
            changes.append(Renamed(f'{name}_old', until))
        specs.append(FieldSpec(name, low, high, tuple(changes),
                               type_name='integer'))
        models.append(model)
        del last
    if depth == 0 and draw(st.booleans()):
        sub = draw(resources(registry, f'{prefix}sub_', depth + 1))
        model = Model(f'{prefix}items', None, None, nested=sub)
        models.append(model)
        specs.append(FieldSpec(model.name, nested=ListOf(sub.conversion)))
    del newest
    return Resource(Conversion(registry, prefix + 'thing', specs), models)


def _value(draw: Any, model: Model, newest: Version) -> Any:
    if model.nested is not None:
        return [_document(draw, model.nested, newest)
                for _ in range(draw(st.integers(0, 3)))]
    if model.new_value_at is not None:
        return draw(st.sampled_from(BASE_VALUES + (NEW_VALUE,)))
    return draw(st.integers(-5, 5))


def _document(draw: Any, resource: Resource, newest: Version
              ) -> dict[str, Any]:
    return {m.name: _value(draw, m, newest) for m in resource.models
            if not m.computed}


@st.composite
def cases(draw: Any) -> tuple[VersionRegistry, Resource, dict[str, Any],
                              Version]:
    registry = _registry(draw(st.integers(2, 6)))
    resource = draw(resources(registry, ''))
    document = _document(draw, resource, registry.max_version)
    version = draw(st.sampled_from(registry.versions))
    return registry, resource, document, version


def _violations(resource: Resource, shown: dict[str, Any],
                version: Version) -> list[str]:
    found = []
    models = {m.key_at(version): m for m in resource.at(version)}
    for key, value in shown.items():
        model = models.get(key)
        if model is None:
            found.append(f'{key} is not at {version}')
            continue
        if model.nested is not None:
            for item in value:
                found += _violations(model.nested, item, version)
        elif model.new_value_at is not None:
            if value == NEW_VALUE and version < model.new_value_at:
                found.append(f'{key}={value} before {model.new_value_at}')
        elif model.retyped_until is not None:
            wanted = str if version <= model.retyped_until else int
            if not isinstance(value, wanted):
                found.append(f'{key}={value!r} is not {wanted} at {version}')
    return found


SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cases())
def test_a_response_holds_nothing_outside_its_version(case):
    registry, resource, document, version = case
    shown = resource.conversion.down(document, version)
    assert _violations(resource, shown, version) == []
    for model in resource.at(version):  # and everything it has is there
        assert model.key_at(version) in shown


@st.composite
def patches(draw: Any) -> tuple[Resource, dict[str, Any], Version,
                                list[str], Any]:
    """A case with one ``replace`` at V of a field V shows: (path, value)."""
    registry, resource, document, version = draw(cases())
    shown = resource.conversion.down(document, version)
    targets: list[tuple[list[str], Model]] = []
    for model in resource.at(version):
        key = model.key_at(version)
        if model.computed:
            continue
        if model.nested is None:
            targets.append(([key], model))
            continue
        for index, _ in enumerate(shown[key]):
            for sub in model.nested.at(version):
                if not sub.computed and sub.nested is None:
                    targets.append(([key, str(index), sub.key_at(version)],
                                    sub))
    path, model = draw(st.sampled_from(targets)) if targets else ([], None)
    if model is None:
        value = None
    elif model.new_value_at is not None:
        allowed = BASE_VALUES + ((NEW_VALUE,) if version >= model.new_value_at
                                 else ())
        value = draw(st.sampled_from(allowed))
    elif (model.retyped_until is not None
          and version <= model.retyped_until):
        value = str(draw(st.integers(10, 20)))
    else:
        value = draw(st.integers(10, 20))
    return resource, document, version, path, value


def _without(document: Any, newest_path: list[str]) -> Any:
    """``document`` with the value at ``newest_path`` left out."""
    if not newest_path:
        return None
    head, *rest = newest_path
    if isinstance(document, list):
        copy = list(document)
        copy[int(head)] = _without(copy[int(head)], rest)
        return copy
    copy = dict(document)
    if rest:
        copy[head] = _without(copy[head], rest)
    else:
        copy.pop(head, None)
    return copy


def _newest_path(resource: Resource, path: list[str],
                 version: Version) -> list[str]:
    models = {m.key_at(version): m for m in resource.at(version)}
    model = models[path[0]]
    if len(path) == 1:
        return [model.name]
    assert model.nested is not None
    return [model.name, path[1]] + _newest_path(model.nested, path[2:],
                                                version)


@SETTINGS
@given(patches())
def test_a_patch_keeps_every_field_it_does_not_name(case):
    resource, document, version, path, value = case
    if not path:
        return  # nothing this version may change
    operation = {'op': 'replace', 'path': '/' + '/'.join(path),
                 'value': value}
    patched = resource.conversion.apply_patch(document, [operation], version)
    newest = resource.conversion.registry.max_version
    target = _newest_path(resource, path, version)
    assert _without(patched, target) == _without(document, target)
    # ... and the patched value reads back, mapped to the version, as sent
    shown = resource.conversion.down(patched, version)
    for part in path:
        shown = shown[int(part)] if isinstance(shown, list) else shown[part]
    assert shown == value
    del newest


@SETTINGS
@given(cases())
def test_a_body_converted_up_then_down_round_trips(case):
    registry, resource, document, version = case
    body = _body(resource, resource.conversion.down(document, version),
                 version)
    newest = resource.conversion.up(body, version)
    assert _body(resource, resource.conversion.down(newest, version),
                 version) == body


def _body(resource: Resource, shown: dict[str, Any],
          version: Version) -> dict[str, Any]:
    """What a client may send back of ``shown``: no computed field."""
    models = {m.key_at(version): m for m in resource.at(version)}
    body = {}
    for key, value in shown.items():
        model = models[key]
        if model.computed:
            continue
        if model.nested is not None:
            value = [_body(model.nested, item, version) for item in value]
        body[key] = value
    return body
