"""XLA's own kernels, as it dumps them, run in the interpreter and give XLA's results.

For every fusion of the corpus of today's XLA (`tests/corpus/gpu`), the GPU
emitter's output (the first snapshot of its pass log) and XLA:CPU's emitter IR
run on the fusion's operands. A fusion whose result the program returns is
compared with XLA's outputs; one feeding another fusion is compared with the
numpy HLO evaluator's value of it (the evaluator shares no code with the
interpreter, and its outputs equal XLA's: `tests/hlo`). bf16 and integer
results must be equal bit for bit, f32 within 4 ulp. Our own emitters and
passes, given XLA:GPU's optimized module, must give the same outputs.
"""

from __future__ import annotations

import lzma
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from xla_emit.emitters import emit_fusion
from xla_emit.hlo import parse_hlo_module
from xla_emit.hlo.evaluator import evaluate_instruction, flatten_value
from xla_emit.hlo.npz import from_storable, load_arrays, read_inputs
from xla_emit.hlo.shape import TupleShape
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import read_pass_log
from xla_emit.ir.verify import verify_module
from xla_emit.runtime import KernelCache, ModuleRuntime
from xla_emit.runtime.pipeline import apply_pipeline

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
GPU_LOGS = sorted(CORPUS.glob("*/gpu/*.mlir-passes.log.xz"))
CPU_KERNELS = sorted(CORPUS.glob("*/cpu/*.mlir.xz"))
F32_ULPS = 4


def kernel_name(fusion: str) -> str:
    """XLA names a fusion's kernel after it, `.` becoming `_` (`input_reduce_fusion_1`)."""
    return fusion.replace(".", "_")


@cache
def fusion_values(program: Path, hlo_name: str) -> dict[str, tuple[list, list, list | None]]:
    """Per fusion: its operand values, the evaluator's result, XLA's result (if returned)."""
    module = parse_hlo_module((program / hlo_name).read_text(), str(program / hlo_name))
    entry = module.entry
    inputs = read_inputs(str(program / "inputs.npz"), entry)
    root = entry.root
    returned = list(root.operands) if root.opcode == "tuple" else [root]
    stored = load_arrays(str(program / "outputs.npz"), "outputs")
    shapes = root.shape.elements if isinstance(root.shape, TupleShape) else [root.shape]
    outputs = [
        from_storable(stored[f"out{n}"], shape, f"out{n}")  # pyright: ignore[reportArgumentType]
        for n, shape in enumerate(shapes)
    ]
    values: dict[object, object] = {}
    found: dict[str, tuple[list, list, list | None]] = {}
    for instruction in entry.instructions:
        operands = [values[o] for o in instruction.operands]
        if instruction.opcode == "parameter":
            values[instruction] = inputs[instruction.parameter_number or 0]
            continue
        values[instruction] = evaluate_instruction(instruction, operands)
        if instruction.opcode == "fusion":
            xla = None
            if root is instruction:
                xla = outputs
            elif instruction in returned:
                xla = [outputs[returned.index(instruction)]]
            found[kernel_name(instruction.name)] = (
                operands,
                flatten_value(values[instruction]),
                xla,
            )
    return found


def assert_matches(ours: np.ndarray, expected: np.ndarray, what: str) -> None:
    expected = np.asarray(expected)
    assert ours.shape == expected.shape, what
    if expected.dtype == np.float32:
        # A few ulp per element; where a result cancels (x - mean, sums of mixed
        # signs) a few ulp of the largest result, since XLA's transcendental
        # approximations and summation order differ from numpy's by an ulp or so.
        ulps = np.abs(ours.view(np.int32).astype(np.int64) - expected.view(np.int32))
        scale = F32_ULPS * np.spacing(np.float32(np.max(np.abs(expected), initial=0)))
        close = (ulps <= F32_ULPS) | (np.abs(ours - expected) <= scale) | (ours == expected)
        assert close.all(), f"{what}: {int((~close).sum())} elements differ beyond {F32_ULPS} ulp"
    else:
        as_bits = ours.view(np.uint16) if ours.dtype.itemsize == 2 else ours
        expected_bits = expected.view(np.uint16) if expected.dtype.itemsize == 2 else expected
        mismatches = int(np.count_nonzero(as_bits != expected_bits))
        assert mismatches == 0, f"{what}: {mismatches} elements differ"


def run_and_compare(
    text: str, name: str, program: Path, hlo_name: str, fusion: str, passes: str = ""
) -> None:
    module, source_map = parse_mlir(text, name)
    verify_module(module, source_map)
    apply_pipeline(module, passes, source_map=source_map)
    operands, evaluated, xla = fusion_values(program, hlo_name)[fusion]
    results = Executor(module, locator=source_map).run(operands)
    expected = xla if xla is not None else evaluated
    assert len(results) == len(expected)
    for number, (ours, theirs) in enumerate(zip(results, expected, strict=True)):
        assert_matches(np.asarray(ours), theirs, f"{fusion} result {number}")


@pytest.mark.parametrize("log", GPU_LOGS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-19]}")
def test_xla_gpu_emitter_output_matches_xla(log: Path) -> None:
    emitted = read_pass_log(log)[0]
    program = log.parents[1]
    run_and_compare(
        emitted.text, str(log), program, "gpu.hlo", log.name[: -len(".mlir-passes.log.xz")]
    )


@pytest.mark.parametrize("kernel", CPU_KERNELS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-8]}")
def test_xla_cpu_emitter_output_matches_xla(kernel: Path) -> None:
    """XLA:CPU runs a fusion on a thread or two, each looping over up to 100k elements:
    the interpreter runs those independent iterations side by side as lanes."""
    text = lzma.decompress(kernel.read_bytes()).decode()
    program = kernel.parents[1]
    fusion = kernel_name(kernel.name[: -len(".mlir.xz")])
    run_and_compare(text, str(kernel), program, "cpu.hlo", fusion)


# Lowered, each xla.loop is a nest of scf.for carrying the output through an scf.if:
# its iterations are still independent, so these run as fast.
LOWERED_CPU_KERNELS = [
    kernel
    for kernel in CPU_KERNELS
    if kernel.parts[-3] in ("argmax_rows", "gelu_bf16", "dynamic_update_slice", "transpose_3d")
]


@pytest.mark.parametrize(
    "kernel", LOWERED_CPU_KERNELS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-8]}"
)
def test_xla_cpu_kernels_lowered_to_scf_match_xla(kernel: Path) -> None:
    text = lzma.decompress(kernel.read_bytes()).decode()
    fusion = kernel_name(kernel.name[: -len(".mlir.xz")])
    run_and_compare(
        text, str(kernel), kernel.parents[1], "cpu.hlo", fusion, "xla-lower-xla-loops-to-scf"
    )


PROGRAMS = sorted(path for path in CORPUS.iterdir() if (path / "gpu.hlo").exists())


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_our_kernels_for_xla_gpu_fusions_match_xla(program: Path) -> None:
    """Our emitters and passes on XLA:GPU's optimized module give XLA's outputs."""
    module = parse_hlo_module((program / "gpu.hlo").read_text(), str(program / "gpu.hlo"))
    inputs = read_inputs(str(program / "inputs.npz"), module.entry)
    outputs = ModuleRuntime(module, KernelCache(checks=CheckOptions())).run(inputs)
    root = module.entry.root
    shapes = root.shape.elements if isinstance(root.shape, TupleShape) else [root.shape]
    stored = load_arrays(str(program / "outputs.npz"), "outputs")
    assert len(outputs) == len(shapes)
    for number, (ours, shape) in enumerate(zip(outputs, shapes, strict=True)):
        expected = from_storable(stored[f"out{number}"], shape, f"out{number}")  # pyright: ignore[reportArgumentType]
        assert_matches(np.asarray(ours), expected, f"{program.name} out{number}")


def same_bits(ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """Elementwise: equal bit patterns, or both NaN (a NaN's payload is not a result)."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    equal = ours.view(f"u{ours.dtype.itemsize}") == theirs.view(f"u{theirs.dtype.itemsize}")
    if ours.dtype.kind in "fV":
        equal |= np.isnan(ours.astype(np.float32)) & np.isnan(theirs.astype(np.float32))
    return equal


@pytest.mark.parametrize("log", GPU_LOGS, ids=lambda p: f"{p.parts[-3]}/{p.name[:-19]}")
def test_our_kernel_computes_bit_for_bit_what_xlas_kernel_computes(log: Path) -> None:
    """Our emitter's kernel for a fusion and XLA's (its emitter's output in the log) on
    the same operands: every result equal bit for bit, f32 and reductions included,
    since ours reads, reduces and shuffles in XLA's order."""
    program = log.parents[1]
    fusion_name = log.name[: -len(".mlir-passes.log.xz")]
    theirs, source_map = parse_mlir(read_pass_log(log)[0].text, str(log))
    verify_module(theirs, source_map)
    hlo = parse_hlo_module((program / "gpu.hlo").read_text(), str(program / "gpu.hlo"))
    (fusion,) = [i for i in hlo.entry.instructions if kernel_name(i.name) == fusion_name]
    ours = emit_fusion(hlo, fusion)
    operands = fusion_values(program, "gpu.hlo")[fusion_name][0]
    expected = Executor(theirs).run(operands)
    results = Executor(ours).run(operands)
    assert len(results) == len(expected)
    for number, (mine, xla) in enumerate(zip(results, expected, strict=True)):
        assert np.shape(mine) == np.shape(xla), f"{fusion_name} result {number}"
        differing = int(np.count_nonzero(~same_bits(mine, xla)))
        assert differing == 0, f"{fusion_name} result {number}: {differing} elements differ"
