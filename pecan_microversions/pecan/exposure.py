"""How Pecan exposes a function: copying it, comparing it, its arguments.

Versioned methods (:mod:`pecan_microversions.pecan.methods`) put one
dispatcher where Pecan expects the exposed method: it must be exposed
exactly like the implementations, which must be exposed alike.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Optional

from pecan_microversions.compat import exposure, set_exposure, when_for

__all__ = ['copy_exposure', 'exposure_summary', 'with_arguments_of']


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


def with_arguments_of(function: Callable[..., Any],
                      call: Callable[..., Any]) -> Optional[Callable[..., Any]]:
    """A new function taking exactly ``function``'s arguments (same names,
    kinds and defaults) and passing them on to ``call``; ``None`` when they
    cannot be written out (positional-only ones).

    Pecan reads the arguments of a method on every request, searching
    through the closures of wrappers that do not start with ``self``; a
    wrapper with the method's own arguments ends that search at once, and an
    outer ``functools.wraps`` wrapper is still routed by its own arguments
    (no ``__signature__`` is copied).
    """
    try:
        parameters = inspect.signature(function,
                                       follow_wrapped=False).parameters
    except (TypeError, ValueError):
        return None
    declared: list[str] = []
    passed: list[str] = []
    defaults: dict[str, Any] = {}
    for parameter in parameters.values():
        name, kind = parameter.name, parameter.kind
        if kind is parameter.POSITIONAL_ONLY or name.startswith('_pmv_'):
            return None
        text = name
        if parameter.default is not parameter.empty:
            defaults[name] = parameter.default
            text = f'{name}=_pmv_defaults[{name!r}]'
        if kind is parameter.VAR_POSITIONAL:
            declared.append(f'*{name}')
            passed.append(f'*{name}')
            continue
        if kind is parameter.VAR_KEYWORD:
            declared.append(f'**{name}')
            passed.append(f'**{name}')
            continue
        if kind is parameter.KEYWORD_ONLY:
            if not any(d.startswith('*') for d in declared):
                declared.append('*')
            passed.append(f'{name}={name}')
        else:
            passed.append(name)
        declared.append(text)
    namespace: dict[str, Any] = {'_pmv_call': call, '_pmv_defaults': defaults}
    exec(f'def {_NAME}({", ".join(declared)}):\n'  # noqa: S102
         f'    return _pmv_call({", ".join(passed)})', namespace)
    return namespace[_NAME]  # type: ignore[no-any-return]


_NAME = '_pmv_with_arguments'
