"""The `xla` dialect's builders, spellings, indexing-map attribute and `xla.range` helpers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from io import StringIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.builder import Builder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f32,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects import xla, xla_gpu
from xla_emit.dialects.xla import (
    ApplyIndexingOpBase,
    IndexingMapAttrBase,
    LoopOpBase,
    PureCallOpBase,
    YieldOpBase,
    get_xla_range,
    make_apply_indexing,
    make_loop,
    make_pure_call,
    make_yield,
    spelling_classes,
    xla_range_attr,
)

from xla_emit.diagnostics import UserError
from xla_emit.indexing import Interval, parse_indexing_map
from xla_emit.ir import make_context, parse_mlir
from xla_emit.ir.verify import verify_module

# Two dims, one range variable, two results.
LOOP_MAP = parse_indexing_map(
    "(d0, d1)[s0] -> (d0 * 4 + s0, d1), domain: d0 in [0, 7], d1 in [0, 2], s0 in [0, 3]"
)
F32_TENSOR = TensorType(f32, [32, 3])


def _print(op: Operation) -> str:
    out = StringIO()
    Printer(stream=out).print_op(op)
    return out.getvalue()


def _index_args(count: int) -> tuple[Block, Sequence[BlockArgument]]:
    block = Block(arg_types=[IndexType()] * count)
    return block, block.args


@pytest.mark.parametrize(
    ("spelling", "op_name", "attr_name"),
    [
        ("xla", "xla.apply_indexing", "xla.indexing_map"),
        ("xla_gpu", "xla_gpu.apply_indexing", "xla_gpu.indexing_map"),
    ],
)
def test_apply_indexing_spellings(spelling: str, op_name: str, attr_name: str) -> None:
    _, (d0, d1, s0) = _index_args(3)
    classes = spelling_classes(spelling)
    op = classes.apply_indexing(classes.indexing_map_attr.from_map(LOOP_MAP), [d0, d1], [s0])
    assert isinstance(op, ApplyIndexingOpBase)
    assert op.name == op_name
    assert op.indexing_map_attr.name == attr_name
    # One index result per map result: the map above has two.
    assert [r.type for r in op.res] == [IndexType(), IndexType()]
    assert list(op.dims) == [d0, d1]
    assert list(op.symbols) == [s0]
    op.verify()
    assert _print(op).startswith(f'%0, %1 = {op_name} #{attr_name}<"(d0, d1)[s0] -> ')


def test_make_apply_indexing_respells_a_map_attribute_of_the_other_spelling() -> None:
    _, (d0,) = _index_args(1)
    seed_map = parse_indexing_map("(d0) -> (d0), domain: d0 in [0, 3]")
    seed_attr = spelling_classes("xla_gpu").indexing_map_attr.from_map(seed_map)
    op = make_apply_indexing(seed_attr, [d0])
    assert isinstance(op.indexing_map_attr, xla.IndexingMapAttr)
    assert op.indexing_map == seed_attr.indexing_map


def test_unknown_spelling_is_rejected() -> None:
    with pytest.raises(ValueError, match="expected spelling 'xla' or 'xla_gpu', but got 'gpu'"):
        spelling_classes("gpu")


def test_make_loop_with_body_builder() -> None:
    block, (d0, d1) = _index_args(2)
    init = block.insert_arg(F32_TENSOR, 2)
    seen: dict[str, int] = {}

    def body(
        builder: Builder,
        ivs: Sequence[BlockArgument],
        map_results: Sequence[BlockArgument],
        iter_args: Sequence[BlockArgument],
    ) -> Sequence[SSAValue]:
        seen.update(ivs=len(ivs), map_results=len(map_results), iter_args=len(iter_args))
        value = builder.insert(arith.ConstantOp(FloatAttr(1.0, f32))).result
        from xdsl.dialects import tensor

        inserted = builder.insert(tensor.InsertOp(value, iter_args[0], list(map_results)))
        return [inserted.result]

    loop = make_loop(LOOP_MAP, [d0, d1], [init], body)
    assert isinstance(loop, LoopOpBase)
    assert loop.name == "xla.loop"
    # One range variable, two map results, one iter arg.
    assert seen == {"ivs": 1, "map_results": 2, "iter_args": 1}
    assert [a.type for a in loop.body.block.args] == [IndexType()] * 3 + [F32_TENSOR]
    assert [r.type for r in loop.res] == [F32_TENSOR]
    assert loop.res[0].name_hint == "xla_loop"
    terminator = loop.body.block.last_op
    assert isinstance(terminator, YieldOpBase)
    assert terminator.name == "xla.yield"
    loop.verify()


def test_make_loop_without_body_builder_leaves_an_empty_body() -> None:
    _, (d0, d1) = _index_args(2)
    loop = make_loop(LOOP_MAP, [d0, d1], [])
    assert loop.body.block.first_op is None
    assert len(loop.induction_vars) == 1
    assert len(loop.map_results) == 2
    assert len(loop.region_iter_args) == 0
    wrong_terminator = func.ReturnOp()
    loop.body.block.add_op(wrong_terminator)
    message = "expected the body to end with a yield, but got func.return"
    with pytest.raises(VerifyException, match=message):
        loop.verify(verify_nested_ops=False)
    loop.body.block.erase_op(wrong_terminator)
    loop.body.block.add_op(make_yield())
    loop.verify()


@pytest.mark.parametrize("spelling", ["xla", "xla_gpu"])
def test_make_pure_call_verifies_against_the_callee(spelling: str) -> None:
    callee = func.FuncOp.external("add", [f32, f32], [f32])
    caller = func.FuncOp("caller", ((f32, f32), (f32,)))
    a, b = caller.body.block.args
    pure_call = spelling_classes(spelling).pure_call
    call = pure_call("add", [a, b], [f32])
    assert isinstance(call, PureCallOpBase)
    assert call.name == f"{spelling}.pure_call"
    assert call.res[0].name_hint == "pure_call"
    caller.body.block.add_ops([call, func.ReturnOp(call.res[0])])
    module = ModuleOp([callee, caller])
    module.verify()

    wrong = pure_call("add", [a], [f32])
    caller.body.block.insert_op_before(wrong, call)
    message = "argument count mismatch: 'operands' has 1 arguments, but '@add' expects 2"
    with pytest.raises(VerifyException, match=message):
        wrong.verify()


def test_pure_call_outside_a_module_skips_symbol_checks() -> None:
    # An op being built has no symbol table to look in yet.
    _, (i,) = _index_args(1)
    make_pure_call("not_yet_defined", [i], [IndexType()]).verify()


def test_parsed_spellings_share_base_classes() -> None:
    text = """
    func.func private @id(%a: index) -> index
    func.func @f(%a: index) -> index {
      %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">(%a)
      %1 = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">(%0)
      %2 = xla.pure_call @id(%1) : (index) -> index
      %3 = xla_gpu.pure_call @id(%2) : (index) -> index
      func.return %3 : index
    }
    """
    module, _ = parse_mlir(text, "spellings.mlir", make_context())
    module.verify()
    ops = list(module.walk())
    applies = [op for op in ops if isinstance(op, ApplyIndexingOpBase)]
    calls = [op for op in ops if isinstance(op, PureCallOpBase)]
    assert [op.name for op in applies] == ["xla.apply_indexing", "xla_gpu.apply_indexing"]
    assert [op.name for op in calls] == ["xla.pure_call", "xla_gpu.pure_call"]
    # Both map spellings hold the same map.
    assert applies[0].indexing_map == applies[1].indexing_map
    assert type(applies[0].indexing_map_attr) is not type(applies[1].indexing_map_attr)


def test_indexing_map_attr_prints_canonically() -> None:
    # Three spellings of floor division and extra spaces all print as `floordiv`.
    texts = [
        "(d0) -> (d0 floordiv 2), domain: d0 in [0, 7]",
        "(d0) -> (d0 / 2), domain: d0 in [0, 7]",
        "(d0)->(d0  floorDiv 2),domain: d0 in [0, 7]",
    ]
    attrs = [xla.IndexingMapAttr.from_map(parse_indexing_map(t)) for t in texts]
    assert len(set(attrs)) == 1
    printed = StringIO()
    Printer(stream=printed).print_attribute(attrs[0])
    assert printed.getvalue() == (
        '#xla.indexing_map<"(d0) -> (d0 floordiv 2), domain: d0 in [0, 7]">'
    )


def test_indexing_map_attributes_of_the_two_spellings_differ() -> None:
    indexing_map = parse_indexing_map("(d0) -> (d0), domain: d0 in [0, 3]")
    today = xla.IndexingMapAttr.from_map(indexing_map)
    seed = xla_gpu.IndexingMapAttr.from_map(indexing_map)
    assert today != seed
    assert isinstance(xla_gpu.IndexingMapAttr.from_map(indexing_map), IndexingMapAttrBase)


def test_syntax_error_in_a_multi_line_map_points_into_the_second_literal() -> None:
    text = (
        "func.func @f(%a: index) -> index {\n"  # line 1
        '  %0 = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0),"\n'  # line 2
        '     " domain: d0 in [0, 3], d0 mod in [0, 1]">(%a)\n'  # line 3
        "  func.return %0 : index\n"
        "}\n"
    )
    with pytest.raises(UserError) as error:
        parse_mlir(text, "bad.mlir", make_context())
    location = error.value.location
    assert location is not None
    # `in` after `mod` is where an operand was expected: line 3, column of that `in`.
    line3 = text.splitlines()[2]
    assert (location.line, location.column) == (3, line3.index("mod in") + len("mod ") + 1)
    assert error.value.message.startswith("invalid indexing map: ")


def test_unquoted_map_syntax_error_position() -> None:
    text = "#m = #xla_gpu.indexing_map<(d0) -> (d0 + ), domain: d0 in [0, 3]>\n"
    with pytest.raises(UserError) as error:
        parse_mlir(text, "bad.mlir", make_context())
    location = error.value.location
    assert location is not None
    assert (location.line, location.column) == (1, text.index("+ )") + 3)


# -- xla.range ------------------------------------------------------------------


def test_get_xla_range_on_ops_and_results() -> None:
    op = xla.WorkgroupIdOp("x", {"xla.range": xla_range_attr(Interval(0, 1023))})
    assert get_xla_range(op) == Interval(0, 1023)
    assert get_xla_range(op.result) == Interval(0, 1023)
    assert get_xla_range(xla.WorkgroupIdOp("y")) is None


def test_xla_range_attr_prints_xla_syntax() -> None:
    out = StringIO()
    Printer(stream=out).print_attribute(xla_range_attr(Interval(3, 9)))
    assert out.getvalue() == "[3 : index, 9 : index]"


def test_get_xla_range_on_function_arguments() -> None:
    text = """
    func.func @f(%t: tensor<4xf32>, %i: index {xla.range = [0 : index, 3 : index]}) -> f32 {
      %v = tensor.extract %t[%i] : tensor<4xf32>
      func.return %v : f32
    }
    """
    module, _ = parse_mlir(text, "args.mlir", make_context())
    function = module.ops.first
    assert isinstance(function, func.FuncOp)
    tensor_arg, index_arg = function.body.block.args
    assert get_xla_range(index_arg) == Interval(0, 3)
    assert get_xla_range(tensor_arg) is None


def test_get_xla_range_of_other_block_arguments_is_none() -> None:
    _, (d0, d1) = _index_args(2)
    loop = make_loop(LOOP_MAP, [d0, d1], [])
    assert get_xla_range(loop.induction_vars[0]) is None


def test_get_xla_range_rejects_a_malformed_attribute() -> None:
    op = xla.WorkgroupIdOp("x", {"xla.range": ArrayAttr([IntegerAttr(0, IndexType())])})
    with pytest.raises(VerifyException, match=r"must be \[LB : index, UB : index\]"):
        get_xla_range(op)
    named = func.FuncOp(
        "g",
        ((IndexType(),), ()),
        arg_attrs=ArrayAttr([DictionaryAttr({"xla.range": StringAttr("0..3")})]),
    )
    with pytest.raises(VerifyException, match=re.escape('but got "0..3"')):
        get_xla_range(named.body.block.args[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "%t = gpu.thread_id  x {xla.range = [index, 127 : index]}",
            "'gpu.thread_id' op attribute 'xla.range' must be [LB : index, UB : index], but got "
            "[index, 127 : index]",
        ),
        (
            "%t = gpu.block_id  x {xla.range = [9 : index, 1 : index]}",
            "'gpu.block_id' op attribute 'xla.range' is empty: lower bound 9 > upper bound 1",
        ),
        (
            "%t = arith.addi %i, %i {xla.range = [0 : index]} : index",
            "'arith.addi' op attribute 'xla.range' must be [LB : index, UB : index]",
        ),
    ],
)
def test_a_malformed_xla_range_fails_verification_where_it_is(text: str, message: str) -> None:
    source = (
        "func.func @k(%i: index) {\n  %w = xla.workgroup_id x\n  " + text + "\n  func.return\n}"
    )
    with pytest.raises(UserError) as caught:
        module, source_map = parse_mlir(source, "k.mlir")
        verify_module(module, source_map)
    assert str(caught.value).startswith("k.mlir:3:3: error: " + message)


def test_a_malformed_xla_range_on_an_argument_fails_verification() -> None:
    source = "func.func @k(%i: index {xla.range = [3 : index]}) {\n  func.return\n}"
    with pytest.raises(UserError) as caught:
        module, source_map = parse_mlir(source, "k.mlir")
        verify_module(module, source_map)
    assert "'func.func' op attribute 'xla.range' must be [LB : index, UB : index]" in str(
        caught.value
    )


def test_atomic_rmw_builder_and_current_value() -> None:
    block = Block(arg_types=[TensorType(f32, [8]), IndexType()])
    tensor_value, index = block.args
    body = Region(Block(arg_types=[f32]))
    body.block.add_op(xla.YieldOp([body.block.args[0]]))
    op = xla.AtomicRMWOp(tensor_value, [index], body)
    assert op.result.type == TensorType(f32, [8])
    assert op.current_value is body.block.args[0]
    assert op.result.name_hint == "atomic_rmw"
    op.verify()


# -- printing is stable under re-parsing ------------------------------------------

_TERMS = st.sampled_from(["d0", "d1", "s0", "s1", "d0 * 4", "s1 * 2", "d1 mod 3", "d0 floordiv 2"])


@st.composite
def _map_texts(draw: st.DrawFn) -> str:
    results = draw(st.lists(st.lists(_TERMS, min_size=1, max_size=3), min_size=1, max_size=3))
    bounds = draw(st.lists(st.integers(0, 40), min_size=4, max_size=4))
    constrained = draw(st.booleans())
    domain = ", ".join(
        f"{name} in [0, {upper}]"
        for name, upper in zip(["d0", "d1", "s0", "s1"], bounds, strict=True)
    )
    if constrained:
        domain += ", d0 + s0 in [0, 30]"
    exprs = ", ".join(" + ".join(terms) for terms in results)
    return f"(d0, d1)[s0, s1] -> ({exprs}), domain: {domain}"


@settings(max_examples=40, deadline=None)
@given(_map_texts(), st.sampled_from(["xla", "xla_gpu"]))
def test_loop_with_any_map_prints_stably(map_text: str, spelling: str) -> None:
    indexing_map = parse_indexing_map(map_text)
    count = len(indexing_map.results)
    text = (
        "func.func @f(%a: index, %b: index, %init: f32) -> f32 {\n"
        f"  %r = {spelling}.loop (%a, %b)[%i, %j] -> ({', '.join(f'%r{k}' for k in range(count))})"
        f' in #{spelling}.indexing_map<"{map_text}"> iter_args(%it = %init) -> (f32) {{\n'
        f"    {spelling}.yield %it : f32\n"
        "  }\n"
        "  func.return %r : f32\n"
        "}\n"
    )
    module, _ = parse_mlir(text, "gen.mlir", make_context())
    module.verify()
    printed = _print(module)
    reparsed, _ = parse_mlir(printed, "printed.mlir", make_context())
    assert _print(reparsed) == printed
    loop = next(op for op in reparsed.walk() if isinstance(op, LoopOpBase))
    assert loop.indexing_map == indexing_map
