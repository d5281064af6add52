"""Checking a JSON patch of a plain-dict :class:`~pecan_microversions.core.
schema.Schema` resource.

:func:`check_operations` checks each operation against the fields a
version has (before the patch is applied); :func:`check_effect` judges what
an applied patch changed as the client's body.  The words, statuses and
codes are those of WSME types' checks
(:mod:`~pecan_microversions.core.checking`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Protocol

from pecan_microversions.core.checking import (
    FieldContract,
    check_available,
    check_value,
    is_read_only,
    operation_name,
    patch_error,
    pointer_parts,
    touched_fields,
    unseen_value_error,
)
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.patching import moves_away
from pecan_microversions.core.version import Version

__all__ = ['PatchedSchema', 'check_effect', 'check_operations']


class PatchedSchema(FieldContract, Protocol):
    """What these checks read of a :class:`~pecan_microversions.core.
    schema.Schema` (named so without importing it, which imports them)."""

    @property
    def fields(self) -> Mapping[str, Any]:
        """Each field's declaration (``mandatory``)."""

    @property
    def mandatory(self) -> Mapping[Version, Collection[str]]:
        """The mandatory fields at each version."""

_MISSING = object()


def check_operations(schema: PatchedSchema, patch: Any, version: Version, *,
                     judged: bool) -> list[dict[str, Any]]:
    """:meth:`Schema.check_patch <pecan_microversions.core.schema.Schema.
    check_patch>`; ``judged``: the caller judges the effect of ``copy`` and
    ``move`` (:func:`check_effect`), which are then not refused.

    :raises ~pecan_microversions.core.errors.RequestError: naming the
        operation.
    """
    if not isinstance(patch, list):
        raise patch_error('The body must be a JSON patch (RFC 6902): a '
                          'list of operations.')
    for index, op in enumerate(patch):
        where = f'Patch operation #{index}'
        if not isinstance(op, dict):
            raise patch_error(f'{where} must be a JSON object.')
        name = operation_name(op, where)
        if name in ('move', 'copy'):
            _pointer(schema, op, 'from', where, version,
                     changes=name == 'move', removes=moves_away(op))
        value = op.get('value')
        target, whole = _pointer(
            schema, op, 'path', where, version, changes=name != 'test',
            removes=name == 'remove' or (name in ('add', 'replace')
                                         and value is None),
            appends=name in ('add', 'copy', 'move'))
        if name in ('add', 'replace') and whole:
            check_value(schema, target, value, version, target)
        elif (name in ('copy', 'move') and whole and not judged
              and target in schema.values):
            raise unseen_value_error(where, op)
    return list(patch)


def check_effect(schema: PatchedSchema, before: Mapping[str, Any],
                 after: Mapping[str, Any], operations: list[dict[str, Any]],
                 version: Version) -> None:
    """Judge each field checked ``operations`` changed from ``before`` to
    ``after`` (named as ``version`` names it) as a body's: allowed at
    ``version``, a mandatory one not null or absent.

    :raises ~pecan_microversions.core.errors.RequestError: naming the field.
    """
    for name in touched_fields(operations):
        new = after.get(name, _MISSING)
        if same_json(before.get(name, _MISSING), new):
            continue
        if new is _MISSING or new is None:
            if name in schema.mandatory[version]:
                raise RequestError(
                    f'Mandatory field {name!r} cannot be removed or set '
                    'to null.', error_code='microversion.missing_field')
            continue
        check_value(schema, name, new, version, name)


def _pointer(schema: PatchedSchema, op: Mapping[str, Any], member: str,
             where: str, version: Version, *, changes: bool, removes: bool,
             appends: bool = False) -> tuple[str, bool]:
    """The field a pointer names, and whether it names the whole field."""
    parts = pointer_parts(op, member, where)
    pointer = op[member]
    name, whole = parts[0], len(parts) == 1
    spec = schema.fields.get(name)
    if spec is None:
        raise RequestError(f'{where}: unknown field {name!r} in {pointer!r}.',
                           error_code='microversion.unknown_field')
    if '-' in parts[1:-1] or (parts[-1] == '-' and not whole
                              and not appends):
        # values below a field are free-form: "-" is refused wherever
        # it could not end an array's path
        raise patch_error(f'{where}: "-" in {pointer!r} names no item; '
                          'it only ends the path of an add, copy or move.')
    check_available(schema, name, version, name)
    if changes and is_read_only(schema, name, version):  # computed too
        raise RequestError(f'{where}: field {name!r} is read-only.',
                           error_code='microversion.read_only_field')
    if removes and whole and spec.mandatory:
        raise RequestError(f'{where}: mandatory field {name!r} cannot be '
                           'removed or set to null.',
                           error_code='microversion.missing_field')
    return name, whole
