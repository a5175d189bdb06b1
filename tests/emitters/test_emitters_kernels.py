"""Emitted kernels run in the interpreter and compared with the HLO evaluator.

Each case is a small module with one fusion; inputs are random (seeded) and
the evaluator (`xla_emit.hlo`) is the oracle: bit-exact for integers and
16-bit floats, a few ulp for f32 transcendentals, a relative tolerance for
float reductions (they sum in a different order).
"""

from __future__ import annotations

import numpy as np
import pytest
from emitter_kernel_checks import check_module_fusions, parse

from xla_emit.hlo.npz import random_inputs

SCALAR_COMPUTATIONS = """
add_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

max_f32 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}

add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
"""


Body = str | tuple[str, ...]


def module(body: Body, params: list[str], result: str, kind: str = "kLoop") -> str:
    """A module whose entry calls the fused computation `body` (its instructions) on parameters."""
    lines = (body,) if isinstance(body, str) else body
    instructions = "\n".join(f"  {line}" for line in lines)
    param_lines = "\n".join(f"  p{i} = {shape} parameter({i})" for i, shape in enumerate(params))
    operands = ", ".join(f"p{i}" for i in range(len(params)))
    fused_params = "\n".join(f"  x{i} = {shape} parameter({i})" for i, shape in enumerate(params))
    return f"""HloModule test
{SCALAR_COMPUTATIONS}
fused {{
{fused_params}
{instructions}
}}

ENTRY main {{
{param_lines}
  ROOT f = {result} fusion({operands}), kind={kind}, calls=fused
}}
"""


def run(body: Body, params: list[str], result: str, seed: int = 0) -> list[str]:
    hlo = parse(module(body, params, result))
    return check_module_fusions(hlo, random_inputs(hlo.entry, seed))


UNARY_F32 = [
    "negate", "abs", "sign", "exponential", "exponential-minus-one", "log", "log-plus-one",
    "logistic", "sqrt", "rsqrt", "cbrt", "tanh", "sine", "cosine", "ceil", "floor",
    "round-nearest-even", "round-nearest-afz", "copy",
]  # fmt: skip


def unary_body(opcode: str, ptype: str) -> Body:
    # Ops undefined for negative inputs get |x|.
    if opcode in ("log", "sqrt", "rsqrt", "log-plus-one"):
        return (f"a = {ptype}[3,50] abs(x0)", f"ROOT r = {ptype}[3,50] {opcode}(a)")
    return f"ROOT r = {ptype}[3,50] {opcode}(x0)"


@pytest.mark.parametrize("opcode", UNARY_F32)
@pytest.mark.parametrize("ptype", ["bf16", "f16"])
def test_unary_16_bit_float_ops(opcode: str, ptype: str) -> None:
    assert run(unary_body(opcode, ptype), [f"{ptype}[3,50]"], f"{ptype}[3,50]") == ["f:loop"]


@pytest.mark.parametrize("opcode", UNARY_F32)
@pytest.mark.parametrize("ptype", ["f32"])
def test_unary_float_ops(opcode: str, ptype: str) -> None:
    assert run(unary_body(opcode, ptype), [f"{ptype}[3,50]"], f"{ptype}[3,50]") == ["f:loop"]


BINARY_FLOAT = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
]


@pytest.mark.parametrize("opcode", BINARY_FLOAT)
@pytest.mark.parametrize("ptype", ["f32", "bf16"])
def test_binary_float_ops(opcode: str, ptype: str) -> None:
    body = f"ROOT r = {ptype}[4,33] {opcode}(x0, x1)"
    assert run(body, [f"{ptype}[4,33]"] * 2, f"{ptype}[4,33]") == ["f:loop"]


BINARY_INT = [
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or", "xor",
    "shift-left", "shift-right-logical", "shift-right-arithmetic",
]  # fmt: skip


@pytest.mark.parametrize("opcode", BINARY_INT)
@pytest.mark.parametrize("ptype", ["s32", "u8"])
def test_binary_integer_ops(opcode: str, ptype: str) -> None:
    # Shift amounts and divisors stay in range: XLA's out-of-range cases are not what this tests.
    body = (
        f"c = {ptype}[] constant(3)",
        f"cb = {ptype}[4,33] broadcast(c), dimensions={{}}",
        f"ROOT r = {ptype}[4,33] {opcode}(x0, cb)",
    )
    assert run(body, [f"{ptype}[4,33]"], f"{ptype}[4,33]") == ["f:loop"]


@pytest.mark.parametrize(
    ("body", "params", "result"),
    [
        ("ROOT r = s32[4,33] not(x0)", ["s32[4,33]"], "s32[4,33]"),
        ("ROOT r = s32[4,33] negate(x0)", ["s32[4,33]"], "s32[4,33]"),
        ("ROOT r = s32[4,33] abs(x0)", ["s32[4,33]"], "s32[4,33]"),
        ("ROOT r = s32[4,33] sign(x0)", ["s32[4,33]"], "s32[4,33]"),
        ("ROOT r = s32[4,33] popcnt(x0)", ["s32[4,33]"], "s32[4,33]"),
        ("ROOT r = pred[4,33] is-finite(x0)", ["f32[4,33]"], "pred[4,33]"),
        ("ROOT r = pred[4,33] compare(x0, x1), direction=LT", ["f32[4,33]"] * 2, "pred[4,33]"),
        (
            "ROOT r = pred[4,33] compare(x0, x1), direction=LT, type=TOTALORDER",
            ["f32[4,33]"] * 2,
            "pred[4,33]",
        ),
        ("ROOT r = pred[4,33] compare(x0, x1), direction=GE", ["u8[4,33]"] * 2, "pred[4,33]"),
        ("ROOT r = pred[4,33] compare(x0, x1), direction=NE", ["s32[4,33]"] * 2, "pred[4,33]"),
        ("ROOT r = pred[4,33] and(x0, x1)", ["pred[4,33]"] * 2, "pred[4,33]"),
        (
            "ROOT r = f32[4,33] select(x0, x1, x2)",
            ["pred[4,33]", "f32[4,33]", "f32[4,33]"],
            "f32[4,33]",
        ),
        ("ROOT r = f32[4,33] clamp(x0, x1, x2)", ["f32[4,33]"] * 3, "f32[4,33]"),
        ("ROOT r = s32[4,33] clamp(x0, x1, x2)", ["s32[4,33]"] * 3, "s32[4,33]"),
        ("ROOT r = s32[4,33] convert(x0)", ["f32[4,33]"], "s32[4,33]"),
        ("ROOT r = f32[4,33] convert(x0)", ["s32[4,33]"], "f32[4,33]"),
        ("ROOT r = f32[4,33] convert(x0)", ["u8[4,33]"], "f32[4,33]"),
        ("ROOT r = s8[4,33] convert(x0)", ["s32[4,33]"], "s8[4,33]"),
        ("ROOT r = s64[4,33] convert(x0)", ["s32[4,33]"], "s64[4,33]"),
        ("ROOT r = pred[4,33] convert(x0)", ["f32[4,33]"], "pred[4,33]"),
        ("ROOT r = f32[4,33] convert(x0)", ["pred[4,33]"], "f32[4,33]"),
        ("ROOT r = bf16[4,33] convert(x0)", ["f16[4,33]"], "bf16[4,33]"),
        ("ROOT r = f32[4,33] convert(x0)", ["bf16[4,33]"], "f32[4,33]"),
        ("ROOT r = bf16[4,33] convert(x0)", ["f32[4,33]"], "bf16[4,33]"),
        ("ROOT r = s32[4,33] bitcast-convert(x0)", ["f32[4,33]"], "s32[4,33]"),
    ],
)
def test_other_elementwise_ops(body: str, params: list[str], result: str) -> None:
    assert run(body, params, result) == ["f:loop"]


@pytest.mark.parametrize(
    ("body", "params", "result"),
    [
        ("ROOT r = f32[10,20,30] broadcast(x0), dimensions={1}", ["f32[20]"], "f32[10,20,30]"),
        ("ROOT r = f32[2,4,4] reshape(x0)", ["f32[4,8]"], "f32[2,4,4]"),
        ("ROOT r = f32[32] bitcast(x0)", ["f32[4,8]"], "f32[32]"),
        ("ROOT r = f32[5,7] slice(x0), slice={[5:10:1], [3:50:7]}", ["f32[10,50]"], "f32[5,7]"),
        ("ROOT r = f32[10,50] reverse(x0), dimensions={0,1}", ["f32[10,50]"], "f32[10,50]"),
        ("ROOT r = f32[6,4,5] transpose(x0), dimensions={2,0,1}", ["f32[4,5,6]"], "f32[6,4,5]"),
        (
            (
                "c = f32[] constant(-1)",
                "ROOT r = f32[12,16] pad(x0, c), padding=1_4_1x4_8_0",
            ),
            ["f32[4,4]"],
            "f32[12,16]",
        ),
        ("ROOT r = f32[9,5] pad(x0, x1), padding=-1_2x0_0", ["f32[8,5]", "f32[]"], "f32[9,5]"),
        ("ROOT r = s32[6,8] iota(), iota_dimension=1", [], "s32[6,8]"),
        ("ROOT r = f32[6,8] iota(), iota_dimension=0", [], "f32[6,8]"),
        (
            (
                "c = f32[2,3] constant({{1,2,3},{4,5,6}})",
                "ROOT r = f32[2,3] add(x0, c)",
            ),
            ["f32[2,3]"],
            "f32[2,3]",
        ),
        (
            "ROOT r = f32[3,4] dynamic-slice(x0, x1, x2), dynamic_slice_sizes={3,4}",
            ["f32[8,10]", "s32[]", "s32[]"],
            "f32[3,4]",
        ),
        # The operand is read again, so the update cannot be written in place.
        (
            (
                "n = f32[8,10] negate(x0)",
                "ROOT r = f32[8,10] dynamic-update-slice(n, x1, x2, x3)",
            ),
            ["f32[8,10]", "f32[3,4]", "s32[]", "s32[]"],
            "f32[8,10]",
        ),
        # A reduce the reduction emitter does not take (reduced dims around a kept one) is
        # emitted elementally by the loop emitter: an scf.for nest per output element.
        (
            (
                "z = f32[] constant(0)",
                "ROOT r = f32[5] reduce(x0, z), dimensions={0,2}, to_apply=add_f32",
            ),
            ["f32[3,5,7]"],
            "f32[5]",
        ),
        # The log/transpose/add diamond with a transpose too small to tile.
        (
            (
                "l = f32[8,8] log(x0)",
                "t = f32[8,8] transpose(l), dimensions={1,0}",
                "ROOT r = f32[8,8] add(l, t)",
            ),
            ["f32[8,8]"],
            "f32[8,8]",
        ),
    ],
)
def test_index_transforming_ops(body: str, params: list[str], result: str) -> None:
    assert run(body, params, result) == ["f:loop"]


@pytest.mark.parametrize("ptype", ["s32", "s8", "u8"])
def test_integer_power(ptype: str) -> None:
    # Bases and exponents around the special cases: 0, +-1, negative exponents, wrap-around.
    signed = ptype.startswith("s")
    values = [-3, -2, -1, 0, 1, 2, 3, 7] if signed else [0, 1, 2, 3, 7, 15, 200, 255]
    a, b = np.meshgrid(values, values, indexing="ij")
    dtype = np.dtype(ptype.replace("s", "int").replace("u", "uint"))
    body = f"ROOT r = {ptype}[8,8] power(x0, x1)"
    hlo = parse(module(body, [f"{ptype}[8,8]"] * 2, f"{ptype}[8,8]"))
    assert check_module_fusions(hlo, [a.astype(dtype), b.astype(dtype)]) == ["f:loop"]


@pytest.mark.parametrize("direction", ["LT", "GE", "EQ"])
def test_total_order_compare_on_special_values(direction: str) -> None:
    # -NaN < -inf < -1 < -0 < +0 < 1 < inf < NaN: every pair of these, both ways.
    special = np.array(
        [0xFFC00000, 0xFF800000, 0xBF800000, 0x80000000, 0, 0x3F800000, 0x7F800000, 0x7FC00000],
        dtype=np.uint32,
    ).view(np.float32)
    a, b = np.meshgrid(special, special, indexing="ij")
    body = f"ROOT r = pred[8,8] compare(x0, x1), direction={direction}, type=TOTALORDER"
    hlo = parse(module(body, ["f32[8,8]"] * 2, "pred[8,8]"))
    assert check_module_fusions(hlo, [a, b]) == ["f:loop"]


def test_dynamic_slice_clamps_its_start() -> None:
    # Starts far outside the operand clamp to [0, dim - size], as XLA clamps them.
    hlo = parse(
        module(
            "ROOT r = f32[3,4] dynamic-slice(x0, x1, x2), dynamic_slice_sizes={3,4}",
            ["f32[8,10]", "s32[]", "s32[]"],
            "f32[3,4]",
        )
    )
    operand = np.arange(80, dtype=np.float32).reshape(8, 10)
    for starts in [(100, -5), (-3, 9), (2, 3)]:
        arguments = [
            operand,
            np.array(starts[0], dtype=np.int32),
            np.array(starts[1], dtype=np.int32),
        ]
        assert check_module_fusions(hlo, arguments) == ["f:loop"]


@pytest.mark.parametrize(
    ("body", "params", "result"),
    [
        # Rows spanning several warps, 1024 threads per row, several rows per block, one row.
        (
            (
                "z = f32[] constant(0)",
                "ROOT r = f32[7] reduce(x0, z), dimensions={1}, to_apply=add_f32",
            ),
            ["f32[7,3000]"],
            "f32[7]",
        ),
        (
            (
                "z = f32[] constant(0)",
                "ROOT r = f32[2] reduce(x0, z), dimensions={1}, to_apply=add_f32",
            ),
            ["f32[2,20000]"],
            "f32[2]",
        ),
        (
            (
                "z = f32[] constant(0)",
                "ROOT r = f32[37] reduce(x0, z), dimensions={1}, to_apply=add_f32",
            ),
            ["f32[37,8]"],
            "f32[37]",
        ),
        (
            (
                "z = f32[] constant(0)",
                "ROOT r = f32[] reduce(x0, z), dimensions={0,1}, to_apply=add_f32",
            ),
            ["f32[30,40]"],
            "f32[]",
        ),
        # Integer sums are exact whatever the order.
        (
            (
                "z = s32[] constant(0)",
                "ROOT r = s32[9] reduce(x0, z), dimensions={1,2}, to_apply=add_s32",
            ),
            ["s32[9,8,70]"],
            "s32[9]",
        ),
        (
            (
                "z = s32[] constant(0)",
                "ROOT r = s32[4,33] reduce(x0, z), dimensions={1}, to_apply=add_s32",
            ),
            ["s32[4,50,33]"],
            "s32[4,33]",
        ),
        # Column reductions, with a reduced size that is not a multiple of 32.
        (
            (
                "m = f32[] constant(-inf)",
                "ROOT r = f32[70] reduce(x0, m), dimensions={0}, to_apply=max_f32",
            ),
            ["f32[100,70]"],
            "f32[70]",
        ),
        (
            (
                "m = f32[] constant(-inf)",
                "ROOT r = f32[3,5] reduce(x0, m), dimensions={1}, to_apply=max_f32",
            ),
            ["f32[3,130,5]"],
            "f32[3,5]",
        ),
        # A producer inside the reduced loop and an elementwise epilogue after the hero.
        (
            (
                "e = f32[6,300] exponential(x0)",
                "z = f32[] constant(0)",
                "s = f32[6] reduce(e, z), dimensions={1}, to_apply=add_f32",
                "ROOT r = f32[6] log(s)",
            ),
            ["f32[6,300]"],
            "f32[6]",
        ),
        # bf16 input converted and summed in f32, the result rounded back (XLA's bf16 sums).
        (
            (
                "c = f32[5,200] convert(x0)",
                "z = f32[] constant(0)",
                "s = f32[5] reduce(c, z), dimensions={1}, to_apply=add_f32",
                "ROOT r = bf16[5] convert(s)",
            ),
            ["bf16[5,200]"],
            "bf16[5]",
        ),
    ],
)
def test_reductions(body: str, params: list[str], result: str) -> None:
    assert run(body, params, result) == ["f:reduction"]


@pytest.mark.parametrize(
    ("body", "params", "result"),
    [
        ("ROOT t = f32[64,48] transpose(x0), dimensions={1,0}", ["f32[48,64]"], "f32[64,48]"),
        # An epilogue reading a parameter at the output index.
        (
            (
                "t = f32[40,3,50] transpose(x0), dimensions={2,1,0}",
                "ROOT r = f32[40,3,50] add(t, x1)",
            ),
            ["f32[50,3,40]", "f32[40,3,50]"],
            "f32[40,3,50]",
        ),
        (
            (
                "e = bf16[17,33] exponential(x0)",
                "ROOT t = bf16[33,17] transpose(e), dimensions={1,0}",
            ),
            ["bf16[17,33]"],
            "bf16[33,17]",
        ),
        # The seed's log/transpose/add diamond: the epilogue reads `log` at the output index.
        (
            (
                "l = f32[16,16] log(x0)",
                "t = f32[16,16] transpose(l), dimensions={1,0}",
                "ROOT r = f32[16,16] add(l, t)",
            ),
            ["f32[16,16]"],
            "f32[16,16]",
        ),
    ],
)
def test_transposes(body: str, params: list[str], result: str) -> None:
    assert run(body, params, result) == ["f:transpose"]


def test_seed_gelu_is_bit_exact_in_bf16() -> None:
    from pathlib import Path

    path = Path(__file__).parent.parent / "filecheck" / "emitters" / "seed_gelu.hlo"
    text = path.read_text().replace("bf16[6,512,4096]", "bf16[2,8,512]")
    hlo = parse(text)
    assert check_module_fusions(hlo, random_inputs(hlo.entry, 1)) == ["fusion:loop"]


EDGE_CASES = """HloModule edge
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

fused_scalar {
  p0 = f32[] parameter(0)
  ROOT n = f32[] negate(p0)
}

fused_parameter_root {
  p0 = f32[4,5] parameter(0)
  n = f32[4,5] negate(p0)
  ROOT t = (f32[4,5], f32[4,5]) tuple(p0, n)
}

fused_reduce_and_epilogue {
  p0 = f32[6,7] parameter(0)
  z = f32[] constant(0)
  r = f32[6] reduce(p0, z), dimensions={1}, to_apply=add
  e = f32[6] exponential(r)
  ROOT t = (f32[6], f32[6]) tuple(r, e)
}

ENTRY main {
  a = f32[] parameter(0)
  b = f32[4,5] parameter(1)
  c = f32[6,7] parameter(2)
  scalar = f32[] fusion(a), kind=kLoop, calls=fused_scalar
  copies = (f32[4,5], f32[4,5]) fusion(b), kind=kLoop, calls=fused_parameter_root
  both = (f32[6], f32[6]) fusion(c), kind=kLoop, calls=fused_reduce_and_epilogue
  ROOT t = (f32[], (f32[4,5], f32[4,5]), (f32[6], f32[6])) tuple(scalar, copies, both)
}
"""


def test_scalar_outputs_parameter_roots_and_multi_output_reduces() -> None:
    # A scalar fusion runs one thread; a tuple root may return a parameter as is; a reduce
    # with a second output is not a reduction hero, so the loop emitter loops over it.
    hlo = parse(EDGE_CASES)
    checked = check_module_fusions(hlo, random_inputs(hlo.entry, 3))
    assert checked == ["scalar:loop", "copies:loop", "both:loop"]


@pytest.mark.parametrize(
    ("body", "params", "result"),
    [
        ("ROOT r = f32[0,5] negate(x0)", ["f32[0,5]"], "f32[0,5]"),
        # Reducing nothing gives the init value.
        (
            (
                "z = f32[] constant(7)",
                "ROOT r = f32[5] reduce(x0, z), dimensions={1}, to_apply=add_f32",
            ),
            ["f32[5,0]"],
            "f32[5]",
        ),
    ],
)
def test_empty_arrays(body: Body, params: list[str], result: str) -> None:
    assert run(body, params, result) == ["f:loop"]
