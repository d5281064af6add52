"""Applying a checked RFC 6902 patch to a copy of a JSON document.

A patch is small, but its ``copy`` operations copy values of the document:
twenty ``copy /tags -> /tags/-`` double the list twenty times, and a
thousand ``copy /a -> /a/b`` nest it a thousand levels deep.  The patched
document is therefore bounded while the patch is applied:

* its ``copy`` operations may copy at most :data:`MAX_COPIED` units in all
  (every JSON value counts one, every string also its length, object keys
  included: about the length of the JSON text), else a 400
  ``microversion.patch_too_large``;
* no value may end up nested more than :data:`MAX_DEPTH` levels of objects
  and arrays deep (or deeper than the document already was), else a 400
  ``microversion.body_too_deep``.

The patched document is then at most the stored one, plus the values the
patch itself carries, plus :data:`MAX_COPIED`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Optional

import jsonpatch
import jsonpointer

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import (
    JSON_CONTAINERS,
    json_copy,
    same_json,
)

__all__ = ['APPLY_ERRORS', 'MAX_COPIED', 'MAX_DEPTH', 'Keep', 'RenameGroups',
           'body_too_deep', 'converted_names_held', 'copy_to_patch',
           'json_copy', 'moves_away', 'names_held', 'named_as_shown',
           'patch_failed', 'patch_in_place', 'patched_copy', 'same_json']

#: Each rename group of a resource at one version: the name the version
#: shows it under, and every name of the group.
RenameGroups = tuple[tuple[str, tuple[str, ...]], ...]

#: Given the path's parts of an ``add`` or ``replace`` onto an object's
#: existing member, the value it replaces and the new one (a copy), the
#: value to put there (see :func:`patched_copy`).
Keep = Callable[[list[str], Any, Any], Any]

#: The most a patch's ``copy`` operations may copy in all (see above).
MAX_COPIED = 100_000
#: The deepest a patch may nest a value (levels of objects and arrays).
MAX_DEPTH = 100
#: What applying a well-formed patch to a document it does not fit raises
#: (a path through a string, ``-`` where no item is, ...): the client's
#: error, a 400 ``microversion.patch_failed``.
APPLY_ERRORS = (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException,
                TypeError, KeyError, IndexError, AttributeError)

_MISSING = object()


def moves_away(operation: Mapping[str, Any]) -> bool:
    """Whether ``operation`` is a ``move`` that removes its ``from``: not
    one onto itself (``from`` equal to ``path``), a no-op (RFC 6902)."""
    return operation.get('op') == 'move' and (
        operation.get('from') != operation.get('path'))


def patch_failed(exc: BaseException) -> RequestError:
    """The 400 for a patch that does not fit the document."""
    return RequestError(f'The patch cannot be applied: {exc}',
                        error_code='microversion.patch_failed')


def body_too_deep(detail: str = 'The JSON body is nested too deeply.'
                  ) -> RequestError:
    """The 400 for JSON nested deeper than the library goes."""
    return RequestError(detail, error_code='microversion.body_too_deep')


def patched_copy(document: Any, operations: list[dict[str, Any]],
                 keep: Optional[Keep] = None) -> Any:
    """Apply ``operations`` (already checked) to a copy of ``document``;
    ``document`` itself is left as it is.

    :param keep: called for each ``add`` or ``replace`` onto an existing
        member of an object (not an array's item, whose place is no
        identity), at its turn in the patch; its result is put there.

    :raises ~pecan_microversions.core.errors.RequestError: the patch cannot
        be applied (a missing path, a failed ``test``, a path through a
        string, ...: ``microversion.patch_failed``), copies more than
        :data:`MAX_COPIED` or nests a value more than :data:`MAX_DEPTH`
        levels deep.
    """
    return patch_in_place(copy_to_patch(document), document, operations,
                          keep)


def copy_to_patch(document: Any) -> Any:
    """A copy of ``document`` for :func:`patch_in_place`.

    :raises ~pecan_microversions.core.errors.RequestError: ``document`` is
        nested too deeply to copy (as :func:`patched_copy` refuses it).
    """
    try:
        return json_copy(document)
    except RecursionError:
        raise _Limits(document).too_deep() from None


def patch_in_place(copied: Any, document: Any,
                   operations: list[dict[str, Any]],
                   keep: Optional[Keep] = None) -> Any:
    """:func:`patched_copy` without the copy: ``copied`` (a copy the caller
    made of ``document``, which bounds the depth) is patched itself, its
    lists and dicts edited where they are (a ``move`` moves the very
    value); return the result (a patch may replace the whole document)."""
    limits = _Limits(document)
    result = copied
    try:
        for operation in operations:
            result = _apply(result, operation, limits, keep)
        if limits.moved_deeper:
            limits.check_depth(0, result)
    except APPLY_ERRORS as exc:
        raise patch_failed(exc) from None
    except RecursionError:
        raise limits.too_deep() from None
    return result


def named_as_shown(document: Mapping[str, Any],
                   groups: RenameGroups) -> dict[str, Any]:
    """A copy of ``document`` holding each renamed field also under the
    name the version shows it under (to apply that version's patch)."""
    view = dict(document)
    for name, group in groups:
        if name not in view:
            held = next((n for n in group if n in document), None)
            if held is not None:
                view[name] = document[held]
    return view


def names_held(document: Mapping[str, Any], view: Mapping[str, Any],
               result: dict[str, Any], groups: RenameGroups,
               every_name: bool = False) -> None:
    """Write the patched ``result`` of ``view`` (see
    :func:`named_as_shown`) back under the names ``document`` holds each
    renamed field under, and no other: a change or removal under the
    version's name is one of the field under all of them.  A field
    ``document`` does not hold yet is written under the version's name, or
    with ``every_name`` under all of them, as a plain-dict schema's checked
    body holds it (a reader of the newest name alone sees it)."""
    for name, group in groups:
        after = result.get(name, _MISSING)
        changed = not same_json(view.get(name, _MISSING), after)
        held = [n for n in group if n in document] or (
            list(group) if every_name else [name])
        for other in group:
            if other in held and changed and after is not _MISSING:
                result[other] = after
            elif other not in held or changed:
                result.pop(other, None)


def converted_names_held(document: Mapping[str, Any],
                         view: Mapping[str, Any], result: dict[str, Any],
                         groups: RenameGroups,
                         newest: Mapping[str, Any]) -> None:
    """Write back, as :func:`names_held` does, fields whose values change
    between versions (``groups``: each group's newest name first): a
    changed one under its newest name in the newest representation
    (``newest``: the change converted up, by newest name), and under an
    older name the version shows where ``document`` holds it there or not
    under the newest name (as a body sent at that version is stored);
    under no other name, whose copy would be stale.  One the patch left
    alone keeps the names and values ``document`` held."""
    for name, group in groups:
        after = result.get(name, _MISSING)
        for other in group:
            result.pop(other, None)
        if same_json(view.get(name, _MISSING), after):
            result.update((k, document[k]) for k in group if k in document)
        elif after is not _MISSING:
            if name != group[0] and (name in document
                                     or group[0] not in document):
                result[name] = after
            if group[0] in newest:
                result[group[0]] = newest[group[0]]


def _apply(document: Any, operation: dict[str, Any], limits: _Limits,
           keep: Optional[Keep]) -> Any:
    name = operation['op']
    if name == 'copy':
        value = _resolve(document, operation['from'])
        limits.charge(value, _length(operation['path']))
        return jsonpatch.AddOperation({
            'op': 'add', 'path': operation['path'],
            'value': json_copy(value)}).apply(document)
    if name == 'test':
        if not same_json(_resolve(document, operation['path']),
                         operation['value'], numbers=True):
            raise jsonpatch.JsonPatchTestFailed(
                f'{operation["path"]!r} is not {operation["value"]!r}')
        return document
    path = operation['path']
    parent = _parent(document, path)
    if name in ('add', 'replace'):
        limits.check_depth(_length(path), operation['value'])
        # the result shares nothing with the patch (nor one value twice)
        value = json_copy(operation['value'])
        # In an object '-' is a member like any other (RFC 6901; jsonpatch
        # before 1.34 refused to replace it).
        if path and parent.__class__ is dict:  # as jsonpatch, less dearly
            key = _parts(path)[-1]
            if key in parent:
                if keep is not None:
                    value = keep(_parts(path), parent[key], value)
            elif name == 'replace':
                raise jsonpatch.JsonPatchConflict(
                    f"can't replace a non-existent object '{key}'")
            parent[key] = value
            return document
        operation = dict(operation, value=value)
    elif name == 'remove' and path and parent.__class__ is dict:
        key = _parts(path)[-1]
        if key not in parent:
            raise jsonpatch.JsonPatchConflict(
                f"can't remove a non-existent object '{key}'")
        del parent[key]
        return document
    elif name == 'move':
        _resolve(document, operation['from'])  # it must exist (RFC 6902)
        if operation['path'] == operation['from']:
            return document  # onto itself: a no-op (RFC 6902)
        if operation['path'].startswith(operation['from'] + '/'):
            # jsonpatch refuses it only inside an object: in an array it
            # would add the value into the item after the one removed.
            raise jsonpatch.JsonPatchConflict(
                'Cannot move values into their own children')
        if _length(operation['path']) > _length(operation['from']):
            limits.moved_deeper = True
    return jsonpatch.JsonPatch.operations[name](operation).apply(document)


def _length(pointer: str) -> int:
    return pointer.count('/')


def _parent(document: Any, pointer: str) -> Any:
    """The object or array holding what ``pointer`` names (None for the
    whole document, which has none); refuse one whose last part is inside
    anything else (jsonpatch would index a string, or fail with a
    TypeError)."""
    if not pointer:
        return None
    parent = _resolve(document, pointer.rpartition('/')[0])
    if not isinstance(parent, (dict, list)):
        raise jsonpatch.JsonPatchConflict(
            f'{pointer!r}: {_parts(pointer)[-1]!r} is inside a '
            f'{_json_type(parent)}, not an object or array')
    return parent


def _parts(pointer: str) -> list[str]:
    if '~' not in pointer and pointer[:1] == '/':
        return pointer[1:].split('/')
    return list(jsonpointer.JsonPointer(pointer).parts)


def _resolve(document: Any, pointer: str) -> Any:
    """The value ``pointer`` names in ``document`` (RFC 6901: through
    objects and arrays only; ``-`` names no item)."""
    value = document
    for part in _parts(pointer) if pointer else ():
        if isinstance(value, dict):
            if part not in value:
                raise jsonpatch.JsonPatchConflict(
                    f'{pointer!r}: no member {part!r}')
            value = value[part]
        elif isinstance(value, list):
            if not (part.isdigit() and part.isascii()
                    and (part == '0' or part[0] != '0')
                    and int(part) < len(value)):
                raise jsonpatch.JsonPatchConflict(
                    f'{pointer!r}: {part!r} names no item of a list of '
                    f'{len(value)}')
            value = value[int(part)]
        else:
            raise jsonpatch.JsonPatchConflict(
                f'{pointer!r}: {part!r} is inside a '
                f'{_json_type(value)}, not an object or array')
    return value


def _json_type(value: Any) -> str:
    return {str: 'string', bool: 'boolean', type(None): 'null', int: 'number',
            float: 'number'}.get(type(value), type(value).__name__)


class _Limits:
    """What a patch has copied, and how deep it may nest values."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self.copied = 0
        self.moved_deeper = False
        self._allowed: Optional[int] = None

    def charge(self, value: Any, landing: int) -> None:
        """Count a copied ``value`` landing ``landing`` levels down."""
        left = MAX_COPIED - self.copied
        size, depth = _measure(value, left)
        self.copied += size
        if size > left:
            raise RequestError(
                f'The patch copies more than {MAX_COPIED:,} units of JSON '
                '(values and string characters) in all; send the values '
                'instead.', error_code='microversion.patch_too_large')
        self._check(landing + depth)

    def check_depth(self, landing: int, value: Any) -> None:
        """Refuse ``value`` landing ``landing`` levels down if too deep."""
        self._check(landing + (_measure(value, None)[1]
                               if isinstance(value, JSON_CONTAINERS) else 0))

    def _check(self, depth: int) -> None:
        if depth > MAX_DEPTH and depth > self._allowed_depth():
            raise self.too_deep()

    def _allowed_depth(self) -> int:
        if self._allowed is None:  # only for a deep patch: rare
            self._allowed = max(MAX_DEPTH, _measure(self.document, None)[1])
        return self._allowed

    def too_deep(self) -> RequestError:
        return body_too_deep(f'The patched document would be nested more '
                             f'than {MAX_DEPTH} levels deep.')


def _measure(value: Any, limit: Optional[int]) -> tuple[int, int]:
    """``value``'s size (values and string characters, keys included;
    counting stops past ``limit``) and depth (levels of objects and
    arrays), level by level, without recursion."""
    size = depth = 0
    level = [value]
    while level:
        below: list[Any] = []
        containers = False
        for item in level:
            size += 1
            if item.__class__ is str:
                size += len(item)
            elif isinstance(item, dict):
                containers = True
                size += sum(len(k) if k.__class__ is str else 1
                            for k in item)
                below.extend(item.values())
            elif isinstance(item, (list, tuple)):
                containers = True
                below.extend(item)
        if limit is not None and size > limit:
            break
        depth += containers
        level = below
    return size, depth
