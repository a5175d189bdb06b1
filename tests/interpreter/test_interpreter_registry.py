"""How a dialect plugs in: `@impl` methods on an `OpImpls` class.

They are found along the op's class hierarchy.
"""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from pathlib import Path

import numpy as np
import pytest
from interpreter_harness import RunKernel
from xdsl.dialects import arith

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import (
    Executor,
    ImplRegistry,
    LaunchGrid,
    OpImpls,
    Values,
    impl,
    load_dialect_impls,
)
from xla_emit.ir import parse_mlir

TEXT = """
func.func @main(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}
"""


class SubtractingImpls(OpImpls):
    """Overrides arith.addi (a stand-in for a dialect module of another team)."""

    @impl(arith.AddiOp)
    def run_addi(self, _ex: Executor, _op: arith.AddiOp, args: Values) -> Values:
        return (np.subtract(args[0], args[1]),)


def _registry_with_override() -> ImplRegistry:
    registry = load_dialect_impls().copy()
    registry.register(SubtractingImpls())
    return registry


def test_a_later_registration_overrides_an_op() -> None:
    module, _ = parse_mlir(TEXT, "t.mlir")
    assert int(Executor(module).run([np.int32(7), np.int32(3)])[0]) == 10
    overridden = Executor(module, registry=_registry_with_override())
    assert int(overridden.run([np.int32(7), np.int32(3)])[0]) == 4


def test_implementations_are_found_through_base_classes() -> None:
    from xla_emit.dialects.xla import ApplyIndexingOpBase
    from xla_emit.dialects.xla_gpu import ApplyIndexingOp as SeedSpelling

    registry = load_dialect_impls()
    assert registry.lookup(SeedSpelling) is registry.lookup(ApplyIndexingOpBase)
    assert registry.lookup(SeedSpelling) is not None


def test_an_op_without_implementation_is_reported(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: vector<4xf32>) -> vector<4xf32> {
  %r = vector.shuffle %a, %a [0, 1, 2, 3] : vector<4xf32>, vector<4xf32>
  return %r : vector<4xf32>
}
"""
    with pytest.raises(
        UserError,
        match=r"test.mlir:3:3: error: 'vector.shuffle' op is not supported by the interpreter",
    ):
        run_kernel(text, [np.zeros(4, np.float32)])


def test_two_dimensional_grids(run_kernel: RunKernel) -> None:
    # 4 x 2 threads per block, 3 x 2 blocks: each lane writes its linear id into its (y, x) cell.
    text = """
func.func @main(%out: tensor<4x12xindex>) -> tensor<4x12xindex> {
  %tx = gpu.thread_id  x {xla.range = [0 : index, 3 : index]}
  %ty = gpu.thread_id  y {xla.range = [0 : index, 1 : index]}
  %bx = gpu.block_id  x {xla.range = [0 : index, 2 : index]}
  %by = gpu.block_id  y {xla.range = [0 : index, 1 : index]}
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %row0 = arith.muli %by, %c2 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c4 : index
  %col = arith.addi %col0, %tx : index
  %b = arith.muli %by, %c100 : index
  %v = arith.addi %b, %bx : index
  %o = tensor.insert %v into %out[%row, %col] : tensor<4x12xindex>
  return %o : tensor<4x12xindex>
}
"""
    (result,) = run_kernel(text, [])
    expected = [[(row // 2) * 100 + col // 4 for col in range(12)] for row in range(4)]
    np.testing.assert_array_equal(result, expected)


def test_grid_description_of_lanes() -> None:
    grid = LaunchGrid((4, 2, 1), (3, 2, 1))
    assert grid.threads_per_block == 8 and grid.num_blocks == 6
    # Lane 8 * 4 + 5 is block 4 = (1, 1, 0), thread 5 = (1, 1, 0).
    assert grid.describe_lane(8 * 4 + 5) == "thread (1, 1, 0), block (1, 1, 0)"


@pytest.mark.parametrize(
    "load",
    [
        "from xla_emit.interpreter import load_dialect_impls; load_dialect_impls()",
        "import xla_emit.runtime.backends, xla_emit.runtime.commands",
    ],
)
def test_a_gpu_run_loads_no_tpu_or_pto_code(load: str) -> None:
    """The TPU and PTO executors keep their own tables, and the runtime loads a backend with
    its first kernel: a GPU run must not pay for importing them (the TPU dialect alone is
    about 0.1 s of start-up)."""
    heavy = (
        "xla_emit.dialects.tpu",
        "xla_emit.dialects.pto",
        "xla_emit.interpreter.tpu",
        "xla_emit.interpreter.pto",
    )
    code = f"import sys; {load}; print(sorted(m for m in {heavy!r} if m in sys.modules))"
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout == "[]\n"


LIVENESS = """
func.func @main(%x: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %v = tensor.extract %x[%t] : tensor<64xf32>
  %a = arith.addf %v, %v : f32
  %b = arith.subf %a, %v : f32
  %c = arith.mulf %b, %b : f32
  %o = tensor.insert %c into %out[%t] : tensor<64xf32>
  return %o : tensor<64xf32>
}
"""


class WatchingImpls(OpImpls):
    """Records the `addf` result; `mulf` (after the last read of it) looks whether it lives."""

    def __init__(self) -> None:
        self.added: list[weakref.ref[np.ndarray]] = []
        self.alive_at_mulf: list[bool] = []

    @impl(arith.AddfOp)
    def run_addf(self, _ex: Executor, _op: arith.AddfOp, args: Values) -> Values:
        result = np.add(args[0], args[1])
        self.added.append(weakref.ref(result))
        return (result,)

    @impl(arith.MulfOp)
    def run_mulf(self, _ex: Executor, _op: arith.MulfOp, args: Values) -> Values:
        self.alive_at_mulf.append(self.added[-1]() is not None)
        return (np.multiply(args[0], args[1]),)


def test_a_value_is_released_after_its_last_use() -> None:
    """A chunk keeps only its live arrays: `%a` is gone once `subf` has read it."""
    module, _ = parse_mlir(LIVENESS, "t.mlir")
    registry = load_dialect_impls().copy()
    watching = WatchingImpls()
    registry.register(watching)
    x = np.arange(64, dtype=np.float32)
    (result,) = Executor(module, registry=registry, workers=1).run([x])
    np.testing.assert_array_equal(result, x * x)
    assert watching.alive_at_mulf == [False]
