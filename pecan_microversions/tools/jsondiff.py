"""What differs between two JSON documents, such as two versions' OpenAPI
documents (:func:`openapi_diff`, also in
:mod:`pecan_microversions.tools.openapi`)."""

from __future__ import annotations

from typing import Any

__all__ = ['openapi_diff']


def openapi_diff(before: Any, after: Any, pointer: str = ''
                 ) -> list[dict[str, Any]]:
    """What differs between two JSON documents, one entry per JSON pointer.

    Each entry is ``{'pointer': ..., 'change': 'added'|'removed'|'changed',
    'before': ..., 'after': ...}`` (only the relevant side for additions and
    removals); a subtree that is on one side only is one entry.  Lists of
    named objects (OpenAPI parameters) are matched by ``name`` and ``in``;
    the pointer holds the index on the side that has the item.
    """
    if isinstance(before, dict) and isinstance(after, dict):
        return _diff_pairs(
            [(f'{pointer}/{_escape(str(k))}', k in before, before.get(k),
              k in after, after.get(k))
             for k in sorted(set(before) | set(after), key=str)])
    if _named(before) and _named(after):
        old = {_name(item): (i, item) for i, item in enumerate(before)}
        new = {_name(item): (i, item) for i, item in enumerate(after)}
        pairs = []
        for key in [*old, *(k for k in new if k not in old)]:
            index = new[key][0] if key in new else old[key][0]
            pairs.append((f'{pointer}/{index}', key in old,
                          old.get(key, (0, None))[1], key in new,
                          new.get(key, (0, None))[1]))
        return _diff_pairs(pairs)
    if before == after:
        return []
    return [{'pointer': pointer or '/', 'change': 'changed',
             'before': before, 'after': after}]


def _diff_pairs(pairs: list[tuple[str, bool, Any, bool, Any]]
                ) -> list[dict[str, Any]]:
    changes: list[dict[str, Any]] = []
    for where, had, old, has, new in pairs:
        if not has:
            changes.append({'pointer': where, 'change': 'removed',
                            'before': old})
        elif not had:
            changes.append({'pointer': where, 'change': 'added',
                            'after': new})
        else:
            changes += openapi_diff(old, new, where)
    return changes


def _named(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and ('name' in item or '$ref' in item)
        for item in value)


def _name(item: dict[str, Any]) -> str:
    return item.get('$ref') or f'{item.get("in")}:{item.get("name")}'


def _escape(key: str) -> str:
    return key.replace('~', '~0').replace('/', '~1')
