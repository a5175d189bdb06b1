"""Pallas kernels over their grid: arrays of DMA semaphores, dynamic grid bounds, float8
refs and operand counts, each with its error paths. The kernels are written here."""

from __future__ import annotations

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.npz import write_npz
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.interpreter.tpu_grid import output_shapes_from_grid, run_pallas_kernel
from xla_emit.ir import parse_mlir
from xla_emit.tools.run import main

VMEM = "#tpu.memory_space<vmem>"
ANY = "#tpu.memory_space<any>"
SEMS = "memref<2x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
SEM = "memref<!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
SEM1 = "memref<1x!tpu.dma_semaphore, #tpu.memory_space<semaphore_mem>>"
V8 = f"memref<8x128xf32, {VMEM}>"
A8 = f"memref<8x128xf32, {ANY}>"
A32 = f"memref<32x128xf32, {ANY}>"
B1 = f"memref<1x8x128xf32, {VMEM}>"
B2 = f"memref<2x8x128xf32, {VMEM}>"


def _module(text: str, name: str = "kernel.mlir"):  # type: ignore[no-untyped-def]
    return parse_mlir(text, name)


# Double buffering across grid steps: step i waits for the copy of block i into
# buf[i % 2] (started by the step before, or by step 0 itself), starts the copy of block
# i + 1 into the other buffer, and writes block i plus 1 to its output window.
PIPELINED = f"""module {{
  func.func @kernel(%i: i32, %x: {A32}, %o: {V8},
                    %buf: {B2}, %sems: {SEMS}) attributes {{
      dimension_semantics = [#tpu.dimension_semantics<arbitrary>],
      iteration_bounds = array<i64: 4>, scalar_prefetch = 0 : i64, scratch_operands = 2 : i64,
      window_params = [{{}}, {{transform_indices = @map, window_bounds = array<i64: 8, 128>}}]}} {{
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c8 = arith.constant 8 : i32
    %last = arith.constant {{LAST}} : i32
    %first = arith.cmpi eq, %i, %c0 : i32
    scf.if %first {{
      %s0 = tpu.memref_slice %sems[%c0] : {SEMS} -> {SEM1}
      %s = tpu.memref_squeeze %s0 : {SEM1} -> {SEM}
      %src = tpu.memref_slice %x[%c0, %c0] : {A32} -> {A8}
      %d0 = tpu.memref_slice %buf[%c0, %c0, %c0] : {B2} -> {B1}
      %dst = tpu.memref_squeeze %d0 : {B1} -> {V8}
      tpu.enqueue_dma source(%src : {A8}) target(%dst : {V8}) target_semaphore(%s : {SEM})
    }}
    %slot = arith.remsi %i, %c2 : i32
    %next = arith.addi %i, %c1 : i32
    %other = arith.remsi %next, %c2 : i32
    %more = arith.cmpi slt, %next, %last : i32
    scf.if %more {{
      %row = arith.muli %next, %c8 : i32
      %s0 = tpu.memref_slice %sems[%other] : {SEMS} -> {SEM1}
      %s = tpu.memref_squeeze %s0 : {SEM1} -> {SEM}
      %src = tpu.memref_slice %x[%row, %c0] : {A32} -> {A8}
      %d0 = tpu.memref_slice %buf[%other, %c0, %c0] : {B2} -> {B1}
      %dst = tpu.memref_squeeze %d0 : {B1} -> {V8}
      tpu.enqueue_dma source(%src : {A8}) target(%dst : {V8}) target_semaphore(%s : {SEM})
    }}
    %w0 = tpu.memref_slice %sems[%slot] : {SEMS} -> {SEM1}
    %w = tpu.memref_squeeze %w0 : {SEM1} -> {SEM}
    %b0 = tpu.memref_slice %buf[%slot, %c0, %c0] : {B2} -> {B1}
    %b = tpu.memref_squeeze %b0 : {B1} -> {V8}
    tpu.wait_dma2 semaphore(%w : {SEM}) src(%b : {V8}) dst(%b : {V8})
    %z = arith.constant 0 : index
    %v = vector.load %b[%z, %z] : {V8}, vector<8x128xf32>
    %one = arith.constant dense<1.0> : vector<8x128xf32>
    %r = arith.addf %v, %one : vector<8x128xf32>
    vector.store %r, %o[%z, %z] : {V8}, vector<8x128xf32>
    return
  }}
  func.func @map(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}
"""

ROWS = np.arange(32 * 128, dtype=np.float32).reshape(32, 128)


def test_dma_semaphore_array_pipelines_across_grid_steps() -> None:
    module, _ = _module(PIPELINED.replace("{LAST}", "4"))
    (out,) = run_pallas_kernel(module, [ROWS], [(32, 128)])
    np.testing.assert_array_equal(out, ROWS + 1)


def test_a_wait_on_a_semaphore_nothing_signalled_names_the_wait() -> None:
    # The last prefetch is skipped one step early: step 3 waits on a copy never started.
    module, source = _module(PIPELINED.replace("{LAST}", "3"))
    with pytest.raises(UserError) as caught:
        run_pallas_kernel(module, [ROWS], [(32, 128)], source.location_of)
    assert str(caught.value).splitlines()[0] == (
        "kernel.mlir:38:5: error: 'tpu.wait_dma2' op waits for a DMA that was never started: "
        "it would wait forever"
    )


def test_a_semaphore_index_past_the_array_is_out_of_bounds() -> None:
    text = PIPELINED.replace("{LAST}", "4").replace(
        "%w0 = tpu.memref_slice %sems[%slot]", "%w0 = tpu.memref_slice %sems[%c2]"
    )
    module, source = _module(text)
    message = "'tpu.memref_slice' op reads or writes out of bounds: index 2..2 in dimension 0"
    with pytest.raises(UserError, match=re.escape(message)):
        run_pallas_kernel(module, [ROWS], [(32, 128)], source.location_of)


def test_a_whole_semaphore_array_where_one_semaphore_goes_is_an_error() -> None:
    text = f"""func.func @f(%sems: {SEMS}) {{
  %c1 = arith.constant 1 : i32
  tpu.sem_signal %sems, %c1 : {SEMS}
  return
}}
"""
    module, source = _module(text)
    with pytest.raises(UserError) as caught:
        run_tpu_kernel(module, [None], locate=source.location_of)
    assert str(caught.value).splitlines()[0] == (
        f"kernel.mlir:3:3: error: 'tpu.sem_signal' op takes {SEMS} where one semaphore is expected"
    )


# The grid's only dimension is dynamic: its bound is the call's leading operand, and the
# kernel reads it with tpu.iteration_bound (Pallas's num_programs).
DYNAMIC = f"""module {{
  func.func @kernel(%i: i32, %x: memref<8x128xf32, {VMEM}>, %o: memref<8x128xf32, {VMEM}>)
      attributes {{dimension_semantics = [#tpu.dimension_semantics<parallel>],
      iteration_bounds = array<i64: -9223372036854775808>, scalar_prefetch = 0 : i64,
      scratch_operands = 0 : i64,
      window_params = [{{transform_indices = @map, window_bounds = array<i64: 8, 128>}},
                       {{transform_indices = @map, window_bounds = array<i64: 8, 128>}}]}} {{
    %n = tpu.iteration_bound 0 : i32
    %z = arith.constant 0 : index
    %v = vector.load %x[%z, %z] : memref<8x128xf32, {VMEM}>, vector<8x128xf32>
    %i_f = arith.sitofp %i : i32 to f32
    %n_f = arith.sitofp %n : i32 to f32
    %scale = arith.mulf %n_f, %i_f : f32
    %s = vector.broadcast %scale : f32 to vector<8x128xf32>
    %r = arith.addf %v, %s : vector<8x128xf32>
    vector.store %r, %o[%z, %z] : memref<8x128xf32, {VMEM}>, vector<8x128xf32>
    return
  }}
  func.func @map(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}
"""


def _dynamic_expected(steps: int) -> np.ndarray:
    block = np.repeat(np.arange(steps, dtype=np.float32) * steps, 8)[:, None]
    return ROWS[: 8 * steps] + block


@pytest.mark.parametrize("steps", [1, 3, 4])
def test_a_dynamic_grid_bound_comes_as_the_leading_operand(steps: int) -> None:
    module, _ = _module(DYNAMIC)
    x = ROWS[: 8 * steps]
    assert output_shapes_from_grid(module, [np.int32(steps), x]) == [(8 * steps, 128)]
    (out,) = run_pallas_kernel(module, [np.int32(steps), x], [(8 * steps, 128)])
    np.testing.assert_array_equal(out, _dynamic_expected(steps))


@pytest.mark.parametrize(
    ("operands", "message"),
    [
        ([ROWS], "grid dimension 0 is dynamic: operand 0 must be its bound (an integer scalar), "
                 "but it is float32[32, 128]"),
        ([], "grid dimension 0 is dynamic: operand 0 must be its bound, but the call has 0 "
             "operands"),
        ([np.int32(-1), ROWS], "grid dimension 0 is dynamic: operand 0 must be its bound, but "
                               "it is -1"),
        ([np.float32(4), ROWS], "grid dimension 0 is dynamic: operand 0 must be its bound (an "
                                "integer scalar), but it is float32[]"),
    ],
)  # fmt: skip
def test_a_missing_or_bad_dynamic_bound_is_an_error_at_the_kernel(
    operands: list[np.ndarray], message: str
) -> None:
    module, source = _module(DYNAMIC)
    with pytest.raises(UserError) as caught:
        run_pallas_kernel(module, operands, [(32, 128)], source.location_of)
    assert str(caught.value).splitlines()[0] == f"kernel.mlir:2:3: error: @kernel: {message}"


def test_iteration_bound_of_a_dynamic_grid_outside_a_grid_run_is_an_error() -> None:
    module, source = _module(DYNAMIC)
    x, o = np.zeros((8, 128), np.float32), np.zeros((8, 128), np.float32)
    message = "'tpu.iteration_bound' op asks for grid dimension 0, which is dynamic"
    with pytest.raises(UserError, match=re.escape(message)):
        run_tpu_kernel(module, [0, x, o], "kernel", source.location_of)


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_the_command_line_runs_a_dynamic_grid_and_rejects_a_missing_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kernel = _write(tmp_path / "dynamic.mlir", DYNAMIC)
    given, missing, out = tmp_path / "in.npz", tmp_path / "missing.npz", tmp_path / "out.npz"
    write_npz(str(given), {"arg0": np.asarray(np.int32(4)), "arg1": ROWS})
    write_npz(str(missing), {"arg0": ROWS})
    assert main([str(kernel), "--inputs", str(given), "-o", str(out)]) == 0
    np.testing.assert_array_equal(np.load(out)["out0"], _dynamic_expected(4))
    capsys.readouterr()
    assert main([str(kernel), "--inputs", str(missing), "-o", str(out)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{kernel}:2:3: error: @kernel: grid dimension 0 is dynamic: operand 0 must be its "
        "bound (an integer scalar), but it is float32[32, 128]"
    )


# Every float8 type jax has: a copy of the f8 block and the block widened to f32.
FLOAT8 = {
    "f8E3M4": ml_dtypes.float8_e3m4,
    "f8E4M3": ml_dtypes.float8_e4m3,
    "f8E4M3B11FNUZ": ml_dtypes.float8_e4m3b11fnuz,
    "f8E4M3FN": ml_dtypes.float8_e4m3fn,
    "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz,
    "f8E5M2": ml_dtypes.float8_e5m2,
    "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz,
    "f8E8M0FNU": ml_dtypes.float8_e8m0fnu,
}


def _float8_kernel(type_: str) -> str:
    ref = f"memref<32x128x{type_}, {VMEM}>"
    wide = f"memref<32x128xf32, {VMEM}>"
    return f"""module {{
  func.func @kernel(%x: {ref}, %copy: {ref}, %wide: {wide}) attributes {{
      dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64}} {{
    %z = arith.constant 0 : index
    %v = vector.load %x[%z, %z] : {ref}, vector<32x128x{type_}>
    vector.store %v, %copy[%z, %z] : {ref}, vector<32x128x{type_}>
    %w = arith.extf %v : vector<32x128x{type_}> to vector<32x128xf32>
    vector.store %w, %wide[%z, %z] : {wide}, vector<32x128xf32>
    return
  }}
}}
"""


def _every_bit_pattern() -> np.ndarray:
    return np.resize(np.arange(256, dtype=np.uint8), (32, 128))


@pytest.mark.parametrize("type_", sorted(FLOAT8))
def test_float8_refs_take_and_give_uint8_bit_patterns(type_: str) -> None:
    module, _ = _module(_float8_kernel(type_))
    bits = _every_bit_pattern()
    copy, wide = run_pallas_kernel(module, [bits], [(32, 128), (32, 128)])
    assert copy.dtype == FLOAT8[type_]
    np.testing.assert_array_equal(copy.view(np.uint8), bits)
    expected = bits.view(FLOAT8[type_]).astype(np.float32)
    np.testing.assert_array_equal(np.isnan(wide), np.isnan(expected))
    np.testing.assert_array_equal(wide[~np.isnan(wide)], expected[~np.isnan(expected)])


@pytest.mark.parametrize("type_", ["f8E4M3FN", "f8E5M2FNUZ"])
def test_float8_npz_round_trip_on_the_command_line(tmp_path: Path, type_: str) -> None:
    kernel = _write(tmp_path / "f8.mlir", _float8_kernel(type_))
    inputs, out = tmp_path / "in.npz", tmp_path / "out.npz"
    write_npz(str(inputs), {"arg0": _every_bit_pattern()})
    assert main([str(kernel), "--inputs", str(inputs), "-o", str(out)]) == 0
    stored = np.load(out)
    assert stored["out0"].dtype == np.uint8
    np.testing.assert_array_equal(stored["out0"], _every_bit_pattern())


def test_float8_bits_of_the_wrong_width_are_an_error() -> None:
    module, _ = _module(_float8_kernel("f8E4M3FN"))
    with pytest.raises(UserError, match="operand 0 has dtype uint16, but the kernel's ref is"):
        run_pallas_kernel(module, [_every_bit_pattern().astype(np.uint16)], [(32, 128)] * 2)


# Two inputs and one output: when the outputs are inferred, an input left out would
# make the second input an output; the kernel only reads it, so that is an error.
TWO_INPUTS = f"""module {{
  func.func @kernel(%i: i32, %x: memref<8x128xf32, {VMEM}>, %y: memref<8x128xf32, {VMEM}>,
                    %o: memref<8x128xf32, {VMEM}>) attributes {{
      dimension_semantics = [#tpu.dimension_semantics<parallel>],
      iteration_bounds = array<i64: 2>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64,
      window_params = [{{transform_indices = @map, window_bounds = array<i64: 8, 128>}},
                       {{transform_indices = @map, window_bounds = array<i64: 8, 128>}},
                       {{transform_indices = @map, window_bounds = array<i64: 8, 128>}}]}} {{
    %z = arith.constant 0 : index
    %a = vector.load %x[%z, %z] : memref<8x128xf32, {VMEM}>, vector<8x128xf32>
    %b = vector.load %y[%z, %z] : memref<8x128xf32, {VMEM}>, vector<8x128xf32>
    %r = arith.subf %a, %b : vector<8x128xf32>
    vector.store %r, %o[%z, %z] : memref<8x128xf32, {VMEM}>, vector<8x128xf32>
    return
  }}
  func.func @map(%i: i32) -> (i32, i32) {{
    %c0 = arith.constant 0 : i32
    return %i, %c0 : i32, i32
  }}
}}
"""


def test_the_right_operands_run() -> None:
    module, _ = _module(TWO_INPUTS)
    x, y = ROWS[:16], ROWS[16:]
    assert output_shapes_from_grid(module, [x, y]) == [(16, 128)]
    (out,) = run_pallas_kernel(module, [x, y], [(16, 128)])
    np.testing.assert_array_equal(out, x - y)


@pytest.mark.parametrize("given_shapes", [False, True])
def test_an_input_left_out_is_an_error_not_a_run(given_shapes: bool) -> None:
    module, source = _module(TWO_INPUTS)
    with pytest.raises(UserError) as caught:
        if given_shapes:  # the counts fit: one input, two outputs
            run_pallas_kernel(module, [ROWS[:16]], [(16, 128)] * 2, source.location_of)
        else:
            output_shapes_from_grid(module, [ROWS[:16]], source.location_of)
    assert str(caught.value).splitlines()[0] == (
        f"kernel.mlir:2:3: error: @kernel: operand ref 1 (memref<8x128xf32, {VMEM}>) is only "
        "read, so it is an input, but the call gave 1 inputs: an input is missing"
    )


@pytest.mark.parametrize(
    ("count", "outputs", "message"),
    [
        (3, 1, "got 3 operands and 1 outputs"),
        (2, 0, "got 2 operands and 0 outputs"),
    ],
)
def test_operand_counts_that_do_not_fit_are_errors_at_the_kernel(
    count: int, outputs: int, message: str
) -> None:
    module, source = _module(TWO_INPUTS)
    operands = [ROWS[:16]] * count
    with pytest.raises(UserError) as caught:
        run_pallas_kernel(module, operands, [(16, 128)] * outputs, source.location_of)
    assert str(caught.value).splitlines()[0] == (
        "kernel.mlir:2:3: error: @kernel: takes 0 prefetch arrays, 3 inputs and outputs, but "
        + message
    )


def test_too_many_operands_with_inferred_outputs_is_an_error() -> None:
    module, source = _module(TWO_INPUTS)
    with pytest.raises(UserError, match="which leave no output"):
        output_shapes_from_grid(module, [ROWS[:16]] * 3, source.location_of)


def test_a_plain_function_given_the_wrong_count_is_an_error_at_its_line() -> None:
    text = """func.func @f(%x: memref<8x128xf32>) {
  return
}
"""
    module, source = _module(text)
    with pytest.raises(UserError) as caught:
        run_tpu_kernel(module, [], locate=source.location_of)
    assert str(caught.value).splitlines()[0] == (
        "kernel.mlir:1:1: error: @f takes 1 arguments, but got 0"
    )


COPY_I32 = f"""module {{
  func.func @kernel(%x: memref<8x128xi32, {VMEM}>, %o: memref<8x128xi32, {VMEM}>) attributes {{
      dimension_semantics = [], scalar_prefetch = 0 : i64, scratch_operands = 0 : i64}} {{
    %z = arith.constant 0 : index
    %v = vector.load %x[%z, %z] : memref<8x128xi32, {VMEM}>, vector<8x128xi32>
    %c = arith.constant dense<1> : vector<8x128xi32>
    %s = arith.shrui %v, %c : vector<8x128xi32>
    vector.store %s, %o[%z, %z] : memref<8x128xi32, {VMEM}>, vector<8x128xi32>
    return
  }}
}}
"""


def test_unsigned_arrays_of_the_width_feed_signless_integer_refs() -> None:
    """A uint32 array (a PRNG key) holds the bits of an i32 ref; the shift reads them unsigned."""
    module, _ = _module(COPY_I32)
    bits = np.full((8, 128), 0xFFFFFFFE, np.uint32)
    (out,) = run_pallas_kernel(module, [bits], [(8, 128)])
    assert (out == 0x7FFFFFFF).all()
    with pytest.raises(UserError, match="operand 0 has dtype uint16"):
        run_pallas_kernel(module, [bits.astype(np.uint16)], [(8, 128)])


def test_a_ref_only_copied_from_by_dma_is_an_input() -> None:
    """x reaches the kernel only as the source of DMAs (through slices): it is read, never
    written, so with no operands given it cannot be taken for an output."""
    module, source = _module(PIPELINED.replace("{LAST}", "4"))
    with pytest.raises(UserError) as caught:
        output_shapes_from_grid(module, [], source.location_of)
    assert "operand ref 0 (memref<32x128xf32, #tpu.memory_space<any>>) is only read" in str(
        caught.value
    )
