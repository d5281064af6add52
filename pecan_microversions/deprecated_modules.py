"""The flat module paths of release 0.x, kept importable for one release.

``import pecan_microversions.fields`` (and the others below) still works and
gives the module's new home, with a :class:`DeprecationWarning` naming it.
Installed by the package's ``__init__``; nothing else uses it.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Optional, Union

__all__ = ['MOVED', 'install']

#: Old module path -> new module path (or paths, whose public names the
#: old path then gathers).
MOVED: dict[str, Union[str, tuple[str, ...]]] = {
    'pecan_microversions.version': 'pecan_microversions.core.version',
    'pecan_microversions.registry': 'pecan_microversions.core.registry',
    'pecan_microversions.negotiation': 'pecan_microversions.core.negotiation',
    'pecan_microversions.deprecation': 'pecan_microversions.core.deprecation',
    'pecan_microversions.fields': 'pecan_microversions.wsme.fields',
    'pecan_microversions.filtering': 'pecan_microversions.wsme.filtering',
    'pecan_microversions.validation': ('pecan_microversions.wsme.checking',
                                       'pecan_microversions.wsme.patching'),
    'pecan_microversions.hook': 'pecan_microversions.pecan.hook',
    'pecan_microversions.request': 'pecan_microversions.pecan.request',
    'pecan_microversions.expose': 'pecan_microversions.pecan.expose',
    'pecan_microversions.params': 'pecan_microversions.pecan.params',
    'pecan_microversions.methods': 'pecan_microversions.pecan.methods',
    'pecan_microversions.discovery': 'pecan_microversions.pecan.discovery',
    'pecan_microversions.config': 'pecan_microversions.pecan.config',
    'pecan_microversions.errors': 'pecan_microversions.pecan.errors',
    'pecan_microversions.history': 'pecan_microversions.tools.history',
    'pecan_microversions.cli': 'pecan_microversions.tools.cli',
    'pecan_microversions.sphinxext': 'pecan_microversions.tools.sphinxext',
    'pecan_microversions.testing': 'pecan_microversions.tools.testing',
}


class _Alias(importlib.abc.Loader):
    def __init__(self, new: Union[str, tuple[str, ...]]) -> None:
        self.new = new

    def create_module(self, spec: Any) -> ModuleType:
        names = (self.new,) if isinstance(self.new, str) else self.new
        warnings.warn(f'{spec.name} has moved to {" and ".join(names)}; '
                      'the old path will be removed in the next release.',
                      DeprecationWarning, stacklevel=2)
        modules = [importlib.import_module(name) for name in names]
        if len(modules) == 1:
            module = modules[0]
        else:
            module = ModuleType(spec.name, modules[0].__doc__)
            for part in modules:
                for name in getattr(part, '__all__', ()):
                    setattr(module, name, getattr(part, name))
        sys.modules[spec.name] = module
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the new module is already imported."""


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname: str, path: Optional[Sequence[str]],
                  target: Optional[ModuleType] = None
                  ) -> Optional[importlib.machinery.ModuleSpec]:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))


def install() -> None:
    """Make the old paths importable (idempotent)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
