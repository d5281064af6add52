"""Applying a JSON patch to a stored WSME resource, judged by its effect.

:func:`apply_patch` applies a patch written against what a version shows to
a copy of the stored document (see :mod:`pecan_microversions.core.
stored_patches`): renamed fields under the version's name, fields whose
representation changes between versions converted down and written back
converted up, so what the version cannot see is kept.  A ``copy`` or
``move`` carries a value of the stored resource, which the patch itself
does not show: what changed is judged as a body sent at the version (see
:func:`~pecan_microversions.wsme.patch_effects.check_effect`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pecan_microversions.core.checking import pointer_parts
from pecan_microversions.core.containers import DictOf, ListOf
from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import APPLY_ERRORS, patch_failed
from pecan_microversions.core.representations import Computed
from pecan_microversions.core.stored_patches import patch_stored
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.checking import (
    body_too_deep,
    check_operations,
    resolve_datatype,
)
from pecan_microversions.wsme.conversion import converter_of
from pecan_microversions.wsme.fields import binding_of
from pecan_microversions.wsme.patch_effects import check_effect, kept_members

__all__ = ['apply_patch']


def apply_patch(datatype: Any, document: Mapping[str, Any], patch: Any,
                version: Version) -> dict[str, Any]:
    """Check ``patch`` (see :func:`~pecan_microversions.wsme.checking.
    check_patch`), apply it to a copy of ``document``, check its effect.

    A renamed field is patched under the version's name and a change
    written under every name ``document`` holds it under.  A field whose
    values or type change between versions (``changes=``) is read from its
    newest name converted down, a computed one as ``version`` shows it,
    and a change is written back converted up (a 409 where that would erase
    what ``version`` cannot see).  Values nested below a field are patched
    as stored; where the changes of nested types apply at ``version``, an
    operation reaching into a field holding them is a 409:
    :func:`~pecan_microversions.wsme.conversion.patch_newest` converts such
    fields.

    :param document: the stored resource as a JSON-like dict of public
        names, in its newest representation.
    :return: the patched copy.
    :raises ~pecan_microversions.core.errors.RequestError: the patch is
        refused, cannot be applied (a missing path, a failed ``test``, ...),
        or puts into a field a value ``version`` does not allow there.
    """
    datatype = resolve_datatype(datatype)
    binding = binding_of(datatype) if isinstance(datatype, type) else None
    try:
        operations = check_operations(datatype, patch, version, True)
    except APPLY_ERRORS as exc:
        raise patch_failed(exc) from None
    except RecursionError:
        raise body_too_deep() from None
    converter = converter_of(datatype)
    if converter is not None:
        _check_nested(converter, operations, version)
    return patch_stored(
        document, operations, version,
        None if binding is None else binding.conversion,
        () if binding is None else binding.renames[version],
        lambda view, result: _judge(datatype, view, result, version),
        keep=kept_members(datatype, version))


def _check_nested(converter: Any, operations: list[dict[str, Any]],
                  version: Version) -> None:
    """A 409 for an operation reaching into a field holding objects of
    types whose values or names ``version`` sees converted (their value
    maps, retypes or renames apply at ``version``): patched as stored, it
    would show the client newer values, or store its old form as the
    newest."""
    if isinstance(converter, Conversion):
        converting = {s.key for s in converter.plan(version)
                      if s.nested is not None
                      and _converts(s.nested, version, set())}
    else:  # an unversioned type holding versioned ones
        converting = {name for name, nested in getattr(
            converter, 'nested', {}).items()
            if _converts(nested, version, set())}
    if not converting:
        return
    for operation in operations:  # checked: each pointer names a field
        # ("from" means something to a move or copy only: RFC 6902)
        for member in (('path', 'from') if operation['op'] in ('move', 'copy')
                       else ('path',)):
            key = pointer_parts(operation, member, '')[0]
            if key in converting:
                raise RequestError(
                    f'Field {key!r} holds values version {version} shows '
                    'converted; change it at a later version, which shows '
                    'them as stored.', status=409,
                    error_code='microversion.partly_hidden_value')


def _converts(converter: Any, version: Version, seen: set[int]) -> bool:
    """Whether ``converter`` changes values or names at ``version``."""
    # (``target``: a type holding itself, converted once built.)
    converter = getattr(converter, 'target', converter)
    while isinstance(converter, (ListOf, DictOf)):
        converter = getattr(converter.item, 'target', converter.item)
    if id(converter) in seen:
        return False
    seen.add(id(converter))
    if not isinstance(converter, Conversion):
        return any(_converts(c, version, seen)
                   for c in getattr(converter, 'nested', {}).values())
    # A field computed at every version is never stored: it converts no
    # stored value (one computed up to a version is stored after it).
    never_stored = {f.name for f in converter.fields
                    if any(isinstance(c, Computed) and c.max_version is None
                           for c in f.changes)}
    return any(s.down or s.key != s.name
               or (s.compute is not None and s.name not in never_stored)
               or (s.nested is not None and _converts(s.nested, version,
                                                      seen))
               for s in converter.plan(version))


def _judge(datatype: Any, view: Any, result: Any, version: Version) -> None:
    try:
        check_effect(datatype, view, result, version)
    except APPLY_ERRORS as exc:
        raise patch_failed(exc) from None
