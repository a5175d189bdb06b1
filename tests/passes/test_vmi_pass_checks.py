"""The VMI IR invariants of PTOAS's VMI passes (`passes/analysis/vmi_pass_checks.py`).

Each kernel is small and its verdict is worked out by hand from the stage's contract:
surface VMI IR (no layouts, `pred` masks) before layout assignment, layouts on every
VMI type after it, channel counts of 2 or 4, VMI types only in values and function
signatures.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.vmi_pass_checks import (
    check_layout_assigned,
    check_producer_boundary,
    check_vmi_passes,
)

from tests.passes.vmi_checks import pass_error, verified_module

SURFACE = "!pto.vmi.vreg<64xf32>"
ASSIGNED = "!pto.vmi.vreg<64xf32, #pto.vmi.layout<contiguous>>"
PRED = "!pto.vmi.mask<64xpred>"
B32 = "!pto.vmi.mask<64xb32, #pto.vmi.layout<contiguous>>"
ROOT = Path(__file__).resolve().parents[2]


def _kernel(args: str, body: str = "", attrs: str = "") -> ModuleOp:
    head = f"module attributes {{{attrs}}} {{" if attrs else "module {"
    return verified_module(f"{head}\nfunc.func @k({args}) {{\n{body}\nreturn\n}}\n}}\n")


def _add(vreg: str) -> str:
    return f"%r = pto.vmi.vadd %a, %a : {vreg}, {vreg} -> {vreg}"


def _merge(channels: int) -> ModuleOp:
    args = ", ".join(f"%c{i}: {SURFACE}" for i in range(channels))
    operands = ", ".join(f"%c{i}" for i in range(channels))
    types = ", ".join([SURFACE] * channels)
    body = (
        f'%m = "pto.vmi.channel_merge"({operands}) : ({types}) '
        f"-> !pto.vmi.vreg<{64 * channels}xf32>"
    )
    return _kernel(args, body)


def test_surface_kernel_passes_the_producer_boundary() -> None:
    check_producer_boundary(_kernel(f"%a: {SURFACE}, %m: {PRED}", _add(SURFACE)))


@pytest.mark.parametrize(
    "args",
    [f"%a: {ASSIGNED}", "%m: !pto.vmi.mask<64xb32>", f"%m: {B32}"],
    ids=["vreg-layout", "mask-granularity", "mask-layout"],
)
def test_producer_boundary_wants_surface_types(args: str) -> None:
    name, message = pass_error(_kernel(args), ["pto-validate-vmi-ir"])
    assert name == "func.func"
    assert message == (
        "VMI-PASS-INVARIANT: VMI producer boundary requires surface !pto.vmi.vreg or "
        "!pto.vmi.mask<Nxpred> type"
    )


def test_producer_boundary_rejects_a_vmi_value_used_by_another_op() -> None:
    cast = f"%c = builtin.unrealized_conversion_cast %a : {SURFACE} to {SURFACE}"
    name, message = pass_error(_kernel(f"%a: {SURFACE}", cast), ["pto-validate-vmi-ir"])
    assert name == "builtin.unrealized_conversion_cast"
    assert message.endswith("VMI typed value is used by a non-VMI semantic op")


@pytest.mark.parametrize(
    "attrs",
    [f"pto.kept = {SURFACE}", f"pto.kept = {{inner = [{ASSIGNED}]}}"],
    ids=["type", "nested"],
)
def test_a_vmi_type_hidden_in_an_attribute_is_rejected(attrs: str) -> None:
    name, message = pass_error(_kernel("", attrs=attrs), ["pto-validate-vmi-ir"])
    assert name == "builtin.module"
    assert message == "VMI-PASS-INVARIANT: VMI type appears in a non-signature attribute"


def test_layout_assigned_ir_passes_its_gate() -> None:
    check_layout_assigned(_kernel(f"%a: {ASSIGNED}, %m: {B32}", _add(ASSIGNED)))


@pytest.mark.parametrize("args", [f"%a: {SURFACE}", f"%m: {PRED}"], ids=["vreg", "mask"])
def test_layout_gate_wants_layouts(args: str) -> None:
    name, message = pass_error(
        _kernel(args), ["vmi-lower-unified-to-legacy", "pto-validate-vmi-layout-ir"]
    )
    assert name == "func.func"
    assert "layout-assigned VMI IR requires !pto.vmi.vreg with layout" in message


def test_layout_assignment_merges_two_or_four_channels() -> None:
    check_vmi_passes(_merge(2), ["vmi-layout-assignment"])
    check_vmi_passes(_merge(4), ["vmi-layout-assignment", "vmi-to-vpto"])
    for flags in (["vmi-layout-assignment"], ["vmi-layout-assignment", "vmi-to-vpto"]):
        name, message = pass_error(_merge(3), flags)
        assert name == "pto.vmi.channel_merge"
        assert message == "VMI-UNSUPPORTED: pto.vmi.channel_merge supports only 2 or 4 channels"


def test_vmi_to_vpto_wants_layouts_unless_assignment_ran_first() -> None:
    kernel = _kernel(f"%a: {SURFACE}", _add(SURFACE))
    name, message = pass_error(kernel, ["vmi-to-vpto"])
    # MLIR walks an op after the ops inside it: the add is met before its function.
    assert (name, message) == (
        "pto.vmi.vadd",
        "VMI-PASS-INVARIANT: vmi-to-vpto requires layout-assigned VMI types",
    )
    assigned = ["vmi-mask-granularity-assignment", "vmi-layout-assignment", "vmi-to-vpto"]
    check_vmi_passes(kernel, ["vmi-lower-unified-to-legacy", *assigned])
    # Without the unified-to-legacy rewrite the unified add reaches -vmi-to-vpto, which
    # has no pattern for it.
    name, message = pass_error(kernel, assigned)
    assert (name, message) == (
        "pto.vmi.vadd",
        "VMI-RESIDUAL-OP: failed to convert all VMI ops/types to VPTO",
    )


def test_vmi_to_vpto_leaves_no_vmi_type_in_an_attribute() -> None:
    _, message = pass_error(_kernel("", attrs=f"pto.kept = {ASSIGNED}"), ["vmi-to-vpto"])
    assert message == "VMI-RESIDUAL-OP: failed to convert all VMI ops/types to VPTO"


def test_vmi_to_vpto_takes_no_vmi_value_through_an_unrealized_cast() -> None:
    cast = f"%c = builtin.unrealized_conversion_cast %i : i32 to {ASSIGNED}"
    name, message = pass_error(_kernel("%i: i32", cast), ["vmi-to-vpto"])
    assert name == "builtin.unrealized_conversion_cast"
    assert message.startswith("VMI-RESIDUAL-OP: unrealized_conversion_cast cannot carry VMI")


def test_checks_stop_at_a_pass_they_do_not_model() -> None:
    # A rewrite before the gate may give the arguments their layouts.
    check_vmi_passes(_kernel(f"%a: {SURFACE}"), ["some-rewrite", "pto-validate-vmi-layout-ir"])


def _survey() -> ModuleType:
    spec = importlib.util.spec_from_file_location("survey_ptoas", ROOT / "tools/survey_ptoas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_survey_runs_the_checks_of_a_run_lines_vmi_passes() -> None:
    survey = _survey()
    command = "not pto-test-opt %s -vmi-layout-assignment -vmi-to-vpto 2>&1 | FileCheck %s"
    (run,) = survey.run_lines(f"// RUN: {command}\n")
    assert run.passes == ("vmi-layout-assignment", "vmi-to-vpto")
    error = survey.first_ptoas_error(_merge(3), run, driver_options=True)
    assert error is not None and "supports only 2 or 4 channels" in error.message
    (plain,) = survey.run_lines("// RUN: pto-test-opt %s -pto-verify-something\n")
    assert plain.passes == ()


@pytest.mark.slow  # two tool runs; the fast tests above cover the rule itself
def test_the_validator_pass_reports_a_located_error(tmp_path: Path) -> None:
    kernel = tmp_path / "kernel.mlir"
    kernel.write_text(f"module {{\n  func.func @k(%a: {ASSIGNED}) {{\n    return\n  }}\n}}\n")
    command = [sys.executable, "-m", "xla_emit.tools.opt", str(kernel), "-p"]
    done = subprocess.run([*command, "pto-validate-vmi-ir"], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{kernel}:2:3: error:" in done.stderr and "producer boundary" in done.stderr
    done = subprocess.run([*command, "pto-validate-vmi-layout-ir"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
