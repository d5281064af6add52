"""What a WSME type's field is at a version, for its JSON Schema: whether
it is computed there (so read-only), and its datatype (or each older
``Retype``'s, with its range, in a combined schema)."""

from __future__ import annotations

from typing import Any, Optional

from pecan_microversions.core.version import Version
from pecan_microversions.tools.schema_parts import clip
from pecan_microversions.wsme.fields import binding_of

__all__ = ['computed_at', 'field_datatypes']

_Range = tuple[Optional[Version], Optional[Version]]


def computed_at(cls: type, name: str, version: Optional[Version],
              bounds: _Range, served: Optional[tuple[Version, Version]]
              ) -> list[bool]:
    """Whether field ``name`` is computed, so read-only, at ``version``
    (one flag) or, without one, at each served version of ``bounds``."""
    binding = binding_of(cls)
    if binding is None:
        return []
    readonly = binding.readonly
    if version is not None:
        return [name in readonly.get(version, ())]  # unknown: refused later
    return [name in readonly[v] for v in binding.registry.versions
            if v.matches(*bounds) and (served is None or v.matches(*served))]


def field_datatypes(cls: type, attr: Any, version: Optional[Version],
               bounds: _Range, served: Optional[tuple[Version, Version]]
               ) -> list[tuple[Any, _Range]]:
    """The datatypes of a field and the range of each: the one at
    ``version``, or (``None``) each served ``Retype``'s and the newest."""
    binding = binding_of(cls)
    if binding is None:
        return [(attr.datatype, bounds)]
    if version is not None:
        return [(binding.datatype_at(attr.name, version), bounds)]
    low, high = bounds
    found: list[tuple[Any, _Range]] = []
    for last, datatype in binding.retyped.get(attr.name, ()):
        end = last if high is None else min(last, high)
        if low is None or low <= end:
            found.append((datatype, (low, end)))
        low = binding.registry.next(last)
        if low is None or (high is not None and low > high):
            break
    else:
        found.append((attr.datatype, (low, high)))
    if served is None:
        return found
    kept = [(d, clip(*b, served)) for d, b in found]
    return [(d, b) for d, b in kept if b is not None]
