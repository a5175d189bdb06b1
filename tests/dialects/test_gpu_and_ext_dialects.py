"""Our `gpu` dialect and the extended `arith`/`vector` dialects (ops xDSL 0.74 lacks)."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func, vector
from xdsl.dialects import gpu as xdsl_gpu
from xdsl.dialects.builtin import f32, i1, i32
from xdsl.ir import Block
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects import arith_ext, gpu, vector_ext


def test_gpu_dialect_is_xdsls_with_three_ops_redeclared_and_shuffle_added() -> None:
    ours = {op.name: op for op in gpu.GPU.operations}
    xdsls = {op.name: op for op in xdsl_gpu.GPU.operations}
    assert set(ours) == set(xdsls) | {"gpu.shuffle"}
    redeclared = {"gpu.thread_id", "gpu.block_id", "gpu.barrier"}
    for name, op in ours.items():
        if name in redeclared or name == "gpu.shuffle":
            assert op is not xdsls.get(name)
        else:
            assert op is xdsls[name]


def test_grid_id_builders() -> None:
    thread_id = gpu.ThreadIdOp("x")
    block_id = gpu.BlockIdOp("z")
    assert thread_id.dimension == xdsl_gpu.DimensionAttr(xdsl_gpu.DimensionEnum.X)
    assert block_id.dimension == xdsl_gpu.DimensionAttr(xdsl_gpu.DimensionEnum.Z)
    out = StringIO()
    Printer(stream=out).print_op(thread_id)
    assert out.getvalue() == "%0 = gpu.thread_id  x"


def test_shuffle_builder_result_types() -> None:
    block = Block(arg_types=[f32, i32, i32])
    value, offset, width = block.args
    shuffle = gpu.ShuffleOp("down", value, offset, width)
    assert shuffle.result.type == f32
    assert shuffle.valid.type == i1
    assert shuffle.mode.data == gpu.ShuffleMode.DOWN
    shuffle.verify()


def _context() -> Context:
    ctx = Context()
    for dialect in (builtin.Builtin, func.Func, arith_ext.ARITH, vector_ext.VECTOR):
        ctx.load_dialect(dialect)
    return ctx


def _round_trip(text: str) -> str:
    module = Parser(_context(), text).parse_module()
    module.verify()
    out = StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def test_ext_dialects_keep_xdsls_ops() -> None:
    # Each xDSL arith op stays, or a subclass of the same name that widens it to vectors does.
    ours = list(arith_ext.ARITH.operations)
    for original in arith.Arith.operations:
        assert any(issubclass(op, original) and op.name == original.name for op in ours)
    assert len(ours) > len(list(arith.Arith.operations))
    assert set(vector.Vector.operations) < set(vector_ext.VECTOR.operations)


def test_ext_ops_round_trip() -> None:
    text = """
    func.func @f(%a: f32, %b: f32, %i: i32) -> (f32, index, vector<4xf32>, vector<2xf32>) {
      %r = arith.remf %a, %b : f32
      %x = arith.index_castui %i : i32 to index
      %s = vector.splat %a : vector<4xf32>
      %v = vector.from_elements %a, %r : vector<2xf32>
      func.return %r, %x, %s, %v : f32, index, vector<4xf32>, vector<2xf32>
    }
    """
    printed = _round_trip(text)
    for line in (
        "%r = arith.remf %a, %b : f32",
        "%x = arith.index_castui %i : i32 to index",
        "%s = vector.splat %a : vector<4xf32>",
        "%v = vector.from_elements %a, %r : vector<2xf32>",
    ):
        assert line in printed
    assert _round_trip(printed) == printed


def test_from_elements_counts_elements() -> None:
    text = """
    func.func @f(%a: f32) -> vector<2x2xf32> {
      %v = vector.from_elements %a, %a, %a : vector<2x2xf32>
      func.return %v : vector<2x2xf32>
    }
    """
    message = r"expected 4 elements for vector<2x2xf32>, but got 3"
    with pytest.raises(VerifyException, match=message):
        _round_trip(text)


def test_index_castui_needs_exactly_one_index_side() -> None:
    block = Block(arg_types=[i32])
    cast = arith_ext.IndexCastUIOp(block.args[0], i32)
    message = "exactly one of the operand and result types to be index"
    with pytest.raises(VerifyException, match=message):
        cast.verify()


def test_remf_builder() -> None:
    block = Block(arg_types=[f32, f32])
    remf = arith_ext.RemFOp(*block.args)
    assert remf.result.type == f32
    remf.verify()
