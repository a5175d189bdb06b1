"""Computation partitioner: which instructions share a function, names and signatures."""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_emit.emitters.partitioner import (
    PartitionedComputation,
    epilogue_subgraph,
    format_module_partitions,
    format_partitions,
    hero_roots,
    partition_computation,
    partition_fusion,
    sanitize_function_name,
)
from xla_emit.hlo import HloComputation, parse_hlo_module
from xla_emit.hlo.indexing_analysis import compute_output_to_input_indexing
from xla_emit.indexing import Interval, compose_indexing_maps

REPO = Path(__file__).resolve().parents[2]


def computation(body: str, name: str = "fused_computation", extra: str = "") -> HloComputation:
    text = f"HloModule m\n{extra}\n{name} {{\n{body}\n}}\n"
    return parse_hlo_module(text).computation(name)


def groups(partitioned: PartitionedComputation) -> list[tuple[str, list[str]]]:
    return [(s.name, [i.name for i in s.instructions]) for s in partitioned.subgraphs]


def assert_consistent(partitioned: PartitionedComputation) -> None:
    """Every member that is not its subgraph's root has all its users in its subgraph,
    and each of them reads it at the one index the subgraph evaluates it at."""
    users = partitioned.computation.users()
    for subgraph in partitioned.subgraphs:
        for member in subgraph.instructions:
            if member in subgraph.roots:
                continue
            assert users[member], member.name
            for user in users[member]:
                assert user in subgraph, (member.name, user.name)
                if user.opcode == "tuple":
                    continue
                steps = compute_output_to_input_indexing(user)
                for operand, step in zip(user.operands, steps, strict=True):
                    if operand is member:
                        assert step is not None
                        through = compose_indexing_maps(subgraph.indexing[user], step).simplify()
                        assert str(through) == str(subgraph.indexing[member]), (
                            member.name,
                            user.name,
                        )


SEED_GRAPH = """\
  param = f32[20,20] parameter(0)
  log = f32[20,20] log(param)
  transpose = f32[20,20] transpose(log), dimensions={1,0}
  ROOT add = f32[20,20] add(log, transpose)"""


def test_seed_log_transpose_add_splits_log_out() -> None:
    # `add` reads `log` at (i, j) and, through `transpose`, at (j, i): `log` gets its own
    # function. `transpose` has one user and joins it, as in XLA's PartiallyMergable case.
    partitioned = partition_computation(computation(SEED_GRAPH))
    assert groups(partitioned) == [
        ("fused_computation_add", ["transpose", "add"]),
        ("fused_computation_log", ["param", "log"]),
    ]
    assert_consistent(partitioned)
    add_function = partitioned.root_subgraph
    transpose = partitioned.computation.instruction("transpose")
    # Inside @fused_computation_add the transpose is evaluated at the function's own index.
    assert str(add_function.indexing[transpose]).startswith("(d0, d1) -> (d0, d1),")


def test_slice_and_pad_of_an_add_split_the_add_out() -> None:
    body = """\
  p0 = f32[8] parameter(0)
  p1 = f32[8] parameter(1)
  add = f32[8] add(p0, p1)
  slice = f32[6] slice(add), slice={[1:7]}
  zero = f32[] constant(0)
  pad = f32[10] pad(add, zero), padding=1_1
  ROOT tuple = (f32[6], f32[10]) tuple(slice, pad)"""
    partitioned = partition_computation(computation(body))
    assert groups(partitioned) == [
        ("fused_computation_tuple", ["slice", "zero", "pad", "tuple"]),
        ("fused_computation_add", ["p0", "p1", "add"]),
    ]
    assert_consistent(partitioned)


def test_diamond_with_equal_indexing_stays_one_function() -> None:
    body = """\
  p = f32[4,6] parameter(0)
  t = f32[6,4] transpose(p), dimensions={1,0}
  e = f32[6,4] exponential(t)
  n = f32[6,4] negate(t)
  ROOT s = f32[6,4] subtract(e, n)"""
    partitioned = partition_computation(computation(body))
    assert groups(partitioned) == [("fused_computation_s", ["p", "t", "e", "n", "s"])]
    assert_consistent(partitioned)
    p = partitioned.computation.instruction("p")
    assert str(partitioned.root_subgraph.indexing[p]).startswith("(d0, d1) -> (d1, d0),")


def test_gelu_is_one_subgraph() -> None:
    module = parse_hlo_module((REPO / "examples" / "gelu.hlo").read_text())
    gelu = module.computation("gelu")
    partitioned = partition_computation(gelu)
    assert len(partitioned.subgraphs) == 1
    assert set(partitioned.subgraphs[0].instructions) == set(gelu.instructions)
    assert partitioned.subgraphs[0].name == "gelu_multiply_0"
    assert_consistent(partitioned)


def test_chain_of_diamonds_from_xla() -> None:
    # XLA's PartitionDiamonds: every add is read through two different slices.
    lines = ["  param = f32[6] parameter(0)"]
    previous, size = "param", 6
    for level in range(4):
        size -= 1
        lines += [
            f"  slice{level}.1 = f32[{size}] slice({previous}), slice={{[0:{size}]}}",
            f"  slice{level}.2 = f32[{size}] slice({previous}), slice={{[1:{size + 1}]}}",
            f"  {'ROOT ' if level == 3 else ''}add{level} = f32[{size}] add(slice{level}.1, "
            f"slice{level}.2)",
        ]
        previous = f"add{level}"
    partitioned = partition_computation(computation("\n".join(lines)))
    assert groups(partitioned) == [
        ("fused_computation_add3", ["slice3.1", "slice3.2", "add3"]),
        ("fused_computation_add2", ["slice2.1", "slice2.2", "add2"]),
        ("fused_computation_add1", ["slice1.1", "slice1.2", "add1"]),
        ("fused_computation_add0", ["slice0.1", "slice0.2", "add0"]),
        ("fused_computation_param", ["param"]),
    ]
    assert partitioned.subgraphs[-1].has_no_compute
    assert not partitioned.subgraphs[0].has_no_compute
    assert_consistent(partitioned)


def test_concatenate_diamond_from_xla() -> None:
    body = """\
  param1 = f32[6] parameter(0)
  param2 = f32[6] parameter(1)
  log = f32[6] log(param1)
  add = f32[6] add(log, param2)
  neg = f32[6] negate(log)
  exp = f32[6] exponential(add)
  ROOT concat = f32[12] concatenate(neg, exp), dimensions={0}"""
    partitioned = partition_computation(computation(body))
    assert groups(partitioned) == [
        ("fused_computation_concat", ["param2", "add", "neg", "exp", "concat"]),
        ("fused_computation_log", ["param1", "log"]),
    ]
    simple = """\
  param1 = f32[6] parameter(0)
  param2 = f32[3] parameter(1)
  neg = f32[6] negate(param1)
  exp = f32[3] exponential(param2)
  ROOT concat = f32[9] concatenate(neg, exp), dimensions={0}"""
    assert len(partition_computation(computation(simple)).subgraphs) == 1


def test_forced_roots_make_epilogues() -> None:
    # XLA's TransposeAsRoot: the transpose hero starts its own subgraph.
    body = """\
  p0 = f32[64,32] parameter(0)
  p1 = f32[64,32] parameter(1)
  add = f32[64,32] add(p0, p1)
  transpose = f32[32,64] transpose(add), dimensions={1,0}
  exp = f32[32,64] exponential(transpose)
  ROOT root = f32[32,64] tanh(exp)"""
    comp = computation(body)
    by_predicate = partition_computation(comp, lambda i: i.opcode == "transpose")
    assert groups(by_predicate) == [
        ("fused_computation_root", ["exp", "root"]),
        ("fused_computation_transpose", ["p0", "p1", "add", "transpose"]),
    ]
    # With the hero's operands forced too (what the emitters pass), `add` is its own function.
    with_operands = partition_computation(comp, hero_roots([comp.instruction("transpose")]))
    assert groups(with_operands) == [
        ("fused_computation_root", ["exp", "root"]),
        ("fused_computation_transpose", ["transpose"]),
        ("fused_computation_add", ["p0", "p1", "add"]),
    ]


def test_size_cap_splits_long_chains() -> None:
    lines = ["  p = f32[4] parameter(0)"] + [
        f"  {'ROOT ' if i == 9 else ''}n{i} = f32[4] negate({'p' if i == 0 else f'n{i - 1}'})"
        for i in range(10)
    ]
    comp = computation("\n".join(lines))
    partitioned = partition_computation(comp, max_instructions=4)
    assert [len(s.instructions) for s in partitioned.subgraphs] == [4, 4, 3]
    assert [s.roots[0].name for s in partitioned.subgraphs] == ["n9", "n5", "n1"]
    assert len(partition_computation(comp).subgraphs) == 1


def test_names_are_sanitized_and_deterministic() -> None:
    assert sanitize_function_name("fused-computation.1_add.2") == "fused_computation_1_add_2"
    assert sanitize_function_name("1abc") == "_1abc"
    assert sanitize_function_name("") == "__unnamed"
    assert sanitize_function_name("a$b") == "a$b"
    text = (REPO / "tests" / "corpus" / "softmax.hlo").read_text()
    first = [format_partitions(partition_fusion(c)) for c in parse_hlo_module(text).computations]
    second = [format_partitions(partition_fusion(c)) for c in parse_hlo_module(text).computations]
    assert first == second


def test_signatures() -> None:
    # XLA's SubgraphSignatures: a layout becomes an encoding; one index per root dim.
    extra = (
        "add {\n  p0 = f32[] parameter(0)\n  p1 = f32[] parameter(1)\n"
        "  ROOT add = f32[] add(p0, p1)\n}"
    )
    body = """\
  p0 = f32[10,10]{0,1} parameter(0)
  p1 = f32[10,10]{1,0} parameter(1)
  c0 = f32[] constant(2)
  bc = f32[10,10]{0,1} bitcast(p1)
  add = f32[10,10]{1,0} add(p0, bc)
  ROOT reduce = f32[10] reduce(add, c0), dimensions={1}, to_apply=add"""
    fusion = computation(body, "fusion", extra)
    partitions = partition_fusion(fusion)
    assert [p.computation.name for p in partitions] == ["fusion", "add"]
    root = partitions[0].root_subgraph
    assert root.signature.declaration(root.name) == (
        "func.func private @fusion_reduce(tensor<10x10xf32, dense<[0, 1]> : tensor<2xi64>>, "
        "tensor<10x10xf32>, index {xla.range = [0 : index, 9 : index]}) -> f32"
    )
    reducer = partitions[1].root_subgraph
    assert (
        reducer.signature.declaration(reducer.name) == "func.func private @add_add(f32, f32) -> f32"
    )
    assert root.signature.index_ranges == (Interval(0, 9),)


def test_tuple_root_signature_has_one_result_per_element() -> None:
    body = """\
  p0 = f32[6] parameter(0)
  p1 = s32[6] parameter(1)
  c = f32[6] convert(p1)
  add = f32[6] add(p0, c)
  ROOT root = (f32[6], s32[6]) tuple(add, p1)"""
    partitioned = partition_computation(computation(body))
    assert groups(partitioned) == [("fused_computation_root", ["p0", "p1", "c", "add", "root"])]
    signature = partitioned.root_subgraph.signature
    assert signature.declaration("f") == (
        "func.func private @f(tensor<6xf32>, tensor<6xi32>, "
        "index {xla.range = [0 : index, 5 : index]}) -> (f32, i32)"
    )


@pytest.mark.parametrize("name", sorted(p.stem for p in (REPO / "tests" / "corpus").glob("*.hlo")))
def test_corpus_fusions_partition_consistently(name: str) -> None:
    module = parse_hlo_module((REPO / "tests" / "corpus" / f"{name}.hlo").read_text())
    for comp in module.computations:
        partitioned = partition_computation(comp)
        assert_consistent(partitioned)
        placed = [i for s in partitioned.subgraphs for i in s.instructions]
        assert sorted(i.name for i in placed) == sorted(i.name for i in comp.instructions)


def test_format_partitions_view() -> None:
    text = format_partitions([partition_computation(computation(SEED_GRAPH))])
    lines = text.splitlines()
    assert lines[0] == "computation fused_computation: 2 subgraphs"
    assert lines[1].startswith(
        "  func.func private @fused_computation_add(tensor<20x20xf32>, index"
    )
    assert lines[2].split() == [
        "%transpose", "=", "transpose(%log)", "at", "(d0,", "d1)", "->", "(d0,", "d1),",
        "domain:", "d0", "in", "[0,", "19],", "d1", "in", "[0,", "19]",
    ]  # fmt: skip
    assert lines[3].lstrip().startswith("ROOT %add = add(%log, %transpose)")
    assert lines[5].lstrip().startswith("%param = parameter(0)")


EPILOGUE_MODULE = """\
HloModule m

add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT add = f32[] add(p0, p1)
}

fused_computation {
  p0 = f32[4] parameter(0)
  c0 = f32[] constant(0)
  reduce = f32[] reduce(p0, c0), dimensions={0}, to_apply=add
  bitcast = f32[1] bitcast(reduce)
  abs = f32[1] abs(bitcast)
  log = f32[1] log(abs)
  sign = f32[1] sign(bitcast)
  ROOT tuple = (f32[1], f32[1]) tuple(log, sign)
}
"""


def test_epilogue_function_from_xla() -> None:
    # XLA's Epilogue case: the reduce hero's value is injected after the indices.
    fused = parse_hlo_module(EPILOGUE_MODULE).computation("fused_computation")
    reduce = fused.instruction("reduce")
    roots = [fused.instruction("log"), fused.instruction("sign")]
    epilogue = epilogue_subgraph(fused, [reduce], roots, index_ranges=[1, 42])
    assert epilogue.signature.declaration(epilogue.name) == (
        "func.func private @fused_computation__epilogue__log_sign(tensor<4xf32>, "
        "index {xla.range = [0 : index, 0 : index]}, "
        "index {xla.range = [0 : index, 41 : index]}, f32) -> (f32, f32)"
    )
    assert [i.name for i in epilogue.instructions] == ["bitcast", "abs", "log", "sign"]
    assert epilogue.injected == (reduce,)
    default = epilogue_subgraph(fused, [reduce], roots)
    assert default.signature.index_ranges == (Interval(0, 0),)
    assert [str(m) for m in default.root_indexing] == ["(d0) -> (d0), domain: d0 in [0, 0]"] * 2
    # The rest of the computation, with the hero and its operands forced to be roots.
    partitioned = partition_computation(fused, hero_roots([reduce]))
    assert groups(partitioned) == [
        ("fused_computation_tuple", ["bitcast", "abs", "log", "sign", "tuple"]),
        ("fused_computation_reduce", ["reduce"]),
        ("fused_computation_c0", ["c0"]),
        ("fused_computation_p0", ["p0"]),
    ]


def test_module_view_lists_every_fusion() -> None:
    text = (REPO / "tests" / "corpus" / "softmax.hlo").read_text()
    view = format_module_partitions(parse_hlo_module(text))
    headers = [line for line in view.splitlines() if line.startswith("fusion ")]
    assert headers == [
        "fusion wrapped_reduce calls wrapped_reduce_computation",
        "fusion subtract_exponential_fusion calls fused_computation.2",
        "fusion reduce_divide_fusion calls fused_computation.1",
        "fusion broadcast_multiply_fusion calls fused_computation",
    ]
    assert "func.func private @region_0_1_reduce_max_5(f32, f32) -> f32" in view
