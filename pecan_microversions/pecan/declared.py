"""Where a versioned method is declared, and its ranges in words.

The words of the errors :mod:`pecan_microversions.pecan.methods` raises at
import, which name the function, its file and line, and the ranges at odds.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Optional

from pecan_microversions.core.version import Version, VersionRange

__all__ = ['controller_path', 'describe_ranges', 'where']


def describe_ranges(ranges: Sequence[tuple[Version, Optional[Version]]]
                    ) -> str:
    """``ranges`` as text: ``1.1 to 1.2, 1.4 and later``."""
    return ', '.join(VersionRange(low, high).short() for low, high in ranges)


def where(function: Callable[..., Any]) -> str:
    """``function``'s qualified name, with its file and first line."""
    name = getattr(function, '__qualname__', None) or repr(function)
    code = getattr(inspect.unwrap(function), '__code__', None)
    if code is None:
        return name
    return f'{name} ({code.co_filename}:{code.co_firstlineno})'


def controller_path(function: Callable[..., Any]) -> str:
    """The dotted path of the class defining ``function``."""
    qualname = getattr(function, '__qualname__', function.__name__)
    owner = qualname.rpartition('.')[0] or qualname
    return f'{function.__module__}.{owner}'
