"""tpu-realign-accesses against numpy: realigned kernels read and write what the originals do.

Each kernel is run three ways for several dynamic offsets (tile starts, the
last in-bounds offset, offsets where the window is clamped to the memref's
end): the original kernel in the interpreter, the realigned one, and numpy
slicing (the oracle). The realigned kernel must also pass the alignment
proof, which the original fails. A property test does the same for random
shapes, blocks and offsets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import PassFailedException
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.tpu.tpu_realign_accesses import TpuRealignAccessesPass
from xla_emit.passes.tpu.tpu_verify_alignment import TpuVerifyAlignmentPass

from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import make_context, parse_mlir

VMEM = "#tpu.memory_space<vmem>"

Array = npt.NDArray[np.generic]


@dataclass(frozen=True)
class Case:
    """A kernel `@k(%x, [%v,] offsets...)`, its memref and an oracle for one run."""

    name: str
    text: str
    shape: tuple[int, ...]
    dtype: np.dtype[np.generic]
    offsets: list[tuple[int, ...]]
    stored: tuple[int, ...] | None  # the stored vector's shape, for store kernels
    expect: Callable[[Array, Array | None, tuple[int, ...]], Array]


def _load_block(block: tuple[int, ...]) -> Callable[[Array, Array | None, tuple[int, ...]], Array]:
    """The oracle for a load of `block` at the offsets (one per memref dim)."""

    def expect(x: Array, _: Array | None, at: tuple[int, ...]) -> Array:
        return x[tuple(slice(a, a + b) for a, b in zip(at, block, strict=True))]

    return expect


def _store_block(x: Array, v: Array | None, at: tuple[int, ...]) -> Array:
    assert v is not None
    expected = x.copy()
    expected[tuple(slice(a, a + b) for a, b in zip(at, v.shape, strict=True))] = v
    return expected


F32 = np.dtype(np.float32)

CASES = [
    Case(
        "seed_single_row",
        f"""func.func @k(%x: memref<4x256xf32, {VMEM}>, %row: index, %col: index) -> vector<1x32xf32> {{
  %v = vector.load %x[%row, %col] : memref<4x256xf32, {VMEM}>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}}""",  # noqa: E501 - IR listing, one op per line
        (4, 256),
        F32,
        [(0, 0), (1, 1), (3, 127), (2, 128), (3, 200), (0, 224)],
        None,
        _load_block((1, 32)),
    ),
    Case(
        "multi_row_lanes",
        f"""func.func @k(%x: memref<8x512xf32, {VMEM}>, %col: index) -> vector<8x32xf32> {{
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%c0, %col] : memref<8x512xf32, {VMEM}>, vector<8x32xf32>
  return %v : vector<8x32xf32>
}}""",
        (8, 512),
        F32,
        [(0,), (5,), (127,), (128,), (255,), (300,), (383,), (384,), (400,), (480,)],
        None,
        lambda x, _, at: x[0:8, at[0] : at[0] + 32],
    ),
    Case(
        "misaligned_rows",
        f"""func.func @k(%x: memref<64x256xf32, {VMEM}>, %row: index) -> vector<8x128xf32> {{
  %c128 = arith.constant 128 : index
  %v = vector.load %x[%row, %c128] : memref<64x256xf32, {VMEM}>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}}""",
        (64, 256),
        F32,
        [(0,), (1,), (7,), (8,), (15,), (47,), (48,), (51,), (56,)],
        None,
        lambda x, _, at: x[at[0] : at[0] + 8, 128:256],
    ),
    Case(
        "rows_and_lanes",
        f"""func.func @k(%x: memref<32x512xf32, {VMEM}>, %row: index, %col: index) -> vector<8x32xf32> {{
  %v = tpu.vector_load %x[%row, %col] {{strides = array<i32>}} : memref<32x512xf32, {VMEM}>, vector<8x32xf32>,
  return %v : vector<8x32xf32>
}}""",  # noqa: E501 - IR listing, one op per line
        (32, 512),
        F32,
        [(0, 0), (3, 100), (7, 127), (8, 128), (17, 250), (24, 480), (20, 300)],
        None,
        _load_block((8, 32)),
    ),
    Case(
        "bf16_rows",
        """func.func @k(%x: memref<64x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, %row: index) -> vector<16x128xbf16> {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%row, %c0] : memref<64x128xbf16, #tpu.tiled<(16,128)(2,1),[1,1]>, #tpu.memory_space<vmem>>, vector<16x128xbf16>
  return %v : vector<16x128xbf16>
}""",  # noqa: E501 - IR listing, one op per line
        (64, 128),
        np.dtype(ml_dtypes.bfloat16),
        [(0,), (1,), (15,), (16,), (33,), (47,), (48,)],
        None,
        lambda x, _, at: x[at[0] : at[0] + 16, :],
    ),
    Case(
        "rank1_default_tiling",
        f"""func.func @k(%x: memref<2048xf32, {VMEM}>, %i: index) -> vector<32xf32> {{
  %v = vector.load %x[%i] : memref<2048xf32, {VMEM}>, vector<32xf32>
  return %v : vector<32xf32>
}}""",
        (2048,),
        F32,
        [(0,), (1,), (1000,), (1023,), (1024,), (2016,)],
        None,
        _load_block((32,)),
    ),
    Case(
        "rank1_tiled_128",
        f"""func.func @k(%x: memref<1024xf32, #tpu.tiled<(128),[1]>, {VMEM}>, %i: index) -> vector<100xf32> {{
  %v = vector.load %x[%i] : memref<1024xf32, #tpu.tiled<(128),[1]>, {VMEM}>, vector<100xf32>
  return %v : vector<100xf32>
}}""",  # noqa: E501 - IR listing, one op per line
        (1024,),
        F32,
        [(0,), (28,), (127,), (128,), (700,), (768,), (800,), (924,)],
        None,
        _load_block((100,)),
    ),
    Case(
        "store_lanes",
        f"""func.func @k(%x: memref<8x512xf32, {VMEM}>, %v: vector<8x32xf32>, %col: index) {{
  %c0 = arith.constant 0 : index
  vector.store %v, %x[%c0, %col] : memref<8x512xf32, {VMEM}>, vector<8x32xf32>
  return
}}""",
        (8, 512),
        F32,
        [(0,), (1,), (127,), (128,), (250,), (383,), (400,), (480,)],
        (8, 32),
        lambda x, v, at: _store_block(x, v, (0, at[0])),
    ),
    Case(
        "store_rows_and_lanes",
        f"""func.func @k(%x: memref<32x256xf32, {VMEM}>, %v: vector<8x32xf32>, %row: index, %col: index) {{
  tpu.vector_store %x[%row, %col], %v {{strides = array<i32>}} : memref<32x256xf32, {VMEM}>, vector<8x32xf32>,
  return
}}""",  # noqa: E501 - IR listing, one op per line
        (32, 256),
        F32,
        [(0, 0), (1, 2), (7, 127), (8, 128), (19, 200), (24, 224), (13, 96)],
        (8, 32),
        _store_block,
    ),
    Case(
        "store_rank1",
        f"""func.func @k(%x: memref<512xi32, #tpu.tiled<(128),[1]>, {VMEM}>, %v: vector<16xi32>, %i: index) {{
  vector.store %v, %x[%i] : memref<512xi32, #tpu.tiled<(128),[1]>, {VMEM}>, vector<16xi32>
  return
}}""",  # noqa: E501 - IR listing, one op per line
        (512,),
        np.dtype(np.int32),
        [(0,), (5,), (112,), (120,), (128,), (383,), (400,), (496,)],
        (16,),
        _store_block,
    ),
]


def _parse(text: str) -> ModuleOp:
    module, _ = parse_mlir(text, "<test>")
    return module


def _realigned(text: str) -> ModuleOp:
    module = _parse(text)
    TpuRealignAccessesPass().apply(make_context(), module)
    return module


def _inputs(case: Case, seed: int) -> tuple[Array, Array | None]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(case.shape) * 100
    v = rng.standard_normal(case.stored) * 100 if case.stored is not None else None
    return x.astype(case.dtype), (v.astype(case.dtype) if v is not None else None)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_realigned_kernel_computes_what_the_original_does(case: Case) -> None:
    original, realigned = _parse(case.text), _realigned(case.text)
    for seed, at in enumerate(case.offsets):
        x, v = _inputs(case, seed)
        args: list[object] = [x, *([v] if v is not None else []), *at]
        before = run_tpu_kernel(original, args)
        after = run_tpu_kernel(realigned, args)
        expected = case.expect(x, v, at)
        # Loads return the block; stores leave the memref (the last output) changed.
        np.testing.assert_array_equal(before[0] if v is None else before[-1], expected)
        np.testing.assert_array_equal(after[0] if v is None else after[-1], expected)
        if v is None:
            np.testing.assert_array_equal(after[-1], x)  # a realigned load writes nothing


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_realigned_kernel_passes_the_proof_the_original_fails(case: Case) -> None:
    with pytest.raises(OpError, match="cannot statically prove"):
        TpuVerifyAlignmentPass().apply(make_context(), _parse(case.text))
    TpuVerifyAlignmentPass().apply(make_context(), _realigned(case.text))


def test_realigned_store_keeps_the_rest_of_the_window() -> None:
    # Hand-worked: 16 lanes of 7 at lane 120 of a 512-lane row of -1s; the
    # window is lanes [0, 256), the mask lanes [120, 136): 120..135 become 7.
    case = next(c for c in CASES if c.name == "store_rank1")
    x = np.full(512, -1, np.int32)
    after = run_tpu_kernel(_realigned(case.text), [x, np.full(16, 7, np.int32), 120])[-1]
    assert np.flatnonzero(after == 7).tolist() == list(range(120, 136))
    assert (np.delete(after, range(120, 136)) == -1).all()


def test_hardware_generation_is_checked() -> None:
    with pytest.raises(PassFailedException, match="hardware-generation must be between 2 and 7"):
        TpuRealignAccessesPass(hardware_generation=1).apply(make_context(), _parse(CASES[0].text))


@st.composite
def _kernels(
    draw: st.DrawFn,
) -> tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
    """A random f32 load or store kernel at dynamic offsets, the offsets and the block."""
    store = draw(st.booleans())
    if draw(st.booleans()):
        size = draw(st.sampled_from([256, 512, 1024]))
        shape: tuple[int, ...] = (size,)
        block: tuple[int, ...] = (draw(st.integers(1, 130)),)
        layout = "#tpu.tiled<(128),[1]>, "
    else:
        shape = (draw(st.sampled_from([8, 16, 24])), draw(st.sampled_from([128, 256, 384])))
        block = (draw(st.integers(1, shape[0])), draw(st.integers(1, min(160, shape[1]))))
        layout = ""
    at = tuple(draw(st.integers(0, n - b)) for n, b in zip(shape, block, strict=True))
    memref = f"memref<{'x'.join(map(str, shape))}xf32, {layout}{VMEM}>"
    vector = f"vector<{'x'.join(map(str, block))}xf32>"
    indices = ", ".join(f"%i{d}" for d in range(len(shape)))
    params = ", ".join(f"%i{d}: index" for d in range(len(shape)))
    if store:
        body = f"vector.store %v, %x[{indices}] : {memref}, {vector}\n  return"
        text = f"func.func @k(%x: {memref}, %v: {vector}, {params}) {{\n  {body}\n}}"
    else:
        body = f"%r = vector.load %x[{indices}] : {memref}, {vector}\n  return %r : {vector}"
        text = f"func.func @k(%x: {memref}, {params}) -> {vector} {{\n  {body}\n}}"
    return text, shape, block, at, store


@settings(max_examples=40, deadline=None)
@given(_kernels())
def test_random_realigned_accesses_match_numpy(
    kernel: tuple[str, tuple[int, ...], tuple[int, ...], tuple[int, ...], bool],
) -> None:
    text, shape, block, at, store = kernel
    realigned = _realigned(text)
    TpuVerifyAlignmentPass().apply(make_context(), realigned)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    window = tuple(slice(a, a + b) for a, b in zip(at, block, strict=True))
    if store:
        v = rng.standard_normal(block).astype(np.float32)
        expected = x.copy()
        expected[window] = v
        np.testing.assert_array_equal(run_tpu_kernel(realigned, [x, v, *at])[-1], expected)
    else:
        np.testing.assert_array_equal(run_tpu_kernel(realigned, [x, *at])[0], x[window])
