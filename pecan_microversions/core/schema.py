"""Versioned fields for plain-dict resources, without WSME.

For services whose API returns and reads plain dicts (Ironic since it
dropped WSME), a :class:`Schema` declares a resource's fields with the
vocabulary of :func:`~pecan_microversions.wsme.fields.versioned`: a range
(``min_version``/``max_version``), allowed ``values`` and their ranges,
``replaces`` for a rename, ``mandatory`` and ``readonly``::

    NODE = Schema(REGISTRY, 'node', {
        'uuid': field(readonly=True),
        'name': field(),
        'driver': field(mandatory=True, max_version='1.5'),
        'hardware_type': field(mandatory=True, min_version='1.6',
                               replaces='driver'),
        'owner': field(min_version='1.4'),
        'power_interface': field(values={'ipmitool': None,
                                         'redfish': '1.5'}),
    })

    NODE.filter(node_dict, version)          # what the version shows
    body = NODE.check_body(request_json, version)
    NODE.check_patch(patch, version); NODE.apply_patch(doc, patch, version)

The fields are declared in the registry (kind ``'field'``, values as
``'field_value'``) exactly as a WSME type's, so the history tools list them;
mistakes raise a :class:`~pecan_microversions.core.errors.RegistryError` when
the schema is built.  The checks are those of WSME types
(:mod:`~pecan_microversions.core.checking`): same statuses, codes and
words.  Values are free-form JSON unless ``values`` lists them; checking
their types is left to the service.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Optional

from pecan_microversions.core.checking import check_member, check_present
from pecan_microversions.core.contract import (
    ValueRange,
    ValueRule,
    declare_ranged,
)
from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import InvalidDeclarationError, RequestError
from pecan_microversions.core.field_rules import (
    check_field,
    check_no_older_datatype,
    check_no_renamed,
    check_no_retyped_values,
    check_value_maps,
    conversion_specs,
    read_only_fields,
    rename_groups,
)
from pecan_microversions.core.patching import RenameGroups, patched_copy
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.representations import Change
from pecan_microversions.core.schema_patches import check_effect, check_operations
from pecan_microversions.core.stored_patches import patch_stored
from pecan_microversions.core.version import Version, VersionLike

__all__ = ['Field', 'Schema', 'field']

@dataclass(frozen=True)
class Field:
    """One declared field of a :class:`Schema` (see :func:`field`)."""

    min_version: Optional[VersionLike] = None
    max_version: Optional[VersionLike] = None
    values: Optional[Mapping[Any, ValueRange]] = None
    replaces: Optional[str] = None
    mandatory: bool = False
    readonly: bool = False
    changes: tuple[Change, ...] = ()


def field(min_version: Optional[VersionLike] = None,
          max_version: Optional[VersionLike] = None, *,
          values: Optional[Mapping[Any, ValueRange]] = None,
          replaces: Optional[str] = None, mandatory: bool = False,
          readonly: bool = False, changes: Iterable[Change] = ()) -> Field:
    """A field that exists from ``min_version`` to ``max_version`` inclusive.

    :param values: every allowed value and its range: ``None`` (always),
        ``'X.Y'`` (from) or ``(min_version, max_version)``.
    :param replaces: the field this one renames; its ``max_version`` must
        come before this one's ``min_version``.
    :param mandatory: a request body must carry it (at versions that have it).
    :param readonly: a request may not set or patch it.  A field is also
        read-only at the versions a ``Computed`` change computes it at.
    :param changes: how older versions show it (``ValueMap``, ``Computed``,
        ``Retype``; see :doc:`conversion`); a rename is ``replaces=``.
    """
    return Field(min_version, max_version, values, replaces, mandatory,
                 readonly, tuple(changes))


class Schema:
    """A plain-dict resource's fields by version, declared at import.

    :param registry: the service's registry; every bound must be in its
        history.
    :param resource: the resource's name in the registry and in errors.
    :param fields: ``{public name: field(...)}``.
    :raises ~pecan_microversions.core.errors.RegistryError: a bound is not in
        the history, a range is inverted, a rename is wrong (or declared
        as a ``Renamed`` change), a field is both mandatory and read-only,
        a ``ValueMap`` shows a version a value its ``values`` forbid there,
        or ``resource`` already has fields in the registry.
    """

    def __init__(self, registry: VersionRegistry, resource: str,
                 fields: Mapping[str, Field]) -> None:
        if not isinstance(resource, str) or not resource:
            raise InvalidDeclarationError(f'Invalid resource name {resource!r}.')
        if next(registry.declarations('field', resource), None) is not None:
            raise InvalidDeclarationError(
                f'Resource {resource!r} already has fields in the '
                f'{registry.service_type} registry.')
        self.registry = registry
        self.resource = resource
        self.fields = dict(fields)
        self.ranges: dict[str, tuple[Optional[Version], Optional[Version]]] = {}
        self.values: dict[str, ValueRule] = {}
        for name, spec in self.fields.items():
            if not isinstance(spec, Field):
                raise InvalidDeclarationError(
                    f'Schema {resource!r}: {name} must be a field(...), not '
                    f'{spec!r}.')
            check_field(f'Schema {resource!r}: {name}', spec.mandatory,
                        spec.readonly)
            check_no_renamed(f'Schema {resource!r}: {name}', name,
                             spec.changes)
            check_no_older_datatype(f'Schema {resource!r}: {name}',
                                    spec.changes)
            if spec.values is not None:
                check_no_retyped_values(f'Schema {resource!r}: {name}',
                                        spec.changes)
            self.ranges[name], rule = declare_ranged(
                registry, 'field', resource, name, spec.min_version,
                spec.max_version, spec.values)
            if rule is not None:
                self.values[name] = rule
        self.groups = rename_groups(resource, self.fields, self.ranges,
                                    following=registry.next)
        #: converts documents between versions (see :meth:`patch_newest`)
        self.conversion = Conversion(registry, resource, conversion_specs(
            self.fields, self.groups, self.ranges))
        check_value_maps(self.conversion, self.values,
                         lambda name: f'Schema {resource!r}: {name}')
        #: the fields each version has
        self.visible = {v: frozenset(n for n, r in self.ranges.items()
                                     if v.matches(*r))
                        for v in registry.versions}
        #: the computed fields each version has
        self.computed = {v: frozenset(s.key for s in self.conversion.plan(v)
                                      if s.compute is not None)
                         for v in registry.versions}
        #: the fields a request may not set at each version: read-only
        #: ones, and those computed there (bodies and patches are refused)
        self.readonly = read_only_fields(self.conversion, (
            n for n, spec in self.fields.items() if spec.readonly))
        #: the mandatory fields each version has (not one computed there)
        self.mandatory = {
            v: tuple(n for n in self.fields
                     if self.fields[n].mandatory and n in self.visible[v]
                     and n not in self.readonly[v])
            for v in registry.versions}
        #: rename groups whose versions see different values (changes=)
        self._converted = frozenset(
            g for g in self.groups if self.fields[g[0]].changes)
        #: (name shown, group) of each rename group at each version
        self._renames: dict[Version, RenameGroups] = {
            v: tuple((n, g) for g in self.groups for n in g
                     if n in self.visible[v]) for v in registry.versions}
        self._plain_renames = {v: tuple(r for r in renames
                                        if r[1] not in self._converted)
                               for v, renames in self._renames.items()}
        #: the names of the fields bodies at each version send in another
        #: representation than the newest (converted up by check_body)
        self._ups = {v: frozenset(
            s.key for s in self.conversion.plan(v) if s.compute is None
            and self.fields[s.name].changes and (s.up or s.key != s.name))
            for v in registry.versions}

    def __repr__(self) -> str:
        return f'<Schema {self.resource} ({len(self.fields)} fields)>'

    def visible_fields(self, version: VersionLike) -> frozenset[str]:
        """The fields ``version`` has."""
        return self.visible[self.registry.known_version(version)]

    def filter(self, document: Any, version: Version) -> Any:
        """A copy of ``document`` (a dict, or a list of dicts) with only what
        ``version`` has; a renamed field shows under the version's name,
        whichever name the document holds it under.  Keys the schema does
        not declare are left as they are.  When fields declare ``changes``,
        ``document`` is the newest representation and is converted down
        (values, types, computed fields; see :doc:`conversion`)."""
        if isinstance(document, (list, tuple)):
            return [self.filter(item, version) for item in document]
        if not isinstance(document, Mapping):
            raise TypeError(f'Schema.filter takes a dict or a list of dicts, '
                            f'not {type(document).__name__}.')
        if self.conversion.changes_values:
            # down reads the newest name only; a replaces= rename without
            # changes of its own has one value under every name
            result = self.conversion.down(document, version)
            renames = self._plain_renames[version]
        else:
            visible = self.visible[version]
            result = {k: v for k, v in document.items()
                      if k not in self.fields or k in visible}
            renames = self._renames[version]
        for shown, group in renames:
            if shown not in result:
                held = next((document[n] for n in group if n in document),
                            _MISSING)
                if held is not _MISSING:
                    result[shown] = held
        return result

    def check_body(self, data: Any, version: Version) -> dict[str, Any]:
        """Check a request body; return it ready for the service: in the
        newest representation, to store as it is.

        Refuses (naming the field) an unknown or read-only field (one
        computed at ``version`` is read-only there), a field ``version``
        lacks (the registry's ``unavailable_status``), a value outside its
        range, ``null`` or nothing for a mandatory field.  The
        copy returned carries a renamed field's value under every name;
        a field whose values change between versions (``changes=``) is
        converted up to the newest representation under its newest name,
        as :meth:`~pecan_microversions.core.conversion.Conversion.up`
        converts it (a renamed one also keeps the value sent under the
        version's name); the nulls the registry's ``null_as_absent``
        accepted are left out.

        :raises ~pecan_microversions.core.errors.RequestError: naming the problem.
        """
        if not isinstance(data, dict):
            raise RequestError('The body must be a JSON object.',
                           error_code='microversion.invalid_body')
        result: dict[str, Any] = {}
        for name, value in data.items():
            spec = self.fields.get(name)
            if spec is None:
                raise RequestError(f'Unknown field {name!r}.',
                               error_code='microversion.unknown_field')
            if check_member(self, name, value, version, name,
                            mandatory=spec.mandatory):
                result[name] = value
        check_present(self.mandatory[version], result)
        for sent, group in self._plain_renames[version]:
            if sent in result:
                for name in group:
                    result.setdefault(name, result[sent])
        converting = self._ups[version].intersection(result)
        if converting:  # to the newest representation, by newest name
            result.update(self.conversion.up(
                {name: result[name] for name in converting}, version))
        return result

    def check_patch(self, patch: Any, version: Version) -> list[dict[str, Any]]:
        """Check an RFC 6902 patch of this resource; return its operations.

        Every ``path`` and ``from`` must name a field ``version`` has (a
        path below a field is free-form, but ``-`` may only end the path
        of an ``add``, ``copy`` or ``move``); a read-only or computed field
        cannot change, a mandatory one cannot be removed or set to null;
        the values of ``add`` and ``replace`` are checked as in
        :meth:`check_body`.  ``copy`` and ``move`` bring values this cannot
        see: into a field that lists its ``values`` they are refused (as
        the WSME ``check_patch`` refuses them); :meth:`apply_patch` and
        :meth:`patch_newest` judge them by their effect instead.

        :raises ~pecan_microversions.core.errors.RequestError: naming the operation.
        """
        return check_operations(self, patch, version, judged=False)

    def apply_patch(self, document: Mapping[str, Any], patch: Any,
                    version: Version) -> dict[str, Any]:
        """:meth:`check_patch`, then apply the patch to a copy of
        ``document`` as ``version`` names its fields; return the copy.

        A renamed field is patched under the version's name whichever name
        ``document`` holds it under, and a change to it is written under
        every name ``document`` holds it under (all of them after
        :meth:`check_body`, or when it held none), so every version sees
        it.  A field whose
        values differ between versions (renamed or not) is read from the
        newest name converted down, a computed one as ``version`` shows
        it, and a change is written under the newest name converted up (a
        409 if that would erase what ``version`` cannot see), and under an
        older name the version shows as :meth:`check_body` stores it.  What
        the patch changed is judged as the client's body: a value a
        ``copy`` or ``move`` brings must be allowed at ``version``; a
        mandatory field cannot end up null or absent.

        :raises ~pecan_microversions.core.errors.RequestError: the patch is refused
            or cannot be applied (a missing path, a failed ``test``, ...).
        """
        operations = check_operations(self, patch, version, judged=True)
        return patch_stored(
            document, operations, version, self.conversion,
            self._renames[version],
            lambda view, result: check_effect(self, view, result, operations,
                                              version), every_name=True)

    def patch_newest(self, newest: Mapping[str, Any], patch: Any,
                     version: Version) -> dict[str, Any]:
        """:meth:`check_patch`, then apply the patch to what ``version``
        shows of the newest document and write it back, keeping every
        field the version cannot see; return the new newest document.
        What the patch changed is judged as by :meth:`apply_patch`."""
        operations = check_operations(self, patch, version, judged=True)
        shown = self.conversion.down(newest, version)
        patched = patched_copy(shown, operations)
        check_effect(self, shown, patched, operations, version)
        return self.conversion.merge(newest, shown, patched, version)


_MISSING = object()
