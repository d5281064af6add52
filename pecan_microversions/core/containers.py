"""Converters of containers whose items a conversion converts.

:class:`ListOf` and :class:`DictOf` wrap the converter of their items (a
:class:`~pecan_microversions.core.conversion.Conversion`, or another
container) and convert, and merge, lists and dicts of them.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from typing import Any, Optional

from pecan_microversions.core.json_values import same_json
from pecan_microversions.core.representations import Converter
from pecan_microversions.core.version import Version

__all__ = ['DictOf', 'ListOf']


class ListOf:
    """Converts a list whose items ``item`` converts.

    Merging pairs items by position when the edit kept the length (and did
    not only reorder), and otherwise aligns the lists as ``diff`` does:
    unchanged items keep everything, an edited item keeps what the
    version cannot see of the item it replaced, an inserted one is
    converted up.
    """

    def __init__(self, item: Converter) -> None:
        self.item = item

    def down(self, value: Any, version: Version) -> Any:
        if not isinstance(value, list):
            return value
        return [self.item.down(v, version) if v is not None else v
                for v in value]

    def up(self, value: Any, version: Version) -> Any:
        if not isinstance(value, list):
            return value
        return [self.item.up(v, version) if v is not None else v
                for v in value]

    def merge(self, newest: Any, shown: Any, patched: Any,
              version: Version) -> Any:
        if not (isinstance(newest, list) and isinstance(shown, list)
                and isinstance(patched, list) and len(newest) == len(shown)):
            return self.up(patched, version)
        result: list[Any] = []
        before = [_fingerprint(v) for v in shown]
        after = [_fingerprint(v) for v in patched]
        if len(before) == len(after) and sorted(before) != sorted(after):
            opcodes: Sequence[tuple[str, int, int, int, int]] = [
                ('replace', 0, len(before), 0, len(after))]
        else:  # items inserted, removed or moved: align them
            opcodes = difflib.SequenceMatcher(
                None, before, after, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == 'equal':
                result += newest[i1:i2]
                continue
            # Items of a span replaced by one of another length are paired
            # with the item each most resembles (in order), not by position:
            # the edited item keeps its own hidden parts.
            paired = (_paired(shown[i1:i2], patched[j1:j2])
                      if tag == 'replace' and i2 - i1 != j2 - j1
                      and (i2 - i1) * (j2 - j1) <= _MOST_PAIRED else None)
            for offset, item in enumerate(patched[j1:j2]):
                if paired is not None:
                    match = paired[offset]
                    if match is None:
                        result.append(None if item is None
                                      else self.item.up(item, version))
                        continue
                    i = i1 + match
                else:
                    i = i1 + offset
                if before[i:i + 1] == [after[j1 + offset]]:
                    result.append(newest[i])
                elif (tag == 'replace' and i < i2 and item is not None
                        and shown[i] is not None and newest[i] is not None):
                    result.append(self.item.merge(newest[i], shown[i], item,
                                                  version))
                else:
                    result.append(None if item is None
                                  else self.item.up(item, version))
        return result


#: Most item comparisons pairing the items of a replaced span (their
#: number is the product of its two lengths): a larger span, which only a
#: client rewriting much of a long list sends, is paired by position.
_MOST_PAIRED = 10_000


def _paired(shown: list[Any], patched: list[Any]) -> list[Optional[int]]:
    """For each patched item, the index of the shown item it resembles
    most (sharing the most members), after the one paired before it; None
    for an item resembling none (a new one)."""
    pairs: list[Optional[int]] = []
    start = 0
    for item in patched:
        best, score = None, 0
        for index in range(start, len(shown)):
            found = _resemblance(shown[index], item)
            if found > score:
                best, score = index, found
        pairs.append(best)
        if best is not None:
            start = best + 1
    return pairs


def _resemblance(a: Any, b: Any) -> int:
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(1 for k, v in a.items()
                   if k in b and same_json(v, b[k]))
    return int(same_json(a, b))


def _fingerprint(value: Any) -> str:
    """A comparable text of a JSON value (to align two lists)."""
    return json.dumps(value, sort_keys=True, default=repr)


class DictOf:
    """Converts a dict whose values ``item`` converts."""

    def __init__(self, item: Converter) -> None:
        self.item = item

    def down(self, value: Any, version: Version) -> Any:
        if not isinstance(value, dict):
            return value
        return {k: self.item.down(v, version) if v is not None else v
                for k, v in value.items()}

    def up(self, value: Any, version: Version) -> Any:
        if not isinstance(value, dict):
            return value
        return {k: self.item.up(v, version) if v is not None else v
                for k, v in value.items()}

    def merge(self, newest: Any, shown: Any, patched: Any,
              version: Version) -> Any:
        if not (isinstance(newest, dict) and isinstance(shown, dict)
                and isinstance(patched, dict)):
            return self.up(patched, version)
        result = {}
        for key, item in patched.items():
            if key in shown and same_json(shown[key], item):
                result[key] = newest.get(key)
            elif (key in shown and item is not None and shown[key] is not None
                  and newest.get(key) is not None):
                result[key] = self.item.merge(newest[key], shown[key], item,
                                              version)
            else:
                result[key] = None if item is None else self.item.up(item,
                                                                     version)
        return result
