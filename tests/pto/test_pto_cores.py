"""Cube-vector pipes, reserved buffers, async DMA and memref buffers in the PTO
executor, on our own kernels: a cube function multiplies and pushes, a vector
function pops and stores; the results are compared with numpy written here."""

from __future__ import annotations

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.pto import PTOExecutor
from xla_emit.ir import parse_mlir, verify_module

MAT = "!pto.tile_buf<mat, 16x16xf32, blayout=col_major, slayout=row_major>"
LEFT = "!pto.tile_buf<left, 16x16xf32, blayout=col_major, slayout=row_major>"
RIGHT = "!pto.tile_buf<right, 16x16xf32, slayout=col_major>"
ACC = "!pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>"
VIEW = "!pto.tensor_view<?x?xf32>"
PART = "!pto.partition_tensor_view<16x16xf32>"


def view(name: str, rows: int, cols: int) -> str:
    """A rows x cols row-major view `%{name}_v` of pointer `%{name}`."""
    shape, part = f"[%c{rows}, %c{cols}]", f"!pto.partition_tensor_view<{rows}x{cols}xf32>"
    return f"""
    %{name}_t = pto.make_tensor_view %{name}, shape = {shape}, strides = [%c{cols}, %c1]
      : {VIEW}
    %{name}_v = pto.partition_view %{name}_t, offsets = [%c0, %c0], sizes = {shape}
      : {VIEW} -> {part}"""


# The cube's product of the 16x16 views %a_v and %b_v into %acc.
CUBE_MATMUL = f"""\
    %ma = pto.alloc_tile : {MAT}
    %mb = pto.alloc_tile : {MAT}
    %l = pto.alloc_tile : {LEFT}
    %r = pto.alloc_tile : {RIGHT}
    %acc = pto.alloc_tile : {ACC}
    pto.tload ins(%a_v : {PART}) outs(%ma : {MAT})
    pto.tload ins(%b_v : {PART}) outs(%mb : {MAT})
    pto.tmov ins(%ma : {MAT}) outs(%l : {LEFT})
    pto.tmov ins(%mb : {MAT}) outs(%r : {RIGHT})
    pto.tmatmul ins(%l, %r : {LEFT}, {RIGHT}) outs(%acc : {ACC})"""

CONSTANTS = """
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0 : i32"""


def cube(split: int, pushes: int = 1) -> str:
    """c = a @ b, pushed `pushes` times to the vector core (the second push adds b)."""
    again = f"""
    pto.tmatmul.acc ins(%acc, %l, %r : {ACC}, {LEFT}, {RIGHT}) outs(%acc : {ACC})
    pto.tpush_to_aiv(%acc : {ACC}) {{split = {split}}}"""
    return f"""
  func.func private @cube(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>)
      attributes {{pto.kernel_kind = #pto.kernel_kind<cube>}} {{{CONSTANTS}
    %buf = pto.import_reserved_buffer {{name = "c2v", peer_func = @vector}} -> i32
    pto.aic_initialize_pipe {{dir_mask = 1, slot_size = 1024}}
      (c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %z : i32)
    {view("a", 16, 16)}
    {view("b", 16, 16)}
{CUBE_MATMUL}
    pto.tpush_to_aiv(%acc : {ACC}) {{split = {split}}}{again * (pushes - 1)}
    return
  }}"""


def vector(rows: int, cols: int, split: int, pops: int = 1) -> str:
    """Each sub-block pops its part and stores it where the part sits in the 16x16 output."""
    tile = f"!pto.tile_buf<vec, {rows}x{cols}xf32>"
    part = f"!pto.partition_tensor_view<{rows}x{cols}xf32>"
    row, col = ("%at", "%c0") if split == 1 else ("%c0", "%at") if split == 2 else ("%c0", "%c0")
    body = "".join(
        f"""
    %t{i} = pto.tpop_from_aic {{split = {split}}} -> {tile}
    %o{i}_t = pto.make_tensor_view %o{i}, shape = [%c16, %c16], strides = [%c16, %c1] : {VIEW}
    %o{i}_v = pto.partition_view %o{i}_t, offsets = [{row}, {col}], sizes = [%c{rows}, %c{cols}]
      : {VIEW} -> {part}
    pto.tstore ins(%t{i} : {tile}) outs(%o{i}_v : {part})
    pto.tfree_from_aic {{split = {split}}}"""
        for i in range(pops)
    )
    params = ", ".join(f"%o{i}: !pto.ptr<f32>" for i in range(pops))
    return f"""
  func.func private @vector({params})
      attributes {{pto.kernel_kind = #pto.kernel_kind<vector>}} {{{CONSTANTS}
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %at = arith.muli %sbi, %c8 : index
    %buf = pto.reserve_buffer {{name = "c2v", size = 8192, location = #pto.address_space<vec>,
                               auto = true}} -> i32
    pto.aiv_initialize_pipe {{dir_mask = 1, slot_size = 1024}}
      (c2v_consumer_buf = %buf : i32, v2c_consumer_buf = %z : i32){body}
    return
  }}"""


def run(text: str, args: list[np.ndarray]) -> None:
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    PTOExecutor(module, locate=source_map.location_of).run("entry", args)


def program(split: int, rows: int, cols: int, pops: int = 1, calls: str = "") -> str:
    outs = ", ".join(f"%o{i}" for i in range(pops))
    out_params = ", ".join(f"%o{i}: !pto.ptr<f32>" for i in range(pops))
    out_types = ", ".join(["!pto.ptr<f32>"] * pops)
    calls = calls or (
        "func.call @cube(%a, %b) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()\n"
        f"    func.call @vector({outs}) : ({out_types}) -> ()"
    )
    return f"""
module {{
  func.func @entry(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, {out_params}) attributes {{pto.entry}} {{
    {calls}
    return
  }}
  {cube(split, pops)}
  {vector(rows, cols, split, pops)}
}}"""


rng = np.random.default_rng(5)
A = rng.uniform(-1, 1, (16, 16)).astype(np.float32)
B = rng.uniform(-1, 1, (16, 16)).astype(np.float32)
PRODUCT = A.astype(np.float64) @ B.astype(np.float64)


@pytest.mark.parametrize(
    ("split", "rows", "cols"),
    [
        (0, 16, 16),  # both sub-blocks take the whole tile
        (1, 8, 16),  # TILE_UP_DOWN: sub-block 0 the upper rows, 1 the lower
        (2, 16, 8),  # TILE_LEFT_RIGHT: the left and right columns
    ],
)
def test_cube_tile_reaches_both_vector_subblocks(split: int, rows: int, cols: int) -> None:
    out = np.zeros(256, np.float32)
    run(program(split, rows, cols), [A, B, out])
    np.testing.assert_allclose(out.reshape(16, 16), PRODUCT, rtol=1e-5, atol=1e-6)


def test_pushes_arrive_in_order() -> None:
    first, second = np.zeros(256, np.float32), np.zeros(256, np.float32)  # split 0
    run(program(0, 16, 16, pops=2), [A, B, first, second])
    np.testing.assert_allclose(first.reshape(16, 16), PRODUCT, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second.reshape(16, 16), 2 * PRODUCT, rtol=1e-5, atol=1e-6)


def test_a_pop_waits_for_the_push_of_a_core_called_later() -> None:
    """The vector function is called first: its pops wait until the cube has pushed."""
    calls = (
        "func.call @vector(%o0) : (!pto.ptr<f32>) -> ()\n"
        "    func.call @cube(%a, %b) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()"
    )
    out = np.zeros(256, np.float32)
    run(program(1, 8, 16, calls=calls), [A, B, out])
    np.testing.assert_allclose(out.reshape(16, 16), PRODUCT, rtol=1e-5, atol=1e-6)


def test_a_pop_nothing_will_fill_is_a_located_error() -> None:
    text = program(0, 16, 16, calls="func.call @vector(%o0) : (!pto.ptr<f32>) -> ()")
    with pytest.raises(UserError) as error:
        run(text, [A, B, np.zeros(256, np.float32)])
    line = text.splitlines().index(next(x for x in text.splitlines() if "tpop_from_aic" in x))
    assert error.value.format().splitlines()[0] == (
        f"k.mlir:{line + 1}:5: error: 'pto.tpop_from_aic' op pops from the empty "
        "cube-to-vector pipe: no core pushes to it"
    )


def test_popped_shape_must_match_the_split_part() -> None:
    with pytest.raises(UserError, match="pops a 16x16 tile, but the pipe holds a 8x16 part"):
        run(program(1, 16, 16), [A, B, np.zeros(256, np.float32)])


def test_explicit_pipe_and_async_copy_and_memref_buffers() -> None:
    """tpush/tpop through an initialized pipe; tput_async; tadd on memref.alloc buffers."""
    vec = "!pto.tile_buf<vec, 8x16xf32>"
    gm = "memref<128xf32, #pto.address_space<gm>>"
    ub = "memref<8x16xf32, #pto.address_space<vec>>"
    text = f"""
func.func @entry(%x: !pto.ptr<f32>, %src: {gm}, %dst: {gm}, %out: !pto.ptr<f32>) {{{CONSTANTS}
  {view("x", 8, 16)}
  {view("out", 8, 16)}
  %pipe = pto.initialize_l2l_pipe {{dir_mask = 1, slot_size = 1024}} (%z : i32) -> !pto.pipe
  %t = pto.alloc_tile : {vec}
  %u = pto.alloc_tile : {vec}
  pto.tload ins(%x_v : !pto.partition_tensor_view<8x16xf32>) outs(%t : {vec})
  pto.tpush(%t, %pipe : {vec}, !pto.pipe) {{split = 0}}
  %peer = pto.initialize_l2l_pipe {{dir_mask = 1, slot_size = 1024}} (%z : i32) -> !pto.pipe
  pto.tpop(%u, %peer : {vec}, !pto.pipe) {{split = 0}}
  pto.tfree(%peer : !pto.pipe) {{split = 0}}
  pto.tstore ins(%u : {vec}) outs(%out_v : !pto.partition_tensor_view<8x16xf32>)
  %s = pto.build_async_session(%t, %t : {vec}, {vec}) -> !pto.async_session
  %e = pto.tput_async(%dst, %src, %s : {gm}, {gm}, !pto.async_session) -> !pto.async_event
  %done = pto.wait_async_event(%e, %s : !pto.async_event, !pto.async_session) -> i1
  %ub = memref.alloc() : {ub}
  pto.tadd ins(%ub, %ub : {ub}, {ub}) outs(%ub : {ub})
  return
}}"""
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    x = rng.uniform(-1, 1, 128).astype(np.float32)
    src, dst, out = rng.uniform(-1, 1, 128).astype(np.float32), np.zeros(128, np.float32), x * 0
    PTOExecutor(module).run("entry", [x, src, dst, out])
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(dst, src)


def test_a_two_way_pipe_carries_each_tile_the_way_its_location_points() -> None:
    """On one dir_mask = 3 pipe, a vec tile goes to the cube and a mat tile to the vector
    sub-blocks: the mat pop gets the vec push, the vec pop the mat push, whatever the
    order of the pushes."""
    vec = "!pto.tile_buf<vec, 16x16xf32>"
    text = f"""
func.func @entry(%x: !pto.ptr<f32>, %y: !pto.ptr<f32>, %o1: !pto.ptr<f32>, %o2: !pto.ptr<f32>) {{
  {CONSTANTS}
  {view("x", 16, 16)}
  {view("y", 16, 16)}
  {view("o1", 16, 16)}
  {view("o2", 16, 16)}
  %pipe = pto.initialize_l2l_pipe {{dir_mask = 3, slot_size = 1024}} (%z : i32, %z : i32)
    -> !pto.pipe
  %v = pto.alloc_tile : {vec}
  %a = pto.alloc_tile : {MAT}
  pto.tload ins(%x_v : {PART}) outs(%v : {vec})
  pto.tload ins(%y_v : {PART}) outs(%a : {MAT})
  pto.tpush(%a, %pipe : {MAT}, !pto.pipe) {{split = 0}}
  pto.tpush(%v, %pipe : {vec}, !pto.pipe) {{split = 0}}
  %m = pto.alloc_tile : {MAT}
  %w = pto.alloc_tile : {vec}
  pto.tpop(%m, %pipe : {MAT}, !pto.pipe) {{split = 0}}
  pto.tpop(%w, %pipe : {vec}, !pto.pipe) {{split = 0}}
  pto.tstore ins(%m : {MAT}) outs(%o1_v : {PART})
  pto.tstore ins(%w : {vec}) outs(%o2_v : {PART})
  return
}}"""
    x, y = A.reshape(-1).copy(), B.reshape(-1).copy()
    to_cube, to_vector = np.zeros(256, np.float32), np.zeros(256, np.float32)
    module, source_map = parse_mlir(text, "k.mlir")
    verify_module(module, source_map)
    PTOExecutor(module).run("entry", [x, y, to_cube, to_vector])
    np.testing.assert_array_equal(to_cube, x)
    np.testing.assert_array_equal(to_vector, y)


V2C = """
module {
  func.func @entry(%x: !pto.ptr<f32>, %out: !pto.ptr<f32>) attributes {pto.entry} {
    func.call @vector(%x) : (!pto.ptr<f32>) -> ()
    func.call @cube(%out) : (!pto.ptr<f32>) -> ()
    return
  }
  func.func private @vector(%x: !pto.ptr<f32>)
      attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {CONSTANTS
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %at = arith.muli %sbi, %c8 : index
    %x_t = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : VIEW
    %x_v = pto.partition_view %x_t, offsets = [%at, %c0], sizes = [%c8, %c16]
      : VIEW -> !pto.partition_tensor_view<8x16xf32>
    %t = pto.alloc_tile : HALF
    pto.tload ins(%x_v : !pto.partition_tensor_view<8x16xf32>) outs(%t : HALF)
    pto.tpush_to_aic(%t : HALF) {split = 1}
    return
  }
  func.func private @cube(%out: !pto.ptr<f32>)
      attributes {pto.kernel_kind = #pto.kernel_kind<cube>} {CONSTANTS
    %t = pto.tpop_from_aiv {split = 1} -> MAT
    %o_t = pto.make_tensor_view %out, shape = [%c16, %c16], strides = [%c16, %c1] : VIEW
    %o_v = pto.partition_view %o_t, offsets = [%c0, %c0], sizes = [%c16, %c16] : VIEW -> PART
    pto.tstore ins(%t : MAT) outs(%o_v : PART)
    return
  }
}"""


def v2c_program(vector_kind: str = "vector") -> str:
    text = V2C.replace("CONSTANTS", CONSTANTS).replace("VIEW", VIEW).replace("PART", PART)
    text = text.replace("HALF", "!pto.tile_buf<vec, 8x16xf32>").replace("MAT", MAT)
    return text.replace("kernel_kind<vector>", f"kernel_kind<{vector_kind}>")


def test_split_pushes_of_both_subblocks_join_at_the_cube() -> None:
    x, out = rng.uniform(-1, 1, 256).astype(np.float32), np.zeros(256, np.float32)
    run(v2c_program(), [x, out])
    np.testing.assert_array_equal(out, x)


def test_split_pop_needs_both_subblocks_parts() -> None:
    """A plain function (no vector kernel kind) runs once: sub-block 1 pushes nothing."""
    x, out = rng.uniform(-1, 1, 256).astype(np.float32), np.zeros(256, np.float32)
    with pytest.raises(UserError, match="pops a split tile, but vector sub-block 1 pushed no"):
        run(v2c_program("cube"), [x, out])


@pytest.mark.parametrize(
    ("body", "args", "message"),
    [
        (
            "%p = pto.initialize_l2l_pipe {dir_mask = 4, slot_size = 1024} (%z : i32) -> !pto.pipe",
            [],
            "'pto.initialize_l2l_pipe' op runs pipes of dir_mask 1, 2 or 3, not dir_mask 4",
        ),
        (
            "%s = pto.build_async_session(%a, %a : GM, GM) -> !pto.async_session\n"
            "  %e = pto.tput_async(%a, %b, %s : GM, GM, !pto.async_session) -> !pto.async_event",
            [np.zeros(128, np.float32), np.zeros(64, np.float32)],
            "'pto.tput_async' op copies 64 elements into 128",
        ),
    ],
)
def test_pipe_and_async_errors(body: str, args: list[np.ndarray], message: str) -> None:
    gm = "memref<128xf32, #pto.address_space<gm>>"
    params = "%a: GM, %b: GM" if args else ""
    text = f"""
func.func @entry({params}) {{
  %z = arith.constant 0 : i32
  {body}
  return
}}""".replace("GM", gm)
    with pytest.raises(UserError) as error:
        run(text, args)
    first = error.value.format().splitlines()[0]
    assert first.startswith("k.mlir:") and first.endswith(f": error: {message}")


def test_each_vector_subblock_has_its_own_local_memory() -> None:
    """Both sub-blocks keep a tile at vec address 0 across a pop that waits for the cube
    (called after them): neither overwrites the other's."""
    vec = "!pto.tile_buf<vec, 8x16xf32>"
    part = "!pto.partition_tensor_view<8x16xf32>"
    text = f"""
module {{
  func.func @entry(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %x: !pto.ptr<f32>)
      attributes {{pto.entry}} {{
    func.call @vector(%x) : (!pto.ptr<f32>) -> ()
    func.call @cube(%a, %b) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }}
  {cube(1)}
  func.func private @vector(%x: !pto.ptr<f32>)
      attributes {{pto.kernel_kind = #pto.kernel_kind<vector>}} {{{CONSTANTS}
    %a0 = arith.constant 0 : i64
    %sb = pto.get_subblock_idx
    %sbi = arith.index_cast %sb : i64 to index
    %at = arith.muli %sbi, %c8 : index
    %x_t = pto.make_tensor_view %x, shape = [%c16, %c16], strides = [%c16, %c1] : {VIEW}
    %x_v = pto.partition_view %x_t, offsets = [%at, %c0], sizes = [%c8, %c16] : {VIEW} -> {part}
    %kept = pto.alloc_tile addr = %a0 : {vec}
    pto.tload ins(%x_v : {part}) outs(%kept : {vec})
    %t = pto.tpop_from_aic {{split = 1}} -> {vec}
    pto.tadd ins(%kept, %t : {vec}, {vec}) outs(%t : {vec})
    pto.tstore ins(%t : {vec}) outs(%x_v : {part})
    return
  }}
}}"""
    x = rng.uniform(-1, 1, 256).astype(np.float32)
    expected = x.reshape(16, 16) + PRODUCT
    run(text, [A, B, x])
    np.testing.assert_allclose(x.reshape(16, 16), expected, rtol=1e-5, atol=1e-6)


def test_cube_and_vector_cores_talk_both_ways_over_one_two_way_pipe() -> None:
    """The cube pushes a @ b (acc) and pops what the vector sub-blocks push (vec) into a mat
    tile; the vector sub-blocks pop the product into vec tiles and push x: one dir_mask = 3
    pipe, initialized in each function, carries both."""
    vec = "!pto.tile_buf<vec, 16x16xf32>"
    pipe = "pto.initialize_l2l_pipe {dir_mask = 3, slot_size = 1024} (%z : i32, %z : i32)"
    text = f"""
module {{
  func.func @entry(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %x: !pto.ptr<f32>,
                   %o1: !pto.ptr<f32>, %o2: !pto.ptr<f32>) attributes {{pto.entry}} {{
    func.call @cube(%a, %b, %o2) : (!pto.ptr<f32>, !pto.ptr<f32>, !pto.ptr<f32>) -> ()
    func.call @vector(%x, %o1) : (!pto.ptr<f32>, !pto.ptr<f32>) -> ()
    return
  }}
  func.func private @cube(%a: !pto.ptr<f32>, %b: !pto.ptr<f32>, %o2: !pto.ptr<f32>)
      attributes {{pto.kernel_kind = #pto.kernel_kind<cube>}} {{{CONSTANTS}
    %pipe = {pipe} -> !pto.pipe
    {view("a", 16, 16)}
    {view("b", 16, 16)}
    {view("o2", 16, 16)}
{CUBE_MATMUL}
    pto.tpush(%acc, %pipe : {ACC}, !pto.pipe) {{split = 0}}
    %back = pto.alloc_tile : {MAT}
    pto.tpop(%back, %pipe : {MAT}, !pto.pipe) {{split = 0}}
    pto.tstore ins(%back : {MAT}) outs(%o2_v : {PART})
    return
  }}
  func.func private @vector(%x: !pto.ptr<f32>, %o1: !pto.ptr<f32>)
      attributes {{pto.kernel_kind = #pto.kernel_kind<vector>}} {{{CONSTANTS}
    %pipe = {pipe} -> !pto.pipe
    {view("x", 16, 16)}
    {view("o1", 16, 16)}
    %p = pto.alloc_tile : {vec}
    pto.tpop(%p, %pipe : {vec}, !pto.pipe) {{split = 0}}
    pto.tstore ins(%p : {vec}) outs(%o1_v : {PART})
    %t = pto.alloc_tile : {vec}
    pto.tload ins(%x_v : {PART}) outs(%t : {vec})
    pto.tpush(%t, %pipe : {vec}, !pto.pipe) {{split = 0}}
    return
  }}
}}"""
    x = rng.uniform(-1, 1, 256).astype(np.float32)
    product, back = np.zeros(256, np.float32), np.zeros(256, np.float32)
    run(text, [A, B, x, product, back])
    np.testing.assert_allclose(product.reshape(16, 16), PRODUCT, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(back, x)
