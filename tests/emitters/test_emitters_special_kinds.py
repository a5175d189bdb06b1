"""The concatenate, in-place dynamic-update-slice and input-slices emitters on random shapes.

Each case is a module with one fusion, compiled through the default pipeline
and run in the interpreter (`run_hlo`), against the numpy HLO evaluator
(`run_reference`), which shares no code with the emitters. The values are
exact in f32 (copies, negation, absolute values, sums of two values), so the
outputs must match bit for bit. Each test also checks that XLA's emitter
choice picked the kind under test.
"""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
import pytest
from emitter_kernel_checks import bits, parse
from hypothesis import given, settings
from hypothesis import strategies as st

from xla_emit.api import run_hlo, run_reference
from xla_emit.emitters.fusion import fused_computation, fusion_instructions
from xla_emit.emitters.hero import EmitterKind, analyze_fusion

EXAMPLES = settings(max_examples=12, deadline=None)
dims = st.lists(st.integers(1, 6), min_size=1, max_size=3)


def shape_text(dtype: str, sizes: list[int]) -> str:
    return f"{dtype}[{','.join(map(str, sizes))}]"


def fusion_module(params: list[str], body: list[str], result: str) -> str:
    """A module whose entry calls a fused computation `body` on one parameter per shape."""
    fused = [f"  x{i} = {shape} parameter({i})" for i, shape in enumerate(params)]
    entry = [f"  p{i} = {shape} parameter({i})" for i, shape in enumerate(params)]
    operands = ", ".join(f"p{i}" for i in range(len(params)))
    return "\n".join(
        [
            "HloModule test",
            "",
            "fused {",
            *fused,
            *[f"  {line}" for line in body],
            "}",
            "",
            "ENTRY main {",
            *entry,
            f"  ROOT f = {result} fusion({operands}), kind=kLoop, calls=fused",
            "}",
        ]
    )


def emitter_kind(text: str) -> EmitterKind:
    (fusion,) = fusion_instructions(parse(text))
    return analyze_fusion(fused_computation(fusion)).kind


def assert_runs_like_the_evaluator(text: str, inputs: list[np.ndarray]) -> None:
    expected = run_reference(text, inputs)
    actual = run_hlo(text, inputs)
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        assert got.shape == want.shape
        np.testing.assert_array_equal(bits(np.asarray(got)), bits(np.asarray(want)))


def random_array(rng: np.random.Generator, sizes: list[int]) -> np.ndarray:
    return rng.standard_normal(sizes).astype(np.float32)


@EXAMPLES
@given(
    sizes=dims,
    data=st.data(),
    num_operands=st.integers(2, 5),
    epilogue=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_concatenate_fusions(
    sizes: list[int], data: st.DataObject, num_operands: int, epilogue: bool, seed: int
) -> None:
    dim = data.draw(st.integers(0, len(sizes) - 1))
    operand_sizes = [
        [data.draw(st.integers(1, 7)) if d == dim else size for d, size in enumerate(sizes)]
        for _ in range(num_operands)
    ]
    params = [shape_text("f32", s) for s in operand_sizes]
    total = list(sizes)
    total[dim] = sum(s[dim] for s in operand_sizes)
    result = shape_text("f32", total)
    negated = [f"n{i} = {params[i]} negate(x{i})" for i in range(num_operands)]
    operands = ", ".join(f"n{i}" for i in range(num_operands))
    concat = f"c = {result} concatenate({operands}), dimensions={{{dim}}}"
    body = [*negated, ("" if epilogue else "ROOT ") + concat]
    if epilogue:
        body.append(f"ROOT r = {result} abs(c)")
    text = fusion_module(params, body, result)
    expected_kind = EmitterKind.CONCATENATE if num_operands <= 4 else EmitterKind.LOOP
    assert emitter_kind(text) is expected_kind
    rng = np.random.default_rng(seed)
    assert_runs_like_the_evaluator(text, [random_array(rng, s) for s in operand_sizes])


@EXAMPLES
@given(sizes=dims, data=st.data(), seed=st.integers(0, 2**16))
def test_in_place_dynamic_update_slice_fusions(
    sizes: list[int], data: st.DataObject, seed: int
) -> None:
    update_sizes = [data.draw(st.integers(1, size)) for size in sizes]
    # Starts reach past both ends: XLA clamps them to [0, size - update_size].
    starts = [data.draw(st.integers(-3, size + 3)) for size in sizes]
    operand, update = shape_text("f32", sizes), shape_text("f32", update_sizes)
    params = [operand, update, *["s32[]"] * len(sizes)]
    indices = ", ".join(f"x{2 + d}" for d in range(len(sizes)))
    body = [
        f"n = {update} negate(x1)",
        f"ROOT r = {operand} dynamic-update-slice(x0, n, {indices})",
    ]
    text = fusion_module(params, body, operand)
    assert emitter_kind(text) is EmitterKind.IN_PLACE_DUS
    rng = np.random.default_rng(seed)
    starts_arrays = [np.array(start, np.int32) for start in starts]
    inputs = [random_array(rng, sizes), random_array(rng, update_sizes), *starts_arrays]
    assert_runs_like_the_evaluator(text, inputs)


@st.composite
def unit_slices(draw: st.DrawFn, sizes: list[int]) -> tuple[list[int], list[int]]:
    starts = [draw(st.integers(0, size - 1)) for size in sizes]
    limits = [draw(st.integers(start + 1, size)) for start, size in zip(starts, sizes, strict=True)]
    return starts, limits


@EXAMPLES
@given(sizes=dims, data=st.data(), seed=st.integers(0, 2**16))
def test_input_slices_fusions(sizes: list[int], data: st.DataObject, seed: int) -> None:
    shape = shape_text("f32", sizes)
    body = [f"a = {shape} add(x0, x1)"]
    roots: list[tuple[str, str]] = []
    for position in range(data.draw(st.integers(2, 3))):
        starts, limits = data.draw(unit_slices(sizes))
        bounds = list(zip(starts, limits, strict=True))
        sliced = shape_text("f32", [limit - start for start, limit in bounds])
        ranges = ", ".join(f"[{start}:{limit}]" for start, limit in bounds)
        source = data.draw(st.sampled_from(["a", "x1"]))
        body.append(f"s{position} = {sliced} slice({source}), slice={{{ranges}}}")
        roots.append((f"s{position}", sliced))
    result = f"({', '.join(s for _, s in roots)})"
    body.append(f"ROOT t = {result} tuple({', '.join(n for n, _ in roots)})")
    text = fusion_module([shape, shape], body, result)
    assert emitter_kind(text) is EmitterKind.INPUT_SLICES
    rng = np.random.default_rng(seed)
    assert_runs_like_the_evaluator(text, [random_array(rng, sizes), random_array(rng, sizes)])


@st.composite
def indexed_windows(draw: st.DrawFn, all_inserted: bool = False) -> dict[str, object]:
    """An operand shape, the dims an index vector addresses (in vector order), which of
    them are collapsed (window size 1, no window dim), and the window sizes."""
    sizes = draw(dims)
    rank = len(sizes)
    indexed = draw(st.permutations(range(rank)))[: draw(st.integers(1, rank))]
    inserted = (
        sorted(indexed) if all_inserted else sorted(d for d in indexed if draw(st.booleans()))
    )
    window = [1 if d in inserted else draw(st.integers(1, sizes[d])) for d in range(rank)]
    return {"sizes": sizes, "indexed": list(indexed), "inserted": inserted, "window": window}


def ints(values: list[int]) -> str:
    return ",".join(map(str, values))


def index_vectors(
    rng: np.random.Generator, count: int, sizes: list[int], indexed: list[int]
) -> np.ndarray:
    """Starts from 2 below to 2 past each dim: some windows stick out, some repeat."""
    columns = [rng.integers(-2, sizes[d] + 3, count) for d in indexed]
    return np.stack(columns, axis=1).astype(np.int32)


COMBINERS = {
    "add": "ROOT r = s32[] add(a, b)",
    "maximum": "ROOT r = s32[] maximum(a, b)",
    "overwrite": "ROOT r = s32[] copy(b)",
}


def scatter_module(params: list[str], body: list[str], result: str, combiner: str) -> str:
    computation = "\n".join(
        ["combine {", "  a = s32[] parameter(0)", "  b = s32[] parameter(1)", f"  {combiner}", "}"]
    )
    return fusion_module(params, body, result).replace(
        "HloModule test\n", f"HloModule test\n\n{computation}\n"
    )


def scatter_starts(
    rng: np.random.Generator, count: int, sizes: list[int], indexed: list[int], unique: bool
) -> np.ndarray:
    """`count` index vectors: distinct ones (some out of range) when `unique`; else each
    drawn one twice, in shuffled order, the first at the origin, so that updates collide."""
    if unique:
        ranges = [np.arange(-1, sizes[d] + 1) for d in indexed]
        grid = np.stack(np.meshgrid(*ranges, indexing="ij"), -1).reshape(-1, len(indexed))
        grid = rng.permutation(grid)
        return grid[:count].astype(np.int32)
    drawn = index_vectors(rng, (count + 1) // 2, sizes, indexed)
    drawn[0] = 0
    return rng.permutation(np.concatenate([drawn, drawn]))[:count].astype(np.int32)


def check_scatter(
    case: dict[str, object], count: int, unique: bool, combiner: str, seed: int
) -> None:
    sizes, indexed, inserted, window = (
        case["sizes"], case["indexed"], case["inserted"], case["window"]
    )  # fmt: skip
    assert isinstance(sizes, list) and isinstance(indexed, list)
    assert isinstance(inserted, list) and isinstance(window, list)
    rng = np.random.default_rng(seed)
    starts = scatter_starts(rng, count, sizes, indexed, unique)
    count = len(starts)
    update_sizes = [count] + [w for d, w in enumerate(window) if d not in inserted]
    operand = shape_text("s32", sizes)
    params = [operand, shape_text("s32", [count, len(indexed)]), shape_text("s32", update_sizes)]
    scatter = (
        f"ROOT s = {operand} scatter(x0, x1, n), "
        f"update_window_dims={{{ints(list(range(1, len(update_sizes))))}}}, "
        f"inserted_window_dims={{{ints(inserted)}}}, "
        f"scatter_dims_to_operand_dims={{{ints(indexed)}}}, index_vector_dim=1, "
        f"unique_indices={'true' if unique else 'false'}, to_apply=combine"
    )
    body = [f"n = {params[2]} negate(x2)", scatter]
    text = scatter_module(params, body, operand, COMBINERS[combiner])
    assert emitter_kind(text) is EmitterKind.SCATTER
    updates = rng.integers(-50, 50, update_sizes).astype(np.int32)
    operand_values = rng.integers(-50, 50, sizes).astype(np.int32)
    assert_runs_like_the_evaluator(text, [operand_values, starts, updates])


@EXAMPLES
@given(
    case=indexed_windows(),
    count=st.integers(2, 8),
    combiner=st.sampled_from(["add", "maximum"]),
    seed=st.integers(0, 2**16),
)
def test_scatter_fusions_combine_colliding_updates_atomically(
    case: dict[str, object], count: int, combiner: str, seed: int
) -> None:
    check_scatter(case, count, False, combiner, seed)


@EXAMPLES
@given(
    case=indexed_windows(all_inserted=True),
    count=st.integers(1, 4),
    combiner=st.sampled_from(["add", "overwrite"]),
    seed=st.integers(0, 2**16),
)
def test_scatter_fusions_with_unique_indices(
    case: dict[str, object], count: int, combiner: str, seed: int
) -> None:
    check_scatter(case, count, True, combiner, seed)


@EXAMPLES
@given(case=indexed_windows(), count=st.integers(1, 5), seed=st.integers(0, 2**16))
def test_gathers_in_loop_fusions_clamp_their_starts(
    case: dict[str, object], count: int, seed: int
) -> None:
    sizes, indexed, collapsed, window = (
        case["sizes"], case["indexed"], case["inserted"], case["window"]
    )  # fmt: skip
    assert isinstance(sizes, list) and isinstance(indexed, list)
    assert isinstance(collapsed, list) and isinstance(window, list)
    out_sizes = [count] + [w for d, w in enumerate(window) if d not in collapsed]
    operand, result = shape_text("f32", sizes), shape_text("f32", out_sizes)
    params = [operand, shape_text("s32", [count, len(indexed)])]
    body = [
        f"g = {result} gather(x0, x1), offset_dims={{{ints(list(range(1, len(out_sizes))))}}}, "
        f"collapsed_slice_dims={{{ints(collapsed)}}}, start_index_map={{{ints(indexed)}}}, "
        f"index_vector_dim=1, slice_sizes={{{ints(window)}}}",
        f"ROOT n = {result} negate(g)",
    ]
    text = fusion_module(params, body, result)
    assert emitter_kind(text) is EmitterKind.LOOP
    rng = np.random.default_rng(seed)
    starts = index_vectors(rng, count, sizes, indexed)
    assert_runs_like_the_evaluator(text, [random_array(rng, sizes), starts])


def test_scatter_add_of_colliding_and_out_of_range_indices_by_hand() -> None:
    """Three updates of row 1 all land; rows 7 and -1 do not exist and are dropped."""
    body = [
        "ROOT s = s32[5] scatter(x0, x1, x2), update_window_dims={}, inserted_window_dims={0}, "
        "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=combine"
    ]
    text = scatter_module(["s32[5]", "s32[6,1]", "s32[6]"], body, "s32[5]", COMBINERS["add"])
    operand = np.array([1, 2, 3, 4, 5], np.int32)
    indices = np.array([[1], [3], [1], [7], [-1], [1]], np.int32)
    updates = np.array([10, 20, 30, 40, 50, 60], np.int32)
    (result,) = run_hlo(text, [operand, indices, updates])
    np.testing.assert_array_equal(result, [1, 2 + 10 + 30 + 60, 3, 4 + 20, 5])


@st.composite
def windows(draw: st.DrawFn, sizes: list[int]) -> list[tuple[int, int, int, int, int, int]]:
    """Per dim: size, stride, low and high padding, base and window dilation, such that
    the output has at least one element."""
    result = []
    for size in sizes:
        base = draw(st.integers(1, 2))
        dilation = draw(st.integers(1, 2))
        low, high = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        padded = (size - 1) * base + 1 + low + high
        extent = draw(st.integers(1, min(3, (padded - 1) // dilation + 1)))
        result.append((extent, draw(st.integers(1, 2)), low, high, base, dilation))
    return result


@EXAMPLES
@given(
    sizes=dims,
    data=st.data(),
    combiner=st.sampled_from(["add", "maximum"]),
    seed=st.integers(0, 2**16),
)
def test_reduce_windows_in_loop_fusions(
    sizes: list[int], data: st.DataObject, combiner: str, seed: int
) -> None:
    window = data.draw(windows(sizes))
    out_sizes = [
        ((size - 1) * base + 1 + low + high - ((extent - 1) * dilation + 1)) // stride + 1
        for size, (extent, stride, low, high, base, dilation) in zip(sizes, window, strict=True)
    ]
    text_window = (
        f"size={'x'.join(str(w[0]) for w in window)} "
        f"stride={'x'.join(str(w[1]) for w in window)} "
        f"pad={'x'.join(f'{w[2]}_{w[3]}' for w in window)} "
        f"lhs_dilate={'x'.join(str(w[4]) for w in window)} "
        f"rhs_dilate={'x'.join(str(w[5]) for w in window)}"
    )
    operand, result = shape_text("s32", sizes), shape_text("s32", out_sizes)
    body = [
        f"r = {result} reduce-window(x0, x1), window={{{text_window}}}, to_apply=combine",
        f"ROOT n = {result} negate(r)",
    ]
    text = scatter_module([operand, "s32[]"], body, result, COMBINERS[combiner])
    assert emitter_kind(text) is EmitterKind.LOOP
    rng = np.random.default_rng(seed)
    values = rng.integers(-50, 50, sizes).astype(np.int32)
    # Padding and dilation holes hold the init: 0 adds nothing, and a maximum starts there.
    init = np.array(0 if combiner == "add" else rng.integers(-60, 0), np.int32)
    assert_runs_like_the_evaluator(text, [values, init])


@EXAMPLES
@given(
    batch=st.lists(st.integers(1, 3), max_size=1),
    rows=st.integers(1, 4),
    depth=st.lists(st.integers(1, 4), min_size=1, max_size=2),
    cols=st.integers(1, 4),
    dtype=st.sampled_from(["s32", "bf16"]),
    seed=st.integers(0, 2**16),
)
def test_dots_in_loop_fusions(
    batch: list[int], rows: int, depth: list[int], cols: int, dtype: str, seed: int
) -> None:
    """[batch, rows, depth...] x [batch, depth..., cols]; small integers, so that bf16
    products and their f32 sums are exact and the result rounds once, as XLA rounds it."""
    nb, nd = len(batch), len(depth)
    lhs_sizes, rhs_sizes = [*batch, rows, *depth], [*batch, *depth, cols]
    lhs, rhs = shape_text(dtype, lhs_sizes), shape_text(dtype, rhs_sizes)
    result = shape_text(dtype, [*batch, rows, cols])
    dot = (
        f"d = {result} dot(x0, x1), lhs_batch_dims={{{ints(list(range(nb)))}}}, "
        f"lhs_contracting_dims={{{ints(list(range(nb + 1, nb + 1 + nd)))}}}, "
        f"rhs_batch_dims={{{ints(list(range(nb)))}}}, "
        f"rhs_contracting_dims={{{ints(list(range(nb, nb + nd)))}}}"
    )
    text = fusion_module([lhs, rhs], [dot, f"ROOT n = {result} negate(d)"], result)
    assert emitter_kind(text) is EmitterKind.LOOP
    rng = np.random.default_rng(seed)
    numpy_type = np.int32 if dtype == "s32" else ml_dtypes.bfloat16
    inputs = [rng.integers(-8, 9, s).astype(numpy_type) for s in (lhs_sizes, rhs_sizes)]
    assert_runs_like_the_evaluator(text, inputs)


@pytest.mark.parametrize(
    ("params", "body", "result", "kind"),
    [
        # Slices of inputs of two shapes: no common loop, so the loop emitter (which then
        # needs equal output shapes: here they are).
        (
            ["f32[4,4]", "f32[4,5]"],
            [
                "a = f32[2,4] slice(x0), slice={[0:2], [0:4]}",
                "b = f32[2,4] slice(x1), slice={[0:2], [0:4]}",
                "ROOT t = (f32[2,4], f32[2,4]) tuple(a, b)",
            ],
            "(f32[2,4], f32[2,4])",
            EmitterKind.LOOP,
        ),
        # A single slice root is a plain loop fusion (input slices needs several roots).
        (
            ["f32[4,4]"],
            ["ROOT a = f32[2,4] slice(x0), slice={[0:2], [0:4]}"],
            "f32[2,4]",
            EmitterKind.LOOP,
        ),
        # Two roots updating one parameter cannot both own its buffer.
        (
            ["f32[4]", "f32[1]", "s32[]"],
            [
                "a = f32[4] dynamic-update-slice(x0, x1, x2)",
                "b = f32[4] dynamic-update-slice(x0, x1, x2)",
                "ROOT t = (f32[4], f32[4]) tuple(a, b)",
            ],
            "(f32[4], f32[4])",
            EmitterKind.LOOP,
        ),
        # An elementwise epilogue keeps the concatenate the hero.
        (
            ["f32[2]", "f32[3]"],
            ["c = f32[5] concatenate(x0, x1), dimensions={0}", "ROOT n = f32[5] negate(c)"],
            "f32[5]",
            EmitterKind.CONCATENATE,
        ),
    ],
)
def test_emitter_choice(params: list[str], body: list[str], result: str, kind: EmitterKind) -> None:
    assert emitter_kind(fusion_module(params, body, result)) is kind


ARGMAX = """
argmax {
  a = s32[] parameter(0)
  i = s32[] parameter(1)
  b = s32[] parameter(2)
  j = s32[] parameter(3)
  keep = pred[] compare(a, b), direction=GE
  va = s32[] select(keep, a, b)
  vi = s32[] select(keep, i, j)
  ROOT t = (s32[], s32[]) tuple(va, vi)
}
"""


def argmax_windows_by_brute_force(
    values: np.ndarray, window: list[tuple[int, int, int, int, int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Per output element: the first maximum (row-major window order) of the window's
    in-range elements and its flat position, or (-1000, -1) where the window holds none."""
    (
        (rows, r_stride, r_low, r_high, r_base, r_dil),
        (cols, c_stride, c_low, c_high, c_base, c_dil),
    ) = window
    extent = [
        (n - 1) * b + 1 + lo + hi
        for n, b, lo, hi in zip(
            values.shape, (r_base, c_base), (r_low, c_low), (r_high, c_high), strict=True
        )
    ]
    out = [
        (extent[0] - ((rows - 1) * r_dil + 1)) // r_stride + 1,
        (extent[1] - ((cols - 1) * c_dil + 1)) // c_stride + 1,
    ]
    best = np.full(out, -1000, np.int32)
    where = np.full(out, -1, np.int32)
    for oy, ox in itertools.product(range(out[0]), range(out[1])):
        for wy, wx in itertools.product(range(rows), range(cols)):
            py = oy * r_stride + wy * r_dil - r_low
            px = ox * c_stride + wx * c_dil - c_low
            if py % r_base or px % c_base:
                continue
            y, x = py // r_base, px // c_base
            inside = 0 <= y < values.shape[0] and 0 <= x < values.shape[1]
            if inside and (values[y, x] > best[oy, ox] or where[oy, ox] < 0):
                best[oy, ox], where[oy, ox] = values[y, x], y * values.shape[1] + x
    return best, where


@settings(max_examples=3, deadline=None)
@given(rows=st.integers(1, 5), cols=st.integers(1, 5), data=st.data(), seed=st.integers(0, 99))
def test_variadic_argmax_reduce_windows_in_loop_fusions(
    rows: int, cols: int, data: st.DataObject, seed: int
) -> None:
    """Two accumulators (value, position) through one window nest, holes and padding
    skipped; ties keep the first position, as XLA's max-pool gradient needs."""
    window = data.draw(windows([rows, cols]))
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 3, (rows, cols)).astype(np.int32)
    best, where = argmax_windows_by_brute_force(values, window)
    result = shape_text("s32", list(best.shape))
    text_window = (
        f"size={'x'.join(str(w[0]) for w in window)} "
        f"stride={'x'.join(str(w[1]) for w in window)} "
        f"pad={'x'.join(f'{w[2]}_{w[3]}' for w in window)} "
        f"lhs_dilate={'x'.join(str(w[4]) for w in window)} "
        f"rhs_dilate={'x'.join(str(w[5]) for w in window)}"
    )
    operand = shape_text("s32", [rows, cols])
    body = [
        f"i = {operand} iota(), iota_dimension=0",
        f"c = s32[] constant({cols})",
        f"cs = {operand} broadcast(c), dimensions={{}}",
        f"ic = {operand} multiply(i, cs)",
        f"j = {operand} iota(), iota_dimension=1",
        f"at = {operand} add(ic, j)",
        "low = s32[] constant(-1000)",
        "none = s32[] constant(-1)",
        f"r = ({result}, {result}) reduce-window(x0, at, low, none), "
        f"window={{{text_window}}}, to_apply=argmax",
        f"v = {result} get-tuple-element(r), index=0",
        f"w = {result} get-tuple-element(r), index=1",
        f"ROOT t = ({result}, {result}) tuple(v, w)",
    ]
    text = fusion_module([operand], body, f"({result}, {result})").replace(
        "HloModule test\n", f"HloModule test\n{ARGMAX}"
    )
    got_best, got_where = run_hlo(text, [values])
    np.testing.assert_array_equal(got_best, best)
    np.testing.assert_array_equal(got_where, where)
    assert_runs_like_the_evaluator(text, [values])
