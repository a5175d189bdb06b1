"""The `xla_gpu` dialect: builders, the indexed_vector type and the reduce/shuffle verifiers."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp, TensorType, f32, i32
from xdsl.ir import Attribute, Block
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects import xla, xla_gpu

from xla_emit.indexing import parse_indexing_map
from xla_emit.ir import make_context, parse_mlir


def _print_attribute(attr: Attribute) -> str:
    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def test_indexed_vector_type_parameters_and_printing() -> None:
    indexing_map = parse_indexing_map(
        "(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 127], s0 in [0, 1]"
    )
    vector_type = xla_gpu.IndexedVectorType([256], f32, xla.IndexingMapAttr.from_map(indexing_map))
    assert vector_type.sizes == (256,)
    assert vector_type.indexing_map == indexing_map
    assert _print_attribute(vector_type) == (
        '!xla_gpu.indexed_vector<256xf32, #xla.indexing_map<"(d0)[s0] -> (d0 * 2 + s0), '
        'domain: d0 in [0, 127], s0 in [0, 1]">>'
    )


def test_indexed_vector_type_parses_back_equal() -> None:
    text = """
    func.func private @f(!xla_gpu.indexed_vector<32x2xf32, #xla_gpu.indexing_map<
      "(d0)[s0, s1] -> (d0, s0), domain: d0 in [0, 31], s0 in [0, 1], s1 in [0, 0]">>)
    """
    module, _ = parse_mlir(text, "t.mlir", make_context())
    function = module.ops.first
    assert isinstance(function, func.FuncOp)
    (parsed,) = function.function_type.inputs.data
    assert isinstance(parsed, xla_gpu.IndexedVectorType)
    assert parsed.sizes == (32, 2)
    assert parsed.element_type == f32
    expected_map = parse_indexing_map(
        "(d0)[s0, s1] -> (d0, s0), domain: d0 in [0, 31], s0 in [0, 1], s1 in [0, 0]"
    )
    assert parsed == xla_gpu.IndexedVectorType(
        [32, 2], f32, xla_gpu.IndexingMapAttr.from_map(expected_map)
    )


@pytest.mark.parametrize(
    ("shape", "dimensions", "expected"),
    [
        ((16, 8, 4), (1,), (16, 4)),
        ((16, 8, 4), (0, 2), (8,)),
        ((16, 8, 4), (0, 1, 2), ()),
        ((5,), (), (5,)),
    ],
)
def test_reduction_result_types(
    shape: tuple[int, ...], dimensions: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    types = xla_gpu.reduction_result_types(
        [TensorType(f32, shape), TensorType(i32, shape)], dimensions
    )
    assert types == [TensorType(f32, expected), TensorType(i32, expected)]


def _combiner(name: str, element_types: list[Attribute]) -> func.FuncOp:
    return func.FuncOp.external(name, element_types * 2, element_types)


def test_reduce_builder_infers_result_types_and_verifies() -> None:
    block = Block(arg_types=[TensorType(f32, [16, 8, 4]), f32])
    tensor_value, init = block.args
    reduce = xla_gpu.ReduceOp([tensor_value], [init], [0, 2], "add")
    assert [r.type for r in reduce.res] == [TensorType(f32, [8])]
    assert reduce.reduced_dimensions == (0, 2)
    caller = func.FuncOp("caller", ((TensorType(f32, [16, 8, 4]), f32), (TensorType(f32, [8]),)))
    a, b = caller.body.block.args
    reduce = xla_gpu.ReduceOp([a], [b], [0, 2], "add")
    caller.body.block.add_ops([reduce, func.ReturnOp(reduce.res[0])])
    ModuleOp([_combiner("add", [f32]), caller]).verify()


@pytest.mark.parametrize(
    ("distance", "valid"),
    # 0 shuffles nothing: XLA's multi-row reduction of one thread a row prints `to 0`.
    [(1, True), (2, True), (16, True), (0, True), (3, False), (32, False), (64, False)],
)
def test_shuffle_distance_must_be_0_or_a_power_of_two_below_the_warp(
    distance: int, valid: bool
) -> None:
    caller = func.FuncOp("caller", ((f32,), (f32,)))
    shuffle = xla_gpu.ShuffleReduceOp([caller.body.block.args[0]], distance, "max")
    caller.body.block.add_ops([shuffle, func.ReturnOp(shuffle.res[0])])
    module = ModuleOp([_combiner("max", [f32]), caller])
    if valid:
        module.verify()
        return
    message = f"power of 2 below the warp size 32, but got {distance}"
    with pytest.raises(VerifyException, match=message):
        shuffle.verify()


def test_sync_threads_and_allocate_shared_builders() -> None:
    shared = xla_gpu.AllocateSharedOp(TensorType(f32, [32, 33]))
    synced = xla_gpu.SyncThreadsOp([shared.result])
    assert shared.result.name_hint == "shmem"
    assert [r.type for r in synced.res] == [TensorType(f32, [32, 33])]
    assert synced.res[0].name_hint == "synced_tensor"
    shared.verify()
    synced.verify()


def test_insert_builder_checks_its_maps() -> None:
    source_map = parse_indexing_map(
        "(d0)[s0] -> (d0 * 2 + s0), domain: d0 in [0, 15], s0 in [0, 1]"
    )
    insert_map = parse_indexing_map("(d0) -> (d0 floordiv 8, d0 mod 8), domain: d0 in [0, 31]")
    vector_type = xla_gpu.IndexedVectorType([32], f32, xla_gpu.IndexingMapAttr.from_map(source_map))
    block = Block(arg_types=[vector_type, IndexType(), TensorType(f32, [4, 8])])
    source, thread, dest = block.args
    insert = xla_gpu.InsertOp(source, [thread], dest, xla_gpu.IndexingMapAttr.from_map(insert_map))
    assert insert.result.type == TensorType(f32, [4, 8])
    insert.verify()
    with_symbol = parse_indexing_map("(d0)[s0] -> (d0, s0), domain: d0 in [0, 31], s0 in [0, 1]")
    bad = xla_gpu.InsertOp(source, [thread], dest, xla.IndexingMapAttr.from_map(with_symbol))
    with pytest.raises(VerifyException, match="insert_op map must not have any symbols"):
        bad.verify()
