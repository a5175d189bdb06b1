"""tensor.extract_slice and tensor.insert_slice anywhere in a kernel, checked against numpy's
basic slicing `a[o:o + (n - 1) * s + 1:s]` as the oracle."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter import CheckOptions, Executor
from xla_emit.interpreter.budget import run_limits
from xla_emit.ir import parse_mlir
from xla_emit.limits import RunLimits


def run(text: str, inputs: Sequence[np.ndarray | np.generic]) -> list[np.ndarray]:
    module, source_map = parse_mlir(text, "test.mlir")
    return Executor(module, checks=CheckOptions(), locator=source_map).run(inputs)


def error_of(text: str, inputs: Sequence[np.ndarray | np.generic]) -> str:
    with pytest.raises(UserError) as caught:
        run(text, inputs)
    return caught.value.format().splitlines()[0]


def window(offsets: list[int], sizes: list[int], strides: list[int]) -> tuple[slice, ...]:
    """The numpy slice MLIR's (offsets, sizes, strides) name."""
    return tuple(
        slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offsets, sizes, strides, strict=True)
    )


def listing(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


def shape_text(shape: tuple[int, ...] | list[int], element: str) -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + element + ">"


def copy_kernel(
    shape: tuple[int, ...], offsets: list[int], sizes: list[int], strides: list[int]
) -> str:
    """Extract a slice of %a (static offsets, sizes, strides) and insert it into %out at the
    origin with unit strides."""
    whole = shape_text(shape, "i32")
    part = shape_text(sizes, "i32")
    zeros = listing([0] * len(shape))
    ones = listing([1] * len(shape))
    return f"""\
func.func @main(%a: {whole}, %out: {whole}) -> {whole} {{
  %s = tensor.extract_slice %a[{listing(offsets)}] [{listing(sizes)}] [{listing(strides)}] \
: {whole} to {part}
  %r = tensor.insert_slice %s into %out[{zeros}] [{listing(sizes)}] [{ones}] : {part} into {whole}
  return %r : {whole}
}}
"""


def random_slice(
    rng: np.random.Generator, shape: tuple[int, ...]
) -> tuple[list[int], list[int], list[int]]:
    offsets, sizes, strides = [], [], []
    for extent in shape:
        stride = int(rng.integers(1, 4))
        offset = int(rng.integers(0, (extent + 1) // 2))
        # From one element to as many as fit.
        size = int(rng.integers(1, (extent - 1 - offset) // stride + 2))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
    return offsets, sizes, strides


@pytest.mark.parametrize("seed", range(8))
def test_random_static_slices_copy_what_numpy_slicing_selects(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 9, size=int(rng.integers(1, 4))))
    offsets, sizes, strides = random_slice(rng, shape)
    a = rng.integers(-1000, 1000, size=shape, dtype=np.int32)
    (result,) = run(copy_kernel(shape, offsets, sizes, strides), [a])
    expected = np.zeros(shape, np.int32)
    expected[tuple(slice(0, n) for n in sizes)] = a[window(offsets, sizes, strides)]
    np.testing.assert_array_equal(result, expected)


RANK_REDUCING = """\
func.func @main(%a: tensor<4x5x6xf32>, %out: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %column = tensor.extract_slice %a[1, 0, 4] [1, 5, 1] [1, 1, 1] : tensor<4x5x6xf32> to tensor<5xf32>
  %r = tensor.insert_slice %column into %out[2, 1] [1, 5] [1, 1] : tensor<5xf32> into tensor<3x7xf32>
  return %r : tensor<3x7xf32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_rank_reducing_extract_and_insert() -> None:
    a = np.arange(120, dtype=np.float32).reshape(4, 5, 6) / 7
    (result,) = run(RANK_REDUCING, [a])
    expected = np.zeros((3, 7), np.float32)
    expected[2, 1:6] = a[1, :, 4]
    np.testing.assert_array_equal(result, expected)


PER_THREAD = """\
func.func @main(%a: tensor<4x8xi32>, %n: index, %out: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %t = gpu.thread_id x {xla.range = [0 : index, 3 : index]}
  %c2 = arith.constant 2 : index
  %from = arith.remui %t, %c2 : index
  %s = tensor.extract_slice %a[%t, %from] [1, %n] [1, %c2] : tensor<4x8xi32> to tensor<?xi32>
  %r = tensor.insert_slice %s into %out[%t, 0] [1, %n] [1, 1] : tensor<?xi32> into tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}
"""


@pytest.mark.parametrize("n", [0, 1, 3, 4])
def test_per_thread_offsets_and_a_dynamic_size(n: int) -> None:
    a = np.arange(32, dtype=np.int32).reshape(4, 8) * 3 - 40
    (result,) = run(PER_THREAD, [a, np.int64(n)])
    # Thread t copies n elements of row t, every second one from column t mod 2.
    expected = np.zeros((4, 4), np.int32)
    for t in range(4):
        expected[t, :n] = a[t, t % 2 :: 2][:n]
    np.testing.assert_array_equal(result, expected)


def test_an_extract_past_the_end_names_the_op_and_thread() -> None:
    message = error_of(PER_THREAD, [np.zeros((4, 8), np.int32), np.int64(5)])
    # Thread 0 reads columns 0, 2, ..., 8: 8 is outside.
    assert message == (
        "test.mlir:5:3: error: 'tensor.extract_slice' op extracts a slice at offsets [0, 0] "
        "with sizes [1, 5] and strides [1, 2] outside argument 0 of shape [4, 8] (dimension 1) "
        "(thread 0, block 0)"
    )


def test_an_insert_past_the_end_names_the_op_and_thread() -> None:
    text = PER_THREAD.replace("%out[%t, 0]", "%out[%t, %from]")
    message = error_of(text, [np.zeros((4, 8), np.int32), np.int64(4)])
    # Thread 1 writes columns 1 to 4 of 4.
    assert message == (
        "test.mlir:6:3: error: 'tensor.insert_slice' op inserts a slice at offsets [1, 1] "
        "with sizes [1, 4] and strides [1, 1] outside output argument 2 of shape [4, 4] "
        "(dimension 1) (thread 1, block 0)"
    )


def test_a_negative_size_is_reported() -> None:
    message = error_of(PER_THREAD, [np.zeros((4, 8), np.int32), np.int64(-1)])
    assert message == (
        "test.mlir:5:3: error: 'tensor.extract_slice' op has a negative slice size -1 (dimension 1)"
    )


def test_sizes_that_differ_between_threads_are_reported() -> None:
    text = PER_THREAD.replace("[1, %n] [1, %c2]", "[1, %m] [1, %c2]").replace(
        "  %s = tensor.extract_slice",
        "  %m = arith.addi %n, %from : index\n  %s = tensor.extract_slice",
    )
    message = error_of(text, [np.zeros((4, 8), np.int32), np.int64(1)])
    # n + t mod 2 is 1 on even threads and 2 on odd ones.
    assert message == (
        "test.mlir:6:3: error: 'tensor.extract_slice' op has slice sizes that differ between "
        "threads (thread 1, block 0)"
    )


def test_an_insert_whose_source_does_not_fill_the_slice_is_reported() -> None:
    text = RANK_REDUCING.replace("[2, 1] [1, 5] [1, 1]", "[2, 1] [1, 6] [1, 1]")
    message = error_of(text, [np.zeros((4, 5, 6), np.float32)])
    assert message == (
        "test.mlir:3:3: error: 'tensor.insert_slice' op inserts a slice of sizes [1, 6] "
        "from a source of 5 elements"
    )


def test_offsets_of_another_rank_than_the_tensor_are_reported() -> None:
    text = RANK_REDUCING.replace("%a[1, 0, 4] [1, 5, 1] [1, 1, 1]", "%a[1, 0] [1, 5] [1, 1]")
    message = error_of(text, [np.zeros((4, 5, 6), np.float32)])
    assert message == (
        "test.mlir:2:3: error: 'tensor.extract_slice' op has 2 offsets for a tensor of rank 3"
    )


INSIDE_A_LOOP = """\
func.func @main(%a: tensor<8xi64>, %out: tensor<8xi64>) -> tensor<8xi64> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %out) -> (tensor<8xi64>) {
    %pair = tensor.extract_slice %a[%i] [2] [1] : tensor<8xi64> to tensor<2xi64>
    %c6 = arith.constant 6 : index
    %to = arith.subi %c6, %i : index
    %next = tensor.insert_slice %pair into %acc[%to] [2] [1] : tensor<2xi64> into tensor<8xi64>
    scf.yield %next : tensor<8xi64>
  }
  return %r : tensor<8xi64>
}
"""


def test_slices_in_a_loop_reverse_the_pairs() -> None:
    a = np.array([1, 2, 3, 4, 5, 6, 7, 8], np.int64)
    (result,) = run(INSIDE_A_LOOP, [a])
    expected = np.concatenate([a[6:8], a[4:6], a[2:4], a[0:2]])
    np.testing.assert_array_equal(result, expected)


def test_a_slice_over_the_memory_budget_is_reported_when_it_is_made() -> None:
    # Four threads each read 8 i32 of their own: 4 x 8 x 4 = 128 bytes, which with the
    # 256-byte argument, the 64-byte output and its 128 bytes of write tracking (448 B)
    # passes a budget of 500.
    text = PER_THREAD.replace("tensor<4x8xi32>", "tensor<4x16xi32>")
    a = np.zeros((4, 16), np.int32)
    with run_limits(RunLimits(max_memory=500)), pytest.raises(UserError) as caught:
        run(text, [a, np.array(8, np.int64)])
    assert caught.value.format().splitlines()[0] == (
        "test.mlir:5:3: error: 'tensor.extract_slice' op needs 128 B more for %s "
        "(tensor.extract_slice tensor<?xi32>) for 4 lanes: the run would hold 576 B at once, "
        "over the memory budget of 500 B (--max-memory): argument 0 (tensor<4x16xi32>) 256 B, "
        "the write tracking of output argument 2 128 B, %s (tensor.extract_slice tensor<?xi32>) "
        "for 4 lanes 128 B and 1 more (64 B)"
    )


TRIANGLE = """\
func.func @main(%a: tensor<4x4xi32>, %out: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %out) -> (tensor<4x4xi32>) {
    %n = arith.addi %i, %c1 : index
    %row = tensor.extract_slice %a[%i, 0] [1, %n] [1, 1] : tensor<4x4xi32> to tensor<?xi32>
    %next = tensor.insert_slice %row into %acc[%i, 0] [1, %n] [1, 1] : tensor<?xi32> into tensor<4x4xi32>
    scf.yield %next : tensor<4x4xi32>
  }
  return %r : tensor<4x4xi32>
}
"""  # noqa: E501 - IR listing, one op per line


def test_slice_sizes_that_change_from_one_iteration_to_the_next() -> None:
    a = np.arange(16, dtype=np.int32).reshape(4, 4) + 1
    (result,) = run(TRIANGLE, [a])
    # Iteration i copies the first i + 1 elements of row i: the lower triangle.
    np.testing.assert_array_equal(result, np.tril(a))
