"""PTOAS's rules of `pto.ld_dev` / `pto.st_dev` on our own small kernels: the op
verifier's (`dialects/pto/dev_access_rules.py`, from `lib/PTO/IR/VPTO.cpp`) and the
VPTO LLVM emitter's target and CANN-version rule
(`passes/analysis/vpto_emission_checks.py`). Each kernel verifies, and the same kernel
with one thing changed fails with PTOAS's message."""

from __future__ import annotations

import re

import pytest
from xla_emit.passes.analysis.ptoas_backend_checks import DriverOptions, check_backend
from xla_emit.passes.diagnostics import OpError

from tests.pto.kernel_checks import check_rule, verify_kernel

LOAD = "%v = pto.ld_dev %g[%c0] : !pto.ptr<i32, gm> -> i32"
STORE = "pto.st_dev %x, %g[%c0] : !pto.ptr<i32, gm>, i32"


def kernel(line: str, attrs: str = "{pto.aicore}", target: str = "a5") -> str:
    return f"""module attributes {{pto.target_arch = "{target}"}} {{
  func.func @k(%g: !pto.ptr<i32, gm>, %u: !pto.ptr<i32, ub>, %x: i32, %h: !pto.ptr<i16, gm>) \
attributes {attrs} {{
    %c0 = arith.constant 0 : index
    {line}
    return
  }}
}}
"""


def _verify(text: str) -> None:
    verify_kernel(text)


CASES = [
    (kernel(LOAD), kernel(LOAD.replace("-> i32", "-> i16")), "expects ld_dev value type to match"),
    (kernel(STORE), kernel(STORE.replace("%g", "%u").replace("i32, gm", "i32, ub")),
     "'pto.st_dev' op requires GM pointer"),
    (kernel(LOAD), kernel(LOAD.replace("[%c0]", "[%c0] {l2cache = 1 : i32}")),
     "does not accept l1cache or l2cache policy attributes"),
    (kernel(STORE), kernel(STORE, attrs="{pto.simt_entry}"),
     "must be outside pto.simt_entry functions and pto.section.simt"),
    (kernel(LOAD), kernel(f"pto.section.simt<<<32, 1, 1>>> {{\n      {LOAD}\n    }}"),
     "must be outside pto.simt_entry functions and pto.section.simt"),
    (kernel(LOAD), kernel(LOAD, attrs="{pto.other}"),
     "'pto.ld_dev' op requires an enclosing ordinary AICore entry function"),
]  # fmt: skip


@pytest.mark.parametrize(("valid", "invalid", "message"), CASES)
def test_dev_access_rule(valid: str, invalid: str, message: str) -> None:
    error = check_rule(_verify, valid, invalid, message)
    assert error.format().startswith("k.mlir:")


def test_only_8_to_64_bit_integers() -> None:
    f32 = kernel("%v = pto.ld_dev %f[%c0] : !pto.ptr<f32, gm> -> f32").replace(
        "%h: !pto.ptr<i16, gm>", "%f: !pto.ptr<f32, gm>"
    )
    check_rule(_verify, kernel(LOAD), f32, "supports only i8, i16, i32 or i64 values")


def emission(text: str, *words: str) -> None:
    module = verify_kernel(text)
    check_backend(module, DriverOptions.from_words(["--pto-backend=vpto", *words]))


def test_only_a5_with_cann_9_lowers_them_to_llvm() -> None:
    emission(kernel(LOAD), "--pto-arch=a5", "--cann-output-version=9.0.0", "--emit-vpto-llvm-ir")
    emission(kernel(LOAD), "--pto-arch=a5", "--cann-output-version=9.1.0")
    with pytest.raises(OpError, match=re.escape("require CANN 9.0.0 or newer official lowering")):
        emission(kernel(LOAD), "--pto-arch", "a5", "--cann-output-version=9.0.0-beta.2")
    with pytest.raises(OpError, match=re.escape("pto.ld_dev and pto.st_dev require --pto-arch=a5")):
        emission(kernel(STORE), "--pto-arch=a3", "--cann-output-version=9.0.0")
    # Without --pto-arch, the module's target counts (PTOAS's default A3 without one).
    with pytest.raises(OpError, match="require --pto-arch=a5"):
        emission(kernel(STORE, target="a2a3"), "--cann-output-version=9.0.0")


def test_printing_ir_emits_no_llvm() -> None:
    emission(kernel(LOAD), "--pto-arch=a3", "--emit-vpto")
    emission(kernel(LOAD), "--pto-arch=a5", "--cann-output-version=9.0.0-beta.1", "--emit-vpto")


def test_llvm_ir_text_keeps_the_drivers_default_cann_version() -> None:
    """`--emit-vpto-llvm-ir` builds no object, so the driver reads no toolchain version
    and lowers for its default 9.0.0-beta.1, which has no ld_dev lowering."""
    with pytest.raises(OpError, match=re.escape("require CANN 9.0.0 or newer")):
        emission(kernel(LOAD), "--pto-arch=a5", "--emit-vpto-llvm-ir")
    emission(kernel(LOAD), "--pto-arch=a5")  # an object: the installed CANN decides
