"""Checking one request object's members against a field contract.

Framework-free and shared: the WSME checks
(:mod:`~pecan_microversions.wsme.checking`, over a bound type's binding)
and :class:`~pecan_microversions.core.schema.Schema` (over plain dicts)
both apply these rules, so a field is refused with the same status, code
and words whichever way it was declared.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Optional, Protocol

import jsonpointer

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.registry import VersionRegistry
from pecan_microversions.core.version import Version, VersionRange

__all__ = ['OPERATIONS', 'FieldContract', 'check_available', 'check_member',
           'check_present', 'check_value', 'is_read_only', 'operation_name',
           'patch_error', 'pointer_parts', 'touched_fields',
           'unseen_value_error']

#: The operations of a JSON patch (RFC 6902).
OPERATIONS = ('add', 'remove', 'replace', 'move', 'copy', 'test')


class FieldContract(Protocol):
    """One resource's fields by version: a WSME binding or a Schema."""

    @property
    def registry(self) -> VersionRegistry:
        """The registry the fields are declared in."""

    @property
    def resource(self) -> str:
        """The resource's name in the registry and in errors."""

    @property
    def ranges(self) -> Mapping[str, tuple[Optional[Version],
                                           Optional[Version]]]:
        """Each field's ``(min_version, max_version)``."""

    @property
    def values(self) -> Mapping[str, Any]:
        """The value rules of the fields that list their values."""

    @property
    def visible(self) -> Mapping[Version, frozenset[str]]:
        """The fields each version has."""

    @property
    def readonly(self) -> Mapping[Version, frozenset[str]]:
        """The fields a request may not set at each version: those declared
        read-only and those computed there (see :func:`~pecan_microversions.
        core.field_rules.read_only_fields`)."""


def is_read_only(contract: Optional[FieldContract], name: str,
                 version: Version, declared: bool = False) -> bool:
    """Whether a request at ``version`` may not set or change ``name``:
    ``declared`` read-only, or read-only at ``version`` by ``contract``'s
    table (a field computed there)."""
    if declared or contract is None:
        return declared
    try:
        table = contract.readonly
    except AttributeError:
        # A contract written before ``readonly`` existed: declared ones
        # only (deprecated; the table becomes required in a later release).
        warnings.warn(f'{type(contract).__name__} has no readonly table: '
                      'fields computed at a version are not refused; give '
                      'it one (FieldContract.readonly).', DeprecationWarning,
                      stacklevel=3)
        return False
    return name in table[version]


def check_available(contract: FieldContract, name: str, version: Version,
                    label: str) -> None:
    """Refuse ``name`` (shown as ``label``) unless ``version`` has it, with
    the registry's ``unavailable_status``."""
    if name not in contract.visible[version]:
        raise RequestError(
            f'Field {label!r} of {contract.resource} is not available at '
            f'version {version}; it exists '
            f'{VersionRange(*contract.ranges[name])}.',
            status=contract.registry.unavailable_status,
            error_code='microversion.field_unavailable')


def check_value(contract: FieldContract, name: str, value: Any,
                version: Version, label: str) -> None:
    """Refuse a non-null ``value`` its field's value rule does not allow at
    ``version``."""
    rule = contract.values.get(name)
    if rule is not None and value is not None:
        rule.check(value, version, f'field {label!r} of {contract.resource}',
                   contract.registry.unavailable_status)


def check_member(contract: Optional[FieldContract], name: str, value: Any,
                 version: Version, label: str, *, readonly: bool = False,
                 mandatory: bool) -> bool:
    """Check one member a request sets; ``False`` when it is a null the
    registry's ``null_as_absent`` takes as absent (leave it out).

    Without a contract (a type with no versioned fields) only ``readonly``
    and ``mandatory`` apply; with one, a field its table makes read-only at
    ``version`` (computed there) is refused as a declared one is.

    :raises RequestError: the field is unavailable, its value is not allowed,
        it is read-only, or it is mandatory and null.
    """
    if contract is not None:
        if (value is None and contract.registry.null_as_absent
                and name not in contract.visible[version]):
            return False
        check_available(contract, name, version, label)
        check_value(contract, name, value, version, label)
    if is_read_only(contract, name, version, readonly):
        raise RequestError(f'Field {label!r} is read-only.',
                       error_code='microversion.read_only_field')
    if value is None and mandatory:
        raise RequestError(f'Mandatory field {label!r} cannot be null.',
                       error_code='microversion.null_mandatory_field')
    return True


def check_present(mandatory: Iterable[str], data: Mapping[str, Any],
                  join: Any = None) -> None:
    """Refuse a body that lacks one of the ``mandatory`` fields.

    :param join: turns a field name into its label (default: the name).
    """
    for name in mandatory:
        if name not in data:
            label = name if join is None else join(name)
            raise RequestError(f'Mandatory field {label!r} is missing.',
                           error_code='microversion.missing_field')


def patch_error(detail: str) -> RequestError:
    """The 400 for a malformed JSON patch."""
    return RequestError(detail, error_code='microversion.invalid_patch')


def operation_name(operation: Mapping[str, Any], where: str) -> str:
    """The ``op`` of one patch operation, checked: one of
    :data:`OPERATIONS`, with a ``value`` where it needs one.

    :raises ~pecan_microversions.core.errors.RequestError: 400
        ``microversion.invalid_patch`` naming the operation (``where``).
    """
    name = operation.get('op')
    if name not in OPERATIONS:
        raise patch_error(f'{where}: "op" must be one of '
                          f'{", ".join(OPERATIONS)}, not {name!r}.')
    if name in ('add', 'replace', 'test') and 'value' not in operation:
        raise patch_error(f'{where} ({name}) has no "value".')
    return name  # type: ignore[no-any-return]


def unseen_value_error(where: str, operation: Mapping[str, Any]
                       ) -> RequestError:
    """The 400 for a ``copy`` or ``move`` into a field whose values depend
    on the version, checked without the resource: the value it brings is
    not seen."""
    name = operation.get('op')
    verb = 'copies' if name == 'copy' else 'moves'
    return patch_error(
        f'{where} ({name}) into {operation.get("path")!r}: what it {verb} '
        'depends on the resource, and this field\'s values depend on the '
        'version; send the value with "add" or "replace".')


def pointer_parts(op: Mapping[str, Any], member: str,
                  where: str) -> list[str]:
    """The unescaped parts of ``op[member]``, a JSON pointer to a field.

    :raises RequestError: it is missing, malformed or names the whole
        resource.
    """
    pointer = op.get(member)
    if not isinstance(pointer, str):
        raise patch_error(f'{where} has no "{member}" string.')
    if pointer[:1] == '/' and '~' not in pointer:  # nothing to unescape
        parts = pointer[1:].split('/')
    else:
        try:
            parts = list(jsonpointer.JsonPointer(pointer).parts)
        except jsonpointer.JsonPointerException as exc:
            raise patch_error(f'{where}: invalid "{member}" {pointer!r}: '
                              f'{exc}.') from None
    if not parts:
        raise patch_error(f'{where}: "{member}" must name a field, not the '
                          'whole resource.')
    return parts


def touched_fields(operations: Iterable[Mapping[str, Any]]) -> set[str]:
    """The top-level fields checked ``operations`` may change (those their
    ``path`` and a ``move``'s ``from`` start in; a ``test`` changes nothing,
    and a ``from`` elsewhere is ignored, as RFC 6902 says)."""
    return {pointer_parts(op, member, '')[0] for op in operations
            if op.get('op') != 'test'
            for member in (('path', 'from') if op.get('op') == 'move'
                           else ('path',))}
