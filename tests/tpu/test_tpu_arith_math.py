"""Every `arith` and `math` op in a TPU kernel, on whole vectors and on scalars in a loop,
against numpy written here (integer results hand-derived from two's complement, float
results computed in f64 and rounded once, as the ops are defined)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect

from xla_emit.diagnostics import UserError
from xla_emit.interpreter.tpu import run_tpu_kernel
from xla_emit.ir import parse_mlir

# Float division by zero and fmod of an infinity are defined (inf, NaN); numpy warns.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
RNG = np.random.default_rng(24)
SHAPE = (8, 128)
BF16 = ml_dtypes.bfloat16
_DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
    "f32": np.float32,
    "bf16": BF16,
}


@dataclass(frozen=True)
class Case:
    """One op: its MLIR line (operands %0, %1, ...; results %r0, %r1, ...), types, data
    and the expected results."""

    line: str
    operands: tuple[str, ...]
    results: tuple[str, ...]
    inputs: Callable[[tuple[int, ...]], list[np.ndarray]]
    expected: Callable[..., list[np.ndarray]]
    scalar_only: bool = False  # xDSL's op takes scalars only


def _ints(low: int, high: int, dtype: type = np.int32) -> Callable[[tuple[int, ...]], np.ndarray]:
    return lambda shape: RNG.integers(low, high, shape).astype(dtype)


def _floats(low: float = -4.0, high: float = 4.0, dtype: type = np.float32):  # type: ignore[no-untyped-def]
    return lambda shape: RNG.uniform(low, high, shape).astype(dtype)


def _two(first, second=None):  # type: ignore[no-untyped-def]
    second = second or first
    return lambda shape: [first(shape), second(shape)]


def _one(draw):  # type: ignore[no-untyped-def]
    return lambda shape: [draw(shape)]


I32 = _ints(-(2**31), 2**31)
NONZERO = lambda shape: np.where((v := I32(shape)) == 0, 7, v).astype(np.int32)  # noqa: E731
SMALL_NONZERO = lambda shape: np.where((v := _ints(-9, 10)(shape)) == 0, 3, v).astype(np.int32)  # noqa: E731
AMOUNT = _ints(0, 32)


def _u32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.int64) & 0xFFFFFFFF


def _s32(a: np.ndarray) -> np.ndarray:
    """Low 32 bits of exact integers, read signed."""
    low = np.asarray(a, dtype=object) & 0xFFFFFFFF
    return (
        np.array([v - (1 << 32) if v >= 1 << 31 else v for v in low.ravel()], np.int64)
        .reshape(np.shape(a))
        .astype(np.int32)
    )


def _exact(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.int64).astype(object)


def _c_divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    q = np.abs(_exact(a)) // np.abs(_exact(b))
    return np.where((a < 0) != (b < 0), -q, q)


def _f64(function: Callable[..., np.ndarray], dtype: type = np.float32):  # type: ignore[no-untyped-def]
    def run(*args: np.ndarray) -> list[np.ndarray]:
        with np.errstate(all="ignore"):
            wide = function(*(np.asarray(a, np.float64) for a in args))
        return [np.asarray(wide).astype(dtype)]

    return run


def _binary(name: str, type_: str = "i32") -> str:
    return f"%r0 = arith.{name} %0, %1 : {type_}"


_CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_CMPI_NUMPY = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": lambda a, b: _u32(a) < _u32(b),
    "ule": lambda a, b: _u32(a) <= _u32(b),
    "ugt": lambda a, b: _u32(a) > _u32(b),
    "uge": lambda a, b: _u32(a) >= _u32(b),
}
_CMPF = [
    "false",
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
    "true",
]


def _cmpf_numpy(predicate: str) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    def run(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        unordered = np.isnan(a) | np.isnan(b)
        if predicate in ("false", "true"):
            return np.full(a.shape, predicate == "true")
        if predicate in ("ord", "uno"):
            return ~unordered if predicate == "ord" else unordered
        relation = {
            "eq": a == b,
            "gt": a > b,
            "ge": a >= b,
            "lt": a < b,
            "le": a <= b,
            "ne": a != b,
        }[predicate[1:]]
        if predicate[0] == "o":
            return relation & ~unordered
        return relation | unordered

    return run


def _with_nans(shape: tuple[int, ...]) -> np.ndarray:
    values = _ints(-2, 3)(shape).astype(np.float32)
    values[RNG.random(shape) < 0.2] = np.nan
    return values


def _bits(function: Callable[[int], int]):  # type: ignore[no-untyped-def]
    def run(a: np.ndarray) -> list[np.ndarray]:
        return [
            np.array([function(int(v) & 0xFFFFFFFF) for v in a.ravel()], np.int32).reshape(a.shape)
        ]

    return run


def _leading_zeros(v: int) -> int:
    return 32 - v.bit_length()


def _trailing_zeros(v: int) -> int:
    return 32 if v == 0 else (v & -v).bit_length() - 1


def _integer_power(base: np.ndarray, exponent: np.ndarray) -> list[np.ndarray]:
    results = []
    for b, e in zip(base.ravel().tolist(), exponent.ravel().tolist(), strict=True):
        results.append(
            b**e if e >= 0 else (1 if b == 1 else (0 if b != -1 else (1 if e % 2 == 0 else -1)))
        )
    return [_s32(np.array(results, dtype=object).reshape(base.shape))]


def _round_half_away(a: np.ndarray) -> np.ndarray:
    return np.where(a < 0, -np.floor(-a + 0.5), np.floor(a + 0.5))


_UNARY_MATH: dict[str, tuple[Callable[..., np.ndarray], Callable]] = {  # type: ignore[type-arg]
    "exp": (np.exp, _floats()),
    "exp2": (np.exp2, _floats()),
    "expm1": (np.expm1, _floats()),
    "log": (np.log, _floats(0.01, 9)),
    "log1p": (np.log1p, _floats(-0.9, 9)),
    "log2": (np.log2, _floats(0.01, 9)),
    "log10": (np.log10, _floats(0.01, 9)),
    "tanh": (np.tanh, _floats()),
    "sinh": (np.sinh, _floats()),
    "cosh": (np.cosh, _floats()),
    "sqrt": (np.sqrt, _floats(0, 9)),
    "rsqrt": (lambda a: 1 / np.sqrt(a), _floats(0.01, 9)),
    "cbrt": (np.cbrt, _floats()),
    "erf": (np.vectorize(math.erf), _floats()),
    "sin": (np.sin, _floats()),
    "cos": (np.cos, _floats()),
    "tan": (np.tan, _floats(-1.5, 1.5)),
    "atan": (np.arctan, _floats()),
    "asin": (np.arcsin, _floats(-1, 1)),
    "acos": (np.arccos, _floats(-1, 1)),
    "asinh": (np.arcsinh, _floats()),
    "acosh": (np.arccosh, _floats(1, 9)),
    "atanh": (np.arctanh, _floats(-0.99, 0.99)),
    "absf": (np.abs, _floats()),
    "floor": (np.floor, _floats()),
    "ceil": (np.ceil, _floats()),
    "trunc": (np.trunc, _floats()),
    "round": (_round_half_away, lambda s: _ints(-8, 9)(s).astype(np.float32) / 2),
    "roundeven": (np.rint, lambda s: _ints(-8, 9)(s).astype(np.float32) / 2),
}

CASES: dict[str, Case] = {
    **{
        name: Case(
            _binary(name),
            ("i32", "i32"),
            ("i32",),
            _two(I32),
            lambda a, b, f=f: [_s32(f(_exact(a), _exact(b)))],
        )
        for name, f in {
            "addi": lambda a, b: a + b,
            "subi": lambda a, b: a - b,
            "muli": lambda a, b: a * b,
            "andi": lambda a, b: a & b,
            "ori": lambda a, b: a | b,
            "xori": lambda a, b: a ^ b,
            "maxsi": lambda a, b: np.maximum(a, b),
            "minsi": lambda a, b: np.minimum(a, b),
        }.items()
    },
    "addi_i8": Case(
        _binary("addi", "i8"),
        ("i8", "i8"),
        ("i8",),
        _two(_ints(-128, 128, np.int8)),
        lambda a, b: [((a.astype(np.int64) + b + 128) % 256 - 128).astype(np.int8)],
    ),
    "maxui": Case(
        _binary("maxui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32),
        lambda a, b: [np.where(_u32(a) >= _u32(b), a, b)],
    ),
    "minui": Case(
        _binary("minui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32),
        lambda a, b: [np.where(_u32(a) <= _u32(b), a, b)],
    ),
    "divsi": Case(
        _binary("divsi"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, SMALL_NONZERO),
        lambda a, b: [_s32(_c_divide(a, b))],
    ),
    "remsi": Case(
        _binary("remsi"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, SMALL_NONZERO),
        lambda a, b: [_s32(_exact(a) - _c_divide(a, b) * _exact(b))],
    ),
    "divui": Case(
        _binary("divui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, NONZERO),
        lambda a, b: [_s32(_u32(a) // _u32(b))],
    ),
    "remui": Case(
        _binary("remui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, NONZERO),
        lambda a, b: [_s32(_u32(a) % _u32(b))],
    ),
    "floordivsi": Case(
        _binary("floordivsi"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, SMALL_NONZERO),
        lambda a, b: [_s32(_exact(a) // _exact(b))],
    ),
    "ceildivsi": Case(
        _binary("ceildivsi"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, SMALL_NONZERO),
        lambda a, b: [_s32(-(-_exact(a) // _exact(b)))],
    ),
    "ceildivui": Case(
        _binary("ceildivui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, NONZERO),
        lambda a, b: [_s32(-(-_u32(a) // _u32(b)))],
    ),
    "shli": Case(
        _binary("shli"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, AMOUNT),
        lambda a, b: [_s32(_exact(a) << _exact(b))],
    ),
    "shrui": Case(
        _binary("shrui"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, AMOUNT),
        lambda a, b: [_s32(_u32(a) >> b)],
    ),
    "shrsi": Case(
        _binary("shrsi"),
        ("i32", "i32"),
        ("i32",),
        _two(I32, AMOUNT),
        lambda a, b: [_s32(_exact(a) >> _exact(b))],
    ),
    **{
        f"cmpi_{p}": Case(
            f"%r0 = arith.cmpi {p}, %0, %1 : i32",
            ("i32", "i32"),
            ("i1",),
            _two(_ints(-3, 4)),
            lambda a, b, p=p: [_CMPI_NUMPY[p](a, b)],
        )
        for p in _CMPI
    },
    **{
        f"cmpf_{p}": Case(
            f"%r0 = arith.cmpf {p}, %0, %1 : f32",
            ("f32", "f32"),
            ("i1",),
            _two(_with_nans),
            lambda a, b, p=p: [_cmpf_numpy(p)(a, b)],
        )
        for p in _CMPF
    },
    **{
        name: Case(_binary(name, "f32"), ("f32", "f32"), ("f32",), _two(_with_nans), _f64(f))
        for name, f in {
            "addf": np.add,
            "subf": np.subtract,
            "mulf": np.multiply,
            "divf": np.divide,
            "maximumf": np.maximum,
            "minimumf": np.minimum,
            "maxnumf": np.fmax,
            "minnumf": np.fmin,
            "remf": np.fmod,
        }.items()
    },
    "addf_bf16": Case(
        _binary("addf", "bf16"),
        ("bf16", "bf16"),
        ("bf16",),
        _two(_floats(dtype=BF16)),
        _f64(np.add, BF16),
    ),
    "negf": Case("%r0 = arith.negf %0 : f32", ("f32",), ("f32",), _one(_floats()), lambda a: [-a]),
    "select": Case(
        "%r0 = arith.select %0, %1, %2 : i1, f32",
        ("i1", "f32", "f32"),
        ("f32",),
        lambda s: [RNG.random(s) < 0.5, _floats()(s), _floats()(s)],
        lambda c, a, b: [np.where(c, a, b)],
    ),
    "extsi": Case(
        "%r0 = arith.extsi %0 : i8 to i32",
        ("i8",),
        ("i32",),
        _one(_ints(-128, 128, np.int8)),
        lambda a: [a.astype(np.int32)],
    ),
    "extui": Case(
        "%r0 = arith.extui %0 : i8 to i32",
        ("i8",),
        ("i32",),
        _one(_ints(-128, 128, np.int8)),
        lambda a: [(a.astype(np.int32) & 0xFF).astype(np.int32)],
    ),
    "trunci": Case(
        "%r0 = arith.trunci %0 : i32 to i8",
        ("i32",),
        ("i8",),
        _one(I32),
        lambda a: [((a.astype(np.int64) + 128) % 256 - 128).astype(np.int8)],
    ),
    "sitofp": Case(
        "%r0 = arith.sitofp %0 : i32 to f32", ("i32",), ("f32",), _one(I32), _f64(lambda a: a)
    ),
    "uitofp": Case(
        "%r0 = arith.uitofp %0 : i32 to f32",
        ("i32",),
        ("f32",),
        _one(I32),
        lambda a: [_u32(a).astype(np.float64).astype(np.float32)],
    ),
    "fptosi": Case(
        "%r0 = arith.fptosi %0 : f32 to i32",
        ("f32",),
        ("i32",),
        _one(_floats(-1e6, 1e6)),
        lambda a: [np.trunc(a).astype(np.int32)],
    ),
    "fptoui": Case(
        "%r0 = arith.fptoui %0 : f32 to i32",
        ("f32",),
        ("i32",),
        _one(_floats(0, 4e9)),
        lambda a: [_s32(np.trunc(a.astype(np.float64)).astype(np.int64))],
    ),
    "extf": Case(
        "%r0 = arith.extf %0 : bf16 to f32",
        ("bf16",),
        ("f32",),
        _one(_floats(dtype=BF16)),
        lambda a: [a.astype(np.float32)],
    ),
    "truncf": Case(
        "%r0 = arith.truncf %0 : f32 to bf16",
        ("f32",),
        ("bf16",),
        _one(_floats()),
        lambda a: [a.astype(BF16)],
    ),
    "bitcast": Case(
        "%r0 = arith.bitcast %0 : f32 to i32",
        ("f32",),
        ("i32",),
        _one(_floats()),
        lambda a: [a.view(np.int32)],
    ),
    "index_cast": Case(
        "%r0 = arith.index_cast %0 : i32 to index",
        ("i32",),
        ("index",),
        _one(I32),
        lambda a: [a.astype(np.int64)],
        True,
    ),
    "index_castui": Case(
        "%r0 = arith.index_castui %0 : i32 to index",
        ("i32",),
        ("index",),
        _one(I32),
        lambda a: [_u32(a)],
        True,
    ),
    "constant": Case(
        "%r0 = arith.constant 0.1 : f32", (), ("f32",), lambda s: [], lambda: [np.float32(0.1)]
    ),
    "poison": Case("%r0 = ub.poison : i32", (), ("i32",), lambda s: [], lambda: [np.int32(0)]),
    "mului_extended": Case(
        "%r0, %r1 = arith.mului_extended %0, %1 : i32",
        ("i32", "i32"),
        ("i32", "i32"),
        _two(I32),
        lambda a, b: [
            _s32(_u32(a).astype(object) * _u32(b).astype(object)),
            _s32((_u32(a).astype(object) * _u32(b).astype(object)) >> 32),
        ],
    ),
    "mulsi_extended": Case(
        "%r0, %r1 = arith.mulsi_extended %0, %1 : i32",
        ("i32", "i32"),
        ("i32", "i32"),
        _two(I32),
        lambda a, b: [_s32(_exact(a) * _exact(b)), _s32((_exact(a) * _exact(b)) >> 32)],
    ),
    "addui_extended": Case(
        "%r0, %r1 = arith.addui_extended %0, %1 : i32, i1",
        ("i32", "i32"),
        ("i32", "i1"),
        _two(I32),
        lambda a, b: [_s32(_exact(a) + _exact(b)), (_u32(a) + _u32(b)) >= 1 << 32],
    ),
    **{
        name: Case(f"%r0 = math.{name} %0 : f32", ("f32",), ("f32",), _one(draw), _f64(f))
        for name, (f, draw) in _UNARY_MATH.items()
    },
    "tanh_bf16": Case(
        "%r0 = math.tanh %0 : bf16",
        ("bf16",),
        ("bf16",),
        _one(_floats(dtype=BF16)),
        lambda a: [np.tanh(a.astype(np.float64)).astype(np.float32).astype(BF16)],
    ),
    "atan2": Case(
        "%r0 = math.atan2 %0, %1 : f32", ("f32", "f32"), ("f32",), _two(_floats()), _f64(np.arctan2)
    ),
    "powf": Case(
        "%r0 = math.powf %0, %1 : f32",
        ("f32", "f32"),
        ("f32",),
        _two(_floats(0.1, 3)),
        _f64(np.power),
    ),
    "copysign": Case(
        "%r0 = math.copysign %0, %1 : f32",
        ("f32", "f32"),
        ("f32",),
        _two(_floats()),
        _f64(np.copysign),
    ),
    "fma": Case(
        "%r0 = math.fma %0, %1, %2 : f32",
        ("f32", "f32", "f32"),
        ("f32",),
        lambda s: [_floats()(s) for _ in range(3)],
        _f64(lambda a, b, c: a * b + c),
    ),
    "fpowi": Case(
        "%r0 = math.fpowi %0, %1 : f32, i32",
        ("f32", "i32"),
        ("f32",),
        _two(_floats(0.5, 2), _ints(-5, 6)),
        _f64(np.power),
    ),
    "absi": Case(
        "%r0 = math.absi %0 : i32",
        ("i32",),
        ("i32",),
        _one(I32),
        lambda a: [_s32(np.abs(_exact(a)))],
    ),
    "ctlz": Case("%r0 = math.ctlz %0 : i32", ("i32",), ("i32",), _one(I32), _bits(_leading_zeros)),
    "cttz": Case("%r0 = math.cttz %0 : i32", ("i32",), ("i32",), _one(I32), _bits(_trailing_zeros)),
    "ctpop": Case(
        "%r0 = math.ctpop %0 : i32",
        ("i32",),
        ("i32",),
        _one(I32),
        _bits(lambda v: bin(v).count("1")),
    ),
    "ipowi": Case(
        "%r0 = math.ipowi %0, %1 : i32",
        ("i32", "i32"),
        ("i32",),
        _two(_ints(-5, 6), _ints(-3, 12)),
        _integer_power,
    ),
}


def _vector(type_: str) -> str:
    return f"vector<{SHAPE[0]}x{SHAPE[1]}x{type_}>"


def _vector_line(line: str) -> str:
    """The op's line with every type a vector of it (`: i32 to f32` and `: i1, f32` too)."""
    head, types = line.split(" : ")
    if "arith.constant" in head:
        name, value = head.rsplit(" ", 1)
        head = f"{name} dense<{value}>"
    parts = [p.strip() for p in types.replace(" to ", ",").split(",")]
    vectors = [_vector(p) for p in parts]
    separator = " to " if " to " in types else ", "
    return f"{head} : {separator.join(vectors)}"


def vector_kernel(case: Case) -> str:
    """The op on whole 8x128 vectors loaded from and stored to VMEM refs."""
    args = [f"%a{i}: memref<8x128x{t}>" for i, t in enumerate(case.operands)]
    args += [f"%o{i}: memref<8x128x{t}>" for i, t in enumerate(case.results)]
    loads = [
        f"    %{i} = vector.load %a{i}[%c0, %c0] : memref<8x128x{t}>, {_vector(t)}"
        for i, t in enumerate(case.operands)
    ]
    stores = [
        f"    vector.store %r{i}, %o{i}[%c0, %c0] : memref<8x128x{t}>, {_vector(t)}"
        for i, t in enumerate(case.results)
    ]
    body = "\n".join([*loads, "    " + _vector_line(case.line), *stores])
    return (
        f"func.func @kernel({', '.join(args)}) {{\n    %c0 = arith.constant 0 : index\n"
        f"{body}\n    return\n}}\n"
    )


def scalar_kernel(case: Case, count: int) -> str:
    """The op on scalars, one element of SMEM refs per iteration of an `scf.for`."""
    smem = "#tpu.memory_space<smem>"
    args = [f"%a{i}: memref<{count}x{t}, {smem}>" for i, t in enumerate(case.operands)]
    args += [f"%o{i}: memref<{count}x{t}, {smem}>" for i, t in enumerate(case.results)]
    loads = [
        f"      %{i} = memref.load %a{i}[%i] : memref<{count}x{t}, {smem}>"
        for i, t in enumerate(case.operands)
    ]
    stores = [
        f"      memref.store %r{i}, %o{i}[%i] : memref<{count}x{t}, {smem}>"
        for i, t in enumerate(case.results)
    ]
    body = "\n".join([*loads, "      " + case.line, *stores])
    return (
        f"func.func @kernel({', '.join(args)}) {{\n"
        "    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n"
        f"    %n = arith.constant {count} : index\n"
        f"    scf.for %i = %c0 to %n step %c1 {{\n{body}\n    }}\n    return\n}}\n"
    )


def _run(
    text: str, case: Case, inputs: list[np.ndarray], shape: tuple[int, ...]
) -> list[np.ndarray]:
    module, _ = parse_mlir(text, "<arith>")
    outputs = [np.zeros(shape, _DTYPES[t]) for t in case.results]
    return run_tpu_kernel(module, [*inputs, *outputs])[len(inputs) :]


def _check(got: list[np.ndarray], expected: list[np.ndarray], case: Case) -> None:
    """Bit for bit; NaNs where numpy has NaNs (their payloads aside)."""
    for result, want, type_ in zip(got, expected, case.results, strict=True):
        want = np.broadcast_to(np.asarray(want).astype(_DTYPES[type_]), result.shape)
        if type_ not in ("f32", "bf16"):
            np.testing.assert_array_equal(result, want)
            continue
        nan = np.isnan(want.astype(np.float32))
        np.testing.assert_array_equal(np.isnan(result.astype(np.float32)), nan)
        bits = np.uint32 if type_ == "f32" else np.uint16
        np.testing.assert_array_equal(result[~nan].view(bits), want[~nan].view(bits))


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if not c.scalar_only))
def test_op_on_vectors(name: str) -> None:
    case = CASES[name]
    inputs = case.inputs(SHAPE)
    _check(_run(vector_kernel(case), case, inputs, SHAPE), case.expected(*inputs), case)


@pytest.mark.parametrize("name", sorted(CASES))
def test_op_on_scalars(name: str) -> None:
    case = CASES[name]
    inputs = case.inputs((16,))
    _check(_run(scalar_kernel(case, 16), case, inputs, (16,)), case.expected(*inputs), case)


def test_every_arith_and_math_op_has_a_case() -> None:
    covered = {case.line.split(" = ")[1].split(" ")[0] for case in CASES.values()}
    ops = {op.name for dialect in (arith.Arith, math_dialect.Math) for op in dialect.operations}
    assert ops - covered == set()


@pytest.mark.parametrize(
    ("line", "values", "message"),
    [
        ("%r0 = arith.divsi %0, %1 : i32", [7, 0], "divides 7 by zero, which is undefined"),
        ("%r0 = arith.remui %0, %1 : i32", [7, 0], "divides 7 by zero, which is undefined"),
        (
            "%r0 = arith.divsi %0, %1 : i32",
            [-(2**31), -1],
            "divides -2147483648 by -1, which overflows i32",
        ),
        (
            "%r0 = arith.shrui %0, %1 : i32",
            [5, 32],
            "shifts 5 by 32, not in [0, 32): the result is poison",
        ),
    ],
)
def test_undefined_integer_results_are_errors_naming_the_op(
    line: str, values: list[int], message: str
) -> None:
    case = Case(line, ("i32", "i32"), ("i32",), lambda s: [], list)
    inputs = [np.full((16,), v, np.int32) for v in values]
    op = line.split(" = ")[1].split(" ")[0]
    with pytest.raises(UserError, match=re.escape(f"'{op}' op {message}")):
        _run(scalar_kernel(case, 16), case, inputs, (16,))
