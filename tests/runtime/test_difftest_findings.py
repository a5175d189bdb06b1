"""Disagreements with XLA that the differential tester (tools/difftest) found, each fixed.

Each case is a small program (XLA's optimized module for an H100, or the program it was
minimized to), its inputs, and the outputs XLA:CPU printed for them (jax 0.10.2), written
out by `tools/difftest/as_test.py`. Both our compiled path (the module runtime) and the
reference evaluator must give XLA's bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo.evaluator import evaluate_module
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.runtime.module_runtime import ModuleRuntime

INF, NAN = math.inf, math.nan
_DTYPES = {
    "pred": np.bool_, "s8": np.int8, "s16": np.int16, "s32": np.int32, "s64": np.int64,
    "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
    "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
    "c64": np.complex64, "c128": np.complex128,
}  # fmt: skip

Literal = tuple[str, tuple[int, ...], list[object]]


# Programs with lines too long for a Python file, one `.hlo` file each.
_PROGRAMS = Path(__file__).parent / "difftest"


@dataclass(frozen=True)
class Finding:
    name: str
    hlo: str  # the program, or the name of its file in `_PROGRAMS`
    inputs: list[Literal]
    xla: list[Literal]
    # Whether the sign of a zero must match (a dot's zero sums take their sign from the
    # order of the terms, which is the library's).
    signed_zeros: bool = True


def _module(finding: Finding) -> HloModule:
    if finding.hlo.endswith(".hlo"):
        path = _PROGRAMS / finding.hlo
        return parse_hlo_module(path.read_text(), str(path))
    return parse_hlo_module(finding.hlo, f"{finding.name}.hlo")


def _array(value: Literal) -> np.ndarray:
    ptype, shape, values = value
    dtype = np.dtype(_DTYPES[ptype])
    if dtype.kind == "c":
        array = np.empty(len(values), dtype)
        array.real = [complex(v).real for v in values]  # type: ignore[arg-type]
        array.imag = [complex(v).imag for v in values]  # type: ignore[arg-type]
        return array.reshape(shape)
    return (
        np.array(values, dtype=np.float64 if dtype.kind == "f" else None)
        .astype(dtype)
        .reshape(shape)
    )


def _bits(array: np.ndarray) -> bytes:
    """The bytes to compare: NaNs made one NaN (their payloads are the platform's)."""
    if array.dtype.kind == "c":
        return _bits(array.real) + _bits(array.imag)
    if array.dtype.kind in "biu":
        return array.tobytes()
    wide = array.astype(np.float64)
    return np.where(np.isnan(wide), np.nan, wide).astype(array.dtype).tobytes()


# XLA's backend config of a __triton fusion whose output tile is a scalar.
_SCALAR_TILE_CONFIG = (
    'backend_config={"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
    '{"num_warps":"1","output_tiles":[{"sizes":[]}],"num_ctas":1,"num_stages":1}}}'
)

_ROW_TILE_CONFIG = (
    'backend_config={"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
    '{"num_warps":"1","output_tiles":[{"sizes":["1"]}],"num_ctas":1,"num_stages":1}}}'
)


def _triton_row_sum(source: str, target: str) -> str:
    """XLA's H100 module for `reduce(convert(SOURCE[2,4] -> TARGET), add)` over rows: a
    `__triton` fusion with one row per tile."""
    return f"""HloModule triton_row_sum

%region_0.1 (reduce.2: {target}[], reduce.3: {target}[]) -> {target}[] {{
  %reduce.3 = {target}[] parameter(1)
  %reduce.2 = {target}[] parameter(0)
  ROOT %r.1.0 = {target}[] add(%reduce.2, %reduce.3)
}}

%fused_reduce (param_0.5: {source}[2,4]) -> {target}[2] {{
  %param_0.5 = {source}[2,4]{{1,0}} parameter(0)
  %convert.1.2 = {target}[2,4]{{1,0}} convert(%param_0.5)
  %constant_1_1 = {target}[] constant(0)
  ROOT %r = {target}[2]{{0}} reduce(%convert.1.2, %constant_1_1), dimensions={{1}},
    to_apply=%region_0.1
}}

ENTRY %main.2 (p.3: {source}[2,4]) -> {target}[2] {{
  %p.3 = {source}[2,4]{{1,0}} parameter(0)
  ROOT %input_reduce_fusion = {target}[2]{{0}} fusion(%p.3), kind=kCustom,
    calls=%fused_reduce, {_ROW_TILE_CONFIG}
}}
"""


_GEMM_A = [complex(i % 3 - 1, i % 2) for i in range(30)]
_GEMM_B = [complex(i % 4 - 2, 1 - i % 3) for i in range(24)]
# What XLA:CPU printed: 2 * A @ B, exactly (integer parts).
_GEMM_TWICE_AB = [
    complex(4.0, -6.0),
    complex(4.0, -2.0),
    complex(-2.0, 2.0),
    complex(-2.0, 0.0),
    complex(0.0, -2.0),
    complex(2.0, 0.0),
    complex(-2.0, -4.0),
    complex(0.0, 4.0),
    complex(-4.0, -4.0),
    complex(0.0, -4.0),
    complex(-2.0, 2.0),
    complex(2.0, 2.0),
    complex(4.0, -6.0),
    complex(4.0, -2.0),
    complex(-2.0, 2.0),
    complex(-2.0, 0.0),
    complex(0.0, -2.0),
    complex(2.0, 0.0),
    complex(-2.0, -4.0),
    complex(0.0, 4.0),
    complex(-6.0, -2.0),
    complex(-2.0, -2.0),
    complex(2.0, -2.0),
    complex(0.0, 4.0),
    complex(2.0, -2.0),
    complex(2.0, -4.0),
    complex(2.0, 0.0),
    complex(-4.0, 4.0),
    complex(-2.0, -8.0),
    complex(0.0, 0.0),
    complex(2.0, 2.0),
    complex(-2.0, -2.0),
    complex(-6.0, -2.0),
    complex(-2.0, -2.0),
    complex(2.0, -2.0),
    complex(0.0, 4.0),
    complex(2.0, -2.0),
    complex(2.0, -4.0),
    complex(2.0, 0.0),
    complex(-4.0, 4.0),
    complex(2.0, -2.0),
    complex(-2.0, -6.0),
    complex(0.0, 2.0),
    complex(2.0, 4.0),
    complex(-2.0, -6.0),
    complex(-4.0, 0.0),
    complex(0.0, 0.0),
    complex(4.0, 0.0),
    complex(6.0, -4.0),
    complex(0.0, 0.0),
    complex(0.0, -2.0),
    complex(0.0, 2.0),
    complex(2.0, -2.0),
    complex(-2.0, -6.0),
    complex(0.0, 2.0),
    complex(2.0, 4.0),
    complex(-2.0, -6.0),
    complex(-4.0, 0.0),
    complex(0.0, 0.0),
    complex(4.0, 0.0),
]

FINDINGS = [
    # complex(re, im) was built as re + 1j * im, so an infinite imaginary part made the real
    # part NaN (1j * inf is nan + inf j) in the interpreter and in the evaluator.
    Finding(
        "complex_of_infinite_parts",
        """HloModule complex_parts

ENTRY %main (re: f32[4], im: f32[4]) -> c64[4] {
  %re = f32[4] parameter(0)
  %im = f32[4] parameter(1)
  ROOT %z = c64[4] complex(%re, %im)
}
""",
        [("f32", (4,), [INF, 1.0, NAN, -INF]), ("f32", (4,), [1.0, INF, -INF, NAN])],
        [
            (
                "c64",
                (4,),
                [complex(INF, 1.0), complex(1.0, INF), complex(NAN, -INF), complex(-INF, NAN)],
            )
        ],
    ),
    # IRFFT ignores the imaginary parts of the DC and Nyquist bins; the library's DFT matrix
    # had cos(pi) = -1 + 1.2e-16 i, which leaked a huge imaginary part (3.4e38 * 1.2e-16)
    # into the output (seed 2014: -2.1e22 for 0.087).
    Finding(
        "irfft_ignores_imaginary_dc_and_nyquist",
        """HloModule irfft

ENTRY %main (p.4: c64[1,2]) -> f32[1,2] {
  %p.4 = c64[1,2]{1,0} parameter(0)
  ROOT %fft.1 = f32[1,2]{1,0} fft(%p.4), fft_type=IRFFT, fft_length={2}
}
""",
        [
            (
                "c64",
                (1, 2),
                [
                    complex(1.277807593345642, 1.5637986660003662),
                    complex(1.1033273935317993, 3.4028234663852886e38),
                ],
            )
        ],
        [("f32", (1, 2), [1.1905674934387207, 0.08724009990692139])],
    ),
    # Complex division recovers infinities as C's Annex G says (MLIR's complex lowering does;
    # numpy's formula gave NaN + NaN j for (1.4 + 2j) / (nan + inf j), XLA 0 - 0j); complex
    # multiplication does not (XLA:CPU's (1.5 + 2j) * (nan + inf j) is NaN + NaN j).
    Finding(
        "complex_division_recovers_infinities",
        """HloModule complex_infinities

ENTRY %main (x: c128[5], y: c128[5]) -> (c128[5], c128[5]) {
  %x = c128[5] parameter(0)
  %y = c128[5] parameter(1)
  %product = c128[5] multiply(%x, %y)
  %quotient = c128[5] divide(%x, %y)
  ROOT %out = (c128[5], c128[5]) tuple(%product, %quotient)
}
""",
        [
            (
                "c128",
                (5,),
                [
                    complex(1.5, 2.0),
                    complex(1.0, 1.0),
                    complex(INF, 0.0),
                    complex(2.0, 0.0),
                    complex(3.0, -1.0),
                ],
            ),
            (
                "c128",
                (5,),
                [
                    complex(NAN, INF),
                    complex(0.0, 0.0),
                    complex(1.0, 1.0),
                    complex(INF, NAN),
                    complex(0.5, 0.25),
                ],
            ),
        ],
        [
            (
                "c128",
                (5,),
                [
                    complex(NAN, NAN),
                    complex(0.0, 0.0),
                    complex(INF, INF),
                    complex(NAN, NAN),
                    complex(1.75, 0.25),
                ],
            ),
            (
                "c128",
                (5,),
                [
                    complex(0.0, -0.0),
                    complex(INF, INF),
                    complex(INF, -INF),
                    complex(0.0, 0.0),
                    complex(4.0, -4.0),
                ],
            ),
        ],
    ),
    # XLA fuses an argmin (a variadic reduce) with an elementwise op of its input: a
    # reduction with a side output, whose fusion root nests the reduce's tuple
    # (`((f32[4], s32[4]), f32[4,40])`). It was "Unsupported: multi-output loop fusion".
    # Row r of x = (37 i mod 41) - 20 holds its minimum, -20, at column r.
    Finding(
        "argmin_with_side_output",
        "argmin_with_side_output.hlo",
        [("f32", (4, 40), [float((i * 37) % 41 - 20) for i in range(160)])],
        [
            ("f32", (4,), [-20.0, -20.0, -20.0, -20.0]),
            ("s32", (4,), [0, 1, 2, 3]),
            ("f32", (4, 40), [-float((i * 37) % 41 - 20) for i in range(160)]),
        ],
    ),
    # XLA's H100 module fuses a select of x with an argmin over x's rows whose outputs it
    # lays out column-major (`(bf16[3,5,2], (f32[3,5]{0,1}, s32[3,5]{0,1}))`) and emits
    # it with the reduction emitter. We took the layout for a loop fusion and refused the
    # two element counts (seed 1805512).
    Finding(
        "reduce_to_column_major_beside_side_output",
        "reduce_to_column_major_beside_side_output.hlo",
        [
            (
                "bf16",
                (5, 3, 2),
                [
                    1.2421875,
                    3.546875,
                    6.40625,
                    2.109375,
                    -0.95703125,
                    -7.21875,
                    2.109375,
                    -3.515625,
                    NAN,
                    -3.328125,
                    1.3515625,
                    -4.375,
                    1.859375,
                    9.183549615799121e-41,
                    -1.1754943508222875e-38,
                    6.59375,
                    5.5625,
                    -3.546875,
                    0.5,
                    2.28125,
                    3.3895313892515355e38,
                    4.0625,
                    -3.625,
                    2.5,
                    -4.375,
                    1.0,
                    4.6875,
                    -3.640625,
                    2.875,
                    1.09375,
                ],
            ),
            (
                "pred",
                (5, 3, 2),
                [
                    1,
                    0,
                    1,
                    1,
                    1,
                    0,
                    1,
                    1,
                    0,
                    0,
                    0,
                    1,
                    1,
                    0,
                    0,
                    0,
                    1,
                    0,
                    1,
                    1,
                    1,
                    1,
                    1,
                    1,
                    1,
                    0,
                    0,
                    0,
                    1,
                    0,
                ],
            ),
            ("s32", (), [0]),
            ("s32", (), [2147483647]),
            ("s32", (5,), [0, 1, 2, 3, 4]),
            ("s32", (), [0]),
            ("s32", (), [2147483647]),
            ("s32", (5, 3), [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]),
            ("s32", (), [0]),
            ("bf16", (), [INF]),
            (
                "s32",
                (5, 3, 2),
                [
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                    0,
                    1,
                ],
            ),
        ],
        [
            (
                "bf16",
                (3, 5, 2),
                [
                    1.2421875,
                    3.546875,
                    2.109375,
                    -3.515625,
                    1.859375,
                    9.183549615799121e-41,
                    0.5,
                    2.28125,
                    -4.375,
                    1.0,
                    6.40625,
                    2.109375,
                    NAN,
                    -3.328125,
                    -1.1754943508222875e-38,
                    6.59375,
                    INF,
                    4.0625,
                    4.6875,
                    -3.640625,
                    -0.95703125,
                    -7.21875,
                    1.3515625,
                    -4.375,
                    5.5625,
                    -3.546875,
                    -3.625,
                    2.5,
                    2.875,
                    1.09375,
                ],
            ),
            ("s16", (5,), [0, 1, 1, 0, 0]),
            ("s32", (), [0]),
        ],
    ),
    # sign of a complex is re / |z| and im / |z| part by part: as a complex division
    # sign(-4.5 + inf j) was NaN + NaN j where XLA prints -0 + NaN j (seed 50027).
    Finding(
        "complex_sign_part_by_part",
        """HloModule complex_sign

ENTRY %main (z: c64[4]) -> c64[4] {
  %z = c64[4] parameter(0)
  ROOT %s = c64[4] sign(%z)
}
""",
        [
            (
                "c64",
                (4,),
                [complex(-4.5, INF), complex(3.0, 4.0), complex(0.0, -0.0), complex(INF, 1.0)],
            ),
        ],
        [
            (
                "c64",
                (4,),
                [
                    complex(-0.0, NAN),
                    complex(0.6000000238418579, 0.800000011920929),
                    complex(0.0, -0.0),
                    complex(NAN, 0.0),
                ],
            ),
        ],
    ),
    # maximum and minimum order the zeros: max(+0, -0) is +0 and min -0 whichever comes
    # first (IEEE 754-2019, arith.maximumf); numpy's keep the first operand, so the
    # interpreter and the evaluator gave max(+0, -0) = -0 (seed 51020), and a max-reduce
    # of [-0, +0, -0] -0.
    Finding(
        "signed_zero_extremes",
        "signed_zero_extremes.hlo",
        [
            ("f32", (4,), [0.0, -0.0, -0.0, 2.0]),
            ("f32", (4,), [-0.0, 0.0, -0.0, NAN]),
            ("f32", (2, 3), [-0.0, 0.0, -0.0, 0.0, -0.0, 0.0]),
        ],
        [
            ("f32", (4,), [0.0, 0.0, -0.0, NAN]),
            ("f32", (4,), [-0.0, -0.0, -0.0, NAN]),
            ("f32", (2,), [0.0, 0.0]),
            ("f32", (2,), [-0.0, -0.0]),
            ("f32", (4,), [0.0, 0.0, 0.0, 0.0]),
        ],
    ),
    # |z| is NaN wherever a part is NaN (XLA lowers it as max * sqrt(1 + (min/max)^2));
    # numpy's hypot made |-inf + NaN j| inf (seed 80131).
    Finding(
        "complex_abs_of_nan_parts",
        """HloModule complex_abs

ENTRY %main (z: c64[5]) -> f32[5] {
  %z = c64[5] parameter(0)
  ROOT %a = f32[5] abs(%z)
}
""",
        [
            (
                "c64",
                (5,),
                [
                    complex(-INF, NAN),
                    complex(NAN, INF),
                    complex(INF, 0.0),
                    complex(3.0, 4.0),
                    complex(NAN, 1.0),
                ],
            ),
        ],
        [("f32", (5,), [NAN, NAN, INF, 5.0, NAN])],
    ),
    # A __triton fusion with a bitwise `not`: stablehlo-lower-to-arith left `stablehlo.not`,
    # which the tile executor refused (seed 54039). It is `xori` with all ones now.
    # not [0, 1, -1, 5] = [-1, -2, 0, -6], whose sum is -9.
    Finding(
        "triton_bitwise_not",
        "triton_bitwise_not.hlo",
        [("s32", (4, 1), [0, 1, -1, 5])],
        [("s32", (), [-9])],
    ),
    # An s32 `divide(p, p)` feeding a min reduce, which XLA:GPU makes a __triton fusion
    # (seed 705034): stablehlo-lower-to-arith wrote a bare `arith.divsi`, refused on 0 / 0.
    # XLA marks it `xla.guard_ub` and `xla-safe-integer-arithmetic` guards it: x / 0 is -1,
    # INT_MIN / -1 INT_MIN. By hand: each output is 1, or -1 where one of its four is 0.
    Finding(
        "triton_divide_by_zero",
        "triton_divide_by_zero.hlo",
        [
            (
                "s32",
                (3, 4, 2),
                [
                    *(0, 5, -(2**31), -1, 7, 0, 0, 3, -4, 2, 1, 1),
                    *(0, 0, 0, 0, 9, -(2**31), 6, 0, 2, 2, 2, 2),
                ],
            )
        ],
        [("s32", (3, 2), [-1, -1, -1, -1, 1, -1])],
    ),
    # The same guard on `remainder` (x % 0 is x, INT_MIN % -1 is 0) in one __triton fusion
    # with a divide: min over rows of 1000 * (a / b) + a % b. By hand: row 0 is
    # [-1000 + 7, -1000 - 7, 2001, 1000 * INT_MIN (wraps to 0) + 0], row 1
    # [-1000 + 0, 2001, 0, -1000 + 3].
    Finding(
        "triton_remainder_by_zero",
        "triton_remainder_by_zero.hlo",
        [
            ("s32", (2, 4), [7, -7, 5, -(2**31), 0, 9, -(2**31), 3]),
            ("s32", (2, 4), [0, 0, 2, -1, 0, 4, -1, 0]),
        ],
        [("s32", (2,), [-1007, -1000])],
    ),
    # add(dot, dot) of c64 becomes two cuBLASLt matmuls, the second with beta = 1 adding the
    # first's output; the evaluator cast that addend to float64, dropping its imaginary
    # part (seed 101892). Integer parts: XLA printed 2 * A @ B exactly.
    Finding(
        "complex_gemm_with_beta",
        "complex_gemm_with_beta.hlo",
        [("c64", (3, 5, 2), _GEMM_A), ("c64", (3, 2, 4), _GEMM_B)],
        [("c64", (3, 5, 4), _GEMM_TWICE_AB)],
        signed_zeros=False,
    ),
    # An argmin of row sums beside popcnt of the same sums: XLA's reduction emitter takes
    # the argmin as its hero and the popcnt (whose path passes the sums' reduce, which a
    # loop computes faster) as a side output; ours looked for one reduce among the heroes,
    # found two and refused the fusion as a multi-output loop of two shapes (seed 101991).
    # By hand: the sums are [[98, 9], [0, 0], [2**31 wrapped, 3]].
    Finding(
        "side_output_beside_argmin",
        "side_output_beside_argmin.hlo",
        [
            (
                "s32",
                (3, 2, 5),
                [
                    3,
                    -7,
                    100,
                    2,
                    0,
                    -1,
                    1,
                    5,
                    -5,
                    9,
                    7,
                    7,
                    7,
                    -21,
                    0,
                    -100,
                    50,
                    49,
                    0,
                    1,
                    2147483647,
                    1,
                    0,
                    0,
                    0,
                    4,
                    4,
                    -3,
                    -3,
                    1,
                ],
            )
        ],
        [("s32", (3, 2), [3, 2, 0, 0, 1, 2]), ("s32", (3,), [1, 0, 0])],
    ),
    # A reduction whose root is `convert(reduce)` (an epilogue) beside a side output
    # (`reduce-precision` of an input): ours took side outputs only beside a reduce that is
    # a root itself and refused the fusion as a two-shape loop (seed 300724). By hand:
    # 1.5 * 2 - 3.25 * 0.375 = 1.78125; 1.5 and -3.25 without mantissa bits are 2 and -4.
    Finding(
        "epilogue_beside_side_output",
        "epilogue_beside_side_output.hlo",
        [("bf16", (2, 1), [1.5, -3.25]), ("bf16", (1, 2), [2.0, 0.375])],
        [("bf16", (), [1.78125]), ("bf16", (2, 1), [2.0, -4.0])],
    ),
    # A reduce of the major and the minor dims of s32[2,3,2] (dimensions={0,2}): XLA's
    # "batched" row reduction, whose threads fold the major dim too. Ours took only
    # contiguous reduced dims, left it to the loop emitter, which refused the side output
    # `not` of the input beside it (seed 400183). By hand: the sums of the rows
    # [1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, -400]; not x is -x - 1.
    Finding(
        "batched_row_reduction",
        "batched_row_reduction.hlo",
        [("s32", (2, 3, 2), [1, 2, 10, 20, 100, 200, 3, 4, 30, 40, 300, -400])],
        [
            ("s32", (2, 3, 2), [-2, -3, -11, -21, -101, -201, -4, -5, -31, -41, -301, 399]),
            ("s32", (3,), [10, 100, 200]),
        ],
    ),
    # A __triton fusion reading f32 bits as s32 (a `bitcast` changing the element type):
    # the emitter kept the f32 tile and `arith.muli` got floats, invalid IR (seed 603413).
    # It is `stablehlo.bitcast_convert`, then `arith.bitcast`. XLA:CPU printed the `and`
    # of the squares of the three bit patterns (init -1, all ones).
    Finding(
        "triton_bitcast_to_integer",
        """HloModule difftest

%region_1.2 (reduce.2: s32[], reduce.3: s32[]) -> s32[] {
  %reduce.3 = s32[] parameter(1)
  %reduce.2 = s32[] parameter(0)
  ROOT %r.3.0 = s32[] and(%reduce.2, %reduce.3)
}

%fused_reduce (param_0.4: s32[], param_1.2: f32[3]) -> s32[] {
  %param_1.2 = f32[3]{0} parameter(1)
  %bitcast.4 = s32[3]{0} bitcast(%param_1.2)
  %r.0.3 = s32[3]{0} multiply(%bitcast.4, %bitcast.4)
  %param_0.4 = s32[] parameter(0)
  ROOT %reduce.5.1 = s32[] reduce(%r.0.3, %param_0.4), dimensions={0}, to_apply=%region_1.2
}

ENTRY %main.3 (p.1: f32[3], c.1: s32[]) -> s32[] {
  %c.1 = s32[] parameter(1)
  %p.1 = f32[3]{0} parameter(0)
  ROOT %loop_reduce_fusion = s32[] fusion(%c.1, %p.1), kind=kCustom, calls=%fused_reduce, """
        + _SCALAR_TILE_CONFIG
        + "\n}\n",
        [
            ("f32", (3,), [2.126763343811035, 0.9463379383087158, -0.7979655265808105]),
            ("s32", (), [-1]),
        ],
        [("s32", (), [-2130706432])],
    ),
    # A __triton fusion with an integer `abs`: stablehlo-lower-to-arith had no integer abs,
    # the tile executor refused it (seed 300893). It is `math.absi`, as XLA's Triton
    # emitter writes it: |-2**31| wraps to itself, so the sum is 3 + 7 + 5 + 1 - 2**31.
    Finding(
        "triton_integer_abs",
        """HloModule triton_integer_abs

%region_0.1 (s.2: s32[], s.3: s32[]) -> s32[] {
  %s.3 = s32[] parameter(1)
  %s.2 = s32[] parameter(0)
  ROOT %r.1.0 = s32[] add(%s.2, %s.3)
}

%fused_reduce (param_0.2: s32[5]) -> s32[] {
  %param_0.2 = s32[5]{0} parameter(0)
  %a.1.1 = s32[5]{0} abs(%param_0.2)
  %constant_1_1 = s32[] constant(0)
  ROOT %s.5.1 = s32[] reduce(%a.1.1, %constant_1_1), dimensions={0}, to_apply=%region_0.1
}

ENTRY %main.2 (p.1: s32[5]) -> s32[] {
  %p.1 = s32[5]{0} parameter(0)
  ROOT %loop_reduce_fusion = s32[] fusion(%p.1), kind=kCustom, calls=%fused_reduce, """
        + _SCALAR_TILE_CONFIG
        + "\n}\n",
        [("s32", (5,), [3, -7, -2147483648, 5, -1])],
        [("s32", (), [-2147483632])],
    ),
    # A __triton fusion converting f32 to s32 (seed 809594): the tile executor's bare
    # `fptosi` wrapped inf to -1029. XLA's Triton emitter saturates (fptosi, then INT_MIN,
    # INT_MAX and 0 for NaN selected in); row 0 sums INT_MAX, INT_MIN, 0 and 2, row 1
    # INT_MAX, -2, 2147483520 and INT_MIN with wraparound (XLA:CPU's outputs).
    Finding(
        "triton_float_to_integer_saturates",
        _triton_row_sum("f32", "s32"),
        [("f32", (2, 4), [INF, -INF, NAN, 2.5, 3e9, -2.7, 2147483520.0, -3e9])],
        [("s32", (2,), [1, 2147483517])],
    ),
    # The same from bf16, which XLA's Triton emitter extends to f32 before the convert.
    Finding(
        "triton_bf16_to_integer_saturates",
        _triton_row_sum("bf16", "s32"),
        [("bf16", (2, 4), [INF, -INF, NAN, 2.5, 65536.0, -2.703125, -65536.0, 3.00406e38])],
        [("s32", (2,), [1, 2147483645])],
    ),
    # A __triton fusion reducing to a scalar (output tile sizes []): `tt.reduce` of a 1-d
    # tile gives a scalar, not a 0-d tensor; stablehlo-lower-to-triton left invalid IR.
    Finding(
        "triton_reduce_to_scalar",
        """HloModule difftest

%region_0.1 (reduce.2: s32[], reduce.3: s32[]) -> s32[] {
  %reduce.3 = s32[] parameter(1)
  %reduce.2 = s32[] parameter(0)
  ROOT %r.1.0 = s32[] or(%reduce.2, %reduce.3)
}

%fused_reduce (param_0: s32[5]) -> s32[] {
  %param_0 = s32[5]{0} parameter(0)
  %constant_1_1 = s32[] constant(0)
  ROOT %reduce.5.1 = s32[] reduce(%param_0, %constant_1_1), dimensions={0}, to_apply=%region_0.1
}

ENTRY %main.2 (p.1: s32[5]) -> s32[] {
  %p.1 = s32[5]{0} parameter(0)
  ROOT %loop_reduce_fusion = s32[] fusion(%p.1), kind=kCustom, calls=%fused_reduce, """
        + _SCALAR_TILE_CONFIG
        + "\n}\n",
        [("s32", (5,), [1, 2, 4, 8, -16])],
        [("s32", (), [-1])],
    ),
    # A zero divisor always takes Annex G's rule, signed by its real part (MLIR's ratio is
    # 0/0 there): numpy's x / |y| gave 1.5j / (-0 + 0j) = NaN + inf j. Found running the
    # native engine's lowering against the interpreter; XLA:CPU's outputs (jax 0.12).
    Finding(
        "complex_division_by_signed_zero",
        """HloModule complex_zero_divisor

ENTRY %main (x: c64[5], y: c64[5]) -> c64[5] {
  %x = c64[5] parameter(0)
  %y = c64[5] parameter(1)
  ROOT %quotient = c64[5] divide(%x, %y)
}
""",
        [
            (
                "c64",
                (5,),
                [
                    complex(0.0, 1.5),
                    complex(-0.0, -2.0),
                    complex(1.5, -2.0),
                    complex(1.5, 0.0),
                    complex(NAN, 1.5),
                ],
            ),
            (
                "c64",
                (5,),
                [
                    complex(-0.0, 0.0),
                    complex(-0.0, -0.0),
                    complex(-0.0, 0.0),
                    complex(0.0, 0.0),
                    complex(-0.0, 0.0),
                ],
            ),
        ],
        [
            (
                "c64",
                (5,),
                [
                    complex(NAN, -INF),
                    complex(NAN, INF),
                    complex(-INF, INF),
                    complex(INF, NAN),
                    complex(NAN, -INF),
                ],
            )
        ],
    ),  # log1p of a number left of -1 with a -0 imaginary part lies below the branch cut:
    # numpy's 1 + (-2 - 0j) is -1 + 0j, so log1p(-2 - 0j) was +pi j, XLA's -pi j. Found
    # beside the previous one; XLA:CPU's outputs (jax 0.12).
    Finding(
        "complex_log1p_below_the_branch_cut",
        """HloModule complex_log1p

ENTRY %main (x: c64[4]) -> c64[4] {
  %x = c64[4] parameter(0)
  ROOT %y = c64[4] log-plus-one(%x)
}
""",
        [
            (
                "c64",
                (4,),
                [complex(-2.0, 0.0), complex(-2.0, -0.0), complex(-INF, 0.0), complex(-INF, -0.0)],
            )
        ],
        [
            (
                "c64",
                (4,),
                [
                    complex(0.0, 3.1415927410125732),
                    complex(0.0, -3.1415927410125732),
                    complex(INF, 3.1415927410125732),
                    complex(INF, -3.1415927410125732),
                ],
            )
        ],
    ),  # XLA's canonicalization folds complex `b + (a - b)` to `a` in the fusion's kernel
    # (MLIR's `complex.add` folder; XLA:GPU's log and XLA:CPU's kernel alike): `a` exactly,
    # not IEEE's rounded sum (1.8080776641656775 where a has ...773). Seed 800792.
    Finding(
        "complex_add_of_a_difference_folds",
        """HloModule difftest, is_scheduled=true

%fused_add (param_0: c128[3], param_1.1: c128[3]) -> c128[3] {
  %param_0 = c128[3]{0} parameter(0)
  %param_1.1 = c128[3]{0} parameter(1)
  %subtract.1.1 = c128[3]{0} subtract(%param_1.1, %param_0)
  ROOT %add.1.1 = c128[3]{0} add(%param_0, %subtract.1.1)
}

ENTRY %main.1 (p.2: c128[3], p.3: c128[3]) -> c128[3] {
  %p.3 = c128[3]{0} parameter(1)
  %p.2 = c128[3]{0} parameter(0)
  ROOT %loop_add_fusion = c128[3]{0} fusion(%p.3, %p.2), kind=kLoop, calls=%fused_add
}
""",
        [
            (
                "c128",
                (3,),
                [
                    complex(0.7591897956479776, 1.8080776641656773),
                    complex(-5.891436896911447, 2.4419673764373475),
                    complex(2.0438623978396975, -INF),
                ],
            ),
            (
                "c128",
                (3,),
                [
                    complex(-5e-324, -2.5586769816068764),
                    complex(9.008710369634766, 0.1685592586128695),
                    complex(-0.7313006271852239, -6.684056588514261),
                ],
            ),
        ],
        [
            (
                "c128",
                (3,),
                [
                    complex(0.7591897956479776, 1.8080776641656773),
                    complex(-5.891436896911447, 2.4419673764373475),
                    complex(2.0438623978396975, -INF),
                ],
            )
        ],
    ),  # `(a + b) - b` in a multi-output fusion: XLA:GPU's kernel stores `a` (its log shows
    # `complex.sub` folded away once CSE made both `b` one value; its PTX has no f64 add for
    # it), so 0.1, -0 and 1.5e308 come back where IEEE gives 0.09999999999999998, +0 and inf.
    # XLA:CPU runs the two ops as two kernels and rounds: this oracle is XLA:GPU's IR; the
    # sum is XLA:CPU's.
    Finding(
        "complex_difference_of_a_sum_folds",
        """HloModule complex_folds, is_scheduled=true

%fused_add_subtract (param_0.62: c128[4], param_1.83: c128[4]) -> (c128[4], c128[4]) {
  %param_1.83 = c128[4]{0} parameter(1)
  %param_0.62 = c128[4]{0} parameter(0)
  %sum.1.1 = c128[4]{0} add(%param_1.83, %param_0.62)
  %back.1.1 = c128[4]{0} subtract(%sum.1.1, %param_0.62)
  ROOT %tuple = (c128[4]{0}, c128[4]{0}) tuple(%back.1.1, %sum.1.1)
}

ENTRY %main.1 (a.1: c128[4], b.1: c128[4]) -> (c128[4], c128[4]) {
  %b.1 = c128[4]{0} parameter(1)
  %a.1 = c128[4]{0} parameter(0)
  %fusion = (c128[4]{0}, c128[4]{0}) fusion(%b.1, %a.1), kind=kLoop, calls=%fused_add_subtract
  %back = c128[4]{0} get-tuple-element(%fusion), index=0
  %sum = c128[4]{0} get-tuple-element(%fusion), index=1
  ROOT %tuple.1.0 = (c128[4]{0}, c128[4]{0}) tuple(%back, %sum)
}
""",
        [
            (
                "c128",
                (4,),
                [complex(0.1, -0.0), complex(INF, 1.0), complex(-0.0, 2.5), complex(1.5e308, 3.0)],
            ),
            (
                "c128",
                (4,),
                [complex(0.7, 0.3), complex(1.0, -2.0), complex(0.0, 1e-17), complex(1e308, -1.0)],
            ),
        ],
        [
            (
                "c128",
                (4,),
                [complex(0.1, -0.0), complex(INF, 1.0), complex(-0.0, 2.5), complex(1.5e308, 3.0)],
            ),
            (
                "c128",
                (4,),
                [
                    complex(0.7999999999999999, 0.3),
                    complex(INF, -1.0),
                    complex(0.0, 2.5),
                    complex(INF, 2.0),
                ],
            ),
        ],
    ),
    # Two reduces of one input (`max` of f32[2], `xor` of its s64 convert under a u32
    # convert) beside a side output `complex(p, p)`: XLA's reduction emitter runs both in
    # one group (one thread loop, a shuffle per reduce, one epilogue); ours tiled one reduce
    # only and refused the fusion as a multi-output loop of two shapes (seed 802057). By
    # hand: s64(inf) saturates to 2**63 - 1, s64(-7.9) is -7, their xor is 0x8000...0006,
    # whose low 32 bits are 6.
    Finding(
        "two_reduce_heroes_with_side_output",
        "two_reduce_heroes_with_side_output.hlo",
        [("f32", (2,), [INF, -7.900000095367432])],
        [
            ("f32", (), [INF]),
            ("c64", (2,), [complex(INF, INF), complex(-7.900000095367432, -7.900000095367432)]),
            ("u32", (), [6]),
        ],
    ),
    # `sign(erf(max(p)))` and `abs(erf(max(p)))` beside a side output `divide(p, q)`: XLA's
    # reduction emitter takes the reduce as both roots' hero (its epilogue walk ignores that
    # `erf` has two users) and writes both through one epilogue; ours stopped at `erf`,
    # found no hero and refused a multi-output loop of two shapes (seed 1100388). By hand:
    # -0.75 / 2 = -0.375, -3 / -0 = inf, max = -0.75, sign(erf(-0.75)) = -1.
    Finding(
        "reduce_under_two_epilogue_roots",
        "reduce_under_two_epilogue_roots.hlo",
        [("f64", (2,), [-0.75, -3.0]), ("f64", (2,), [2.0, -0.0])],
        [
            ("f64", (2,), [-0.375, INF]),
            ("f64", (), [0.7111556336535151]),
            ("f64", (), [-1.0]),
        ],
    ),
]


@pytest.mark.parametrize("finding", FINDINGS, ids=[f.name for f in FINDINGS])
def test_compiled_path_gives_xla_cpu_outputs(finding: Finding) -> None:
    module = _module(finding)
    outputs = ModuleRuntime(module).run([_array(x) for x in finding.inputs])
    _assert_xla_outputs(finding, outputs)


@pytest.mark.parametrize("finding", FINDINGS, ids=[f.name for f in FINDINGS])
def test_evaluator_gives_xla_cpu_outputs(finding: Finding) -> None:
    module = _module(finding)
    outputs = evaluate_module(module, [_array(x) for x in finding.inputs])
    _assert_xla_outputs(finding, outputs)


def _assert_xla_outputs(finding: Finding, outputs: list[np.ndarray]) -> None:
    expected = [_array(x) for x in finding.xla]
    if finding.signed_zeros:
        assert [_bits(x) for x in outputs] == [_bits(x) for x in expected]
        return
    assert len(outputs) == len(expected)
    for output, want in zip(outputs, expected, strict=True):
        assert output.dtype == want.dtype
        np.testing.assert_array_equal(output, want)
