"""Every stage of `xla-gpu-pipeline` computes what the emitted kernel computes.

The interpreter runs a kernel before the pipeline and after every single pass
of it; the outputs must agree bit for bit. The small GELU (the seed's kernel
at bf16[2,4,64]) is also checked against an independent numpy evaluation, and
every fusion of the XLA corpus goes through the same stage-by-stage check.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import PassPipeline
from xla_emit.dialects.arith_ext import ARITH
from xla_emit.dialects.vector_ext import VECTOR
from xla_emit.passes.pipelines import PIPELINES, available_passes

from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.ir import make_context, parse_mlir

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

# The seed's GELU kernel at a small shape: 32 threads x 4 blocks x 4 elements.
SMALL_GELU = """
#map = #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 2,"
  "(bl_x * 2 + th_x floordiv 16) mod 4, (th_x mod 16) * 4 + vector_index),"
  "domain: th_x in [0, 31], bl_x in [0, 3], vector_index in [0, 3]">
func.func @main(%input: tensor<2x4x64xbf16>, %output: tensor<2x4x64xbf16>) -> tensor<2x4x64xbf16> {
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 3 : index]}
  %xla_loop = xla_gpu.loop (%thread_id_x, %block_id_x)[%vector_index] -> (%dim0, %dim1, %dim2)
      in #map iter_args(%iter = %output) -> (tensor<2x4x64xbf16>) {
    %pure_call = xla_gpu.pure_call @gelu(%input, %dim0, %dim1, %dim2)
        : (tensor<2x4x64xbf16>, index, index, index) -> bf16
    %inserted = tensor.insert %pure_call into %iter[%dim0, %dim1, %dim2] : tensor<2x4x64xbf16>
    xla_gpu.yield %inserted : tensor<2x4x64xbf16>
  }
  return %xla_loop : tensor<2x4x64xbf16>
}
func.func private @gelu(%arg0: tensor<2x4x64xbf16>, %i: index, %j: index, %k: index) -> bf16 {
  %cst = arith.constant 5.000000e-01 : bf16
  %cst_0 = arith.constant 1.000000e+00 : bf16
  %cst_1 = arith.constant 7.968750e-01 : bf16
  %cst_2 = arith.constant 4.467770e-02 : bf16
  %extracted = tensor.extract %arg0[%i, %j, %k] : tensor<2x4x64xbf16>
  %0 = arith.mulf %extracted, %extracted : bf16
  %1 = arith.mulf %0, %extracted : bf16
  %2 = arith.mulf %1, %cst_2 : bf16
  %3 = arith.addf %extracted, %2 : bf16
  %4 = arith.mulf %3, %cst_1 : bf16
  %5 = math.tanh %4 : bf16
  %6 = arith.addf %5, %cst_0 : bf16
  %7 = arith.mulf %6, %cst : bf16
  %8 = arith.mulf %extracted, %7 : bf16
  return %8 : bf16
}
"""


def _context() -> Context:
    ctx = make_context()
    for dialect in (ARITH, VECTOR):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.register_dialect(dialect.name, lambda dialect=dialect: dialect)
    return ctx


def _run(module: ModuleOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return Executor(module, checks=CheckOptions()).run(inputs)


def _stages(ctx: Context, module: ModuleOp) -> Iterator[str]:
    """Applies the pipeline pass by pass, yielding each pass's name after it ran."""
    for spec in PIPELINES["xla-gpu-pipeline"].split(","):
        PassPipeline.parse_spec(available_passes(), spec).apply(ctx, module)
        yield spec


def _assert_bitwise_equal(expected: list[np.ndarray], actual: list[np.ndarray], stage: str) -> None:
    assert len(expected) == len(actual), stage
    for want, got in zip(expected, actual, strict=True):
        assert want.shape == got.shape, stage
        assert want.tobytes() == got.tobytes(), f"outputs differ after {stage}"


def _bf16(x: np.ndarray) -> np.ndarray:
    return x.astype(ml_dtypes.bfloat16)


def numpy_gelu(x: np.ndarray) -> np.ndarray:
    """The seed's GELU in numpy, rounding to bf16 after every op (as XLA does)."""
    c05, c1, c0797, c0044 = (
        _bf16(np.array(v, np.float32)) for v in (0.5, 1.0, 0.796875, 0.0446777)
    )
    f32 = np.float32
    square = _bf16(x.astype(f32) * x.astype(f32))
    cube = _bf16(square.astype(f32) * x.astype(f32))
    scaled = _bf16(cube.astype(f32) * f32(c0044))
    inner = _bf16(x.astype(f32) + scaled.astype(f32))
    arg = _bf16(inner.astype(f32) * f32(c0797))
    tanh = _bf16(np.tanh(arg.astype(f32)))
    shifted = _bf16(tanh.astype(f32) + f32(c1))
    half = _bf16(shifted.astype(f32) * f32(c05))
    return _bf16(x.astype(f32) * half.astype(f32))


def test_small_gelu_every_stage_matches_numpy() -> None:
    ctx = _context()
    module, _ = parse_mlir(SMALL_GELU, "gelu.mlir", ctx)
    x = _bf16(np.random.default_rng(7).uniform(-4.0, 4.0, size=(2, 4, 64)).astype(np.float32))
    reference = _run(module, [x])
    oracle = numpy_gelu(x)
    assert reference[0].tobytes() == oracle.tobytes()
    for stage in _stages(ctx, module):
        outputs = _run(module, _shaped_for(module, [x]))
        _assert_bitwise_equal(
            [o.reshape(oracle.shape) for o in reference],
            [o.reshape(oracle.shape) for o in outputs],
            stage,
        )


def _shaped_for(module: ModuleOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The inputs reshaped to the entry's current parameter types (flattening changes them)."""
    entry = next(op for op in module.ops if isinstance(op, FuncOp) and op.sym_visibility is None)
    shaped: list[np.ndarray] = []
    # Not strict: the entry's trailing `%output` parameter gets no input, as the
    # executor allocates a kernel's left-out output arguments.
    for x, type_ in zip(inputs, entry.function_type.inputs.data, strict=False):
        assert isinstance(type_, TensorType)
        shaped.append(x.reshape(type_.get_shape()))
    return shaped


def test_small_gelu_reaches_the_vectorized_shape() -> None:
    ctx = _context()
    module, _ = parse_mlir(SMALL_GELU, "gelu.mlir", ctx)
    list(_stages(ctx, module))
    names = [op.name for op in module.walk()]
    assert names.count("vector.transfer_read") == 1
    assert names.count("vector.transfer_write") == 1
    assert names.count("math.tanh") == 4
    assert "scf.for" not in names and "xla_gpu.loop" not in names


def _corpus_fusions() -> list[tuple[str, int]]:
    from xla_emit.emitters.fusion import fusion_instructions
    from xla_emit.hlo.parser import parse_hlo_module

    cases: list[tuple[str, int]] = []
    for path in sorted(CORPUS.glob("*.hlo")):
        module = parse_hlo_module(path.read_text(), str(path))
        cases.extend((path.name, index) for index in range(len(fusion_instructions(module))))
    return cases


def _random_inputs(entry: FuncOp, rng: np.random.Generator) -> list[np.ndarray]:
    """Random values for the kernel's parameters (the outputs are allocated by the executor)."""
    inputs: list[np.ndarray] = []
    num_outputs = len(entry.function_type.outputs.data)
    for type_ in entry.function_type.inputs.data[
        : len(entry.function_type.inputs.data) - num_outputs
    ]:
        assert isinstance(type_, TensorType)
        dtype = numpy_dtype(type_.element_type)
        shape = type_.get_shape()
        if np.issubdtype(dtype, np.integer):
            inputs.append(rng.integers(-50, 50, size=shape).astype(dtype))
        elif dtype == np.bool_:
            inputs.append(rng.integers(0, 2, size=shape).astype(np.bool_))
        else:
            inputs.append(rng.uniform(-3.0, 3.0, size=shape).astype(np.float32).astype(dtype))
    return inputs


@pytest.mark.parametrize(("program", "fusion_index"), _corpus_fusions())
def test_corpus_fusion_every_stage_matches(program: str, fusion_index: int) -> None:
    from xla_emit.emitters import emit_fusion
    from xla_emit.emitters.fusion import fusion_instructions
    from xla_emit.hlo.parser import parse_hlo_module

    hlo = parse_hlo_module((CORPUS / program).read_text(), program)
    module = emit_fusion(hlo, fusion_instructions(hlo)[fusion_index])
    entry = next(op for op in module.ops if isinstance(op, FuncOp) and "xla.entry" in op.attributes)
    inputs = _random_inputs(entry, np.random.default_rng(fusion_index))
    shapes = [x.shape for x in inputs]
    reference = _run(module, inputs)
    for stage in _stages(_context(), module):
        outputs = _run(module, _shaped_for(module, inputs))
        _assert_bitwise_equal(
            [r.reshape(-1) for r in reference], [o.reshape(-1) for o in outputs], stage
        )
    assert [x.shape for x in inputs] == shapes
