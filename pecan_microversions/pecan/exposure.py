"""How Pecan exposes a function: copying it, comparing it, its arguments.

Versioned methods (:mod:`pecan_microversions.pecan.methods`) put one
dispatcher where Pecan expects the exposed method: it must be exposed
exactly like the implementations, which must be exposed alike.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from pecan_microversions.compat import exposure, set_exposure, when_for

__all__ = ['copy_exposure', 'exposure_summary', 'takes_anything']


def takes_anything(function: Callable[..., Any]) -> bool:
    """Whether ``function``'s own arguments are ``(self, *args, **kwargs)``
    (as ``wsexpose`` wrappers' are)."""
    try:
        spec = inspect.getfullargspec(function)
    except TypeError:
        return False
    return (spec.args == ['self'] and spec.varargs is not None
            and spec.varkw is not None)


def copy_exposure(source: Callable[..., Any], target: Any) -> None:
    """Make ``target`` exposed exactly like ``source`` (possibly not at all)."""
    config = exposure(source) or None
    if config is not None:
        copied = dict(config)
        for key in ('content_types', 'generic_handlers'):
            if key in copied:
                copied[key] = dict(copied[key])
        for key in ('template', 'allowed_methods'):
            if key in copied:
                copied[key] = list(copied[key])
        if copied.get('generic'):
            # The dispatcher is the generic controller: its default handler,
            # and the target of its ``when``.
            copied['generic_handlers']['DEFAULT'] = target
            target.when = when_for(target)
        set_exposure(target, copied)
    if getattr(source, 'exposed', False):
        target.exposed = True
    if getattr(source, 'custom_route', None) is not None:
        target.custom_route = source.custom_route  # type: ignore[attr-defined]


def exposure_summary(function: Callable[..., Any]) -> dict[str, Any]:
    """What must be alike for two functions Pecan routes as one."""
    config = exposure(function)
    spec = config.get('argspec') or inspect.getfullargspec(function)
    return {
        'exposed': bool(getattr(function, 'exposed', False)),
        'template': config.get('template'),
        'content types': config.get('content_types'),
        'content type': config.get('content_type'),
        'generic': bool(config.get('generic')),
        'route': getattr(function, 'custom_route', None),
        'arguments': tuple(spec[:4]),
        'parameters': [
            (p.name, p.kind, p.default) for p in inspect.signature(
                function, follow_wrapped=False).parameters.values()],
    }
