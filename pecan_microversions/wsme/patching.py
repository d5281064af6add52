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

from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.patching import (
    APPLY_ERRORS,
    patch_failed,
    same_json,
)
from pecan_microversions.core.stored_patches import patch_stored
from pecan_microversions.core.version import Version
from pecan_microversions.wsme.checking import (
    body_too_deep,
    check_operations,
    resolve_datatype,
)
from pecan_microversions.wsme.conversion import converter_of
from pecan_microversions.wsme.fields import binding_of
from pecan_microversions.wsme.patch_effects import check_effect

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
    as stored; where ``version`` sees them otherwise (objects of nested
    types with changes of their own), an operation reaching into the field
    is a 409: :func:`~pecan_microversions.wsme.conversion.patch_newest`
    converts such fields.

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
    if isinstance(converter, Conversion):
        _check_nested(converter, document, operations, version)
    return patch_stored(
        document, operations, version,
        None if binding is None else binding.conversion,
        () if binding is None else binding.renames[version],
        lambda view, result: _judge(datatype, view, result, version))


def _check_nested(conversion: Conversion, document: Mapping[str, Any],
                  operations: list[dict[str, Any]], version: Version) -> None:
    """A 409 for an operation reaching into a field that holds objects of
    types with changes of their own, where ``version`` sees the stored
    value otherwise: patched as stored, it would read values the version
    cannot see, or store the version's form in the newest document."""
    nested = [s for s in conversion.plan(version) if s.nested is not None
              and s.name in document]
    if not nested:
        return
    shown = conversion.down(document, version)
    differ = {s.key for s in nested
              if not same_json(shown.get(s.key), document[s.name])}
    for operation in operations:
        for member in ('path', 'from'):
            pointer = operation.get(member)
            if isinstance(pointer, str) and pointer.startswith('/') and (
                    _unescape(pointer[1:].split('/')[0]) in differ):
                key = _unescape(pointer[1:].split('/')[0])
                raise RequestError(
                    f'Field {key!r} holds what version {version} shows '
                    'otherwise; change it at a later version, which shows '
                    'it as stored.', status=409,
                    error_code='microversion.partly_hidden_value')


def _unescape(part: str) -> str:
    return part.replace('~1', '/').replace('~0', '~')


def _judge(datatype: Any, view: Any, result: Any, version: Version) -> None:
    try:
        check_effect(datatype, view, result, version)
    except APPLY_ERRORS as exc:
        raise patch_failed(exc) from None
