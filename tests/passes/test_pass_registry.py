"""The pass registry (the entry-point group `xla_emit.passes`) and the pass modules agree:
one pass per module, named after the pass, registered under its own name; and
`pyproject.toml` publishes what is installed."""

from __future__ import annotations

import importlib
import inspect
import tomllib
from importlib.metadata import entry_points
from pathlib import Path

from xdsl.passes import ModulePass
from xla_emit.passes import BUILT_IN_PASSES, PASS_ENTRY_POINTS, all_passes

ROOT = Path(__file__).resolve().parents[2]
PASSES_DIR = ROOT / "passes"
GROUPS = ("gpu", "tpu", "pto")


def _pass_modules() -> list[str]:
    return sorted(
        f"xla_emit.passes.{group}.{path.stem}"
        for group in GROUPS
        for path in (PASSES_DIR / group).glob("*.py")
        if path.stem != "__init__"
    )


def _passes_defined_in(module_name: str) -> list[type[ModulePass]]:
    module = importlib.import_module(module_name)
    return [
        value
        for value in vars(module).values()
        if inspect.isclass(value)
        and issubclass(value, ModulePass)
        # Defined here (under the name the module was first imported by), not imported.
        and value.__module__ == module.__name__
    ]


def test_each_pass_module_defines_exactly_one_registered_pass() -> None:
    registry = all_passes()
    for module_name in _pass_modules():
        defined = _passes_defined_in(module_name)
        assert len(defined) == 1, (module_name, defined)
        (pass_class,) = defined
        assert registry[pass_class.name]() is pass_class, module_name


def test_each_module_is_named_after_its_pass() -> None:
    for module_name in _pass_modules():
        (pass_class,) = _passes_defined_in(module_name)
        stem = module_name.rsplit(".", 1)[1].replace("_", "-")
        assert pass_class.name.endswith(stem), (module_name, pass_class.name)


def test_every_registered_pass_loads_and_has_its_name() -> None:
    for name, load in all_passes().items():
        assert load().name == name


def test_pyproject_publishes_the_installed_passes() -> None:
    """The published list is the registry: a stale install would hide a pass."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())
    published = table["project"]["entry-points"][PASS_ENTRY_POINTS]
    installed = {point.name: point.value for point in entry_points(group=PASS_ENTRY_POINTS)}
    assert {name: value for name, value in installed.items() if name in published} == published


def test_pyproject_publishes_exactly_the_built_in_passes() -> None:
    """`passes.BUILT_IN_PASSES` (runs read it instead of scanning) is the published list."""
    table = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert table["project"]["entry-points"][PASS_ENTRY_POINTS] == BUILT_IN_PASSES
