"""Which lists and objects of a patched document are those it was patched
from.

A patch written against what a version shows edits list items and dict
entries where they are, moves them, removes them, or puts new values in
their place.  Written back to the newest document, each item must keep
what the version cannot see of the stored item it *is*: the one a ``move``
carried, or an ``add ... /parts/1/label`` edited, not the one that
happens to sit at its index or to look like it at the version.
:func:`tracked_patch` applies a patch to a copy and tells, for each list or
object of the result, the value of the original it was copied from
(:class:`Identity`); one a patch built (an ``add`` or ``replace`` value, a
``copy``) comes from none.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Optional

from pecan_microversions.core.checking import touched_fields
from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import JSON_CONTAINERS, holds_more
from pecan_microversions.core.patching import Keep, copy_to_patch, patch_in_place
from pecan_microversions.core.version import Version

__all__ = ['Identity', 'tracked_patch']


class Identity:
    """The lists and objects of a patched copy that are those of the
    original, each the very object the copy made (see module docstring)."""

    def __init__(self, pairs: dict[int, tuple[Any, Any]],
                 result: Any) -> None:
        # id of each copy -> (the copy, its original); the copies are held
        # here, so no new value of the result can reuse their ids.
        self._pairs = pairs
        self._copy_of = {id(original): copy for copy, original
                         in pairs.values()}
        self._result = result
        self._alive: Optional[set[int]] = None
        #: id of a list item or dict entry of the original -> the newest
        #: value it shows and the converter of such items (noted by
        #: whoever converted it down)
        self.origins: dict[int, tuple[Any, Any]] = {}

    def source(self, value: Any) -> Any:
        """The original list or object ``value`` (of the result) is the
        copy of, or None: a value the patch built, or a scalar."""
        pair = self._pairs.get(id(value))
        return pair[1] if pair is not None and pair[0] is value else None

    def loses(self, value: Any, version: Version) -> bool:
        """Whether ``value`` (of the result) is, or holds, an item noted in
        :attr:`origins` whose newest value holds more than ``version``
        shows: moved there, it would lose that."""
        if not self.origins:
            return False
        stack = [value]
        while stack:
            value = stack.pop()
            if value.__class__ not in JSON_CONTAINERS:
                continue
            source = self.source(value)
            noted = None if source is None else self.origins.get(id(source))
            if noted is not None and holds_more(
                    noted[0], noted[1].up(source, version)):
                return True
            stack.extend(value.values() if value.__class__ is dict
                         else value)
        return False

    def kept(self, original: Any) -> bool:
        """Whether the copy of ``original`` (a list or object of the
        original document) is still somewhere in the result."""
        copy = self._copy_of.get(id(original))
        if copy is None:
            return False
        if self._alive is None:
            self._alive = _containers(self._result)
        return id(copy) in self._alive


def tracked_patch(document: Any, operations: list[dict[str, Any]],
                  keep: Optional[Keep] = None, *,
                  touched: Optional[Collection[str]] = None
                  ) -> tuple[Any, Identity]:
    """:func:`~pecan_microversions.core.patching.patched_copy` of
    ``document``, and the :class:`Identity` of the result's lists and
    objects.

    Of an object document, only the members the patch may change (where
    its paths, and a ``move``'s source, start) are copied: the result
    shares the others with ``document``, unchanged (a ``copy`` copies
    what it reads), and their lists and objects are no copies of it.
    ``touched``: those members, where the caller has them already
    (:func:`~pecan_microversions.core.checking.touched_fields` of the
    same ``operations``)."""
    pairs: dict[int, tuple[Any, Any]] = {}
    if document.__class__ is not dict:
        touched = None
    elif touched is None:
        try:
            touched = touched_fields(operations)
        except RequestError:  # a pointer to the whole document, or none
            pass
    if touched is None:
        copied = copy_to_patch(document)
        stack = [(copied, document)]
    else:
        copied = dict(document)
        pairs[id(copied)] = (copied, document)
        stack = []
        for key in touched:
            if key in document:
                copied[key] = copy_to_patch(document[key])
                stack.append((copied[key], document[key]))
    while stack:
        copy, original = stack.pop()
        if copy.__class__ not in JSON_CONTAINERS:
            continue
        pairs[id(copy)] = (copy, original)
        stack.extend(zip(copy.values(), original.values(), strict=True)
                     if copy.__class__ is dict
                     else zip(copy, original, strict=True))
    result = patch_in_place(copied, document, operations, keep)
    return result, Identity(pairs, result)


def _containers(value: Any) -> set[int]:
    """The ids of every list and object in ``value``, itself included."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if item.__class__ in JSON_CONTAINERS and id(item) not in found:
            found.add(id(item))
            stack.extend(item.values() if item.__class__ is dict else item)
    return found
