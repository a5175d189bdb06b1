"""What a kernel run holds at once, against `--max-memory`, in every executor.

The oracle is arithmetic by hand: a tensor<256xf32> is 256 * 4 = 1 KiB, a
tensor<16xf32> copied for 64 lanes 16 * 4 * 64 = 4 KiB, a memref<8x128xf32>
in Mosaic's (8, 128) tiles 8 * 128 * 4 = 4 KiB, a 16x16 f32 tile 1 KiB. Each
kernel's buffers fit the budget one by one (the check before the run passes
them); only their total, counted while the kernel runs, does not.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from xla_emit.interpreter.budget import MemoryMeter, MemoryOverBudget
from xla_emit.tools.run import main

# Three 1 KiB tensors live together, besides the 1 KiB input and the 1 KiB output: 5 KiB.
THREE_TENSORS = """func.func @main(%a: tensor<256xf32>, %out: tensor<256xf32>) -> tensor<256xf32> {
  %e = tensor.empty() : tensor<256xf32>
  %f = tensor.empty() : tensor<256xf32>
  %g = tensor.empty() : tensor<256xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %e[%c0] : tensor<256xf32>
  %y = tensor.extract %f[%c0] : tensor<256xf32>
  %z = tensor.extract %g[%c0] : tensor<256xf32>
  return %a : tensor<256xf32>
}
"""
# Eight trips, each allocating 1 KiB and freeing it: 2 KiB at most with the 1 KiB argument
# (9 KiB if nothing were freed).
FREE_AND_REALLOCATE = """func.func @main(%a: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %m = memref.alloc() : memref<256xf32>
    %v = memref.load %a[%i] : memref<256xf32>
    memref.store %v, %m[%i] : memref<256xf32>
    memref.dealloc %m : memref<256xf32>
  }
  return
}
"""
# Each trip makes a tensor from the one the last trip made: two live at once, and %first
# until the loop ends; with the 1 KiB input and output, 5 KiB (7 KiB if nothing were freed).
CARRIED = """func.func @main(%a: tensor<256xf32>, %out: tensor<256xf32>) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %first = tensor.empty() : tensor<256xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%prev = %first) -> (tensor<256xf32>) {
    %next = tensor.empty() : tensor<256xf32>
    %x = tensor.extract %prev[%i] : tensor<256xf32>
    %y = tensor.insert %x into %next[%i] : tensor<256xf32>
    scf.yield %y : tensor<256xf32>
  }
  %z = tensor.extract %r[%c0] : tensor<256xf32>
  %o = tensor.insert %z into %out[%c0] : tensor<256xf32>
  return %o : tensor<256xf32>
}
"""
# A 64-byte tensor written at a lane-varying index: each of the 64 lanes gets its own copy.
PER_LANE = """func.func @main(%out: tensor<64xf32>) -> tensor<64xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %i = arith.remui %t, %c16 : index
  %e = tensor.empty() : tensor<16xf32>
  %w = tensor.insert %one into %e[%i] : tensor<16xf32>
  %x = tensor.extract %w[%i] : tensor<16xf32>
  %o = tensor.insert %x into %out[%t] : tensor<64xf32>
  return %o : tensor<64xf32>
}
"""
# 1 KiB of shared memory for each of the 4 blocks, and the 512-byte output.
SHARED = """func.func @main(%out: tensor<128xf32>) -> tensor<128xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 3 : index]}
  %s = xla_gpu.allocate_shared : tensor<256xf32>
  return %out : tensor<128xf32>
}
"""
VMEM = "memref<8x128xf32, #tpu.memory_space<vmem>>"
TPU_ALLOCATIONS = f"""func.func @main(%m: {VMEM}) attributes {{
    dimension_semantics = [], iteration_bounds = array<i64>, scalar_prefetch = 0 : i64,
    scratch_operands = 0 : i64, window_params = []}} {{
  %s = memref.alloc() : {VMEM}
  %t = memref.alloc() : {VMEM}
  return
}}
"""
TILE = "!pto.tile_buf<vec, 16x16xf32>"
PTO_TILES = f"""module attributes {{pto.target_arch = "a2a3"}} {{
  func.func @f(%in: !pto.partition_tensor_view<16x16xf32>) {{
    %a = pto.alloc_tile : {TILE}
    %b = pto.alloc_tile : {TILE}
    return
  }}
}}
"""
# A Pallas grid of two steps over f32[16,128] (8 KiB) in and out: the whole arrays, a 4 KiB
# scratch ref for the whole grid, and each step's two 4 KiB windows: 28 KiB at once (36 KiB if
# the first step's windows were kept into the second).
PALLAS_GRID = f"""module {{
  func.func @kernel(%i: i32, %x: {VMEM}, %o: {VMEM}, %s: {VMEM}) attributes {{
      dimension_semantics = [#tpu.dimension_semantics<arbitrary>],
      iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 1 : i64,
      window_params = [{{transform_indices = @map, window_bounds = array<i64: 8, 128>}},
                       {{transform_indices = @map, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : index
    %v = vector.load %x[%c0, %c0] : {VMEM}, vector<8x128xf32>
    vector.store %v, %o[%c0, %c0] : {VMEM}, vector<8x128xf32>
    return
  }}
  func.func @map(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}
"""
# Three 512 KiB tensors, each under 1 MiB, held together: the second is over by the 32 bytes of
# the arguments, too few for three digits, so the message counts bytes.
THREE_HALF_MIB = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<131072xf32>
  %f = tensor.empty() : tensor<131072xf32>
  %g = tensor.empty() : tensor<131072xf32>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %e[%c0] : tensor<131072xf32>
  %y = tensor.extract %f[%c0] : tensor<131072xf32>
  %z = tensor.extract %g[%c0] : tensor<131072xf32>
  return %a : tensor<4xf32>
}
"""


def run(tmp_path: Path, text: str, budget: str, *flags: str) -> int:
    path = tmp_path / "k.mlir"
    path.write_text(text)
    return main([str(path), "--max-memory", budget, "-o", str(tmp_path / "out.npz"), *flags])


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.splitlines()[0]


@pytest.mark.parametrize(
    ("text", "fits", "over", "flags", "message"),
    [
        pytest.param(
            THREE_TENSORS,
            "5K",
            "4K",
            [],
            "4:3: error: 'tensor.empty' op needs 1 KiB more for %g (tensor.empty "
            "tensor<256xf32>): the run would hold 5 KiB at once, over the memory budget of "
            "4 KiB (--max-memory): argument 0 (tensor<256xf32>) 1 KiB, output argument 1 "
            "(tensor<256xf32>) 1 KiB, %e (tensor.empty tensor<256xf32>) 1 KiB and 2 more (2 KiB)",
            id="fit-one-by-one-not-together",
        ),
        pytest.param(
            FREE_AND_REALLOCATE,
            "2K",
            "1K",
            ["--backend", "gpu"],
            "6:5: error: 'memref.alloc' op needs 1 KiB more for %m (memref.alloc "
            "memref<256xf32>): the run would hold 2 KiB at once, over the memory budget of "
            "1 KiB (--max-memory): argument 0 (memref<256xf32>) 1 KiB, %m (memref.alloc "
            "memref<256xf32>) 1 KiB",
            id="free-and-reallocate",
        ),
        pytest.param(
            CARRIED,
            "5K",
            "4K",
            [],
            "7:5: error: 'tensor.empty' op needs 1 KiB more for %next (tensor.empty "
            "tensor<256xf32>): the run would hold 5 KiB at once, over the memory budget of "
            "4 KiB (--max-memory): 2 x %next (tensor.empty tensor<256xf32>) 2 KiB, argument 0 "
            "(tensor<256xf32>) 1 KiB, output argument 1 (tensor<256xf32>) 1 KiB and 1 more "
            "(1 KiB)",
            id="carried-into-the-next-trip",
        ),
        pytest.param(
            # The copy is reserved while the original is still held: 4096 + 256 + 64 = 4416 B.
            PER_LANE,
            "4416",
            "4K",
            [],
            "7:3: error: 'tensor.insert' op needs 4 KiB more for %e (tensor.empty "
            "tensor<16xf32>) copied for 64 lanes: the run would hold 4.31 KiB at once, over the "
            "memory budget of 4 KiB (--max-memory): %e (tensor.empty tensor<16xf32>) copied for "
            "64 lanes 4 KiB, output argument 0 (tensor<64xf32>) 256 B, %e (tensor.empty "
            "tensor<16xf32>) 64 B",
            id="copied-for-every-lane",
        ),
        pytest.param(
            SHARED,
            "4.5K",
            "4K",
            [],
            "4:3: error: 'xla_gpu.allocate_shared' op needs 4 KiB more for %s "
            "(xla_gpu.allocate_shared tensor<256xf32>) for 4 blocks: the run would hold 4.5 KiB "
            "at once, over the memory budget of 4 KiB (--max-memory): %s "
            "(xla_gpu.allocate_shared tensor<256xf32>) for 4 blocks 4 KiB, output argument 0 "
            "(tensor<128xf32>) 512 B",
            id="shared-memory-per-block",
        ),
        pytest.param(
            TPU_ALLOCATIONS,
            "12K",
            "10K",
            [],
            f"5:3: error: 'memref.alloc' op needs 4 KiB more for %t (memref.alloc {VMEM}): the "
            "run would hold 12 KiB at once, over the memory budget of 10 KiB (--max-memory): "
            f"argument 0 ({VMEM}) 4 KiB, %s (memref.alloc {VMEM}) 4 KiB, %t (memref.alloc "
            f"{VMEM}) 4 KiB",
            id="tpu-allocations",
        ),
        pytest.param(
            PTO_TILES,
            "3K",
            "2K",
            [],
            f"4:5: error: 'pto.alloc_tile' op needs 1 KiB more for %b (pto.alloc_tile {TILE}): "
            "the run would hold 3 KiB at once, over the memory budget of 2 KiB (--max-memory): "
            "argument 0 (!pto.partition_tensor_view<16x16xf32>) 1 KiB, %a (pto.alloc_tile "
            f"{TILE}) 1 KiB, %b (pto.alloc_tile {TILE}) 1 KiB",
            id="pto-tiles",
        ),
    ],
)
def test_what_a_run_holds_at_once(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    fits: str,
    over: str,
    flags: list[str],
    message: str,
) -> None:
    assert run(tmp_path, text, over, *flags) == 1
    assert error_line(capsys) == f"{tmp_path}/k.mlir:{message}"
    assert run(tmp_path, text, fits, *flags) == 0


def test_a_pallas_grid_holds_its_arrays_scratch_and_one_step_of_windows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, arg0=np.ones((16, 128), np.float32))
    flags = ["--inputs", str(inputs), "--output-shapes", "16x128"]
    assert run(tmp_path, PALLAS_GRID, "27K", *flags) == 1
    assert error_line(capsys) == (
        f"{tmp_path}/k.mlir:2:3: error: 'func.func' op needs 4 KiB more for the window of "
        f"operand 1 ({VMEM}): the run would hold 28 KiB at once, over the memory budget of "
        "27 KiB (--max-memory): operand 0 (float32[16, 128]) 8 KiB, operand 1 "
        f"(float32[16, 128]) 8 KiB, scratch 0 ({VMEM}) 4 KiB and 2 more (8 KiB)"
    )
    assert run(tmp_path, PALLAS_GRID, "28K", *flags) == 0


def test_the_command_line_prints_one_located_line(tmp_path: Path) -> None:
    path = tmp_path / "k.mlir"
    path.write_text(THREE_HALF_MIB)
    done = subprocess.run(
        [sys.executable, "-m", "xla_emit.tools.run", str(path), "--max-memory", "1M"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == (
        f"{path}:3:3: error: 'tensor.empty' op needs 512 KiB more for "
        "%f (tensor.empty tensor<131072xf32>): the run would hold 1048608 B at once, over the "
        "memory budget of 1048576 B (--max-memory): %e (tensor.empty tensor<131072xf32>) 512 KiB, "
        "%f (tensor.empty tensor<131072xf32>) 512 KiB, argument 0 (tensor<4xf32>) 16 B "
        "and 1 more (16 B)"
    )


def test_a_reservation_ends_when_its_storage_is_freed() -> None:
    meter = MemoryMeter(budget=100)
    storage = meter.reserve("a", 80).keep(np.zeros(10))
    with pytest.raises(MemoryOverBudget) as over:
        meter.reserve("b", 30)
    assert str(over.value) == (
        "needs 30 B more for b: the run would hold 110 B at once, over the memory budget of "
        "100 B (--max-memory): a 80 B, b 30 B"
    )
    del storage
    gc.collect()
    assert meter.total == 0
    meter.reserve("b", 30)
    assert meter.total == 30
