"""Shared helpers of the emitter tests: run emitted kernels and compare with the HLO evaluator.

The reference is `xla_emit.hlo`'s numpy evaluator, which shares no code with
the emitters or the interpreter. Elementwise kernels must match bit for bit
(bf16 and integers included); reductions combine in a different order than
the evaluator's sequential sum, so floats there are compared with a relative
tolerance.
"""

from __future__ import annotations

from collections.abc import Sequence

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp

from xla_emit.emitters import emit_fusion
from xla_emit.emitters.fusion import fused_computation
from xla_emit.emitters.hero import EmitterKind, analyze_fusion
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import Executor


def bits(array: np.ndarray) -> np.ndarray:
    """A view whose equality is bit equality (NaNs included)."""
    array = np.ascontiguousarray(array)
    if array.dtype == ml_dtypes.bfloat16 or array.dtype.kind == "f":
        return array.view(np.dtype(f"u{array.dtype.itemsize}"))
    return array


def assert_same(expected: np.ndarray, actual: np.ndarray, exact: bool, what: str) -> None:
    """Bits equal for integers and 16-bit floats; f32/f64 within a few ulp (the evaluator rounds
    transcendentals from f64, the interpreter computes them in f32); `exact=False` (reductions
    summed in another order) compares floats with a tolerance relative to the largest value."""
    assert expected.shape == actual.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    is_float = expected.dtype.kind == "f" or expected.dtype == ml_dtypes.bfloat16
    if not exact and is_float:
        wide_expected = expected.astype(np.float64)
        scale = max(1.0, float(np.max(np.abs(wide_expected), initial=0.0)))
        tolerance = 1e-2 if expected.dtype in (np.float16, ml_dtypes.bfloat16) else 1e-5
        np.testing.assert_allclose(
            actual.astype(np.float64), wide_expected, rtol=0, atol=tolerance * scale, err_msg=what
        )
        return
    if expected.dtype in (np.float32, np.float64):
        with np.errstate(invalid="ignore"):
            magnitude = np.maximum(np.abs(expected), np.abs(actual))
            # Cancellation after a 1-ulp difference in a transcendental leaves an absolute
            # error of a few ulp of the operands, not of the (small) result.
            scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
            error = np.abs(expected - actual)
            close = (error <= MAX_ULP * np.spacing(magnitude)) | (error <= 1e-6 * scale)
        same = (bits(expected) == bits(actual)) | (np.isnan(expected) & np.isnan(actual)) | close
        bad = np.flatnonzero(~same)
    else:
        bad = np.flatnonzero(bits(expected) != bits(actual))
    assert bad.size == 0, (
        f"{what}: {bad.size} elements differ, first at flat index {bad[0]}: "
        f"{actual.flat[bad[0]]} != {expected.flat[bad[0]]}"
    )


MAX_ULP = 4


def run_fusion(
    module: HloModule, fusion: HloInstruction, operands: Sequence[np.ndarray]
) -> list[np.ndarray]:
    """Emit one fusion's kernel, verify it, and run it in the interpreter.

    MLIR integers are signless: unsigned arrays travel as their signed bit patterns.
    """
    kernel_module = emit_fusion(module, fusion)
    kernel_module.verify()
    signless = [_as_signed(np.asarray(operand)) for operand in operands]
    return Executor(kernel_module).run(signless, entry=entry_name(kernel_module))


def _as_signed(array: np.ndarray) -> np.ndarray:
    if array.dtype.kind == "u":
        return array.view(np.dtype(f"i{array.dtype.itemsize}"))
    return array


def entry_name(kernel_module: ModuleOp) -> str:
    for op in kernel_module.body.block.ops:
        if isinstance(op, FuncOp) and "xla.entry" in op.attributes:
            return op.sym_name.data
    raise AssertionError("no entry function")


def check_module_fusions(module: HloModule, arguments: Sequence[np.ndarray]) -> list[str]:
    """Evaluate the entry computation; run every fusion as a kernel on its real operands.

    Returns `name:kind` of each fusion checked.
    """
    values: dict[HloInstruction, object] = {}
    checked: list[str] = []
    for instruction in module.entry.instructions:
        operands = [values[op] for op in instruction.operands]
        if instruction.opcode == "parameter":
            values[instruction] = arguments[instruction.parameter_number or 0]
            continue
        values[instruction] = evaluate_instruction(instruction, operands)  # pyright: ignore[reportArgumentType]
        if instruction.opcode != "fusion":
            continue
        kind = analyze_fusion(fused_computation(instruction)).kind
        expected = flatten_value(values[instruction])  # pyright: ignore[reportArgumentType]
        actual = run_fusion(module, instruction, [np.asarray(v) for v in operands])
        for position, (want, got) in enumerate(zip(expected, actual, strict=True)):
            exact = kind is not EmitterKind.REDUCTION
            want = np.asarray(want)
            got = np.asarray(got).view(want.dtype) if want.dtype.kind == "u" else np.asarray(got)
            assert_same(want, got, exact, f"{instruction.name} output {position}")
        checked.append(f"{instruction.name}:{kind.value}")
    return checked


def parse(text: str) -> HloModule:
    return parse_hlo_module(text, "<test>")
