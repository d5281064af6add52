"""Applying a version's patch to a stored document.

A stored document holds each field in its newest representation, and a
renamed field possibly also under its older names (as a body sent at an
older version is stored).  A client patches what its version shows:
:func:`patch_stored` shows it that (a renamed field under the version's
name; a field whose values or type change between versions converted down;
a computed field computed), applies the patch, lets the adapter judge what
changed, and writes each change back where the document keeps it,
converted up.  What the version cannot see is kept.

Values nested below a field are patched as stored: objects of types with
changes of their own are not converted (``patch_newest`` does that, on the
newest document).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Optional

from pecan_microversions.core.conversion import Conversion
from pecan_microversions.core.patching import (
    Keep,
    RenameGroups,
    converted_names_held,
    named_as_shown,
    names_held,
    patched_copy,
)
from pecan_microversions.core.representations import Renamed
from pecan_microversions.core.version import Version

__all__ = ['patch_stored']

#: Judges a patch's effect: (what the version showed, the patched copy).
Judge = Callable[[Mapping[str, Any], Mapping[str, Any]], None]


@functools.lru_cache(maxsize=1024)  # per resource and version, not request
def _converted_groups(conversion: Conversion, version: Version
                      ) -> RenameGroups:
    """The fields ``version`` has whose values some version sees converted
    (changes other than renames): the name ``version`` shows each under,
    and its names, newest first."""
    converting = {}
    for spec in conversion.fields:
        if any(not isinstance(c, Renamed) for c in spec.changes):
            converting[spec.name] = (spec.name, *(
                c.old_name for c in spec.changes if isinstance(c, Renamed)))
    return tuple((step.key, converting[step.name])
                 for step in conversion.plan(version)
                 if step.name in converting)


def patch_stored(document: Mapping[str, Any],
                 operations: list[dict[str, Any]], version: Version,
                 conversion: Optional[Conversion], renames: RenameGroups,
                 judge: Judge, every_name: bool = False,
                 keep: Optional[Keep] = None) -> dict[str, Any]:
    """Apply checked ``operations``, written against what ``version`` shows,
    to a copy of the stored ``document``; return the copy.

    :param conversion: the resource's conversions (``None``: none).
    :param renames: every rename group ``version`` shows (name shown, all
        names of the group).
    :param judge: refuses, by raising, what the patch changed.
    :param every_name: write a renamed field the document holds under no
        name under all of them (see :func:`~pecan_microversions.core.
        patching.names_held`).
    :param keep: see :func:`~pecan_microversions.core.patching.
        patched_copy`.
    :raises ~pecan_microversions.core.errors.RequestError: the patch cannot
        be applied, or changes a computed field, or a retyped one whose
        stored value holds more than ``version`` shows (409).
    """
    converted = () if conversion is None else _converted_groups(conversion,
                                                                version)
    names = {n for _, group in converted for n in group}
    plain = tuple(r for r in renames if r[0] not in names)
    view = named_as_shown(document, plain + converted)
    if conversion is not None and converted:
        # Read from the newest name, converted down (not an older copy).
        down = conversion.down(document, version)
        view.update((n, down[n]) for n, _ in converted if n in down)
    result: dict[str, Any] = patched_copy(view, operations, keep)
    judge(view, result)
    names_held(document, view, result, plain, every_name)
    if conversion is not None and converted:
        shown = [n for n, _ in converted]
        newest = {g[0]: document[g[0]] for _, g in converted
                  if g[0] in document}
        merged = conversion.merge(
            newest, {n: view[n] for n in shown if n in view},
            {n: result[n] for n in shown if n in result}, version)
        converted_names_held(document, view, result, converted, merged)
    return result
