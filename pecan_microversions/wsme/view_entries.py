"""What a compiled view writes, attribute by attribute.

:mod:`pecan_microversions.wsme.views` decides, per (type, version), what
each attribute of a WSME type becomes: a :class:`Read` or a
:class:`Compute` entry, in the order the JSON shows them.  The views of
plain values (:func:`plain_list`, :func:`plain_dict`, :func:`isoformat`)
are here too: the generated code recognises and inlines them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Optional, Union

__all__ = ['Compute', 'Entry', 'Read', 'View', 'isoformat', 'plain_dict',
           'plain_list']

#: A compiled view: value -> JSON-ready data.
View = Callable[[Any], Any]


class Read(NamedTuple):
    """One attribute read from the value, and written as ``shown_as``."""

    name: str                       # public name: a dict's key
    key: str                        # Python key: an object's attribute
    default: Any                    # an object's value when unset
    described: bool                 # read through the descriptor
    others: tuple[tuple[str, str], ...] = ()  # (key, name) tried if unset
    shown_as: Optional[str] = None  # written under; None: only read
    convert: Optional[View] = None  # the value's view (None: as it is)
    down: tuple[Callable[[Any], Any], ...] = ()  # then, if not None
    newest: Optional[View] = None   # its newest JSON, for computing
    computed_from: bool = False     # a computed field reads it


class Compute(NamedTuple):
    """A field computed from the newest JSON of the value: of the
    attributes read for computing, or only ``reads`` of them."""

    name: str
    compute: Callable[[Mapping[str, Any]], Any]
    reads: Optional[tuple[str, ...]] = None


Entry = Union[Read, Compute]


def plain_list(value: Any) -> Any:
    """The view of a list of plain values: shared when it is a list
    (``json.dumps`` writes it as WSME's copy)."""
    return value if value is None or value.__class__ is list else list(value)


def plain_dict(value: Any) -> Any:
    """The view of a dict of plain values: shared when it is a dict."""
    return value if value is None or value.__class__ is dict else dict(value)


def isoformat(value: Any) -> Any:
    """The view of a date, a time or a datetime."""
    return None if value is None else value.isoformat()
