"""Output-to-input indexing maps against brute force.

Each op is evaluated on operands filled with distinct values (their own
linear indices plus an offset per operand); then, for every output index, the
map must point at the operand element whose value the evaluator produced.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module
from xla_emit.hlo.indexing_analysis import (
    compose_along_path,
    computation_indexing,
    compute_output_to_input_indexing,
    reshape_map,
)
from xla_emit.hlo.ir import HloModule
from xla_emit.indexing import IndexingMap, Interval

REDUCERS = """
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT r = s32[] add(x, y)
}
max {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT r = s32[] maximum(x, y)
}
"""


def module(body: str) -> HloModule:
    return parse_hlo_module(f"HloModule t\n{REDUCERS}\nENTRY e {{\n{body}\n}}\n")


def numbered(shape: Sequence[int], offset: int) -> np.ndarray:
    """Distinct values: the row-major linear index plus `offset`."""
    return (np.arange(int(np.prod(shape)), dtype=np.int32) + offset).reshape(shape)


def arguments_for(mod: HloModule) -> list[np.ndarray]:
    args: list[np.ndarray] = []
    for number, param in enumerate(mod.entry.parameters):
        args.append(numbered(param.array_shape.dimensions, 1000 * (number + 1)))
    return args


def check_reads(
    body: str,
    operand: int = 0,
    *,
    symbols: Sequence[int] = (),
    outside: int | None = None,
    args: list[np.ndarray] | None = None,
) -> IndexingMap:
    """Every output element inside the map's domain equals the operand element the map names;
    every element outside it equals `outside` (None: the domain must cover the output)."""
    mod = module(body)
    args = arguments_for(mod) if args is None else args
    (out,) = evaluate_module(mod, args)
    indexing = compute_output_to_input_indexing(mod.entry.root)[operand]
    assert indexing is not None
    data = args[operand]
    for index in np.ndindex(*out.shape):
        if indexing.is_in_domain(index, symbols):
            source = tuple(int(v) for v in indexing.evaluate(index, symbols))
            assert out[index] == data[source], (index, source, str(indexing))
        else:
            assert outside is not None, f"{index} is outside the domain of {indexing}"
            assert out[index] == outside, index
    return indexing


def test_elementwise_is_identity() -> None:
    body = "  p = s32[3,4] parameter(0)\n  ROOT r = s32[3,4] negate(p)"
    args = [numbered((3, 4), 1)]
    mod = module(body)
    (out,) = evaluate_module(mod, args)
    indexing = compute_output_to_input_indexing(mod.entry.root)[0]
    assert indexing is not None
    for index in np.ndindex(3, 4):
        assert out[index] == -args[0][tuple(int(v) for v in indexing.evaluate(index, ()))]
    both = (
        "  p = s32[3,4] parameter(0)\n  q = s32[3,4] parameter(1)\n"
        "  ROOT r = s32[3,4] maximum(p, q)"
    )
    # q is below every p, so the maximum shows which element of p was read.
    check_reads(both, 0, args=[numbered((3, 4), 100), numbered((3, 4), -100)])


def test_scalar_operands_map_to_nothing() -> None:
    mod = module(
        "  lo = s32[] parameter(0)\n  p = s32[2,3] parameter(1)\n  hi = s32[] parameter(2)\n"
        "  ROOT r = s32[2,3] clamp(lo, p, hi)"
    )
    maps = compute_output_to_input_indexing(mod.entry.root)
    assert [str(m) for m in maps] == [
        "(d0, d1) -> (), domain: d0 in [0, 1], d1 in [0, 2]",
        "(d0, d1) -> (d0, d1), domain: d0 in [0, 1], d1 in [0, 2]",
        "(d0, d1) -> (), domain: d0 in [0, 1], d1 in [0, 2]",
    ]


def test_broadcast() -> None:
    indexing = check_reads(
        "  p = s32[4] parameter(0)\n  ROOT r = s32[3,4,2] broadcast(p), dimensions={1}"
    )
    assert str(indexing).startswith("(d0, d1, d2) -> (d1),")
    check_reads("  p = s32[3,2] parameter(0)\n  ROOT r = s32[2,5,3] broadcast(p), dimensions={2,0}")


def test_transpose_uses_the_inverse_permutation() -> None:
    # XLA's example: dims={0,2,3,1} gives (d0, d1, d2, d3) -> (d0, d3, d1, d2).
    indexing = check_reads(
        "  p = s32[2,3,4,5] parameter(0)\n"
        "  ROOT r = s32[2,4,5,3] transpose(p), dimensions={0,2,3,1}"
    )
    assert str(indexing).startswith("(d0, d1, d2, d3) -> (d0, d3, d1, d2),")


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ((4, 8), (32,)),
        ((4, 8), (2, 4, 4)),
        ((6, 1, 4), (3, 8)),
        ((2, 3, 4), (4, 3, 2)),
        ((12,), (1, 3, 1, 4)),
    ],
)
def test_reshape(source: tuple[int, ...], target: tuple[int, ...]) -> None:
    s = ",".join(map(str, source))
    t = ",".join(map(str, target))
    check_reads(f"  p = s32[{s}] parameter(0)\n  ROOT r = s32[{t}] reshape(p)")


def test_reshape_examples_from_xla() -> None:
    assert (
        str(reshape_map((32,), (4, 8)))
        == "(d0) -> (d0 floordiv 8, d0 mod 8), domain: d0 in [0, 31]"
    )
    simplified = reshape_map((2, 4, 4), (4, 8)).simplify()
    assert [r.to_str(("d0", "d1", "d2"), ()) for r in simplified.results] == [
        "d0 * 2 + d1 floordiv 2",
        "(d1 mod 2) * 4 + d2",
    ]


@pytest.mark.parametrize(
    ("operand", "result"),
    [
        ("s32[2,3]{0,1}", "s32[3,2]{1,0}"),
        ("s32[6,4]{1,0}", "s32[2,3,4]{2,1,0}"),
        ("s32[4,6]{0,1}", "s32[3,2,4]{0,2,1}"),
    ],
)
def test_bitcast_follows_layouts(operand: str, result: str) -> None:
    check_reads(f"  p = {operand} parameter(0)\n  ROOT r = {result} bitcast(p)")


def test_copy_and_bitcast_convert() -> None:
    check_reads("  p = s32[3,4] parameter(0)\n  ROOT r = s32[3,4] copy(p)")
    mod = module("  p = s32[3] parameter(0)\n  ROOT r = s16[3,2] bitcast-convert(p)")
    indexing = compute_output_to_input_indexing(mod.entry.root)[0]
    assert indexing is not None
    assert str(indexing).startswith("(d0, d1) -> (d0),")


def test_slice() -> None:
    indexing = check_reads(
        "  p = s32[10,20,9] parameter(0)\n"
        "  ROOT r = s32[5,3,5] slice(p), slice={[5:10:1], [3:20:7], [0:9:2]}"
    )
    assert str(indexing).startswith("(d0, d1, d2) -> (d0 + 5, d1 * 7 + 3, d2 * 2),")


def test_reverse() -> None:
    indexing = check_reads(
        "  p = s32[4,3] parameter(0)\n  ROOT r = s32[4,3] reverse(p), dimensions={0}"
    )
    assert str(indexing).startswith("(d0, d1) -> (-d0 + 3, d1),")


@pytest.mark.parametrize(
    ("operand", "padding", "result"),
    [
        ("4,4", "1_4_1x4_8_0", "12,16"),
        ("5", "-2_1_2", "12"),
        ("3,2", "0_0x2_-1_1", "3,4"),
        ("4", "-1_-1", "2"),
    ],
)
def test_pad(operand: str, padding: str, result: str) -> None:
    body = (
        f"  p = s32[{operand}] parameter(0)\n  z = s32[] constant(-7)\n"
        f"  ROOT r = s32[{result}] pad(p, z), padding={padding}"
    )
    check_reads(body, outside=-7)


def test_pad_example_from_xla() -> None:
    mod = module(
        "  p = s32[4,4] parameter(0)\n  z = s32[] constant(0)\n"
        "  ROOT r = s32[12,16] pad(p, z), padding=1_4_1x4_8_0"
    )
    indexing = compute_output_to_input_indexing(mod.entry.root)[0]
    assert indexing is not None
    assert str(indexing).startswith(
        "(d0, d1) -> ((d0 - 1) floordiv 2, d1 - 4), domain: d0 in [1, 7], d1 in [4, 7]"
    )
    assert len(indexing.constraints) == 1


def test_concatenate_restricts_each_operand_to_its_part() -> None:
    body = (
        "  p = s32[2,3] parameter(0)\n  q = s32[2,1] parameter(1)\n  s = s32[2,4] parameter(2)\n"
        "  ROOT r = s32[2,8] concatenate(p, q, s), dimensions={1}"
    )
    mod = module(body)
    maps = compute_output_to_input_indexing(mod.entry.root)
    args = arguments_for(mod)
    (out,) = evaluate_module(mod, args)
    for index in np.ndindex(*out.shape):
        readers = [k for k, m in enumerate(maps) if m is not None and m.is_in_domain(index, ())]
        assert len(readers) == 1, index
        (k,) = readers
        indexing = maps[k]
        assert indexing is not None
        assert out[index] == args[k][tuple(int(v) for v in indexing.evaluate(index, ()))]
    assert str(maps[2]) == "(d0, d1) -> (d0, d1 - 4), domain: d0 in [0, 1], d1 in [4, 7]"
    # The one-column operand: d1 is the point 3, so the column read is the constant 0.
    assert str(maps[1]) == "(d0, d1) -> (d0, 0), domain: d0 in [0, 1], d1 in [3, 3]"


def test_iota_and_constant_have_no_operands() -> None:
    mod = module("  ROOT r = s32[3] iota(), iota_dimension=0")
    assert compute_output_to_input_indexing(mod.entry.root) == []


@pytest.mark.parametrize("starts", [(1, 2), (7, 0), (-3, 9)])
def test_dynamic_slice_with_runtime_starts(starts: tuple[int, int]) -> None:
    body = (
        "  p = s32[8,6] parameter(0)\n  i = s32[] parameter(1)\n  j = s32[] parameter(2)\n"
        "  ROOT r = s32[2,3] dynamic-slice(p, i, j), dynamic_slice_sizes={2,3}"
    )
    args = [numbered((8, 6), 0), np.array(starts[0], np.int32), np.array(starts[1], np.int32)]
    # The runtime variables are the starts after clamping to [0, dim - size], which the map's
    # bounds state; the brute force feeds the clamped values.
    clamped = (min(max(starts[0], 0), 6), min(max(starts[1], 0), 3))
    indexing = check_reads(body, symbols=clamped, args=args)
    assert [v.bounds for v in indexing.rt_vars] == [Interval(0, 6), Interval(0, 3)]


@pytest.mark.parametrize("starts", [(1, 2), (9, -1)])
def test_dynamic_update_slice(starts: tuple[int, int]) -> None:
    body = (
        "  p = s32[5,6] parameter(0)\n  u = s32[2,3] parameter(1)\n  i = s32[] parameter(2)\n"
        "  j = s32[] parameter(3)\n  ROOT r = s32[5,6] dynamic-update-slice(p, u, i, j)"
    )
    args = [
        numbered((5, 6), 0),
        numbered((2, 3), 500),
        np.array(starts[0], np.int32),
        np.array(starts[1], np.int32),
    ]
    clamped = (min(max(starts[0], 0), 3), min(max(starts[1], 0), 3))
    mod = module(body)
    (out,) = evaluate_module(mod, args)
    base, update = compute_output_to_input_indexing(mod.entry.root)[:2]
    assert base is not None and update is not None
    for index in np.ndindex(*out.shape):
        if update.is_in_domain(index, clamped):
            source = tuple(int(v) for v in update.evaluate(index, clamped))
            assert out[index] == args[1][source]
        else:
            assert out[index] == args[0][tuple(int(v) for v in base.evaluate(index, ()))]


@pytest.mark.parametrize("dims", [(1,), (0, 2), (2,), (0, 1, 2)])
def test_reduce_reads_a_range(dims: tuple[int, ...]) -> None:
    shape = (3, 4, 5)
    kept = [size for d, size in enumerate(shape) if d not in dims]
    out_shape = ",".join(map(str, kept))
    dim_text = ",".join(map(str, dims))
    results = {}
    for reducer in ("add", "max"):
        body = (
            "  p = s32[3,4,5] parameter(0)\n  z = s32[] constant(0)\n"
            f"  ROOT r = s32[{out_shape}] reduce(p, z), dimensions={{{dim_text}}}, "
            f"to_apply={reducer}"
        )
        mod = module(body)
        args = [numbered(shape, 1)]
        (results[reducer],) = evaluate_module(mod, args)
        indexing = compute_output_to_input_indexing(mod.entry.root)[0]
        assert indexing is not None
    assert indexing is not None
    data = numbered(shape, 1)
    ranges = [range(v.bounds.lower, v.bounds.upper + 1) for v in indexing.range_vars]
    for index in np.ndindex(*kept):
        read = [
            data[tuple(int(v) for v in indexing.evaluate(index, s))]
            for s in itertools.product(*ranges)
        ]
        assert len(set(read)) == len(read) == int(np.prod([shape[d] for d in dims]))
        assert results["add"][index] == sum(read)
        assert results["max"][index] == max(read)


def test_reduce_example_from_xla() -> None:
    mod = module(
        "  p = s32[150,20,10,50] parameter(0)\n  z = s32[] constant(0)\n"
        "  ROOT r = s32[150,10] reduce(p, z), dimensions={3,1}, to_apply=add"
    )
    maps = compute_output_to_input_indexing(mod.entry.root)
    assert str(maps[0]) == (
        "(d0, d1)[s0, s1] -> (d0, s0, d1, s1), domain: d0 in [0, 149], d1 in [0, 9], "
        "s0 in [0, 19], s1 in [0, 49]"
    )
    assert str(maps[1]) == "(d0, d1) -> (), domain: d0 in [0, 149], d1 in [0, 9]"


def test_composition_along_a_path() -> None:
    mod = module(
        "  p = s32[4,6] parameter(0)\n  t = s32[6,4] transpose(p), dimensions={1,0}\n"
        "  s = s32[3,4] slice(t), slice={[1:4], [0:4]}\n"
        "  ROOT r = s32[4,3] transpose(s), dimensions={1,0}"
    )
    entry = mod.entry
    path = [entry.instruction(n) for n in ("r", "s", "t", "p")]
    composed = compose_along_path(path)
    assert composed is not None
    assert str(composed) == "(d0, d1) -> (d0, d1 + 1), domain: d0 in [0, 3], d1 in [0, 2]"
    # Brute force: r[i, j] == p[composed(i, j)].
    args = arguments_for(mod)
    (out,) = evaluate_module(mod, args)
    for index in np.ndindex(*out.shape):
        assert out[index] == args[0][tuple(int(v) for v in composed.evaluate(index, ()))]


def test_fusion_indexing_composes_through_the_computation() -> None:
    text = f"""HloModule t
{REDUCERS}
fused {{
  a = s32[4,6] parameter(0)
  t = s32[6,4] transpose(a), dimensions={{1,0}}
  ROOT n = s32[6,4] negate(t)
}}
ENTRY e {{
  p = s32[4,6] parameter(0)
  ROOT f = s32[6,4] fusion(p), kind=kLoop, calls=fused
}}
"""
    mod = parse_hlo_module(text)
    (indexing,) = compute_output_to_input_indexing(mod.entry.root)
    assert indexing is not None
    assert str(indexing).startswith("(d0, d1) -> (d1, d0),")
    reached = computation_indexing(mod.computation("fused"))
    assert len(reached[mod.computation("fused").instruction("a")]) == 1


def test_bitcast_convert_narrowing_and_widening() -> None:
    # Narrowing: out[i, j] is 16-bit half j of in[i] (little-endian), read through (d0, d1) -> (d0).
    mod = module("  p = s32[3] parameter(0)\n  ROOT r = s16[3,2] bitcast-convert(p)")
    data = np.array([0x00010002, -1, 0x7FFF0000], np.int32)
    (out,) = evaluate_module(mod, [data])
    (narrow,) = compute_output_to_input_indexing(mod.entry.root)
    assert narrow is not None
    for i, j in np.ndindex(3, 2):
        (source,) = (int(v) for v in narrow.evaluate((i, j), ()))
        assert out[i, j] == data[source : source + 1].view(np.int16)[j]
    # Widening: out[i] is made of in[i, s0] for s0 in [0, 1].
    mod = module("  p = s16[3,2] parameter(0)\n  ROOT r = s32[3] bitcast-convert(p)")
    halves = np.array([[2, 1], [-1, -1], [0, 0x7FFF]], np.int16)
    (out,) = evaluate_module(mod, [halves])
    (wide,) = compute_output_to_input_indexing(mod.entry.root)
    assert wide is not None and len(wide.range_vars) == 1
    for i in range(3):
        read = [tuple(int(v) for v in wide.evaluate((i,), (s,))) for s in range(2)]
        assert read == [(i, 0), (i, 1)]
        assert out[i] == halves[i].view(np.int32)[0]


def test_select_clamp_and_call_through_brute_force() -> None:
    check_reads(
        "  c = pred[] parameter(0)\n  p = s32[2,3] parameter(1)\n  q = s32[2,3] parameter(2)\n"
        "  ROOT r = s32[2,3] select(c, p, q)",
        1,
        args=[np.array(True), numbered((2, 3), 10), numbered((2, 3), 100)],
    )
    check_reads(
        "  lo = s32[] parameter(0)\n  p = s32[2,3] parameter(1)\n  hi = s32[] parameter(2)\n"
        "  ROOT r = s32[2,3] clamp(lo, p, hi)",
        1,
        args=[np.array(0, np.int32), numbered((2, 3), 10), np.array(99, np.int32)],
    )
    text = f"""HloModule t
{REDUCERS}
callee {{
  a = s32[4,6] parameter(0)
  s = s32[2,6] slice(a), slice={{[1:4:2], [0:6]}}
  ROOT r = s32[6,2] transpose(s), dimensions={{1,0}}
}}
ENTRY e {{
  p = s32[4,6] parameter(0)
  ROOT c = s32[6,2] call(p), to_apply=callee
}}
"""
    mod = parse_hlo_module(text)
    args = arguments_for(mod)
    (out,) = evaluate_module(mod, args)
    (indexing,) = compute_output_to_input_indexing(mod.entry.root)
    assert indexing is not None
    for index in np.ndindex(*out.shape):
        assert out[index] == args[0][tuple(int(v) for v in indexing.evaluate(index, ()))]
