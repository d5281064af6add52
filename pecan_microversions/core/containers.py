"""Converters of containers whose items a conversion converts.

:class:`ListOf` and :class:`DictOf` wrap the converter of their items (a
:class:`~pecan_microversions.core.conversion.Conversion`, or another
container) and convert, and merge, lists and dicts of them.

Merging a write at a version back into the newest value, each item keeps
what the version cannot see of the stored item it is: the one left as it
is, edited member by member or moved (told by the patch's
:class:`~pecan_microversions.core.patch_identity.Identity`), one put
where the version shows the same item (unchanged in place), or a dict's
entry put under its key.  Neither place nor a look-alike tells otherwise
which stored item a new value stands for, so a write that drops a stored
item holding more than the version shows while putting a new item in, or
moves such an item out of its list or dict, is refused
(:class:`ItemNotKept`, a 409), never merged into the wrong item or
rebuilt without its hidden parts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from pecan_microversions.core.errors import RequestError
from pecan_microversions.core.json_values import (
    JSON_CONTAINERS,
    holds_more,
    same_json,
)
from pecan_microversions.core.patch_identity import Identity
from pecan_microversions.core.representations import Converter
from pecan_microversions.core.version import Version

__all__ = ['DictOf', 'ItemNotKept', 'ListOf', 'note_origins']

#: The source of an item a patch moved in from elsewhere in the document.
_ELSEWHERE = object()


class ItemNotKept(RequestError):
    """A 409: a write at ``version`` would lose what the version cannot see
    of a stored list item or dict entry (``where``: ``[1]``, ``[key]``,
    ``[1].ports[0]``, after the name of the field holding it)."""

    def __init__(self, where: str, version: Version,
                 resource: str = '') -> None:
        self.where = where
        self.version = version
        self.resource = resource
        of = f' of {resource}' if resource else ''
        super().__init__(
            f'Field {where!r}{of} holds more than version {version} shows, '
            'which this change would lose: at that version an item keeps '
            'it only when left as it is, edited member by member, moved '
            'within its list or dict, or removed.  Change it at a later '
            'version, which shows all of it.', status=409,
            error_code='microversion.partly_hidden_value')

    def within(self, label: str, resource: str = '') -> ItemNotKept:
        """This refusal, for the item inside ``label`` (a field's name, or
        ``[key]``) of ``resource`` (default: the one named so far)."""
        joint = '' if self.where.startswith('[') else '.'
        return ItemNotKept(label + joint + self.where, self.version,
                           resource or self.resource)


class ListOf:
    """Converts a list whose items ``item`` converts (see the module
    docstring for how a write keeps each item's hidden parts)."""

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

    def merge(self, newest: Any, shown: Any, patched: Any, version: Version,
              identity: Optional[Identity] = None) -> Any:
        if not (isinstance(newest, list) and isinstance(shown, list)
                and isinstance(patched, list) and len(newest) == len(shown)):
            return self.up(patched, version)
        sources = _sources(identity, enumerate(shown), list(
            enumerate(patched)))
        used = set(sources.values())
        for j, item in enumerate(patched):  # unchanged in place
            if (sources[j] is None and j < len(shown) and j not in used
                    and same_json(shown[j], item)):
                sources[j] = j
                used.add(j)
        return _merged(self.item, newest, shown, patched, sources, version,
                       identity, range(len(shown)))


class DictOf:
    """Converts a dict whose values ``item`` converts; an entry put under
    a key keeps the hidden parts of the entry it replaces."""

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

    def merge(self, newest: Any, shown: Any, patched: Any, version: Version,
              identity: Optional[Identity] = None) -> Any:
        if not (isinstance(newest, dict) and isinstance(shown, dict)
                and isinstance(patched, dict)):
            return self.up(patched, version)
        sources = _sources(identity, shown.items(), list(patched.items()))
        used = set(sources.values())
        for key in patched:  # the entry it replaces under its key
            if (sources[key] is None and key in shown and key in newest
                    and key not in used):
                sources[key] = key
                used.add(key)
        return dict(_merged(self.item, newest, shown, patched, sources,
                            version, identity, list(shown)))


def note_origins(converter: Any, newest: Any, shown: Any, version: Version,
                 origins: dict[int, tuple[Any, Any]]) -> None:
    """Note in ``origins`` the newest item each list item or dict entry of
    ``shown`` (``newest`` converted down by ``converter``: a container or
    a :class:`~pecan_microversions.core.conversion.Conversion`) shows, and
    its converter, nested ones included."""
    if newest is None or shown is None:
        return
    if isinstance(converter, ListOf):
        if not (isinstance(newest, list) and isinstance(shown, list)
                and len(newest) == len(shown)):
            return
        pairs: Iterable[tuple[Any, Any]] = zip(newest, shown, strict=True)
    elif isinstance(converter, DictOf):
        if not (isinstance(newest, dict) and isinstance(shown, dict)):
            return
        pairs = ((newest[k], v) for k, v in shown.items() if k in newest)
    else:
        plan = getattr(converter, 'plan', None)
        if plan is not None and isinstance(newest, dict) and isinstance(
                shown, dict):  # a Conversion: its nested fields
            for step in plan(version):
                if step.nested is not None and step.key in shown:
                    note_origins(step.nested, newest.get(step.name),
                                 shown[step.key], version, origins)
        return
    for stored, item in pairs:
        if item.__class__ in JSON_CONTAINERS:
            origins[id(item)] = (stored, converter.item)
        note_origins(converter.item, stored, item, version, origins)


def _sources(identity: Optional[Identity], stored: Iterable[tuple[Any, Any]],
             patched: list[tuple[Any, Any]]) -> dict[Any, Any]:
    """For each place of ``patched``, the place of the stored item (as
    shown) it is by ``identity`` (a moved or edited one), :data:`_ELSEWHERE`
    for one moved in from outside the list or dict, or None for one the
    patch built; one stored item is the source of one place at most."""
    if identity is None:
        return {place: None for place, _ in patched}
    place_of = {id(v): p for p, v in stored if v.__class__ in JSON_CONTAINERS}
    found: dict[Any, Any] = {}
    taken = set()
    for place, item in patched:
        source = identity.source(item)
        at = None if source is None else place_of.get(id(source))
        if at is not None and at not in taken:
            taken.add(at)
            found[place] = at
        else:
            found[place] = None if source is None else _ELSEWHERE
    return found


def _merged(item_converter: Converter, newest: Any, shown: Any, patched: Any,
            sources: dict[Any, Any], version: Version,
            identity: Optional[Identity], stored: Iterable[Any]) -> Any:
    """The merged items of a list (a list) or dict (key, value pairs):
    each patched item with a source keeps its hidden parts, the others are
    converted up; a dropped stored item whose hidden parts a new item may
    have been meant to keep, or that moved elsewhere, is refused."""
    is_list = isinstance(patched, list)
    result: list[Any] = []
    new = False
    for place, item in (enumerate(patched) if is_list else patched.items()):
        at = sources[place]
        if at is _ELSEWHERE and identity.loses(  # type: ignore[union-attr]
                item, version):
            # moved in from another list or dict: refused if it holds more,
            # even where that one is dropped (and so never merged)
            raise ItemNotKept(f'[{place}]', version)
        if at is None or at is _ELSEWHERE:
            new = new or item is not None
            value = None if item is None else item_converter.up(item, version)
        elif same_json(shown[at], item):
            value = newest[at]
        elif item is None or shown[at] is None or newest[at] is None:
            value = None if item is None else item_converter.up(item, version)
        else:
            try:
                value = item_converter.merge(newest[at], shown[at], item,
                                             version, identity)
            except ItemNotKept as exc:
                raise exc.within(f'[{place}]') from None
        result.append(value if is_list else (place, value))
    used = set(sources.values())
    for at in stored:
        if at in used or newest[at] is None or shown[at] is None:
            continue
        if (new or (identity is not None and identity.kept(shown[at]))) and (
                holds_more(newest[at], item_converter.up(shown[at], version))):
            raise ItemNotKept(f'[{at}]', version)
    return result
