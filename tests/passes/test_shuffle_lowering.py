"""`xla-lower-xla-to-scf` on warp reductions: the shuffles compute what `shuffle_reduce` does.

A hand-written warp kernel reduces values of every width the lowering treats
differently (i1, i8, 16-bit floats, 32-bit, 64-bit integers and floats) and
is checked against a numpy model of shuffle-down reduction, before and after
the lowering. The example reduction kernels (row sum, argmax, softmax) run in
the interpreter before the lowering, after it and after every pass of
`xla-gpu-pipeline` (whose loop peeling splits their per-thread loops); the
outputs must agree bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from test_pipeline_equivalence import _context, _random_inputs, _run
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import PassPipeline
from xla_emit.dialects.xla import LoopOpBase
from xla_emit.passes.pipelines import PIPELINES, available_passes

from xla_emit.emitters import emit_hlo_module
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import parse_mlir

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WARP = 32
THREADS = 64  # two warps: a shuffle must not cross from one into the other

# Each lane reduces its own values with those of the lanes 16, 8, 4, 2, 1 above.
WARP_KERNEL = """
func.func @main(%a: tensor<64xi64>, %b: tensor<64xf64>, %c: tensor<64xbf16>,
                %d: tensor<64xf16>, %e: tensor<64xi8>, %f: tensor<64xi1>,
                %oa: tensor<64xi64>, %ob: tensor<64xf64>, %oc: tensor<64xbf16>, %od: tensor<64xf16>,
                %oe: tensor<64xi8>, %of: tensor<64xi1>)
    -> (tensor<64xi64>, tensor<64xf64>, tensor<64xbf16>, tensor<64xf16>, tensor<64xi8>,
        tensor<64xi1>) {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %va = tensor.extract %a[%t] : tensor<64xi64>
  %vb = tensor.extract %b[%t] : tensor<64xf64>
  %vc = tensor.extract %c[%t] : tensor<64xbf16>
  %vd = tensor.extract %d[%t] : tensor<64xf16>
  %ve = tensor.extract %e[%t] : tensor<64xi8>
  %vf = tensor.extract %f[%t] : tensor<64xi1>
  %r:6 = xla_gpu.shuffle_reduce(%va, %vb, %vc, %vd, %ve, %vf) to 16 combiner=@combine
      : i64, f64, bf16, f16, i8, i1
  %ra = tensor.insert %r#0 into %oa[%t] : tensor<64xi64>
  %rb = tensor.insert %r#1 into %ob[%t] : tensor<64xf64>
  %rc = tensor.insert %r#2 into %oc[%t] : tensor<64xbf16>
  %rd = tensor.insert %r#3 into %od[%t] : tensor<64xf16>
  %re = tensor.insert %r#4 into %oe[%t] : tensor<64xi8>
  %rf = tensor.insert %r#5 into %of[%t] : tensor<64xi1>
  return %ra, %rb, %rc, %rd, %re, %rf : tensor<64xi64>, tensor<64xf64>, tensor<64xbf16>,
      tensor<64xf16>, tensor<64xi8>, tensor<64xi1>
}
func.func private @combine(%a: i64, %b: f64, %c: bf16, %d: f16, %e: i8, %f: i1,
                           %a2: i64, %b2: f64, %c2: bf16, %d2: f16, %e2: i8, %f2: i1)
    -> (i64, f64, bf16, f16, i8, i1) {
  %sa = arith.addi %a, %a2 : i64
  %sb = arith.addf %b, %b2 : f64
  %sc = arith.maximumf %c, %c2 : bf16
  %sd = arith.minimumf %d, %d2 : f16
  %se = arith.addi %e, %e2 : i8
  %sf = arith.xori %f, %f2 : i1
  return %sa, %sb, %sc, %sd, %se, %sf : i64, f64, bf16, f16, i8, i1
}
"""


def _shuffle_down_reduce(
    values: np.ndarray, combine: Callable[[np.ndarray, np.ndarray], np.ndarray]
) -> np.ndarray:
    """Per lane: combine(own, value of lane + d) for d = 16 .. 1; past the warp, its own value."""
    lanes = np.arange(values.size)
    result = values.copy()
    distance = WARP // 2
    while distance:
        source = lanes + distance
        outside = source // WARP != lanes // WARP
        shuffled = result[np.where(outside, lanes, source)]
        result = combine(result, shuffled)
        distance //= 2
    return result


def _warp_inputs(rng: np.random.Generator) -> list[np.ndarray]:
    return [
        # Both halves of the i64/f64 chunks carry information.
        rng.integers(-(2**62), 2**62, size=THREADS, dtype=np.int64),
        rng.uniform(-1e6, 1e6, size=THREADS) * 2.0 ** rng.integers(-40, 40, size=THREADS),
        rng.uniform(-100, 100, size=THREADS).astype(ml_dtypes.bfloat16),
        rng.uniform(-100, 100, size=THREADS).astype(np.float16),
        rng.integers(-128, 128, size=THREADS, dtype=np.int64).astype(np.int8),
        rng.integers(0, 2, size=THREADS).astype(np.bool_),
    ]


def _warp_oracle(inputs: list[np.ndarray]) -> list[np.ndarray]:
    combiners: list[Callable[[np.ndarray, np.ndarray], np.ndarray]] = [
        np.add,
        np.add,
        np.maximum,
        np.minimum,
        lambda x, y: (x.astype(np.int64) + y).astype(np.int8),  # wraps like arith.addi
        np.logical_xor,
    ]
    return [_shuffle_down_reduce(x, f) for x, f in zip(inputs, combiners, strict=True)]


def _lower(module: ModuleOp, spec: str = "xla-lower-xla-to-scf") -> None:
    PassPipeline.parse_spec(available_passes(), spec).apply(_context(), module)


def _assert_same_bits(expected: list[np.ndarray], actual: list[np.ndarray]) -> None:
    assert len(expected) == len(actual)
    for position, (want, got) in enumerate(zip(expected, actual, strict=True)):
        assert want.dtype == got.dtype, position
        assert want.tobytes() == got.tobytes(), f"output {position} differs"


@pytest.mark.parametrize("seed", [0, 1])
def test_warp_kernel_matches_numpy_before_and_after_lowering(seed: int) -> None:
    module, _ = parse_mlir(WARP_KERNEL, "warp.mlir", _context())
    inputs = _warp_inputs(np.random.default_rng(seed))
    oracle = _warp_oracle(inputs)
    _assert_same_bits(oracle, _run(module, inputs))
    _lower(module)
    names = [op.name for op in module.walk()]
    assert "xla_gpu.shuffle_reduce" not in names
    # Per distance: 2 chunks each for i64 and f64, one shuffle each for the other four.
    assert names.count("gpu.shuffle") == 5 * (2 + 2 + 4)
    _assert_same_bits(oracle, _run(module, inputs))


def _entries(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.ops if isinstance(op, FuncOp) and "xla.entry" in op.attributes]


def _run_entry(module: ModuleOp, entry: str, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return Executor(module, checks=CheckOptions()).run(inputs, entry=entry)


def _entry_inputs(module: ModuleOp, seed: int) -> dict[str, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return {entry.sym_name.data: _random_inputs(entry, rng) for entry in _entries(module)}


@pytest.mark.parametrize(
    ("example", "num_shuffle_reduces", "num_peeled_loops"),
    # Peeled: the per-thread loops over 3000 and 1000 columns (not multiples of
    # the threads' stride); 4096 columns need no tail.
    [("reduction_row", 2, 0), ("reduction_argmax", 2, 1), ("softmax", 4, 2)],
)
def test_example_reductions_are_bit_identical_after_lowering(
    example: str, num_shuffle_reduces: int, num_peeled_loops: int
) -> None:
    path = EXAMPLES / f"{example}.hlo"
    module = emit_hlo_module(path.read_text(), str(path))
    names = [op.name for op in module.walk()]
    assert names.count("xla_gpu.shuffle_reduce") == num_shuffle_reduces
    inputs = _entry_inputs(module, 0)
    before = {name: _run_entry(module, name, x) for name, x in inputs.items()}

    _lower(module)
    names = [op.name for op in module.walk()]
    assert "xla_gpu.shuffle_reduce" not in names
    # 32-bit values: one shuffle per value and distance (16, 8, 4, 2, 1).
    assert names.count("gpu.shuffle") >= 5 * num_shuffle_reduces
    _assert_entries_match(module, inputs, before, "xla-lower-xla-to-scf")

    # Then every pass of the pipeline, loop peeling included.
    for spec in PIPELINES["xla-gpu-pipeline"].split(","):
        loops_before = _count_loops(module)
        _lower(module, spec)
        if spec == "xla-gpu-peel-loops":
            assert _count_loops(module) == loops_before + num_peeled_loops
        _assert_entries_match(module, inputs, before, spec)


def _count_loops(module: ModuleOp) -> int:
    return sum(isinstance(op, LoopOpBase) for op in module.walk())


def _assert_entries_match(
    module: ModuleOp,
    inputs: dict[str, list[np.ndarray]],
    expected: dict[str, list[np.ndarray]],
    stage: str,
) -> None:
    for entry in _entries(module):
        name = entry.sym_name.data
        outputs = _run_entry(module, name, _reshaped(entry, inputs[name]))
        want = [e.reshape(-1) for e in expected[name]]
        got = [o.reshape(-1) for o in outputs]
        assert [w.tobytes() for w in want] == [g.tobytes() for g in got], (
            f"{name} differs after {stage}"
        )


def _reshaped(entry: FuncOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
    """The inputs in the shapes of `entry`'s parameters (flattening makes them 1-d)."""
    types = entry.function_type.inputs.data
    shaped: list[np.ndarray] = []
    for x, type_ in zip(inputs, types, strict=False):
        assert isinstance(type_, TensorType)
        shaped.append(x.reshape(type_.get_shape()))
    return shaped
