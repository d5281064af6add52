"""Converting JSON-like resources between versions, from declared changes.

Controllers read and write only the newest representation of a resource;
:class:`Conversion` compiles, once per version, a plan from the fields'
:class:`~pecan_microversions.core.representations.FieldSpec` and applies it:

* :meth:`Conversion.down`: the newest document as a version shows it
  (fields it lacks left out, old names, old values, old types, computed
  fields), nested objects, lists and dicts included;
* :meth:`Conversion.up`: a body sent at a version in the newest
  representation (newest names, values mapped up, computed fields dropped);
* :meth:`Conversion.apply_patch`: a JSON patch written against what a
  version shows, applied to the newest document, keeping every field the
  version cannot see (top level or nested).

Framework-free: documents are dicts of public names to JSON values.
Declaration mistakes raise :class:`~pecan_microversions.core.errors.
InvalidDeclarationError` when the conversion is built, at import.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Optional

from pecan_microversions.core.containers import (
    DictOf,
    ItemNotKept,
    ListOf,
    note_origins,
)
from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.json_values import holds_more, same_json
from pecan_microversions.core.patch_identity import Identity, tracked_patch
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import (
    Computed,
    Converter,
    FieldSpec,
    Renamed,
    ValueMap,
    change_bounds,
    declare_changes,
)
from pecan_microversions.core.version import Version

__all__ = ['Conversion', 'DictOf', 'FieldStep', 'ListOf']

_Fn = Callable[[Any], Any]


class FieldStep(NamedTuple):
    """One field at one version: how :meth:`Conversion.down` writes it."""

    name: str                   # newest name
    key: str                    # name at the version
    compute: Optional[Callable[[Mapping[str, Any]], Any]]
    down: tuple[_Fn, ...]       # newest -> version, in order; a value
    #                             map's function has its dict as ``table``
    up: tuple[_Fn, ...]         # version -> newest, in order
    nested: Optional[Converter]  # None where a retype owns the value
    retyped: bool               # a Retype applies: ``down`` owns the value
    reads: Optional[tuple[str, ...]] = None  # what ``compute`` is given
    #                             (newest names); None: the whole document


class Conversion:
    """The compiled conversions of one resource at every version.

    :param registry: the service's registry (bounds must be in its history).
    :param resource: the resource's name in the registry.
    :param fields: every field of the resource.
    :param declare: record renames, retypes, value maps and computed fields
        in the registry, so the history shows them.
    """

    def __init__(self, registry: VersionRegistry, resource: str,
                 fields: Iterable[FieldSpec], *, declare: bool = True) -> None:
        self.registry = registry
        self.resource = resource
        self.fields = tuple(fields)
        self.old_names = frozenset(c.old_name for f in self.fields
                                   for c in f.changes
                                   if isinstance(c, Renamed))
        # every name a document may hold a field under (others pass as is)
        self._names = self.old_names | {f.name for f in self.fields}
        self._plans: dict[Version, tuple[FieldStep, ...]] = {}
        self._by_key: dict[Version, dict[str, FieldStep]] = {}
        bounds = {f.name: change_bounds(registry, resource, f)
                  for f in self.fields}
        _check_reads(resource, self.fields)
        _check_old_names(resource, self.fields)
        for version in registry.versions:
            steps = tuple(self._step(f, bounds[f.name], version)
                          for f in self.fields
                          if version.matches(f.min_version, f.max_version))
            keys = [s.key for s in steps]
            if len(set(keys)) != len(keys):
                clash = sorted(k for k in keys if keys.count(k) > 1)[0]
                raise InvalidDeclarationError(
                    f'{resource}: two fields are named {clash!r} at version '
                    f'{version}.')
            self._plans[version] = steps
            self._by_key[version] = {s.key: s for s in steps}
        #: Whether any version shows a value other than the newest one.
        self.changes_values = any(
            not isinstance(c, Renamed) for f in self.fields for c in f.changes
        ) or any(f.nested is not None for f in self.fields)
        if declare:
            for f in self.fields:
                declare_changes(registry, resource, f, bounds[f.name])

    def __repr__(self) -> str:
        return f'<Conversion {self.resource} ({len(self.fields)} fields)>'

    # -- compiling -------------------------------------------------------------

    def _step(self, spec: FieldSpec, bounds: Mapping[int, Version],
              version: Version) -> FieldStep:
        applying = sorted((c for c in spec.changes if bounds[id(c)] >= version),
                          key=lambda c: bounds[id(c)], reverse=True)
        key = spec.name
        compute = None
        reads = None
        down: list[_Fn] = []
        up: list[_Fn] = []
        retyped = False
        for change in applying:  # newest change first
            if isinstance(change, Renamed):
                key = change.old_name
            elif isinstance(change, Computed):
                compute = change.compute
                reads = None if change.reads is None else tuple(change.reads)
            elif isinstance(change, ValueMap):
                down.append(_mapper(change.down))
                up.insert(0, _mapper(change.up))
            else:
                retyped = True
                down.append(change.down)
                up.insert(0, change.up)
        return FieldStep(spec.name, key, compute, tuple(down), tuple(up),
                         None if retyped else spec.nested, retyped, reads)

    # -- converting ------------------------------------------------------------

    def plan(self, version: Version) -> tuple[FieldStep, ...]:
        """The fields ``version`` has, in the order its documents show them,
        each with what :meth:`down` does to it (compiled once, at import)."""
        return self._plans[version]

    def keys(self, version: Version) -> frozenset[str]:
        """The public names of the fields ``version`` has."""
        return frozenset(self._by_key[version])

    def down(self, document: Mapping[str, Any], version: Version
             ) -> dict[str, Any]:
        """The newest ``document`` as ``version`` shows it (a new dict).

        Keys no field declares are kept as they are; a value that is not a
        dict is returned unchanged.
        """
        if not isinstance(document, Mapping):
            return document  # type: ignore[unreachable]
        out: dict[str, Any] = {}
        for step in self._plans[version]:
            if step.compute is not None:
                out[step.key] = step.compute(
                    document if step.reads is None else
                    {n: document[n] for n in step.reads if n in document})
                continue
            if step.name not in document:
                continue
            value = document[step.name]
            if value is not None:
                if step.nested is not None:
                    value = step.nested.down(value, version)
                for fn in step.down:
                    value = fn(value)
            out[step.key] = value
        declared = self._names
        for key, value in document.items():
            if key not in declared:
                out[key] = value
        return out

    def up(self, body: Mapping[str, Any], version: Version) -> dict[str, Any]:
        """``body``, sent at ``version``, in the newest representation.

        Computed fields are dropped and keys the version does not declare
        are kept as they are: the request checks refuse both.  A null for
        a field the version lacks is dropped where the registry's
        ``null_as_absent`` takes it as absent.
        """
        if body.__class__ is not dict and not isinstance(body, Mapping):
            return body  # type: ignore[unreachable]
        out: dict[str, Any] = {}
        by_key = self._by_key[version]
        nulls_absent = self.registry.null_as_absent
        for key, value in body.items():
            step = by_key.get(key)
            if step is None:
                if value is None and nulls_absent and (
                        key in self._names):
                    continue  # as if not sent
                # another name of a field the version names too: the
                # version's value, converted, wins whatever the order
                out.setdefault(key, value)
            elif step.compute is None:
                out[step.name] = self._up_value(step, value, version)
        return out

    def merge(self, newest: Mapping[str, Any], shown: Mapping[str, Any],
              patched: Mapping[str, Any], version: Version,
              identity: Optional[Identity] = None) -> dict[str, Any]:
        """``newest`` with the edits that turned ``shown`` (its view at
        ``version``) into ``patched``; everything else of ``newest`` is kept.

        A field the edit removed is left out of the result.  Values are
        compared as JSON (``1`` to ``true`` is a change).  ``identity``
        (of a patch applied to ``shown``) tells which list item or dict
        entry of ``patched`` is which stored one (see :mod:`~pecan_
        microversions.core.containers`); without it only one unchanged in
        place, or a dict's entry under its key, is.

        :raises ~pecan_microversions.core.errors.RequestError: the edit
            changes or removes a computed field (400), or changes a retyped
            field, or a list a value map shows items of as other values,
            whose stored value holds more than ``version`` shows, or a list
            item or dict entry holding more in a way that would lose it
            (409: it would be lost).
        """
        if not (isinstance(newest, Mapping) and isinstance(shown, Mapping)
                and isinstance(patched, Mapping)):
            return self.up(patched, version)  # type: ignore[unreachable]
        result = {k: v for k, v in newest.items() if k not in self.old_names}
        by_key = self._by_key[version]
        for step in self._plans[version]:
            key = step.key
            if key not in patched:
                if key in shown:
                    if step.compute is not None:
                        raise _computed(key, self.resource)
                    if (identity is not None and step.nested is not None
                            and identity.kept(shown[key])
                            and newest.get(step.name) is not None
                            and holds_more(newest[step.name], self._up_value(
                                step, shown[key], version))):
                        raise _hidden(key, self.resource, version)  # moved
                    result.pop(step.name, None)
                continue
            new, before = patched[key], shown.get(key, _ABSENT)
            if new is before or same_json(before, new):  # the same object
                continue  # (untouched), or the same JSON
            if step.compute is not None:
                raise _computed(key, self.resource)
            old = newest.get(step.name)
            if (step.nested is not None and key in shown and new is not None
                    and old is not None and shown[key] is not None):
                if identity is not None and identity.source(
                        new) is not shown[key] and identity.loses(new, version):
                    raise _hidden(key, self.resource, version)  # moved in
                try:
                    result[step.name] = step.nested.merge(
                        old, shown[key], new, version, identity)
                except ItemNotKept as exc:
                    raise exc.within(key, self.resource) from None
            else:
                if ((step.retyped or (step.down and isinstance(old, list)))
                        and new is not None and old is not None
                        and shown.get(key) is not None and holds_more(
                            old, self._up_value(step, shown[key], version))):
                    # The version shows part of the value: the rest would be
                    # lost, not kept (an owner's domain before it had one,
                    # a list's items a value map shows as older ones).
                    raise _hidden(key, self.resource, version)
                if identity is not None and identity.loses(new, version):
                    raise _hidden(key, self.resource, version)  # moved in
                result[step.name] = self._up_value(step, new, version)
        for key, value in patched.items():
            if key not in by_key and not same_json(shown.get(key, _ABSENT),
                                                   value):
                if identity is not None and identity.loses(value, version):
                    raise _hidden(key, self.resource, version)  # moved in
                result[key] = value
        return result

    def apply_patch(self, newest: Mapping[str, Any],
                    operations: list[dict[str, Any]],
                    version: Version) -> dict[str, Any]:
        """Apply RFC 6902 ``operations`` (already checked, written against
        what ``version`` shows) to the newest document; return the new
        newest document.

        :raises ~pecan_microversions.core.errors.RequestError: the patch
            cannot be applied (a missing path, a failed ``test``, ...) or
            changes a computed field.
        """
        shown = self.down(newest, version)
        # Applied to a copy: shown (sharing values with newest) stays as is.
        patched, identity = tracked_patch(shown, operations)
        note_origins(self, newest, shown, version, identity.origins)
        return self.merge(newest, shown, patched, version, identity)

    def _up_value(self, step: FieldStep, value: Any, version: Version) -> Any:
        if value is None:
            return None
        for fn in step.up:
            try:
                value = fn(value)
            except (ValueError, TypeError, LookupError, AttributeError,
                    ArithmeticError) as exc:
                # A service's up-conversion refusing what a client sent
                # (``value.split('@')[1]`` on a value without one, ...).
                raise RequestError(
                    f'Field {step.key!r} of {self.resource} cannot be read '
                    f'at version {version}: {exc}',
                    error_code='microversion.invalid_value') from None
        if step.nested is not None:
            value = step.nested.up(value, version)
        return value


_ABSENT = object()


def _computed(key: str, resource: str) -> RequestError:
    return RequestError(f'Field {key!r} of {resource} is computed and cannot '
                        'be changed.',
                        error_code='microversion.read_only_field')


def _hidden(key: str, resource: str, version: Version) -> RequestError:
    return RequestError(f'Field {key!r} of {resource} holds more than version '
                        f'{version} shows; change it at a later version, '
                        'which shows all of it.', status=409,
                        error_code='microversion.partly_hidden_value')


def _mapper(mapping: Mapping[Any, Any]) -> _Fn:
    """A value map's function: a value is looked up in ``mapping``, and so
    is each item of a list (a list field's items are its values)."""
    table = dict(mapping)

    def one(value: Any) -> Any:
        try:
            return table.get(value, value)
        except TypeError:  # unhashable: a list or dict is never a key
            return value

    def convert(value: Any) -> Any:
        if isinstance(value, list):
            return [one(item) for item in value]
        return one(value)
    convert.table = table  # type: ignore[attr-defined]  # for inlining
    return convert


def _check_old_names(resource: str, fields: Sequence[FieldSpec]) -> None:
    """A name a field had (``Renamed``) is no field's newest name, nor
    another old name: documents, patches and the history tell fields apart
    by name, at every version."""
    names = {f.name for f in fields}
    had: dict[str, str] = {}  # old name: the field that had it
    for spec in fields:
        for change in spec.changes:
            if not isinstance(change, Renamed):
                continue
            old = change.old_name
            if old == spec.name:
                what, instead = 'its newest name', 'give it a new name'
            elif old in names:
                what = f'the name of {resource}.{old}'
                instead = f'give {resource}.{old} another name'
            elif old in had:
                what = f'an older name of {resource}.{had[old]}'
                instead = 'declare each old name on one field, once'
            else:
                had[old] = spec.name
                continue
            raise InvalidDeclarationError(
                f'{resource}.{spec.name} Renamed({old!r}, '
                f'{str(change.max_version)!r}): {old!r} is also {what}; a '
                'name stays with the field that had it, at every version: '
                f'{instead}.')


def _check_reads(resource: str, fields: Sequence[FieldSpec]) -> None:
    """Every name a :class:`Computed` reads is a field of the resource."""
    names = {f.name for f in fields}
    for spec in fields:
        for change in spec.changes:
            if not isinstance(change, Computed) or change.reads is None:
                continue
            unknown = [n for n in change.reads if n not in names]
            if unknown:
                raise InvalidDeclarationError(
                    f'{resource}.{spec.name} Computed: reads '
                    f'{unknown[0]!r}, which is not a field of {resource} '
                    f'(fields: {", ".join(sorted(names))}).')
