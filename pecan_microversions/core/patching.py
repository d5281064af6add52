"""Applying a checked RFC 6902 patch to a copy of a JSON document."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import jsonpointer

from pecan_microversions.core.errors import RequestError

__all__ = ['json_copy', 'patched_copy']

#: JSON scalars: shared by a copy, as ``copy.deepcopy`` shares them.
_SCALARS = frozenset([str, int, float, bool, type(None)])


def patched_copy(document: Any, operations: list[dict[str, Any]]) -> Any:
    """Apply ``operations`` (already checked) to a copy of ``document``;
    ``document`` itself is left as it is.

    :raises ~pecan_microversions.core.errors.RequestError: the patch cannot
        be applied (a missing path, a failed ``test``, ...).
    """
    try:
        return jsonpatch.apply_patch(json_copy(document), operations,
                                     in_place=True)
    except (jsonpatch.JsonPatchException,
            jsonpointer.JsonPointerException) as exc:
        raise RequestError(f'The patch cannot be applied: {exc}',
                           error_code='microversion.patch_failed') from None


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data: new dicts and lists, the same scalars.

    Anything else (a tuple, a date, a mapping of another class) is copied
    by ``copy.deepcopy``; ``json_copy`` costs a fraction of it on JSON.
    """
    cls = value.__class__
    if cls is dict:
        return {key: json_copy(item) for key, item in value.items()}
    if cls is list:
        return [json_copy(item) for item in value]
    if cls in _SCALARS:
        return value
    return copy.deepcopy(value)
