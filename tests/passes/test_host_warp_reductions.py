"""`xla-host-warp-reductions` computes what the shuffle trees computed, bit for bit.

The interpreter (the reference for `gpu.shuffle`: 32-lane warps, a source outside
the width reads the lane's own value) runs each kernel before the pass and after
it; every output must have the same bits. The kernels are the reduction emitters'
(row, column, variadic argmax, softmax's two trees, layernorm) on inputs with NaN,
infinities, signed zeros and ties, and a hand-written tree whose step is neither
commutative nor associative, so any other order of the lanes or of a step's
operands gives other bits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xla_emit.passes.pipelines import PIPELINES

from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.npz import random_inputs
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.ir import make_context, parse_mlir
from xla_emit.runtime import KernelCache, ModuleRuntime
from xla_emit.runtime.pipeline import apply_pipeline

ROOT = Path(__file__).resolve().parents[2]
PASS = "xla-host-warp-reductions"
# The native route as far as the pass, and with it (the interpreter runs both forms).
BEFORE = PIPELINES["xla-host-to-llvm"].split(f",{PASS}")[0]
AFTER = f"{BEFORE},{PASS},canonicalize,cse"

KERNELS = [
    "tests/corpus/row_sum.hlo",
    "tests/corpus/bf16_row_sum.hlo",
    "tests/corpus/column_max.hlo",
    "tests/corpus/gpu/argmax_rows/gpu.hlo",
]
# Two trees in a kernel, and the benchmark's kernels (a row sum of 1024 blocks).
KERNELS_SLOW = [
    "tests/corpus/softmax.hlo",
    "tests/corpus/layernorm.hlo",
    "examples/reduction_row.hlo",
    "examples/reduction_argmax.hlo",
    "examples/reduction_column.hlo",
    "examples/softmax.hlo",
]


def with_special_values(array: np.ndarray, seed: int) -> np.ndarray:
    """`array` with NaN, infinities, signed zeros and repeated values at random places."""
    if array.dtype.kind != "f":
        return array
    rng = np.random.default_rng(seed)
    flat = array.copy().reshape(-1)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, 1.0], flat.dtype)
    places = rng.choice(flat.size, size=max(1, flat.size // 50), replace=False)
    flat[places] = rng.choice(specials, size=places.size)
    return flat.reshape(array.shape)


def shuffles(cache: KernelCache, module: HloModule) -> int:
    """The `gpu.shuffle` ops left in the module's compiled kernels."""
    fusions = [i for i in module.entry.instructions if i.opcode == "fusion"]
    kernels = [cache.kernel(module, fusion).module for fusion in fusions]
    return sum(op.name == "gpu.shuffle" for kernel in kernels for op in kernel.walk())


def assert_same_bits(name: str) -> None:
    path = ROOT / name
    module = parse_hlo_module(path.read_text(), str(path))
    inputs = [with_special_values(a, i) for i, a in enumerate(random_inputs(module.entry, 0))]
    caches = KernelCache(pipeline=BEFORE), KernelCache(pipeline=AFTER)
    before, after = (ModuleRuntime(module, cache).run(inputs) for cache in caches)
    # The comparison is of kernels whose trees the pass rewrote, every one.
    assert shuffles(caches[0], module) > 0 and shuffles(caches[1], module) == 0
    assert len(before) == len(after)
    for want, got in zip(before, after, strict=True):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", KERNELS)
def test_the_trees_lane_zero_reads_keep_their_bits(name: str) -> None:
    assert_same_bits(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS_SLOW)
def test_the_benchmarks_trees_keep_their_bits(name: str) -> None:
    assert_same_bits(name)


# A tree over two warps whose step is x * 0.5 + 3 * y (y the shuffled value): other lane
# pairs, or the operands swapped, give other bits.
ORDERED_TREE = """
func.func @ordered(%in: tensor<64xf32>, %out: tensor<2xf32>) -> tensor<2xf32>
    attributes {xla.entry} {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %c0 = arith.constant 0 : index
  %c32i = arith.constant 32 : index
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3.0 : f32
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %x = tensor.extract %in[%tid] : tensor<64xf32>
  %y16, %v16 = gpu.shuffle down %x, %c16, %c32 : f32
  %h16 = arith.mulf %x, %half : f32
  %t16 = arith.mulf %y16, %three : f32
  %s16 = arith.addf %h16, %t16 : f32
  %y8, %v8 = gpu.shuffle down %s16, %c8, %c32 : f32
  %h8 = arith.mulf %s16, %half : f32
  %t8 = arith.mulf %y8, %three : f32
  %s8 = arith.addf %h8, %t8 : f32
  %y4, %v4 = gpu.shuffle down %s8, %c4, %c32 : f32
  %h4 = arith.mulf %s8, %half : f32
  %t4 = arith.mulf %y4, %three : f32
  %s4 = arith.addf %h4, %t4 : f32
  %y2, %v2 = gpu.shuffle down %s4, %c2, %c32 : f32
  %h2 = arith.mulf %s4, %half : f32
  %t2 = arith.mulf %y2, %three : f32
  %s2 = arith.addf %h2, %t2 : f32
  %y1, %v1 = gpu.shuffle down %s2, %c1, %c32 : f32
  %h1 = arith.mulf %s2, %half : f32
  %t1 = arith.mulf %y1, %three : f32
  %s1 = arith.addf %h1, %t1 : f32
  %lane = arith.remui %tid, %c32i : index
  %first = arith.cmpi eq, %lane, %c0 : index
  %r = scf.if %first -> (tensor<2xf32>) {
    %warp = arith.divui %tid, %c32i : index
    %w = tensor.insert %s1 into %out[%warp] : tensor<2xf32>
    scf.yield %w : tensor<2xf32>
  } else {
    scf.yield %out : tensor<2xf32>
  }
  func.return %r : tensor<2xf32>
}
"""


def run_text(text: str, passes: str | None, data: np.ndarray) -> np.ndarray:
    module, source_map = parse_mlir(text, "tree.mlir", make_context())
    if passes is not None:
        apply_pipeline(module, passes)
    executor = Executor(module, checks=CheckOptions(), locator=source_map)
    return executor.run([data, np.zeros(2, np.float32)])[0]


def hand_worked(data: np.ndarray) -> np.ndarray:
    """Lane 0 of each warp by the shuffle rule, one lane at a time in f32."""
    half, three = np.float32(0.5), np.float32(3.0)
    results = []
    for warp in data.reshape(2, 32):
        lanes = list(warp)
        for offset in (16, 8, 4, 2, 1):
            lanes = [
                lanes[i] * half + (lanes[i + offset] if i + offset < 32 else lanes[i]) * three
                for i in range(32)
            ]
        results.append(lanes[0])
    return np.array(results, np.float32)


def test_an_order_sensitive_step_keeps_its_bits() -> None:
    data = np.random.default_rng(3).standard_normal(64).astype(np.float32)
    with np.errstate(over="ignore"):
        expected = hand_worked(data)
    before = run_text(ORDERED_TREE, None, data)
    after = run_text(ORDERED_TREE, f"{PASS},canonicalize,cse", data)
    assert before.tobytes() == expected.tobytes()
    assert after.tobytes() == expected.tobytes()
