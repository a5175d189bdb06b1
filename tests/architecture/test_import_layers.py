"""The layers import one way, down: a module never imports a layer above its own.

    tools (and api, universe) > runtime > interpreter > emitters > passes > dialects > ir

and under all of them the libraries `hlo`, `indexing`, `layout`, `pto`, `jax`,
`progress` and `diagnostics`, which import no IR layer at all (nor xDSL). Every import
statement counts, including those inside functions and under
`TYPE_CHECKING`: a deferred import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("xla_emit", "dialects", "passes")

IR_LAYERS = ("ir", "dialects", "passes", "emitters", "interpreter", "runtime", "tools")
LIBRARIES = (
    "hlo",
    "indexing",
    "layout",
    "pto",
    "diagnostics",
    "limits",
    "progress",
    "jax",
    "package_layout",
)
# Modules at the top of `xla_emit` that sit in a layer: the Python API and the xDSL plugin with
# the tools, the tools' start-up measures for xDSL's class definitions with the front end.
TOP_LEVEL = {"api": "tools", "universe": "tools", "__init__": "tools", "startup": "ir"}


def layer_of(module: str) -> str | None:
    """The layer a dotted module name belongs to, or None outside the project."""
    parts = module.split(".")
    if parts[0] in ("dialects", "passes"):
        return parts[0]
    if parts[0] != "xla_emit":
        return None
    if len(parts) == 1:
        return "tools"
    return TOP_LEVEL.get(parts[1], parts[1])


def allowed(source: str, target: str) -> bool:
    if source in LIBRARIES:
        return target in LIBRARIES
    if target in LIBRARIES:
        return True
    return IR_LAYERS.index(target) <= IR_LAYERS.index(source)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    imports: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imports += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imports.append((node.lineno, node.module))
    return imports


def product_files() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def layering_violations(path: Path) -> list[str]:
    source = layer_of(module_name(path))
    assert source is not None
    found: list[str] = []
    for line, module in imported_modules(path):
        if source in LIBRARIES and module.split(".")[0] == "xdsl":
            found.append(f"{path.relative_to(ROOT)}:{line}: library '{source}' imports {module}")
            continue
        target = layer_of(module)
        if target is not None and not allowed(source, target):
            where = f"{path.relative_to(ROOT)}:{line}"
            found.append(f"{where}: '{source}' imports {module} ('{target}' is above)")
    return found


@pytest.mark.parametrize("path", product_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_go_down_the_layers(path: Path) -> None:
    assert layering_violations(path) == []


def test_the_rule_catches_an_upward_import() -> None:
    # The checker itself must be able to fail: a pass importing the runtime is caught.
    assert not allowed("passes", "runtime")
    assert not allowed("ir", "dialects")
    assert not allowed("hlo", "ir")
    assert allowed("tools", "ir")
    assert allowed("dialects", "indexing")
    assert layer_of("xla_emit.api") == "tools"
    assert layer_of("xla_emit.passes.gpu.inline") == "passes"
