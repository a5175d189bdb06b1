"""`finish_like_greedy_driver`: what MLIR's greedy driver leaves, on hand-worked functions.

The expectations follow MLIR's `OperationFolder` and folders as documented in MLIR's
sources: constants already leading the entry block stay, every other first constant of
a value moves to the top (the last met first), later equal ones (`ub.poison` too) are
replaced by the first; dead pure ops go; the folds act as the module docstring says.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, ub, vector
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xla_emit.passes.greedy_driver import finish_like_greedy_driver

from xla_emit.ir import make_context, parse_mlir


def _finish(text: str) -> func.FuncOp:
    ctx = make_context()
    module, _ = parse_mlir(text, ctx=ctx)
    finish_like_greedy_driver(ctx, module)
    assert isinstance(module, ModuleOp)
    function = next(iter(module.ops))
    assert isinstance(function, func.FuncOp)
    return function


def _entry_summary(function: func.FuncOp) -> list[str]:
    """Each entry-block op: a constant as its integer value, `poison`, or the op's name."""
    summary: list[str] = []
    for op in function.body.block.ops:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            summary.append(str(op.value.value.data))
        elif isinstance(op, ub.PoisonOp):
            summary.append("poison")
        else:
            summary.append(op.name)
    return summary


def test_constants_go_to_the_top_one_per_value_leading_ones_staying() -> None:
    function = _finish(
        """
        func.func @f(%a: index, %b: index, %n: index) -> (index, index, index, index, i32, i32) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %s = arith.addi %a, %b : index
          %c5 = arith.constant 5 : index
          %p = ub.poison : i32
          %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (index) {
            %c7 = arith.constant 7 : index
            %again = arith.constant 1 : index
            %x = arith.addi %acc, %c7 : index
            %y = arith.addi %x, %again : index
            scf.yield %y : index
          }
          %q = ub.poison : i32
          func.return %c0, %c5, %s, %r, %p, %q : index, index, index, index, i32, i32
        }
        """
    )
    assert _entry_summary(function) == [
        "7",
        "poison",
        "5",
        "0",
        "1",
        "arith.addi",
        "scf.for",
        "func.return",
    ]
    returned = function.body.block.last_op
    assert isinstance(returned, func.ReturnOp)
    assert returned.arguments[4] is returned.arguments[5]  # the two poisons are one


def test_folds_and_dead_ops() -> None:
    function = _finish(
        """
        func.func @f(%v: vector<4xf32>, %s: f32, %t: f32, %b: i1, %a: index)
            -> (f32, f32, f32, i1, i32, index) {
          %c0 = arith.constant 0 : index
          %c2 = arith.constant 2 : index
          %true = arith.constant true
          %w = vector.insert %s, %v [1] : f32 into vector<4xf32>
          %w2 = vector.insert %t, %w [3] : f32 into vector<4xf32>
          %from_chain = vector.extract %w2[1] : f32 from vector<4xf32>
          %splat = arith.constant dense<2.500000e+00> : vector<4xf32>
          %from_splat = vector.extract %splat[%c2] : f32 from vector<4xf32>
          %dynamic = vector.extract %v[%c2] : f32 from vector<4xf32>
          %and = arith.andi %b, %true : i1
          %cast = arith.index_cast %c2 : index to i32
          %sum = arith.addi %a, %c0 : index
          %dead = arith.muli %a, %a : index
          func.return %from_chain, %from_splat, %dynamic, %and, %cast, %sum
            : f32, f32, f32, i1, i32, index
        }
        """
    )
    returned = function.body.block.last_op
    assert isinstance(returned, func.ReturnOp)
    from_chain, from_splat, dynamic, anded, cast, total = returned.arguments
    assert from_chain is function.args[1]
    assert isinstance(const := from_splat.owner, arith.ConstantOp)
    assert const.value == FloatAttr(2.5, 32)
    assert isinstance(extract := dynamic.owner, vector.ExtractOp)
    assert extract.static_position.get_values() == (2,)
    assert not extract.dynamic_position
    assert anded is function.args[3]
    assert isinstance(cast_const := cast.owner, arith.ConstantOp)
    assert cast_const.value == IntegerAttr(2, 32)
    assert total is function.args[4]
    names = [op.name for op in function.body.block.ops]
    assert "arith.muli" not in names and "vector.insert" not in names
