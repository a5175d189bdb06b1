"""Random small HLO programs over every op class and element type the project supports.

A program is a list of instructions over a pool of values; each step picks an op class,
draws its operands from the pool (or new parameters of the shape it needs) and appends
the instruction. `generate(seed)` is a pure function of the seed, so a seed names a
program. Inputs come from `arrays.edge_array` (edge values) or `arrays.index_array`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from arrays import DTYPES, edge_array, flush_denormals, index_array

INTS = ["s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"]
SIGNED = ["s8", "s16", "s32", "s64"]
FLOATS = ["f16", "bf16", "f32", "f64"]
COMPLEX = ["c64", "c128"]
ALL_TYPES = ["pred", *INTS, *FLOATS, *COMPLEX]
_WIDTH = {t: DTYPES[t].itemsize for t in ALL_TYPES}

_FLOAT_UNARY = [
    "abs", "negate", "sign", "ceil", "floor", "round-nearest-even", "round-nearest-afz",
    "exponential", "exponential-minus-one", "log", "log-plus-one", "logistic", "sqrt",
    "rsqrt", "cbrt", "tanh", "sine", "cosine", "tan", "erf", "is-finite",
]  # fmt: skip
_INT_UNARY = ["not", "popcnt", "count-leading-zeros"]
_SIGNED_UNARY = ["abs", "negate", "sign"]
_COMPLEX_UNARY = ["negate", "exponential", "log", "sqrt", "abs", "real", "imag", "sign"]
_FLOAT_BINARY = [
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2",
]  # fmt: skip
_INT_BINARY = [
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "and", "or",
    "xor", "shift-left", "shift-right-logical", "shift-right-arithmetic",
]  # fmt: skip
_PRED_BINARY = ["and", "or", "xor", "maximum", "minimum"]
_COMPLEX_BINARY = ["add", "subtract", "multiply", "divide"]
_DIRECTIONS = ["EQ", "NE", "LT", "LE", "GT", "GE"]


def shape_text(ptype: str, dims: tuple[int, ...]) -> str:
    return f"{ptype}[{','.join(str(d) for d in dims)}]"


@dataclass
class Param:
    name: str
    ptype: str
    dims: tuple[int, ...]
    # Indices near [0, bound) when set, else edge values (only finite ones if `finite`).
    bound: int | None = None
    finite: bool = False
    # Integer bits of floats of this type (normal values and edge values, no subnormals).
    bits_of: str | None = None
    # Without huge or tiny values (|x| > 100 becomes +-2.5, 0 < |x| < 1e-6 +-0.25): sums
    # that overflow give inf or NaN by the order they add in, which differs between XLA
    # and us by design.
    tame: bool = False


@dataclass
class Instr:
    """`%name = shape opcode(%operands), attributes`; `shape` may be a tuple's text."""

    name: str
    ptype: str
    dims: tuple[int, ...]
    opcode: str
    operands: list[str]
    attributes: str = ""
    shape: str | None = None  # a tuple's shape text; None for arrays
    literal: str | None = None  # a constant's value

    def text(self) -> str:
        shape = self.shape or shape_text(self.ptype, self.dims)
        if self.literal is not None:
            return f"%{self.name} = {shape} constant({self.literal})"
        operands = ", ".join(f"%{o}" for o in self.operands)
        tail = f", {self.attributes}" if self.attributes else ""
        return f"%{self.name} = {shape} {self.opcode}({operands}){tail}"


@dataclass
class Program:
    params: list[Param] = field(default_factory=list[Param])
    instrs: list[Instr] = field(default_factory=list[Instr])
    computations: dict[str, str] = field(default_factory=dict[str, str])
    roots: list[str] = field(default_factory=list[str])

    def value(self, name: str) -> Param | Instr:
        for item in [*self.params, *self.instrs]:
            if item.name == name:
                return item
        raise KeyError(name)

    def text(self) -> str:
        lines = ["HloModule difftest", ""]
        used = self._used_computations()
        lines += [text for name, text in self.computations.items() if name in used]
        params = ", ".join(f"{p.name}: {shape_text(p.ptype, p.dims)}" for p in self.params)
        roots = [self.value(r) for r in self.roots]
        result = ", ".join(shape_text(r.ptype, r.dims) for r in roots)
        lines.append(f"ENTRY %main ({params}) -> ({result}) {{")
        for index, p in enumerate(self.params):
            lines.append(f"  %{p.name} = {shape_text(p.ptype, p.dims)} parameter({index})")
        lines += [f"  {i.text()}" for i in self.instrs]
        operands = ", ".join(f"%{r}" for r in self.roots)
        lines.append(f"  ROOT %result = ({result}) tuple({operands})")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def _used_computations(self) -> set[str]:
        # Computations call no others, so the instructions' `to_apply` name them all.
        return {m for i in self.instrs for m in re.findall(r"to_apply=%([\w.]+)", i.attributes)}

    def shapes(self) -> list[tuple[int, ...]]:
        return [self.value(r).dims for r in self.roots]

    def inputs(self, seed: int) -> list[np.ndarray]:
        rng = np.random.default_rng([seed, 1])
        arrays = []
        for p in self.params:
            if p.bound is not None:
                arrays.append(index_array(rng, p.ptype, p.dims, p.bound))
            elif p.bits_of is not None:
                ratio = _WIDTH[p.ptype] // _WIDTH[p.bits_of]
                floats = flush_denormals(edge_array(rng, p.bits_of, (*p.dims, ratio)))
                arrays.append(floats.view(DTYPES[p.ptype]).reshape(p.dims))
            else:
                values = edge_array(rng, p.ptype, p.dims)
                if p.finite:
                    # (np.asarray: nan_to_num makes a 0-d array a scalar)
                    values = np.asarray(np.nan_to_num(values, posinf=1.5, neginf=-2.0))
                if p.tame:
                    values = _tamed(values)
                arrays.append(values)
        return arrays


def _tamed(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind == "c":
        tamed = values.copy()
        tamed.real, tamed.imag = _tamed(values.real), _tamed(values.imag)
        return tamed
    if values.dtype.kind in "biu":
        return values
    wide = values.astype(np.float64)
    huge = np.isfinite(wide) & (np.abs(wide) > 100)
    # Tiny values too: their products underflow to subnormals, which XLA:CPU flushes to
    # zero inside a kernel (0 * inf is then NaN) where a GPU keeps them.
    tiny = (wide != 0) & (np.abs(wide) < 1e-6)
    return np.where(huge | tiny, np.copysign(np.where(huge, 2.5, 0.25), wide), wide).astype(
        values.dtype
    )


def _is_16_bit_power(value: Param | Instr) -> bool:
    """Whether `value` is an f16/bf16 `power`, whose log XLA:CPU and XLA:GPU disagree on.

    XLA's simplifier rewrites log(power(a, b)) as select(b == 0, 0, b * log|a|), which is
    finite for a negative `a` (power is NaN there), finite where power overflows, and
    rounds once less. XLA:GPU rewrites 16-bit floats too; XLA:CPU computes them in f32
    behind converts that hide the pattern (seed 102640: NaN from XLA:CPU, -0.2158 from the
    GPU's module; f32 programs agree). The generator takes the log of a parameter instead.
    Likewise log(exp(x)), which XLA:GPU's module folds to x (bf16 -0.291, where XLA:CPU's
    rounded exp and log gave -0.293: seed 1700709).
    """
    return (
        isinstance(value, Instr)
        and value.opcode in ("power", "exponential")
        and value.ptype in ("f16", "bf16")
    )


# Ops that take no 16-bit sum: every float unary op but `is-finite`. Some grow an error
# with their argument's magnitude (an absolute error d of x is about d in sin x, a relative
# one of d in exp x); and a sum's bound is absolute (u * sum |p_k|: its terms, not its
# value) where an op's tolerance is relative to its own value, so a sum that cancels passes
# on more: bf16 `cbrt` of a small dot of 1.52 (terms up to 15.3) was 1.1406 on XLA:GPU's
# rewrite, 1.1484 on XLA:CPU (seed 1107840); `ceil`, `floor`, `round-*` and `sign` turn an
# ulp into a step.
_ORDER_SENSITIVE = tuple(op for op in _FLOAT_UNARY if op != "is-finite")


def _is_16_bit_sum(value: Param | Instr) -> bool:
    """Whether `value` is an f16/bf16 sum (dot, reduce, reduce-window), which XLA:CPU and
    XLA:GPU round differently: XLA:GPU turns a small dot into a multiply rounding each
    product to f16 and a sum in f32, XLA:CPU keeps the products exact, and each sums in
    an order of its own. One ulp of a sum of 13.74 is 0.0078, which a cosine passes on
    as 118 f16 ulp of 0.38 (seed 401354), beyond any tolerance of the cosine's own; in
    f32 and f64 the scale tolerance covers it."""
    return (
        isinstance(value, Instr)
        and value.ptype in ("f16", "bf16")
        and value.opcode in ("dot", "reduce", "reduce-window")
    )


# Float ops whose result carries an operand's error on: a 16-bit sum scaled by a map of
# `multiply` kept the sum's 8-ulp difference into a remainder (seed 1307985).
_CARRY_ERROR = ("add", "subtract", "multiply", "divide", "negate", "abs", "maximum", "minimum",
                "clamp", "map", "convert")  # fmt: skip


# Ops whose result XLA:CPU and XLA:GPU approximate each in its own way (within an ulp).
_APPROXIMATED = ("exponential", "exponential-minus-one", "log", "log-plus-one", "logistic",
                 "rsqrt", "cbrt", "tanh", "sine", "cosine", "tan", "erf", "power",
                 "atan2")  # fmt: skip


def _holds_16_bit_approximation(program: Program, value: Param | Instr) -> bool:
    """Whether 16-bit `value` is an approximated op's result, or computed from one by
    arithmetic: a remainder keeps its ulp in absolute terms (bf16 logistic 0.5649 on one
    side, 0.5654 on the other, left remainders 0.0645 and 0.0649: seed 1606386)."""
    if not isinstance(value, Instr) or value.ptype not in ("f16", "bf16"):
        return False
    if value.opcode in _APPROXIMATED:
        return True
    if value.opcode in (*_CARRY_ERROR, *_VALUE_MOVES, "select"):
        return any(_holds_16_bit_approximation(program, program.value(v)) for v in value.operands)
    return False


def _holds_16_bit_sum(program: Program, value: Param | Instr) -> bool:
    """Whether `value` is a 16-bit sum, or one moved or selected (`select(p, dot, dot)` fed
    the cbrt of seed 1107840), or a float computed from one."""
    if _is_16_bit_sum(value):
        return True
    if not isinstance(value, Instr):
        return False
    if value.opcode == "select":
        return any(_holds_16_bit_sum(program, program.value(v)) for v in value.operands[1:])
    if value.opcode in _VALUE_MOVES:
        return _holds_16_bit_sum(program, program.value(value.operands[0]))
    if value.opcode in _CARRY_ERROR and value.ptype in FLOATS:
        return any(_holds_16_bit_sum(program, program.value(v)) for v in value.operands)
    return False


# A reduce-window pads one dimension at most: XLA:CPU's LLVM vectorizer miscompiles some
# windows padded in two (s32[3,2], window 3x1, pad 1_1x1_0 summed rows 0, 1 and 1 into row
# 1; right at -O0 and in XLA's MLIR before LLVM, seed 1300780).
_PADDED_DIMENSIONS = 1


def _computed_from_float_sum(program: Program, value: Param | Instr) -> bool:
    """Whether float `value` is a float sum (a dot, reduce, reduce-window or FFT, of any
    width) or computed from one by float ops: XLA:CPU and XLA:GPU add in orders of their
    own, which the scale tolerance covers in a float output but not in an integer one (an
    f64 dot's last bits, through `power(x, x)`, made s64 67867337928840432 and
    ...839984: seed 1308076)."""
    if not isinstance(value, Instr) or value.ptype not in FLOATS + COMPLEX:
        return False
    if value.opcode in ("dot", "reduce", "reduce-window", "fft"):
        return True
    return any(_computed_from_float_sum(program, program.value(v)) for v in value.operands)


def _product_dims(x: Param | Instr, opcode: str) -> tuple[int, ...]:
    """The dims of a reduction's operand: at most 4 elements for a 16-bit product. Each
    multiply rounds (relative error up to half an ulp), so two orders of n factors part by
    up to n - 1 ulp: XLA:CPU's f16 product of 16 factors was 15 ulp off the GPU's order
    (seed 501235). Four factors stay within the 4-ulp tolerance."""
    if opcode != "multiply" or x.ptype not in ("f16", "bf16"):
        return x.dims
    return tuple(min(d, 2) for d in x.dims[:2])


# Ops that pass one operand's values on unchanged in order (a convert rounds them).
_MOVES_AND_CONVERTS = ("convert", "reshape", "bitcast", "copy")


def _before(program: Program, value: Param | Instr, through: tuple[str, ...]) -> Param | Instr:
    """The value `value` comes from, past any ops of `through` (single-operand ops)."""
    while isinstance(value, Instr) and value.opcode in through:
        value = program.value(value.operands[0])
    return value


def _is_complex_dot(program: Program, value: Param | Instr) -> bool:
    """Whether `value` is a complex dot, or one moved or converted (which XLA:GPU folds into
    the gemm as well)."""
    value = _before(program, value, _MOVES_AND_CONVERTS)
    return isinstance(value, Instr) and value.opcode == "dot" and value.ptype in COMPLEX


def _is_broadcast_float(program: Program, value: Param | Instr) -> bool:
    """Whether `value` is a real float broadcast, or one converted or moved: XLA:CPU's
    simplifier rewrites `a / broadcast(b)` as `a * broadcast(1 / b)` (its converts of
    16-bit floats to f32 and its reshapes of broadcasts leave a broadcast divisor)."""
    if value.ptype not in FLOATS:
        return False
    value = _before(program, value, _MOVES_AND_CONVERTS)
    return isinstance(value, Instr) and value.opcode == "broadcast"


def _is_sliced(program: Program, value: Param | Instr) -> bool:
    """Whether `value` is a slice, dynamic-slice or gather, or one moved."""
    value = _before(program, value, _MOVES_AND_CONVERTS[1:])
    return isinstance(value, Instr) and value.opcode in ("slice", "dynamic-slice", "gather")


def _is_16_bit_quotient(value: Param | Instr) -> bool:
    """Whether `value` is an f16/bf16 divide (or a map dividing)."""
    if not isinstance(value, Instr) or value.ptype not in ("f16", "bf16"):
        return False
    return value.opcode == "divide" or (
        value.opcode == "map" and "to_apply=%divide_" in value.attributes
    )


# Ops that move an integer's values, or reinterpret their bits, without computing: a fused
# kernel keeps a float -> integer -> float pair adjacent through them.
_VALUE_MOVES = ("bitcast-convert", "bitcast", "reshape", "broadcast", "transpose", "slice",
                "reverse", "copy")  # fmt: skip


def _from_float_by_other_signedness(program: Program, value: Param | Instr) -> bool:
    """Whether integer `value` (32 or 64 bits) is a float converted to an integer of the
    other signedness, moved or bitcast. XLA:CPU's LLVM folds `uitofp(fptosi x)` (and
    `sitofp(fptoui x)`) to x's truncation: f64 -2.0 to s64, bitcast to u64 (2**64 - 2),
    to bf16 came out -2.0 (seed 1000817), its IR `uitofp` of the `fptosi`; 16 bits not."""
    if value.ptype not in INTS or _WIDTH[value.ptype] < 4:
        return False
    signed = value.ptype in SIGNED
    while isinstance(value, Instr) and value.opcode in _VALUE_MOVES:
        value = program.value(value.operands[0])
    if not (isinstance(value, Instr) and value.opcode == "convert"):
        return False
    source = program.value(value.operands[0])
    return source.ptype in FLOATS and value.ptype in INTS and (value.ptype in SIGNED) != signed


def _is_computed_float(value: Param | Instr) -> bool:
    """Whether `value` is a float an op computes (its NaNs carry the platform's sign)."""
    return value.ptype in FLOATS and not isinstance(value, Param)


def _folds(opcode: str, x: Param | Instr, y: Param | Instr) -> bool:
    """Whether `opcode(x, y)` is a complex add of a difference and its subtrahend, or a
    subtract of a sum's addend (either order: XLA may swap an add's operands)."""
    if opcode == "add":
        return any(
            isinstance(a, Instr) and a.opcode == "subtract" and a.operands[1] == b.name
            for a, b in ((x, y), (y, x))
        )
    return (
        opcode == "subtract"
        and isinstance(x, Instr)
        and x.opcode == "add"
        and (y.name in x.operands)
    )


class _Builder:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 0])
        self.program = Program()
        self.count = 0

    # -- helpers ---------------------------------------------------------------------------
    def pick(self, options: list[str]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}.{self.count}"

    def dims(self, rank: int | None = None) -> tuple[int, ...]:
        rank = int(self.rng.integers(0, 4)) if rank is None else rank
        return tuple(int(d) for d in self.rng.integers(1, 6, rank))

    def param(
        self,
        ptype: str,
        dims: tuple[int, ...],
        bound: int | None = None,
        finite: bool = False,
        tame: bool = False,
        bits_of: str | None = None,
    ) -> str:
        name = self.fresh("p")
        self.program.params.append(Param(name, ptype, dims, bound, finite, bits_of, tame))
        return name

    def tame_operand(
        self, types: list[str], dims: tuple[int, ...] | None = None, finite: bool = False
    ) -> Param | Instr:
        """A new parameter without huge values (for sums whose order is not XLA's)."""
        ptype = self.pick(types)
        dims = self.dims() if dims is None else dims
        return self.program.value(self.param(ptype, dims, tame=True, finite=finite))

    def values(self) -> list[Param | Instr]:
        return [*self.program.params, *[i for i in self.program.instrs if i.shape is None]]

    def operand(self, types: list[str], dims: tuple[int, ...] | None = None) -> Param | Instr:
        """A pool value of one of `types` (and `dims`), else a new parameter."""
        fits = [v for v in self.values() if v.ptype in types and (dims is None or v.dims == dims)]
        if fits and self.rng.random() < 0.8:
            # Prefer recent values: they make deeper programs.
            return fits[-1 - int(self.rng.integers(min(len(fits), 3)))]
        ptype = self.pick(types)
        name = self.param(ptype, self.dims() if dims is None else dims)
        return self.program.value(name)

    def add(self, ptype: str, dims: tuple[int, ...], opcode: str, operands: list[str],
            attributes: str = "", shape: str | None = None) -> str:  # fmt: skip
        name = self.fresh(opcode.replace("-", "_"))
        self.program.instrs.append(Instr(name, ptype, dims, opcode, operands, attributes, shape))
        return name

    def constant(self, ptype: str, value: str) -> str:
        name = self.fresh("c")
        self.program.instrs.append(Instr(name, ptype, (), "constant", [], literal=value))
        return name

    def scalar_computation(self, opcode: str, ptype: str) -> str:
        name = f"{opcode.replace('-', '_')}_{ptype}"
        s = f"{ptype}[]"
        self.program.computations[name] = (
            f"%{name} (x: {s}, y: {s}) -> {s} {{\n  %x = {s} parameter(0)\n"
            f"  %y = {s} parameter(1)\n  ROOT %r = {s} {opcode}(%x, %y)\n}}\n"
        )
        return name

    def _divide_operands(
        self, x: Param | Instr, y: Param | Instr
    ) -> tuple[Param | Instr, Param | Instr]:
        """Operands for a divide, each replaced by a new parameter where XLA:CPU and XLA:GPU
        simplify the divide differently:
        - a 16-bit quotient: XLA's simplifier rewrites (a / b) / c as a / (b * c) and
          a / (b / c) as (a * c) / b; on XLA:GPU the new product rounds to bf16, XLA:CPU
          computes 16-bit floats in f32 behind converts that hide the pattern (seed 301994:
          x / x / x gave -0.6367 for x = -1.578 on the H100 module, -0.6328 on XLA:CPU);
        - a float divisor that is a broadcast: XLA:CPU's module multiplies by a broadcast
          reciprocal, XLA:GPU's divides (seed 1215505: bf16 -3.39e38 / -3.39e38 was 0 on
          XLA:CPU, its reciprocal a subnormal flushed, and 1 on the H100 module)."""
        if _is_16_bit_quotient(x):
            x = self.program.value(self.param(x.ptype, x.dims))
        if _is_16_bit_quotient(y) or _is_broadcast_float(self.program, y):
            y = self.program.value(self.param(y.ptype, y.dims))
        return x, y

    # -- op classes ------------------------------------------------------------------------
    def unary(self) -> None:
        x = self.operand(ALL_TYPES)
        if x.ptype in FLOATS:
            op = self.pick(_FLOAT_UNARY)
            out = "pred" if op == "is-finite" else x.ptype
            sensitive = op in _ORDER_SENSITIVE and _holds_16_bit_sum(self.program, x)
            if (op == "log" and _is_16_bit_power(x)) or sensitive:
                x = self.program.value(self.param(x.ptype, x.dims))
        elif x.ptype in INTS:
            op = self.pick(_INT_UNARY + (_SIGNED_UNARY if x.ptype in SIGNED else []))
            out = x.ptype
        elif x.ptype == "pred":
            op, out = "not", "pred"
        else:
            op = self.pick(_COMPLEX_UNARY)
            if op not in ("negate", "real", "imag"):  # formulas that overflow inside (as above)
                # exp, log, sqrt of inf and NaN parts follow MLIR's complex lowering case by
                # case, which ours does not model: finite values (abs and sign are modelled).
                finite = op not in ("abs", "sign")
                x = self.tame_operand([x.ptype], x.dims, finite)
            real = "f32" if x.ptype == "c64" else "f64"
            out = real if op in ("abs", "real", "imag") else x.ptype
        self.add(out, x.dims, op, [x.name])

    def binary(self) -> None:
        x = self.operand(ALL_TYPES)
        y = self.operand([x.ptype], x.dims)
        ops = {"pred": _PRED_BINARY, "c64": _COMPLEX_BINARY, "c128": _COMPLEX_BINARY}.get(
            x.ptype, _FLOAT_BINARY if x.ptype in FLOATS else _INT_BINARY
        )
        op = self.pick(ops)
        if op == "divide":
            x, y = self._divide_operands(x, y)
        if op == "remainder":
            # A remainder keeps its dividend's error in absolute terms while its value
            # shrinks: one f16 ulp (0.0625) of a small dot XLA:GPU rounds per product
            # became 128 ulp of the remainder -1.89 (seed 804540). No 16-bit sums.
            x, y = (
                self.program.value(self.param(v.ptype, v.dims))
                if _holds_16_bit_sum(self.program, v)
                or _holds_16_bit_approximation(self.program, v)
                else v
                for v in (x, y)
            )
        if x.ptype in COMPLEX and _folds(op, x, y):
            # XLA folds complex `b + (a - b)` and `(a + b) - b` to `a` (MLIR's complex
            # folders) inside one fusion kernel, and rounds where the two ops are kernels
            # of their own: XLA:CPU and XLA:GPU fuse them differently (seed 800792, 700739).
            y = self.program.value(self.param(x.ptype, x.dims))
        if op == "atan2":
            # XLA:CPU's atan2(0, 0) is 0 from parameters but NaN from an iota's zeros (seed
            # 603130; C's atan2 and a GPU give 0): it is no oracle for computed operands.
            x, y = (
                v if isinstance(v, Param) else self.program.value(self.param(v.ptype, v.dims))
                for v in (x, y)
            )
        if x.ptype in COMPLEX and op in ("add", "subtract"):
            # XLA:GPU makes add(dot, c) one cuBLAS gemm adding c with beta = 1: what cuBLAS
            # gives for an infinite part of c (beta * c as a complex product is NaN there,
            # XLA:CPU's add keeps the infinity) needs a GPU to tell (seed 702138). The
            # addend of a complex dot takes finite values, as the dot's operands do.
            x, y = (
                self.tame_operand([v.ptype], v.dims, finite=True)
                if _is_complex_dot(self.program, w) and not _is_complex_dot(self.program, v)
                else v
                for v, w in ((x, y), (y, x))
            )
        if x.ptype in COMPLEX and op in ("multiply", "divide"):
            # XLA multiplies in the component type with a fused multiply-add (re = a*c - b*d
            # is fma(a, c, -(b*d)) on XLA:CPU): where a product overflows, whether it was
            # fused decides inf or NaN. Operands below overflow have one answer up to rounding.
            x = self.tame_operand([x.ptype], x.dims)
            y = self.tame_operand([x.ptype], x.dims)
        self.add(x.ptype, x.dims, op, [x.name, y.name])

    def make_complex(self) -> None:
        x = self.operand(["f32", "f64"])
        y = self.operand([x.ptype], x.dims)
        self.add("c64" if x.ptype == "f32" else "c128", x.dims, "complex", [x.name, y.name])

    def compare(self) -> None:
        x = self.operand(ALL_TYPES)
        y = self.operand([x.ptype], x.dims)
        direction = self.pick(["EQ", "NE"] if x.ptype in COMPLEX else _DIRECTIONS)
        attributes = f"direction={direction}"
        if x.ptype in FLOATS and self.rng.random() < 0.3:
            # A total order sees a NaN's sign; a NaN an op computes has the platform's sign
            # (numpy's log(-5) is -NaN, XLA:CPU's and a GPU's +NaN), so compare parameters.
            x = self.program.value(self.param(x.ptype, x.dims))
            y = self.program.value(self.param(x.ptype, x.dims))
            attributes += ", type=TOTALORDER"
        self.add("pred", x.dims, "compare", [x.name, y.name], attributes)

    def select(self) -> None:
        x = self.operand(ALL_TYPES)
        y = self.operand([x.ptype], x.dims)
        p = self.operand(["pred"], x.dims if self.rng.random() < 0.8 else ())
        self.add(x.ptype, x.dims, "select", [p.name, x.name, y.name])

    def clamp(self) -> None:
        x = self.operand([*INTS, *FLOATS])
        bounds = () if self.rng.random() < 0.5 else x.dims
        low = self.operand([x.ptype], bounds)
        high = self.operand([x.ptype], bounds)
        self.add(x.ptype, x.dims, "clamp", [low.name, x.name, high.name])

    def convert(self) -> None:
        x = self.operand(ALL_TYPES)
        targets = ALL_TYPES if x.ptype not in COMPLEX else COMPLEX
        target = self.pick(targets)
        if target in FLOATS + COMPLEX and _from_float_by_other_signedness(self.program, x):
            # XLA:CPU folds the float -> integer -> float pair across signedness (seed
            # 1000817): it is no oracle there; the integer is a parameter.
            x = self.program.value(self.param(x.ptype, x.dims))
        if target not in FLOATS + COMPLEX and _computed_from_float_sum(self.program, x):
            # Truncation turns an ulp into a step: an f16 product of 4 factors is 814.5 in
            # XLA:CPU's order, 815 in a GPU's shuffle order, u64 814 and 815 (seed 1107473).
            x = self.program.value(self.param(x.ptype, x.dims))
        self.add(target, x.dims, "convert", [x.name])

    def bitcast_convert(self) -> None:
        # XLA bitcasts between real types only (not pred, not complex). A float operand is
        # a parameter: a NaN an op computes has the platform's bits (XLA:CPU's log1p gives
        # 0xffffffff, a GPU 0x7fffffff), which a bitcast would show.
        x = self.operand(INTS)
        if self.rng.random() < 0.5:
            x = self.program.value(self.param(self.pick(FLOATS), self.dims()))
        width = _WIDTH[x.ptype]
        same = [t for t in [*INTS, *FLOATS] if _WIDTH[t] == width and t != x.ptype]
        narrower = [t for t in [*INTS, *FLOATS] if _WIDTH[t] < width]
        if same and self.rng.random() < 0.7:
            target, dims = self.pick(same), x.dims
        elif narrower:
            target = self.pick(narrower)
            dims = (*x.dims, width // _WIDTH[target])
        else:
            return
        if target in FLOATS and x.ptype in INTS:
            # Integer bits that are floats without subnormals: XLA:CPU reads a subnormal
            # as zero in every op (ceil(1e-45) is 0 there, 1 on a GPU), and no rerun with
            # flushed inputs would see one that an integer holds.
            x = self.program.value(self.param(x.ptype, x.dims, bits_of=target))
        self.add(target, dims, "bitcast-convert", [x.name])

    def _reducer(self, ptype: str) -> tuple[str, str]:
        """(reducer opcode, its identity as the init literal) for `ptype`. XLA requires the
        init to be the reducer's identity: a GPU kernel combines it once per thread (2.5 as
        a product's init gave 2.5**32 times XLA:CPU's answer), so no other has one answer."""
        if ptype == "pred":
            return self.pick([("and", "true"), ("or", "false"), ("xor", "false")])  # type: ignore[arg-type]
        if ptype in INTS:
            info = np.iinfo(DTYPES[ptype])
            return self.pick([("add", "0"), ("multiply", "1"), ("maximum", str(info.min)),  # type: ignore[arg-type]
                              ("minimum", str(info.max)), ("and", str(info.max if ptype not in
                              SIGNED else -1)), ("or", "0"), ("xor", "0")])  # fmt: skip
        return self.pick([("add", "0"), ("add", "-0"), ("multiply", "1"), ("maximum", "-inf"),  # type: ignore[arg-type]
                          ("minimum", "inf")])  # fmt: skip

    def reduce(self) -> None:
        x = self.operand([t for t in ALL_TYPES if t not in COMPLEX])
        if not x.dims:
            return
        opcode, init = self._reducer(x.ptype)
        if x.ptype in FLOATS and opcode in ("add", "multiply"):
            x = self.tame_operand([x.ptype], _product_dims(x, opcode))
        init_name = self.constant(x.ptype, init)
        rank = len(x.dims)
        dims = sorted(int(d) for d in self.rng.choice(rank, int(self.rng.integers(1, rank + 1)),
                                                       replace=False))  # fmt: skip
        kept = tuple(d for i, d in enumerate(x.dims) if i not in dims)
        reducer = self.scalar_computation(opcode, x.ptype)
        attributes = f"dimensions={{{','.join(map(str, dims))}}}, to_apply=%{reducer}"
        self.add(x.ptype, kept, "reduce", [x.name, init_name], attributes)

    def argmin(self) -> None:
        """A variadic reduce of (value, index): the smallest value and its first index."""
        x = self.operand([*FLOATS, *INTS])
        if not x.dims:
            return
        axis = int(self.rng.integers(len(x.dims)))
        index = self.add("s32", x.dims, "iota", [], f"iota_dimension={axis}")
        init = "inf" if x.ptype in FLOATS else str(np.iinfo(DTYPES[x.ptype]).max)
        value_init = self.constant(x.ptype, init)
        index_init = self.constant("s32", "0")
        comp = self._argmin_computation(x.ptype)
        kept = tuple(d for i, d in enumerate(x.dims) if i != axis)
        tuple_shape = f"({shape_text(x.ptype, kept)}, {shape_text('s32', kept)})"
        reduced = self.add(x.ptype, kept, "reduce", [x.name, index, value_init, index_init],
                           f"dimensions={{{axis}}}, to_apply=%{comp}", tuple_shape)  # fmt: skip
        which = int(self.rng.integers(2))
        self.add(x.ptype if which == 0 else "s32", kept, "get-tuple-element", [reduced],
                 f"index={which}")  # fmt: skip

    def _argmin_computation(self, ptype: str) -> str:
        """An argmin reducer that is commutative and associative, NaN the smallest value and
        two NaNs a tie (the lower index wins): with `less = a < b or a != a` alone, two NaNs
        keep whichever comes first, so the order decides, and XLA:GPU's shuffle tree and
        XLA:CPU's loop gave indices 2 and 1 for a row (1, NaN, NaN, 1.46) (seed 1502315)."""
        name = f"argmin_{ptype}"
        v, i = f"{ptype}[]", "s32[]"
        nan_rule = (
            "  %an = pred[] compare(%a, %a), direction=NE\n"
            "  %bn = pred[] compare(%b, %b), direction=NE\n"
            "  %bnum = pred[] not(%bn)\n"
            "  %nanfirst = pred[] and(%an, %bnum)\n"
            "  %lt = pred[] compare(%a, %b), direction=LT\n"
            "  %less = pred[] or(%lt, %nanfirst)\n"
            "  %eqv = pred[] compare(%a, %b), direction=EQ\n"
            "  %nans = pred[] and(%an, %bn)\n"
            "  %eq = pred[] or(%eqv, %nans)\n"
            if ptype in FLOATS
            else "  %less = pred[] compare(%a, %b), direction=LT\n"
            "  %eq = pred[] compare(%a, %b), direction=EQ\n"
        )
        self.program.computations[name] = (
            f"%{name} (a: {v}, ai: {i}, b: {v}, bi: {i}) -> ({v}, {i}) {{\n"
            f"  %a = {v} parameter(0)\n  %ai = {i} parameter(1)\n"
            f"  %b = {v} parameter(2)\n  %bi = {i} parameter(3)\n{nan_rule}"
            f"  %ilt = pred[] compare(%ai, %bi), direction=LT\n"
            f"  %tie = pred[] and(%eq, %ilt)\n  %take = pred[] or(%less, %tie)\n"
            f"  %v = {v} select(%take, %a, %b)\n  %ix = {i} select(%take, %ai, %bi)\n"
            f"  ROOT %r = ({v}, {i}) tuple(%v, %ix)\n}}\n"
        )
        return name

    def reduce_window(self) -> None:
        x = self.operand([*FLOATS, *INTS])
        if not x.dims:
            return
        opcode, init = self._reducer(x.ptype)
        if x.ptype in FLOATS and opcode in ("add", "multiply"):
            x = self.tame_operand([x.ptype], _product_dims(x, opcode))
        init_name = self.constant(x.ptype, init)
        sizes, strides, pads, out = [], [], [], []
        for d in x.dims:
            low, high = int(self.rng.integers(0, 2)), int(self.rng.integers(0, 2))
            if sum(pad != "0_0" for pad in pads) >= _PADDED_DIMENSIONS:
                low = high = 0
            size = int(self.rng.integers(1, d + low + high + 1))
            stride = int(self.rng.integers(1, 3))
            sizes.append(size)
            strides.append(stride)
            pads.append(f"{low}_{high}")
            out.append((d + low + high - size) // stride + 1)
        window = (
            f"window={{size={'x'.join(map(str, sizes))} stride={'x'.join(map(str, strides))} "
            f"pad={'x'.join(pads)}}}"
        )
        reducer = self.scalar_computation(opcode, x.ptype)
        self.add(x.ptype, tuple(out), "reduce-window", [x.name, init_name],
                 f"{window}, to_apply=%{reducer}")  # fmt: skip

    def broadcast(self) -> None:
        x = self.operand(ALL_TYPES)
        if len(x.dims) >= 3:
            return
        extra = self.dims(int(self.rng.integers(1, 4 - len(x.dims))))
        out = list(extra)
        chosen = self.rng.choice(len(out) + len(x.dims), len(x.dims), replace=False)
        positions = sorted(int(p) for p in chosen)
        for position, d in zip(positions, x.dims, strict=True):
            out.insert(position, d)
        self.add(x.ptype, tuple(out), "broadcast", [x.name],
                 f"dimensions={{{','.join(map(str, positions))}}}")  # fmt: skip

    def reshape(self) -> None:
        x = self.operand(ALL_TYPES)
        count = int(np.prod(x.dims, dtype=np.int64))
        divisors = [d for d in range(1, count + 1) if count % d == 0]
        first = self.pick([str(d) for d in divisors])
        dims = (int(first), count // int(first)) if self.rng.random() < 0.6 else (count,)
        self.add(x.ptype, dims, "reshape", [x.name])

    def transpose(self) -> None:
        x = self.operand(ALL_TYPES)
        if len(x.dims) < 2:
            return
        perm = [int(p) for p in self.rng.permutation(len(x.dims))]
        dims = tuple(x.dims[p] for p in perm)
        self.add(x.ptype, dims, "transpose", [x.name], f"dimensions={{{','.join(map(str, perm))}}}")

    def slice(self) -> None:
        x = self.operand(ALL_TYPES)
        if not x.dims:
            return
        parts, out = [], []
        for d in x.dims:
            start = int(self.rng.integers(0, d))
            limit = int(self.rng.integers(start + 1, d + 1))
            stride = int(self.rng.integers(1, 3))
            parts.append(f"[{start}:{limit}:{stride}]")
            out.append((limit - start + stride - 1) // stride)
        self.add(x.ptype, tuple(out), "slice", [x.name], f"slice={{{', '.join(parts)}}}")

    def concatenate(self) -> None:
        x = self.operand(ALL_TYPES)
        if not x.dims:
            return
        axis = int(self.rng.integers(len(x.dims)))
        other = list(x.dims)
        other[axis] = int(self.rng.integers(1, 4))
        y = self.operand([x.ptype], tuple(other))
        out = list(x.dims)
        out[axis] += other[axis]
        self.add(x.ptype, tuple(out), "concatenate", [x.name, y.name], f"dimensions={{{axis}}}")

    def pad(self) -> None:
        x = self.operand([t for t in ALL_TYPES if t not in COMPLEX])
        if not x.dims:
            return
        value = self.operand([x.ptype], ())
        parts, out = [], []
        for d in x.dims:
            low, high = int(self.rng.integers(-1, 3)), int(self.rng.integers(-1, 3))
            interior = int(self.rng.integers(0, 2))
            size = d + low + high + (d - 1) * interior
            if size < 1:
                low, high, size = 0, 0, d + (d - 1) * interior
            parts.append(f"{low}_{high}_{interior}")
            out.append(size)
        self.add(x.ptype, tuple(out), "pad", [x.name, value.name], f"padding={'x'.join(parts)}")

    def reverse(self) -> None:
        x = self.operand(ALL_TYPES)
        if not x.dims:
            return
        dims = sorted(int(d) for d in self.rng.choice(len(x.dims), int(self.rng.integers(
            1, len(x.dims) + 1)), replace=False))  # fmt: skip
        self.add(x.ptype, x.dims, "reverse", [x.name], f"dimensions={{{','.join(map(str, dims))}}}")

    def iota(self) -> None:
        dims = self.dims(int(self.rng.integers(1, 3)))
        ptype = self.pick([*INTS, *FLOATS])
        axis = int(self.rng.integers(len(dims)))
        self.add(ptype, dims, "iota", [], f"iota_dimension={axis}")

    def dot(self) -> None:
        ptype = self.pick(["f32", "f64", "bf16", "f16", "s32", "s8", "c64"])
        batch = self.dims(int(self.rng.integers(0, 2)))
        m, k, n = (int(d) for d in self.rng.integers(1, 6, 3))
        # Complex dots take finite values: XLA:CPU's (Eigen, std::complex) recovers infinite
        # products as C's Annex G says ((inf - inf j) where a plain a*c - b*d is NaN), a GPU's
        # cuBLAS does not.
        finite = ptype == "c64"
        lhs = self.tame_operand([ptype], (*batch, m, k), finite)
        rhs = self.tame_operand([ptype], (*batch, k, n), finite)
        b = len(batch)
        batch_dims = ",".join(str(i) for i in range(b))
        attributes = (
            f"lhs_batch_dims={{{batch_dims}}}, lhs_contracting_dims={{{b + 1}}}, "
            f"rhs_batch_dims={{{batch_dims}}}, rhs_contracting_dims={{{b}}}"
        )
        self.add(ptype, (*batch, m, n), "dot", [lhs.name, rhs.name], attributes)

    def gather(self) -> None:
        x = self.operand(ALL_TYPES)
        if len(x.dims) != 2:
            x = self.program.value(self.param(x.ptype, self.dims(2)))
        rows, cols = x.dims
        count = int(self.rng.integers(1, 5))
        indices = self.param(self.pick(["s32", "s64", "u32"]), (count, 1), rows)
        width = int(self.rng.integers(1, cols + 1))
        self.add(x.ptype, (count, width), "gather", [x.name, indices],
                 "offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                 f"index_vector_dim=1, slice_sizes={{1,{width}}}")  # fmt: skip

    def scatter(self) -> None:
        ptype = self.pick([*INTS, *FLOATS])
        x = self.operand([ptype])
        if len(x.dims) != 2:
            x = self.program.value(self.param(ptype, self.dims(2)))
        rows, cols = x.dims
        count = int(self.rng.integers(1, 5))
        indices = self.param("s32", (count, 1), rows)
        updates = (self.tame_operand if ptype in FLOATS else self.operand)([ptype], (count, cols))
        opcode = self.pick(["add", "maximum", "minimum"])
        reducer = self.scalar_computation(opcode, ptype)
        self.add(ptype, x.dims, "scatter", [x.name, indices, updates.name],
                 "update_window_dims={1}, inserted_window_dims={0}, "
                 "scatter_dims_to_operand_dims={0}, index_vector_dim=1, "
                 f"to_apply=%{reducer}")  # fmt: skip

    def dynamic_slice(self) -> None:
        x = self.operand(ALL_TYPES)
        if not x.dims:
            return
        sizes = tuple(int(self.rng.integers(1, d + 1)) for d in x.dims)
        itype = self.pick(["s32", "s64", "u32", "s8"])
        if _is_sliced(self.program, x):
            # XLA:CPU merges a dynamic-slice of a gather or slice into one slice of the
            # source and clamps its start to the source's bounds, not the sliced value's:
            # start 4 of a 4-wide row of u8[1,5] gave the source's [4] (seed 1606604).
            # Starts stay in range there.
            starts = [
                self.constant(itype, str(int(self.rng.integers(0, d - size + 1))))
                for d, size in zip(x.dims, sizes, strict=True)
            ]
        else:
            starts = [self.param(itype, (), d) for d in x.dims]
        self.add(x.ptype, sizes, "dynamic-slice", [x.name, *starts],
                 f"dynamic_slice_sizes={{{','.join(map(str, sizes))}}}")  # fmt: skip

    def dynamic_update_slice(self) -> None:
        x = self.operand(ALL_TYPES)
        if not x.dims:
            return
        sizes = tuple(int(self.rng.integers(1, d + 1)) for d in x.dims)
        update = self.operand([x.ptype], sizes)
        starts = [self.param("s32", (), d) for d in x.dims]
        self.add(x.ptype, x.dims, "dynamic-update-slice", [x.name, update.name, *starts])

    def sort(self) -> None:
        x = self.operand([*INTS, *FLOATS, "pred"])
        if not x.dims:
            return
        if _is_computed_float(x):
            # A total order sees a NaN's sign, which a computed NaN has from its platform
            # (`minimum` of XLA:CPU's -NaN rsqrt(-2.5) and -2.5 is +NaN there, -NaN in ours;
            # seed 1102656): a float sort takes a parameter, as a total-order compare does.
            x = self.program.value(self.param(x.ptype, x.dims))
        axis = int(self.rng.integers(len(x.dims)))
        direction = self.pick(["LT", "GT"])
        keyed = self.rng.random() < 0.5
        s = f"{x.ptype}[]"
        order = ", type=TOTALORDER" if x.ptype in FLOATS else ""
        name = f"sort_{direction}_{x.ptype}_{int(keyed)}"
        extra = "  %c = s32[] parameter(2)\n  %d = s32[] parameter(3)\n" if keyed else ""
        params = f"a: {s}, b: {s}" + (", c: s32[], d: s32[]" if keyed else "")
        self.program.computations[name] = (
            f"%{name} ({params}) -> pred[] {{\n  %a = {s} parameter(0)\n"
            f"  %b = {s} parameter(1)\n{extra}"
            f"  ROOT %r = pred[] compare(%a, %b), direction={direction}{order}\n}}\n"
        )
        attributes = f"dimensions={{{axis}}}, is_stable=true, to_apply=%{name}"
        if not keyed:
            self.add(x.ptype, x.dims, "sort", [x.name], attributes)
            return
        values = self.add("s32", x.dims, "iota", [], f"iota_dimension={axis}")
        tuple_shape = f"({shape_text(x.ptype, x.dims)}, {shape_text('s32', x.dims)})"
        sorted_ = self.add(x.ptype, x.dims, "sort", [x.name, values], attributes, tuple_shape)
        self.add("s32", x.dims, "get-tuple-element", [sorted_], "index=1")

    def reduce_precision(self) -> None:
        x = self.operand(FLOATS)
        if _holds_16_bit_sum(self.program, x) or _holds_16_bit_approximation(self.program, x):
            # Rounding to fewer bits, or flushing below a narrower exponent range, turns an ulp
            # between XLA:CPU's and XLA:GPU's value into a step: a bf16 logistic of -1.10,
            # 0.2490 on XLA:CPU and 0.25 in XLA's H100 module, flushed to 0 on one side only
            # with 3 exponent bits (seed 2008924).
            x = self.program.value(self.param(x.ptype, x.dims))
        exponent = int(self.rng.integers(1, 9))
        mantissa = int(self.rng.integers(0, 11))
        self.add(x.ptype, x.dims, "reduce-precision", [x.name],
                 f"exponent_bits={exponent}, mantissa_bits={mantissa}")  # fmt: skip

    def map(self) -> None:
        x = self.operand([*FLOATS, *INTS])
        y = self.operand([x.ptype], x.dims)
        ops = _FLOAT_BINARY[:4] if x.ptype in FLOATS else ["add", "multiply", "xor"]
        op = self.pick(ops)
        if op == "divide":
            x, y = self._divide_operands(x, y)
        computation = self.scalar_computation(op, x.ptype)
        dims = ",".join(str(i) for i in range(len(x.dims)))
        self.add(x.ptype, x.dims, "map", [x.name, y.name],
                 f"dimensions={{{dims}}}, to_apply=%{computation}")  # fmt: skip

    def rng_bit_generator(self) -> None:
        algorithm = self.pick(["rng_three_fry", "rng_philox"])
        state_dims = (2,) if algorithm == "rng_three_fry" else (3,)
        state = self.param("u64", state_dims)
        ptype = self.pick(["u32", "u64", "u8", "u16"])
        dims = self.dims(int(self.rng.integers(1, 3)))
        tuple_shape = f"({shape_text('u64', state_dims)}, {shape_text(ptype, dims)})"
        bits = self.add(ptype, dims, "rng-bit-generator", [state], f"algorithm={algorithm}",
                        tuple_shape)  # fmt: skip
        which = int(self.rng.integers(2))
        self.add("u64" if which == 0 else ptype, state_dims if which == 0 else dims,
                 "get-tuple-element", [bits], f"index={which}")  # fmt: skip

    def fft(self) -> None:
        """An FFT of a new parameter with finite values: where inf or NaN enter, the FFT
        algorithm decides which outputs become NaN (XLA's butterflies keep an inf out of
        the parts it never multiplies), so only finite inputs have one right answer."""
        kind = self.pick(["FFT", "IFFT", "RFFT", "IRFFT"])
        length = int(self.rng.integers(1, 9))
        batch = self.dims(int(self.rng.integers(0, 2)))
        wide = self.rng.random() < 0.4
        ctype, ftype = ("c128", "f64") if wide else ("c64", "f32")
        if kind in ("FFT", "IFFT"):
            x = self.param(ctype, (*batch, length), finite=True, tame=True)
            out, otype = (*batch, length), ctype
        elif kind == "RFFT":
            x = self.param(ftype, (*batch, length), finite=True, tame=True)
            out, otype = (*batch, length // 2 + 1), ctype
        else:
            x = self.param(ctype, (*batch, length // 2 + 1), finite=True, tame=True)
            out, otype = (*batch, length), ftype
        self.add(otype, out, "fft", [x], f"fft_type={kind}, fft_length={{{length}}}")


_CLASSES: list[tuple[Callable[[_Builder], None], float]] = [
    (_Builder.unary, 4), (_Builder.binary, 4), (_Builder.make_complex, 0.5),
    (_Builder.compare, 1.5), (_Builder.select, 1), (_Builder.clamp, 1), (_Builder.convert, 2),
    (_Builder.bitcast_convert, 1), (_Builder.reduce, 2), (_Builder.argmin, 0.7),
    (_Builder.reduce_window, 1), (_Builder.broadcast, 1), (_Builder.reshape, 1),
    (_Builder.transpose, 1), (_Builder.slice, 1), (_Builder.concatenate, 1), (_Builder.pad, 1),
    (_Builder.reverse, 1), (_Builder.iota, 0.5), (_Builder.dot, 1), (_Builder.gather, 0.7),
    (_Builder.scatter, 0.7), (_Builder.dynamic_slice, 0.7), (_Builder.dynamic_update_slice, 0.7),
    (_Builder.sort, 0.7), (_Builder.reduce_precision, 0.7), (_Builder.map, 0.5),
    (_Builder.rng_bit_generator, 0.4), (_Builder.fft, 0.5),
]  # fmt: skip
CLASS_NAMES = [c.__name__ for c, _ in _CLASSES]


def generate(seed: int, steps: int | None = None, only: str | None = None) -> Program:
    """The program of `seed`: 1 to 10 steps (or `steps`), op classes drawn by weight
    (or only the class named `only`), outputs the values no instruction uses (at most 3)."""
    builder = _Builder(seed)
    classes = [c for c, _ in _CLASSES if only is None or c.__name__ == only]
    weights = np.array([w for c, w in _CLASSES if only is None or c.__name__ == only])
    count = steps if steps is not None else int(builder.rng.integers(1, 11))
    for _ in range(count):
        chosen = classes[int(builder.rng.choice(len(classes), p=weights / weights.sum()))]
        chosen(builder)
    program = builder.program
    if not [i for i in program.instrs if i.opcode != "constant" and i.shape is None]:
        builder.unary()
    used = {o for i in program.instrs for o in i.operands}
    outputs = [
        i.name for i in program.instrs
        if i.shape is None and i.name not in used and i.opcode != "constant"
    ]  # fmt: skip
    program.roots = outputs[-3:] or [program.instrs[-1].name]
    return program
