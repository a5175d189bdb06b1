"""The Triton route's dialects built from Python: xtile, stablehlo, tt, triton_xla, nvvm.

Builders make the ops the Triton emitter writes; each built module verifies,
prints the text XLA prints for it and parses back to the same text. Bad ops
fail with the verifier's message, located when they come from text.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    f32,
    i1,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects import arith_vector, nvvm, stablehlo, triton, triton_xla, xtile

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module


def _round_trips(module: ModuleOp) -> str:
    module.verify()
    text = str(module)
    again, source_map = parse_mlir(text, "built.mlir")
    verify_module(again, source_map)
    assert str(again) == text
    return text


def _entry_func() -> tuple[xtile.EntryFuncOp, Block]:
    buffer = MemRefType(f32, [64, 256], xtile.LayoutAttr([1, 0]))
    func = xtile.EntryFuncOp("fusion", ([buffer, buffer, IndexType()], []))
    func.properties["num_opaque_args"] = arith.IntegerAttr(0, i32)
    return func, func.entry_block


def test_an_entry_func_with_a_softmax_row_prints_as_xla_prints_it() -> None:
    func, block = _entry_func()
    source, output = func.buffer_args
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    tile = xtile.ExtractTileOp(
        source, [func.tile_id, zero], [1, 256], [1, 1], TensorType(f32, [256])
    )
    init = stablehlo.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, []), [0.0]))
    body = Block(arg_types=[TensorType(f32, []), TensorType(f32, [])])
    added = stablehlo.AddOp(*body.args)
    body.add_ops([added, stablehlo.ReturnOp([added.result])])
    reduce = stablehlo.ReduceOp.create(
        operands=[tile.result, init.output],
        result_types=[TensorType(f32, [])],
        properties={"dimensions": stablehlo.DenseArrayBase.from_list(stablehlo.i64, [0])},
        regions=[Region(body)],
    )
    wide = stablehlo.BroadcastInDimOp(reduce.results[0], [], TensorType(f32, [256]))
    shifted = stablehlo.SubtractOp(tile.result, wide.result)
    positive = stablehlo.CompareOp("GT", shifted.result, tile.result, "FLOAT")
    chosen = stablehlo.SelectOp(positive.result, shifted.result, tile.result)
    store = xtile.InsertTileOp(chosen.result, output, [func.tile_id, zero], [1, 256], [1, 1])
    block.add_ops(
        [zero, tile, init, reduce, wide, shifted, positive, chosen, store,
         xtile.EntryFuncReturnOp()]
    )  # fmt: skip
    text = _round_trips(ModuleOp([func]))
    assert func.tile_id is block.args[-1] and func.opaque_args == ()
    assert "xtile.entry_func @fusion(%0: memref<64x256xf32, #xtile.layout<[1, 0]>>" in text
    assert "attributes {num_opaque_args = 0 : i32}" in text
    assert "applies stablehlo.add across dimensions = [0]" in text
    assert "stablehlo.compare  GT, " in text and ",  FLOAT : (tensor<256xf32>" in text
    assert "[1, 256] [1, 1] : tensor<256xf32> -> memref<64x256xf32, #xtile.layout<[1, 0]>>" in text
    assert reduce.single_combiner() is added


def test_a_tt_kernel_built_from_python_prints_as_triton_prints_it() -> None:
    pointer = triton.PointerType(f32)
    func = triton.FuncOp("kernel", ([pointer], []), visibility="public")
    (arg,) = func.entry_block.args
    pid = triton.GetProgramIdOp("x")
    offsets = triton.MakeRangeOp(0, 128)
    pointers = triton.SplatOp(arg, TensorType(pointer, [128]))
    moved = triton.AddPtrOp(pointers, offsets)
    limit = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(i32, [128]), [100]))
    mask = arith_vector.CmpiOp(offsets, limit, "slt")
    other = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [128]), [0.0]))
    load = triton.LoadOp(moved, mask, other)
    store = triton.StoreOp(moved, load, mask)
    func.entry_block.add_ops(
        [pid, offsets, pointers, moved, limit, mask, other, load, store, triton.ReturnOp()]
    )
    text = _round_trips(ModuleOp([func]))
    assert "tt.func public @kernel(" in text
    assert "tt.get_program_id x : i32" in text
    assert "tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>" in text
    assert "tt.load %" in text and ": tensor<128x!tt.ptr<f32>>" in text
    assert load.result.type == TensorType(f32, [128]) and mask.result.type == TensorType(i1, [128])
    assert pid.axis_index == 0


def test_tt_dot_and_enums() -> None:
    a = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [16, 32]), [1.0]))
    b = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [32, 8]), [1.0]))
    c = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(TensorType(f32, [16, 8]), [0.0]))
    dot = triton.DotOp(a, b, c, "tf32")
    dot.verify()
    assert dot.input_precision == "tf32" and triton.DotOp(a, b, c).input_precision == "ieee"
    assert triton.enum_spelling("cache", triton.enum_attr("cache", "cg")) == "cg"
    with pytest.raises(VerifyException, match=r"expected shapes \[M, K\] \* \[K, N\]"):
        triton.DotOp(a, a, c).verify()


def test_triton_xla_extract_carries_the_buffer_shape_and_layout() -> None:
    pointer = triton.PointerType(f32)
    func = triton.FuncOp("f", ([pointer], []))
    (arg,) = func.entry_block.args
    index = arith.ConstantOp.from_int_and_width(3, IndexType())
    buffer = MemRefType(f32, [64, 256], xtile.LayoutAttr([1, 0]))
    extract = triton_xla.make_extract(
        arg, buffer, [index, index], [1, 256], [1, 1], TensorType(f32, [1, 256])
    )
    func.entry_block.add_ops([index, extract, triton.ReturnOp()])
    text = _round_trips(ModuleOp([func]))
    assert (
        "triton_xla.extract from %0 as memref<64x256xf32, #xtile.layout<[1, 0]>> "
        "[%1, %1] [1, 256] [1, 1] : tensor<1x256xf32>"
    ) in text.replace("%arg0", "%0").replace("%c3", "%1")


def test_nvvm_griddepcontrol_reads_both_spellings_of_its_enum() -> None:
    for kind in ("#nvvm.grid_dep_action<wait>", "#nvvm<grid_dep_action wait>"):
        module, _ = parse_mlir(f'"nvvm.griddepcontrol"() <{{kind = {kind}}}> : () -> ()')
        assert str(module).splitlines()[1].strip() == "nvvm.griddepcontrol wait"
    assert str(nvvm.GridDepControlOp("launch_dependents")).strip() == (
        "nvvm.griddepcontrol launch_dependents"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "xtile.entry_func @f(%a: memref<4xf32>, %b: index, %c: index) { xtile.return }",
            "entry function arguments should be of the form (arg: memref..., tile_id: index)",
        ),
        (
            "func.func @f(%x: tensor<4xf32>, %z: f32) {\n"
            "  %m = xtile.mask %x bounds [5], %z : tensor<4xf32>\n  func.return\n}",
            "mask bound not less than or equal to the tensor size",
        ),
        (
            "func.func @f(%p: tensor<4x!tt.ptr<f32>>) {\n"
            "  %v = tt.load %p cacheModifier = xx : tensor<4x!tt.ptr<f32>>\n  func.return\n}",
            "expected one of none, ca, cg, wb, cs, wt, cv for cache, but got 'xx'",
        ),
        (
            "func.func @f(%x: tensor<4xf32>) {\n"
            "  %t = stablehlo.transpose %x, dims = [1] : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  func.return\n}",
            "expected a permutation of [0, 1), but got [1]",
        ),
        (
            "func.func @f(%x: tensor<4xf32>) {\n"
            "  %t = tt.expand_dims %x {axis = 2 : i32} : tensor<4xf32> -> tensor<4x1xf32>\n"
            "  func.return\n}",
            "expected axis in [0, 1], but got 2",
        ),
        (
            "func.func @f(%p: tensor<4x!tt.ptr<f32>>, %m: tensor<4xi1>, %o: tensor<4xf32>) {\n"
            '  %v = "tt.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}>'
            " : (tensor<4x!tt.ptr<f32>>, tensor<4xi1>, tensor<4xf32>) -> tensor<4xf16>\n"
            "  func.return\n}",
            "expected result type tensor<4xf32>, but got tensor<4xf16>",
        ),
        (
            "func.func @f(%x: tensor<2x4xf32>) {\n"
            "  %s = triton_xla.squeeze_dims %x {axis = 0 : i32}"
            " : tensor<2x4xf32> -> tensor<4xf32>\n"
            "  func.return\n}",
            "expected axis 0 to be a size-1 dimension of tensor<2x4xf32>",
        ),
    ],
)
def test_bad_ops_fail_with_a_located_message(text: str, message: str) -> None:
    with pytest.raises(UserError) as failure:
        module, source_map = parse_mlir(text, "bad.mlir")
        verify_module(module, source_map)
    report = str(failure.value)
    assert "bad.mlir:" in report
    assert message in report
