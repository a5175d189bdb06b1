"""The former import names `dialects` and `passes`, as aliases of the package's own.

Until every import spells the package's name, `import dialects...` and `import passes...`
give the very modules `xla_emit.dialects...` and `xla_emit.passes...` are: one module per
file whichever name imports it (two copies would hold two classes per op). This module
goes once no import uses the former names.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

from xla_emit.package_layout import SUBPACKAGE_FOLDERS


def alias_former_import_names() -> None:
    """`dialects...` / `passes...` import as `xla_emit.dialects...` / `xla_emit.passes...`.

    A name already imported as a package of its own is left alone, so that a process
    never holds one file twice.
    """
    names = frozenset(name for name in SUBPACKAGE_FOLDERS if name not in sys.modules)
    if names and not any(isinstance(f, _FormerNames) for f in sys.meta_path):
        sys.meta_path.insert(0, _FormerNames(names))


class _FormerNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `dialects.x` as the module `xla_emit.dialects.x` already is."""

    def __init__(self, names: frozenset[str]):
        self.names = names

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in self.names:
            return None
        real_name = f"xla_emit.{fullname}"
        try:
            module = importlib.import_module(real_name)
        except ModuleNotFoundError as error:
            if error.name == real_name:
                return None
            raise
        spec = importlib.util.spec_from_loader(
            fullname, self, is_package=hasattr(module, "__path__")
        )
        assert spec is not None
        spec.loader_state = module
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = spec.loader_state
        assert isinstance(module, ModuleType)
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Already run under its package name."""
