"""GPU semantics: warps and shuffles, shared memory with barriers, chunking, safety checks."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from interpreter_harness import RunKernel, run_mlir

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions
from xla_emit.interpreter.poison import Origin, PoisonTracker
from xla_emit.ir.pass_log import read_pass_log

SHUFFLE_REDUCE = """
func.func private @add(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}
func.func @main(%in: tensor<256xi32>, %out: tensor<256xi32>) -> tensor<256xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 3 : index]}
  %c64 = arith.constant 64 : index
  %base = arith.muli %b, %c64 : index
  %i = arith.addi %base, %t : index
  %x = tensor.extract %in[%i] : tensor<256xi32>
  %r = xla_gpu.shuffle_reduce(%x) to 16 combiner=@add : i32
  %o = tensor.insert %r into %out[%i] : tensor<256xi32>
  return %o : tensor<256xi32>
}
"""


def _butterfly(values: list[int], max_distance: int) -> list[int]:
    """Shuffle-down reduction of one warp, lane by lane (a lane past the end reads itself)."""
    current = list(values)
    distance = max_distance
    while distance:
        current = [
            current[lane] + (current[lane + distance] if lane + distance < 32 else current[lane])
            for lane in range(32)
        ]
        distance //= 2
    return current


def test_shuffle_reduce_within_each_warp(run_kernel: RunKernel) -> None:
    values = np.random.default_rng(1).integers(-1000, 1000, 256).astype(np.int32)
    (result,) = run_kernel(SHUFFLE_REDUCE, [values])
    expected = np.concatenate(
        [_butterfly(values[w : w + 32].tolist(), 16) for w in range(0, 256, 32)]
    )
    np.testing.assert_array_equal(result, expected)
    # Lane 0 of every warp holds the warp's total.
    np.testing.assert_array_equal(result[::32], values.reshape(8, 32).sum(axis=1))


def test_gpu_shuffle_xor_swaps_neighbours(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<64xi32>) -> tensor<64xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 63 : index]}
  %v = arith.index_cast %t : index to i32
  %one = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  %s, %ok = gpu.shuffle xor %v, %one, %width : i32
  %o = tensor.insert %s into %out[%t] : tensor<64xi32>
  return %o : tensor<64xi32>
}
"""
    (result,) = run_kernel(text, [])
    np.testing.assert_array_equal(result, np.arange(64) ^ 1)


def transpose_kernel(
    barrier: str = "%synced = xla_gpu.sync_threads %filled : tensor<32x33xf32>",
) -> str:
    """64x64 transpose through a padded 32x33 shared tile per block (2x2 blocks of 256 threads)."""
    synced = "%synced" if barrier else "%filled"
    return f"""
func.func @main(%in: tensor<64x64xf32>, %out: tensor<64x64xf32>) -> tensor<64x64xf32> {{
  %t = gpu.thread_id  x {{xla.range = [0 : index, 255 : index]}}
  %b = gpu.block_id  x {{xla.range = [0 : index, 3 : index]}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %tile_r = arith.divui %b, %c2 : index
  %tile_c = arith.remui %b, %c2 : index
  %row0 = arith.divui %t, %c32 : index
  %col = arith.remui %t, %c32 : index
  %r0 = arith.muli %tile_r, %c32 : index
  %c0_ = arith.muli %tile_c, %c32 : index
  %shmem = xla_gpu.allocate_shared : tensor<32x33xf32>
  %filled = scf.for %k = %c0 to %c4 step %c1 iter_args(%s = %shmem) -> (tensor<32x33xf32>) {{
    %k8 = arith.muli %k, %c8 : index
    %row = arith.addi %row0, %k8 : index
    %gr = arith.addi %r0, %row : index
    %gc = arith.addi %c0_, %col : index
    %x = tensor.extract %in[%gr, %gc] : tensor<64x64xf32>
    %w = tensor.insert %x into %s[%row, %col] : tensor<32x33xf32>
    scf.yield %w : tensor<32x33xf32>
  }}
  {barrier}
  %result = scf.for %k = %c0 to %c4 step %c1 iter_args(%o = %out) -> (tensor<64x64xf32>) {{
    %k8 = arith.muli %k, %c8 : index
    %row = arith.addi %row0, %k8 : index
    %x = tensor.extract {synced}[%col, %row] : tensor<32x33xf32>
    %gr = arith.addi %c0_, %row : index
    %gc = arith.addi %r0, %col : index
    %w = tensor.insert %x into %o[%gr, %gc] : tensor<64x64xf32>
    scf.yield %w : tensor<64x64xf32>
  }}
  return %result : tensor<64x64xf32>
}}
"""


def _matrix() -> np.ndarray:
    return np.random.default_rng(2).standard_normal((64, 64)).astype(np.float32)


@pytest.mark.parametrize("max_lanes", [1, 256, 1 << 15])
def test_shared_memory_transpose_with_barrier(run_kernel: RunKernel, max_lanes: int) -> None:
    # max_lanes=1 still gives whole blocks: one block per chunk.
    a = _matrix()
    (result,) = run_kernel(transpose_kernel(), [a], checks=CheckOptions(), max_lanes=max_lanes)
    np.testing.assert_array_equal(result, a.T)


def _error(
    run_kernel: RunKernel, text: str, inputs: list[np.ndarray], checks: CheckOptions | None = None
) -> str:
    with pytest.raises(UserError) as caught:
        run_kernel(text, inputs, checks=checks or CheckOptions())
    return caught.value.format()


def test_missing_barrier_is_reported_with_op_and_lane(run_kernel: RunKernel) -> None:
    message = _error(run_kernel, transpose_kernel(barrier=""), [_matrix()])
    assert message.startswith("test.mlir:31:5: error: 'tensor.extract' op")
    # Thread 0 reads element [0, 0], which it wrote itself; the first read of
    # another thread's write is thread 1 reading [1, 0], written by thread 32.
    assert (
        "reads element [1, 0] of shared memory %shmem written by thread 32, block 0 "
        "without a barrier in between (thread 1, block 0)"
    ) in message


def test_missing_barrier_passes_with_the_check_off(run_kernel: RunKernel) -> None:
    # Lockstep execution happens to give the right answer; only the check can tell.
    checks = CheckOptions(shared_reads=False)
    (result,) = run_kernel(transpose_kernel(barrier=""), [_matrix()], checks=checks)
    np.testing.assert_array_equal(result, _matrix().T)


def test_write_write_race_on_an_output(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<16xi32>) -> tensor<16xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %c2 = arith.constant 2 : index
  %h = arith.divui %t, %c2 : index
  %v = arith.index_cast %t : index to i32
  %o = tensor.insert %v into %out[%h] : tensor<16xi32>
  return %o : tensor<16xi32>
}
"""
    message = _error(run_kernel, text, [])
    assert message.startswith("test.mlir:7:3: error:")
    assert (
        "'tensor.insert' op writes element [0] of output argument 0 from two threads at once"
        in message
    )
    assert "thread 0, block 0 also writes it (race) (thread 1, block 0)" in message
    (result,) = run_kernel(text, [], checks=CheckOptions.fast())
    assert result.shape == (16,)


def test_race_between_blocks_in_different_chunks(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<4xi32>) -> tensor<4xi32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 3 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 1 : index]}
  %v = arith.index_cast %b : index to i32
  %o = tensor.insert %v into %out[%t] : tensor<4xi32>
  return %o : tensor<4xi32>
}
"""
    with pytest.raises(
        UserError, match=r"which thread 0, block 0 also wrote .*\(race\) \(thread 0, block 1\)"
    ):
        run_kernel(text, [], checks=CheckOptions(), max_lanes=4)


def test_out_of_bounds_read_names_the_lane(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%a: tensor<32xf32>, %out: tensor<32xf32>) -> tensor<32xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 31 : index]}
  %b = gpu.block_id  x {xla.range = [0 : index, 2 : index]}
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %i = arith.addi %t, %c1 : index
  %last = arith.cmpi eq, %b, %c2 : index
  %j = arith.select %last, %i, %t : index
  %x = tensor.extract %a[%j] : tensor<32xf32>
  %o = tensor.insert %x into %out[%t] : tensor<32xf32>
  return %o : tensor<32xf32>
}
"""
    message = _error(run_kernel, text, [np.zeros(32, np.float32)], checks=CheckOptions.fast())
    assert message.startswith(
        "test.mlir:10:3: error: 'tensor.extract' op index [32] is out of bounds"
    )
    assert "(thread 31, block 2)" in message
    assert "%x = tensor.extract %a[%j]" in message


def test_out_of_bounds_write_of_a_vector(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<10xf32>) -> tensor<10xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 2 : index]}
  %c4 = arith.constant 4 : index
  %base = arith.muli %t, %c4 : index
  %v = arith.constant dense<1.0> : vector<4xf32>
  %o = vector.transfer_write %v, %out[%base] {in_bounds = [true]} : vector<4xf32>, tensor<10xf32>
  return %o : tensor<10xf32>
}
"""
    message = _error(run_kernel, text, [], checks=CheckOptions.fast())
    assert "'vector.transfer_write' op index [[8, 9, 10, 11]] is out of bounds" in message
    assert "(thread 2, block 0)" in message


def test_uninitialised_shared_read(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<8xf32>) -> tensor<8xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %s = xla_gpu.allocate_shared : tensor<8xf32>
  %low = arith.cmpi ult, %t, %c4 : index
  %w = scf.if %low -> (tensor<8xf32>) {
    %i = tensor.insert %one into %s[%t] : tensor<8xf32>
    scf.yield %i : tensor<8xf32>
  } else {
    scf.yield %s : tensor<8xf32>
  }
  %synced = xla_gpu.sync_threads %w : tensor<8xf32>
  %x = tensor.extract %synced[%t] : tensor<8xf32>
  %o = tensor.insert %x into %out[%t] : tensor<8xf32>
  return %o : tensor<8xf32>
}
"""
    message = _error(run_kernel, text, [])
    # The read itself is legal; the value reaching the output is the error.
    assert message.startswith(
        "test.mlir:16:3: error: 'tensor.insert' op uses a value read from element [4] of shared "
        "memory %s, which no thread has written, into output argument 0 (read by 'tensor.extract' "
        "at test.mlir:15:3; --check rule: an unwritten value reaches an output) "
        "(thread 4, block 0)"
    )
    # Unchecked, the unwritten elements read as NaN.
    (result,) = run_kernel(text, [], checks=CheckOptions.fast())
    np.testing.assert_array_equal(np.isnan(result), [False] * 4 + [True] * 4)


# Threads 0-3 write shared elements 0-3; every thread reads element t (4-7: unwritten) and
# element t - 4 (for threads 4-7: written), then USE does something with the first.
HALF_WRITTEN = """
func.func @main(%out: tensor<8xf32>, %idx: tensor<8xindex>) -> (tensor<8xf32>, tensor<8xindex>) {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %s = xla_gpu.allocate_shared : tensor<8xf32>
  %low = arith.cmpi ult, %t, %c4 : index
  %w = scf.if %low -> (tensor<8xf32>) {
    %i = tensor.insert %one into %s[%t] : tensor<8xf32>
    scf.yield %i : tensor<8xf32>
  } else {
    scf.yield %s : tensor<8xf32>
  }
  %synced = xla_gpu.sync_threads %w : tensor<8xf32>
  %x = tensor.extract %synced[%t] : tensor<8xf32>
  %back = arith.remui %t, %c4 : index
  %y = tensor.extract %synced[%back] : tensor<8xf32>
  USE
}
"""


def _half_written(use: str) -> str:
    return HALF_WRITTEN.replace("USE", use.strip())


def test_an_unwritten_value_thrown_away_is_no_error(run_kernel: RunKernel) -> None:
    """Like XLA's packed transpose: every thread reads an unwritten element, and a select (a
    vector insert and extract, too) keeps only the written one."""
    use = """
  %v = vector.from_elements %x, %y : vector<2xf32>
  %keep = vector.extract %v[1] : f32 from vector<2xf32>
  %z = arith.select %low, %y, %keep : f32
  %o = tensor.insert %z into %out[%t] : tensor<8xf32>
  return %o, %idx : tensor<8xf32>, tensor<8xindex>
"""
    result, _ = run_kernel(_half_written(use), [], checks=CheckOptions())
    np.testing.assert_array_equal(result, np.ones(8, np.float32))


def test_an_unwritten_value_deciding_a_branch_is_an_error(run_kernel: RunKernel) -> None:
    use = """
  %zero = arith.constant 0.0 : f32
  %positive = arith.cmpf ogt, %x, %zero : f32
  %z = scf.if %positive -> (f32) {
    scf.yield %one : f32
  } else {
    scf.yield %zero : f32
  }
  %o = tensor.insert %z into %out[%t] : tensor<8xf32>
  return %o, %idx : tensor<8xf32>, tensor<8xindex>
"""
    message = _error(run_kernel, _half_written(use), [])
    assert message.startswith("test.mlir:20:3: error: 'scf.if' op uses a value read from element")
    assert "as a condition or bound" in message
    assert "--check rule: an unwritten value decides a branch) (thread 4, block 0)" in message


def test_an_unwritten_value_used_as_an_index_is_an_error(run_kernel: RunKernel) -> None:
    use = """
  %n = arith.fptoui %x : f32 to i32
  %k = arith.index_cast %n : i32 to index
  %z = tensor.extract %synced[%k] : tensor<8xf32>
  %o = tensor.insert %z into %out[%t] : tensor<8xf32>
  return %o, %idx : tensor<8xf32>, tensor<8xindex>
"""
    message = _error(run_kernel, _half_written(use), [])
    assert message.startswith("test.mlir:20:3: error: 'tensor.extract' op uses a value read")
    assert "--check rule: an unwritten value is used as an index) (thread 4, block 0)" in message


def test_an_unwritten_value_passed_through_a_call_reaches_the_output(
    run_kernel: RunKernel,
) -> None:
    """The mark follows the value into a callee and out of it."""
    use = """
  %z = func.call @twice(%x) : (f32) -> f32
  %o = tensor.insert %z into %out[%t] : tensor<8xf32>
  return %o, %idx : tensor<8xf32>, tensor<8xindex>
}
func.func private @twice(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %b : f32
"""
    message = _error(run_kernel, _half_written(use), [])
    assert message.startswith("test.mlir:19:3: error: 'tensor.insert' op uses a value read")
    assert "--check rule: an unwritten value reaches an output) (thread 4, block 0)" in message


def test_divergent_barrier(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<8xf32>) -> tensor<8xf32> {
  %t = gpu.thread_id  x {xla.range = [0 : index, 7 : index]}
  %c4 = arith.constant 4 : index
  %low = arith.cmpi ult, %t, %c4 : index
  scf.if %low {
    gpu.barrier
  }
  return %out : tensor<8xf32>
}
"""
    message = _error(run_kernel, text, [])
    assert "'gpu.barrier' op is reached by only some threads of a block" in message
    assert "(thread 4, block 0)" in message


def test_stale_tensor_value_is_rejected(run_kernel: RunKernel) -> None:
    text = """
func.func @main(%out: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %w = tensor.insert %one into %out[%c0] : tensor<4xf32>
  %old = tensor.extract %out[%c0] : tensor<4xf32>
  return %w, %old : tensor<4xf32>, f32
}
"""
    message = _error(run_kernel, text, [np.zeros(4, np.float32)])
    assert "'tensor.extract' op uses a value of argument 0 after a later update" in message


def test_xlas_packed_transpose_reads_unwritten_words_and_drops_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """XLA:GPU's packed bf16 transpose (its emitter's output for bf16[130,70]) reads vectors
    of its shared tile, words no thread wrote included: under every check it runs, gives
    XLA's bits, and did read unwritten elements."""
    program = Path(__file__).resolve().parents[1] / "corpus" / "gpu" / "transpose_bf16_packed"
    log = program / "gpu" / "input_transpose_fusion.mlir-passes.log.xz"
    emitted = read_pass_log(log)[0].text
    with np.load(program / "inputs.npz") as inputs, np.load(program / "outputs.npz") as outputs:
        x = inputs["arg0"].view(ml_dtypes.bfloat16)
        expected = outputs["out0"]
    reads: list[str] = []
    original = PoisonTracker.read_unwritten

    def counting(self: PoisonTracker, mask: np.ndarray, origin: Origin) -> None:
        reads.append(origin.what)
        original(self, mask, origin)

    monkeypatch.setattr(PoisonTracker, "read_unwritten", counting)
    (result,) = run_mlir(emitted, [x], checks=CheckOptions())
    np.testing.assert_array_equal(result.view(np.uint16), expected)
    assert reads and all("of shared memory %shmem" in what for what in reads)


def test_an_unwritten_index_handed_through_a_call_is_no_error_until_used(
    run_kernel: RunKernel,
) -> None:
    """A poisoned index passed to a function that never indexes with it is thrown away."""
    use = """
  %n = arith.fptoui %x : f32 to i32
  %k = arith.index_cast %n : i32 to index
  %z = func.call @ignore(%k, %y) : (index, f32) -> f32
  %o = tensor.insert %z into %out[%t] : tensor<8xf32>
  return %o, %idx : tensor<8xf32>, tensor<8xindex>
}
func.func private @ignore(%k: index, %v: f32) -> f32 {
  return %v : f32
"""
    result, _ = run_kernel(_half_written(use), [], checks=CheckOptions())
    np.testing.assert_array_equal(result, np.ones(8, np.float32))
