"""The TPU kernel interpreter against numpy: the examples, physical layouts, tpu ops and faults."""

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, f32

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.interpreter.tpu_buffers import allocate
from xla_emit.ir import parse_mlir
from xla_emit.layout import parse_shape, tiled_layout_map

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tpu"


def _module(text: str, name: str = "<test>"):  # type: ignore[no-untyped-def]
    module, _ = parse_mlir(text, name)
    return module


def _example(name: str):  # type: ignore[no-untyped-def]
    path = EXAMPLES / name
    return _module(path.read_text(), str(path))


@pytest.fixture(scope="module")
def rows() -> np.ndarray:
    return np.random.default_rng(7).standard_normal((8, 1024)).astype(np.float32)


@pytest.mark.parametrize("name", ["misaligned.mlir", "fixed_realigned.mlir"])
@pytest.mark.parametrize("col", [0, 1, 33, 127, 128, 200, 767, 800, 992])
def test_window_kernels_copy_the_window(rows: np.ndarray, name: str, col: int) -> None:
    out = np.zeros((8, 32), np.float32)
    x_after, result = run_tpu_kernel(_example(name), [rows, out, col])
    np.testing.assert_array_equal(result, rows[:, col : col + 32])
    np.testing.assert_array_equal(x_after, rows)


@pytest.mark.parametrize("col", [0, 128, 896])
def test_assume_multiple_fix_for_aligned_columns(rows: np.ndarray, col: int) -> None:
    out = np.zeros((8, 32), np.float32)
    result = run_tpu_kernel(_example("fixed_assume_multiple.mlir"), [rows, out, col])[-1]
    np.testing.assert_array_equal(result, rows[:, col : col + 32])


def test_broken_assume_multiple_promise_is_an_error(rows: np.ndarray) -> None:
    with pytest.raises(
        UserError,
        match=re.escape("'tpu.assume_multiple' op promised a multiple of 128, but the value is 5"),
    ):
        run_tpu_kernel(
            _example("fixed_assume_multiple.mlir"), [rows, np.zeros((8, 32), np.float32), 5]
        )


def test_out_of_bounds_window_is_an_error(rows: np.ndarray) -> None:
    with pytest.raises(
        UserError,
        match=re.escape(
            "'vector.load' op reads or writes out of bounds: index 1000..1031 in dimension 1 "
            "of a memref with shape [8, 1024]"
        ),
    ):
        run_tpu_kernel(_example("misaligned.mlir"), [rows, np.zeros((8, 32), np.float32), 1000])


def test_memrefs_live_in_their_tiled_physical_layout() -> None:
    memref_type = _module(
        "func.func @f(%m: memref<16x256xbf16, #tpu.tiled<(8,128)(2,1),[2,1]>, "
        "#tpu.memory_space<vmem>>) { return }"
    ).body.block.first_op.function_type.inputs.data[0]  # type: ignore[union-attr]
    assert isinstance(memref_type, MemRefType)
    logical = np.arange(16 * 256).astype(ml_dtypes.bfloat16).reshape(16, 256)
    buffer = allocate(memref_type, logical)  # type: ignore[arg-type]
    xla = tiled_layout_map(parse_shape("bf16[16,256]{1,0:T(8,128)(2,1)}"))
    for index in [(0, 0), (1, 0), (0, 1), (3, 200), (15, 255), (8, 128)]:
        assert buffer.storage[xla.offset(index)] == logical[index]
    np.testing.assert_array_equal(buffer.logical(), logical)


def test_padding_is_poisoned_not_read() -> None:
    # 4x200 f32 with (4,128) tiles: 56 padding lanes per row hold NaN, never data.
    memref_type = MemRefType(f32, [4, 200])
    buffer = allocate(memref_type, np.ones((4, 200), np.float32))
    assert buffer.storage.size == 4 * 256
    assert np.isnan(buffer.storage).sum() == 4 * 56


KERNEL_OPS = """
func.func @ops(%a: memref<8x128xf32, #tpu.memory_space<vmem>>, %b: memref<128x128xf32, #tpu.memory_space<vmem>>,
               %o: memref<8x128xf32, #tpu.memory_space<vmem>>, %io: memref<8x128xi32, #tpu.memory_space<vmem>>,
               %hbm: memref<8x128xf32, #tpu.memory_space<any>>, %amount: i32) {
  %c0 = arith.constant 0 : index
  %l = tpu.vector_load %a[%c0, %c0] {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  %r = vector.load %b[%c0, %c0] : memref<128x128xf32, #tpu.memory_space<vmem>>, vector<128x128xf32>
  %zero = arith.constant dense<0.0> : vector<8x128xf32>
  %mm = tpu.matmul %l, %r, %zero {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>} : vector<8x128xf32>, vector<128x128xf32>, vector<8x128xf32> -> vector<8x128xf32>
  %rot = tpu.dynamic_rotate %mm by %amount dim 1 : vector<8x128xf32>, i32 -> vector<8x128xf32>
  tpu.vector_store %o[%c0, %c0], %rot {strides = array<i32>} : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>,
  %i = tpu.iota {dimensions = array<i32: 1, 0>} : vector<8x128xi32>
  vector.store %i, %io[%c0, %c0] : memref<8x128xi32, #tpu.memory_space<vmem>>, vector<8x128xi32>
  %sem = tpu.sem_alloc : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>
  tpu.enqueue_dma source(%o : memref<8x128xf32, #tpu.memory_space<vmem>>) target(%hbm : memref<8x128xf32, #tpu.memory_space<any>>) target_semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>)
  tpu.wait_dma2 semaphore(%sem : memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>) src(%o : memref<8x128xf32, #tpu.memory_space<vmem>>) dst(%hbm : memref<8x128xf32, #tpu.memory_space<any>>)
  return
}
"""  # noqa: E501 - IR listing, one op per line


def test_matmul_rotate_iota_and_dma() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((8, 128)).astype(np.float32)
    b = rng.standard_normal((128, 128)).astype(np.float32)
    zeros = np.zeros((8, 128), np.float32)
    _, _, out, iota, hbm = run_tpu_kernel(
        _module(KERNEL_OPS), [a, b, zeros, np.zeros((8, 128), np.int32), zeros, 5]
    )
    expected = np.roll(a @ b, 5, axis=1)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)
    np.testing.assert_array_equal(hbm, out)
    # iota over dims (1, 0): the lane index major, the row index minor.
    np.testing.assert_array_equal(iota, np.arange(128)[None, :] * 8 + np.arange(8)[:, None])


def test_waiting_on_a_semaphore_nobody_signals_is_an_error() -> None:
    text = """
    func.func @f(%s: memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>) {
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      tpu.sem_signal %s, %one : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
      tpu.sem_wait %s, %two : memref<!tpu.semaphore, #tpu.memory_space<semaphore_mem>>
      return
    }
    """
    with pytest.raises(
        UserError,
        match=re.escape(
            "'tpu.sem_wait' op waits for 2 but the semaphore holds 1: it would wait forever"
        ),
    ):
        run_tpu_kernel(_module(text), [None])


def test_slices_and_squeezes_view_the_same_memory() -> None:
    text = """
    func.func @f(%m: memref<2x8x256xf32, #tpu.memory_space<vmem>>, %k: i32) -> vector<8x128xf32> {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      %i0 = arith.constant 0 : index
      %s = tpu.memref_slice %m[%k, %c0, %c128] : memref<2x8x256xf32, #tpu.memory_space<vmem>> -> memref<1x8x128xf32, #tpu.memory_space<vmem>>
      %q = tpu.memref_squeeze %s : memref<1x8x128xf32, #tpu.memory_space<vmem>> -> memref<8x128xf32, #tpu.memory_space<vmem>>
      %v = vector.load %q[%i0, %i0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %two = arith.constant dense<2.0> : vector<8x128xf32>
      %w = arith.mulf %v, %two : vector<8x128xf32>
      vector.store %w, %q[%i0, %i0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      return %v : vector<8x128xf32>
    }
    """  # noqa: E501 - IR listing, one op per line
    m = np.random.default_rng(1).standard_normal((2, 8, 256)).astype(np.float32)
    loaded, after = run_tpu_kernel(_module(text), [m, 1])
    np.testing.assert_array_equal(loaded, m[1, :, 128:])
    expected = m.copy()
    expected[1, :, 128:] *= 2
    np.testing.assert_array_equal(after, expected)


STRIDED_SLICES_AND_MASKS = """
func.func @f(%a: vector<8x256xf32>, %b: vector<16xf32>, %i: index, %j: index) -> (vector<2x32xf32>, vector<8x256xf32>, vector<8x256xi1>, vector<8x256xi1>) {
  %s = vector.extract_strided_slice %a {offsets = [3, 100], sizes = [2, 32], strides = [1, 1]} : vector<8x256xf32> to vector<2x32xf32>
  %p = vector.insert_strided_slice %b, %a {offsets = [5, 200], strides = [1]} : vector<16xf32> into vector<8x256xf32>
  %c8 = arith.constant 8 : index
  %upto_i = vector.create_mask %c8, %i : vector<8x256xi1>
  %upto_j = vector.create_mask %j, %c8 : vector<8x256xi1>
  %x = arith.xori %upto_i, %upto_j : vector<8x256xi1>
  %n = arith.andi %upto_i, %upto_j : vector<8x256xi1>
  %o = arith.ori %x, %n : vector<8x256xi1>
  return %s, %p, %x, %o : vector<2x32xf32>, vector<8x256xf32>, vector<8x256xi1>, vector<8x256xi1>
}
"""  # noqa: E501 - IR listing, one op per line


def test_strided_slices_masks_and_i1_logic() -> None:
    rng = np.random.default_rng(11)
    a = rng.standard_normal((8, 256)).astype(np.float32)
    b = rng.standard_normal(16).astype(np.float32)
    sliced, placed, xor, union = run_tpu_kernel(_module(STRIDED_SLICES_AND_MASKS), [a, b, 40, 3])
    np.testing.assert_array_equal(sliced, a[3:5, 100:132])
    expected = a.copy()
    expected[5, 200:216] = b
    np.testing.assert_array_equal(placed, expected)
    lanes, rows = np.arange(256)[None, :], np.arange(8)[:, None]
    upto_i = np.broadcast_to(lanes < 40, (8, 256))
    upto_j = np.broadcast_to((rows < 3) & (lanes < 8), (8, 256))
    np.testing.assert_array_equal(xor, upto_i ^ upto_j)
    np.testing.assert_array_equal(union, upto_i | upto_j)


def test_scalar_integer_arithmetic_wraps_to_its_width() -> None:
    """Scalars are Python ints, which never overflow: results wrap to the type's width."""
    module = _module("""
func.func @f(%a: i32, %b: i8) -> (i32, i32, i8) {
  %c1 = arith.constant 1 : i32
  %c31 = arith.constant 31 : i32
  %sum = arith.addi %a, %c1 : i32
  %shifted = arith.shli %c1, %c31 : i32
  %product = arith.muli %b, %b : i8
  return %sum, %shifted, %product : i32, i32, i8
}
""")
    outputs = run_tpu_kernel(module, [2**31 - 1, 16])
    assert [int(v) for v in outputs] == [-(2**31), -(2**31), 0]


def test_sign_extension_of_true_is_minus_one() -> None:
    module = _module("""
func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %is_zero = arith.cmpi eq, %a, %c0 : i32
  %wide = arith.extsi %is_zero : i1 to i32
  return %wide : i32
}
""")
    assert int(run_tpu_kernel(module, [0])[0]) == -1
    assert int(run_tpu_kernel(module, [5])[0]) == 0


SCALAR_F32_ARGUMENT = """
func.func @k(%s: f32, %out: memref<8x128xf32, #tpu.memory_space<vmem>>) {
  %c0 = arith.constant 0 : index
  %t = arith.mulf %s, %s : f32
  %b = vector.broadcast %t : f32 to vector<8x128xf32>
  vector.store %b, %out[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return
}
"""

ZERO_D_VECTOR = """
func.func @k(%x: memref<f32, #tpu.memory_space<vmem>>, %out: memref<f32, #tpu.memory_space<vmem>>) {
  %v = vector.load %x[] : memref<f32, #tpu.memory_space<vmem>>, vector<f32>
  %w = arith.addf %v, %v : vector<f32>
  vector.store %w, %out[] : memref<f32, #tpu.memory_space<vmem>>, vector<f32>
  return
}
"""


@pytest.mark.parametrize("scalar", [np.float32(1.1), np.array(1.1, np.float32), 1.1])
def test_a_scalar_f32_argument_rounds_as_f32(scalar: object) -> None:
    (result,) = run_tpu_kernel(_module(SCALAR_F32_ARGUMENT), [scalar, np.zeros((8, 128))])
    expected = np.float32(1.1) * np.float32(1.1)  # f32 arithmetic, not Python's double
    np.testing.assert_array_equal(result, np.full((8, 128), expected, np.float32))


def test_a_zero_d_vector_loads_and_stores() -> None:
    x = np.array(2.5, np.float32)
    _, result = run_tpu_kernel(_module(ZERO_D_VECTOR), [x, np.zeros((), np.float32)])
    assert result.shape == () and result == 5.0


def test_a_non_number_scalar_argument_is_an_error() -> None:
    with pytest.raises(UserError, match="takes a number"):
        run_tpu_kernel(_module(SCALAR_F32_ARGUMENT), ["x", np.zeros((8, 128))])
