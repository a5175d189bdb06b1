"""PTOAS's vector tile ops beyond the core set in `compute`: bitwise and
partial binary ops, ops with a scratch tile, three-source ops, tile-scalar
ops, compares and selects, more reductions and the row/column broadcasts.

Each op is one `define_tile_op` line: its family base says what the verifier
checks (see the bases below) and its doc line says what it computes.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.compute import (
    BinaryOpBase,
    ColumnReductionOpBase,
    ElementwiseOpBase,
    FloatUnaryOpBase,
    RowReductionOpBase,
    UnaryOpBase,
)
from xla_emit.dialects.pto.tile_op import (
    LooseTileOpBase,
    TileOpBase,
    define_tile_op,
    is_scalar,
    require_same_element,
    require_vec_row_major,
    tile_params,
)
from xla_emit.dialects.pto.types import DYNAMIC, TileTypeBase, op_target


class BinaryWithScratchOpBase(BinaryOpBase):
    """`ins(a, b[, tmp])`: a binary op with its scratch tile, which PTOAS main lets a
    kernel leave out (its pipeline then allocates one)."""

    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)


class TernaryOpBase(ElementwiseOpBase):
    """`ins(a, b, c)`: three same-shaped sources."""

    TILE_INPUTS: ClassVar[int] = 3


class PartialBinaryOpBase(TileOpBase):
    """tpart*: the op where both sources are valid, the valid one's value elsewhere;
    the sources' valid regions may be smaller than the destination's."""

    TILE_INPUTS: ClassVar[int] = 2

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        require_vec_row_major(self.name, "the destination", dst)
        for index in range(2):
            src = self.source(index)
            require_same_element(f"input #{index}", dst, src)
            for axis in range(2):
                a, b = src.valid_shape[axis], dst.valid_shape[axis]
                if DYNAMIC not in (a, b) and a > b:
                    raise VerifyException(
                        f"input #{index} has {a} valid {('rows', 'columns')[axis]}, more than "
                        f"the destination's {b}"
                    )


def _require_scalar(op: TileOpBase, index: int) -> None:
    if not is_scalar(op.ins[index].type):
        raise VerifyException(
            f"expected a scalar (integer, index or float) as input #{index}, "
            f"but got {op.ins[index].type}"
        )


class ScalarOperandOpBase(ElementwiseOpBase):
    """`ins(src, scalar)`: src OP scalar elementwise; with a scratch tile last
    where PTOAS makes it explicit (trems, txors)."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        _require_scalar(self, 1)


class ScalarWithScratchOpBase(ScalarOperandOpBase):
    """`ins(src, scalar[, tmp])`: PTOAS main lets a kernel leave the scratch tile out."""

    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 2)


class ScalarBetweenOpBase(ElementwiseOpBase):
    """`ins(a, scalar, b)`: taddsc / tsubsc, a OP scalar OP b."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (2, 2)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        _require_scalar(self, 1)
        other = tile_params(self.ins[2])
        if other is None:
            raise VerifyException(f"expected a tile as input #2, but got {self.ins[2].type}")
        require_same_element("input #2", self.destination_type(), other)


class TDivsOpBase(TileOpBase):
    """`ins(tile, scalar)` is tile / scalar; `ins(scalar, tile)` is scalar / tile."""

    TILE_INPUTS: ClassVar[int] = 0
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (2, 3)

    def verify_semantics(self) -> None:
        tiles = [v for v in self.ins[:2] if tile_params(v) is not None]
        scalars = [v for v in self.ins[:2] if is_scalar(v.type)]
        if len(tiles) != 1 or len(scalars) != 1:
            raise VerifyException("expects one tile and one scalar (in either order)")
        src = tile_params(tiles[0])
        assert src is not None
        require_same_element("the source", self.destination_type(), src)

    @property
    def scalar_first(self) -> bool:
        return tile_params(self.ins[0]) is None


class CompareOpBase(TileOpBase):
    """tcmp / tcmps: a mask of `a cmpMode b` (or `src cmpMode scalar`)."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_semantics(self) -> None:
        src = self.source()
        other = self.ins[1].type
        if isinstance(other, TileTypeBase):
            require_same_element("input #1", src, other)
        elif not is_scalar(other):
            raise VerifyException(f"expected a tile or a scalar as input #1, but got {other}")
        if "cmpMode" not in self.attributes:
            raise VerifyException("needs a 'cmpMode' attribute (#pto<cmp lt>, ...)")


class SelectOpBase(TileOpBase):
    """tsel: dst = mask ? a : b (ins mask, a, b, tmp); tsels: mask ? src : scalar."""

    # The inputs that are selected from (tsel: a and b; tsels: src).
    SELECTED: ClassVar[tuple[int, ...]] = (1,)

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        for index in self.SELECTED:
            require_same_element(f"input #{index}", dst, self.source(index))


class ArgReductionOpBase(TileOpBase):
    """The index of each row's (column's) extreme: an integer tile; the scratch tile
    comes second."""

    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        if dst.element_name not in ("i32", "si32", "ui32", "i16", "ui16", "si16"):
            raise VerifyException(
                f"writes integer indices, but the destination is {dst.element_name}"
            )
        # PTOAS main: a column arg-reduction writes one row, and every index needs a
        # source element (no empty no-op form, unlike the plain reductions).
        if "col" in self.name and dst.valid_shape[0] not in (1, DYNAMIC):
            raise VerifyException("expects dst valid_shape[0] to be 1")
        for axis, extent in enumerate(self.source().valid_shape):
            if extent == 0:
                raise VerifyException(f"expects src valid_shape[{axis}] to be non-zero")


class ExpandOpBase(TileOpBase):
    """tcolexpand / trow- and tcolexpand OP: `src0` full, `src1` one column (row
    variants) or one row (column variants), broadcast and combined."""

    TILE_INPUTS: ClassVar[int] = 2
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)
    ROWS: ClassVar[bool] = True

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        require_vec_row_major(self.name, "the destination", dst)
        full, vector = self.source(0), self.source(self.TILE_INPUTS - 1)
        if full.valid_shape[0] == 1 and self.TILE_INPUTS == 2 and self.ROWS:
            full, vector = vector, full  # PTOAS also accepts the vector first
        require_same_element("the broadcast operand", dst, vector)
        axis = 1 if self.ROWS else 0
        # PTOAS main's mode 2: a row-major operand holding one 32-byte block per row.
        block = (
            self.ROWS and vector.is_row_major and vector.valid_shape[1] * vector.element_bytes == 32
        )
        if (
            vector.valid_shape[axis] not in (1, DYNAMIC)
            and vector.valid_shape != dst.valid_shape
            and not block
        ):
            what = "column" if self.ROWS else "row"
            raise VerifyException(
                f"broadcasts one {what}, but the operand has {vector.valid_shape[axis]} valid "
                f"{what}s"
            )

        if self.ROWS and len(self.ins) > self.TILE_INPUTS and op_target(self) != "a5":
            verify_a2a3_scratch(vector, dst, self.source(self.TILE_INPUTS))


def verify_a2a3_scratch(vector: TileTypeBase, dst: TileTypeBase, tmp: TileTypeBase) -> None:
    """A2/A3 takes a scratch tile only for a column-major one-column operand, and sizes
    it as PTOAS does: 256 bytes per 8 destination rows, 30 blocks from 256 rows on."""
    if vector.is_row_major or vector.valid_shape[1] not in (1, DYNAMIC):
        raise VerifyException(
            "expects A2/A3 tmp-form trowexpand to use mode 1 (ColMajor per-row scalar "
            "expanded operand)"
        )
    if tmp.element_type != dst.element_type:
        raise VerifyException("expects tmp and dst to have the same element type")
    rows = dst.valid_shape[0]
    needed = 8192 if rows < 0 else (-(-rows // 8) * 256 if rows < 256 else 30 * 256)
    have = tmp.shape[0] * tmp.shape[1] * tmp.element_bytes
    if have < needed:
        raise VerifyException(
            f"expects A2/A3 trowexpand tmp capacity to be at least {needed} bytes, but got "
            f"{have} bytes"
        )


class ColumnExpandOpBase(ExpandOpBase):
    ROWS: ClassVar[bool] = False


class ColumnExpandOnlyOpBase(ColumnExpandOpBase):
    """`tcolexpand`: PTOAS main broadcasts row 0 of a source of any height."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 0)

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        require_vec_row_major(self.name, "the destination", dst)
        require_same_element("the broadcast operand", dst, src)
        a, b = src.valid_shape[1], dst.valid_shape[1]
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException("expects src and dst to have the same valid_shape[1]")


_d = define_tile_op
TAndOp = _d("tand", BinaryOpBase, "dst = a & b.")
TOrOp = _d("tor", BinaryOpBase, "dst = a | b.")
TShlOp = _d("tshl", BinaryOpBase, "dst = a << b.")
TShrOp = _d("tshr", BinaryOpBase, "dst = a >> b.")
TFmodOp = _d("tfmod", BinaryOpBase, "dst = fmod(a, b) (the sign of a).")
TXorOp = _d("txor", BinaryWithScratchOpBase, "dst = a ^ b (ins a, b, tmp).")
TRemOp = _d("trem", BinaryWithScratchOpBase, "dst = a - floor(a / b) * b (ins a, b, tmp).")
TPreluOp = _d("tprelu", BinaryWithScratchOpBase, "dst = a > 0 ? a : a * b (ins a, b, tmp).")
TAddcOp = _d("taddc", TernaryOpBase, "dst = a + b + c.")
TSubcOp = _d("tsubc", TernaryOpBase, "dst = a - b + c.")
TPartAddOp = _d("tpartadd", PartialBinaryOpBase, "dst = a + b where both are valid.")
TPartMulOp = _d("tpartmul", PartialBinaryOpBase, "dst = a * b where both are valid.")
TPartMaxOp = _d("tpartmax", PartialBinaryOpBase, "dst = max(a, b) where both are valid.")
TPartMinOp = _d("tpartmin", PartialBinaryOpBase, "dst = min(a, b) where both are valid.")
TNegOp = _d("tneg", UnaryOpBase, "dst = -src.")
TNotOp = _d("tnot", UnaryOpBase, "dst = ~src.")
TRecipOp = _d("trecip", FloatUnaryOpBase, "dst = 1 / src.")
TSubsOp = _d("tsubs", ScalarOperandOpBase, "dst = src - scalar.")
TMaxsOp = _d("tmaxs", ScalarOperandOpBase, "dst = max(src, scalar).")
TMinsOp = _d("tmins", ScalarOperandOpBase, "dst = min(src, scalar).")
TAndsOp = _d("tands", ScalarOperandOpBase, "dst = src & scalar.")
TOrsOp = _d("tors", ScalarOperandOpBase, "dst = src | scalar.")
TShlsOp = _d("tshls", ScalarOperandOpBase, "dst = src << scalar.")
TShrsOp = _d("tshrs", ScalarOperandOpBase, "dst = src >> scalar.")
TFmodsOp = _d("tfmods", ScalarOperandOpBase, "dst = fmod(src, scalar).")
TLreluOp = _d("tlrelu", ScalarOperandOpBase, "dst = src > 0 ? src : src * slope.")
TAxpyOp = _d("taxpy", LooseTileOpBase, "dst = dst + src * scalar (dst may be wider).", 1, (1, 1))
TRemsOp = _d("trems", ScalarWithScratchOpBase, "dst = src - floor(src / s) * s (ins src, s, tmp).")
TXorsOp = _d("txors", ScalarWithScratchOpBase, "dst = src ^ scalar (ins src, scalar, tmp).")
TPowOp = _d("tpow", BinaryOpBase, "dst = base ** exp (ins base, exp[, tmp]).", None, (0, 1))
TPowsOp = _d(
    "tpows", ScalarOperandOpBase, "dst = src ** scalar (ins src, scalar[, tmp]).", None, (1, 2)
)
TAddscOp = _d("taddsc", ScalarBetweenOpBase, "dst = a + scalar + b.")
TSubscOp = _d("tsubsc", ScalarBetweenOpBase, "dst = a - scalar + b.")
TDivsOp = _d("tdivs", TDivsOpBase, "dst = src / scalar, or scalar / src with the scalar first.")
TExpandsOp = _d("texpands", LooseTileOpBase, "dst = scalar everywhere.", 0, (1, 1))
TCmpOp = _d("tcmp", CompareOpBase, "mask = a cmpMode b, packed one bit per element.")
TCmpsOp = _d("tcmps", CompareOpBase, "mask = src cmpMode scalar, packed one bit per element.")
TSelOp = _d(
    "tsel",
    SelectOpBase,
    "dst = mask ? a : b (ins mask, a, b[, tmp]; PTOAS main may leave the tmp out).",
    3,
    (0, 1),
    SELECTED=(1, 2),
)
TSelsOp = _d(
    "tsels",
    SelectOpBase,
    "dst = mask ? src : scalar (ins mask, src[, tmp], s; PTOAS main may leave the tmp out).",
    2,
    (1, 2),
)
TRowMinOp = _d("trowmin", RowReductionOpBase, "dst[i, 0] = min_j src[i, j].")
TRowProdOp = _d("trowprod", RowReductionOpBase, "dst[i, 0] = prod_j src[i, j].")
TColMinOp = _d("tcolmin", ColumnReductionOpBase, "dst[0, j] = min_i src[i, j].")
TColProdOp = _d("tcolprod", ColumnReductionOpBase, "dst[0, j] = prod_i src[i, j].")
TRowArgMaxOp = _d("trowargmax", ArgReductionOpBase, "dst[i, 0] = argmax_j src[i, j].")
TRowArgMinOp = _d("trowargmin", ArgReductionOpBase, "dst[i, 0] = argmin_j src[i, j].")
TColArgMaxOp = _d("tcolargmax", ArgReductionOpBase, "dst[0, j] = argmax_i src[i, j].")
TColArgMinOp = _d("tcolargmin", ArgReductionOpBase, "dst[0, j] = argmin_i src[i, j].")
TColExpandOp = _d("tcolexpand", ColumnExpandOnlyOpBase, "dst[i, j] = src[0, j].")
TRowExpandAddOp = _d("trowexpandadd", ExpandOpBase, "dst[i, j] = a[i, j] + v[i, 0].")
TRowExpandSubOp = _d("trowexpandsub", ExpandOpBase, "dst[i, j] = a[i, j] - v[i, 0].")
TRowExpandMulOp = _d("trowexpandmul", ExpandOpBase, "dst[i, j] = a[i, j] * v[i, 0].")
TRowExpandDivOp = _d("trowexpanddiv", ExpandOpBase, "dst[i, j] = a[i, j] / v[i, 0].")
TRowExpandMaxOp = _d("trowexpandmax", ExpandOpBase, "dst[i, j] = max(a[i, j], v[i, 0]).")
TRowExpandMinOp = _d("trowexpandmin", ExpandOpBase, "dst[i, j] = min(a[i, j], v[i, 0]).")
TRowExpandExpdifOp = _d("trowexpandexpdif", ExpandOpBase, "dst[i, j] = exp(a[i, j] - v[i, 0]).")
TColExpandAddOp = _d("tcolexpandadd", ColumnExpandOpBase, "dst[i, j] = a[i, j] + v[0, j].")
TColExpandSubOp = _d("tcolexpandsub", ColumnExpandOpBase, "dst[i, j] = a[i, j] - v[0, j].")
TColExpandMulOp = _d("tcolexpandmul", ColumnExpandOpBase, "dst[i, j] = a[i, j] * v[0, j].")
TColExpandDivOp = _d("tcolexpanddiv", ColumnExpandOpBase, "dst[i, j] = a[i, j] / v[0, j].")
TColExpandMaxOp = _d("tcolexpandmax", ColumnExpandOpBase, "dst[i, j] = max(a[i, j], v[0, j]).")
TColExpandMinOp = _d("tcolexpandmin", ColumnExpandOpBase, "dst[i, j] = min(a[i, j], v[0, j]).")
TColExpandExpdifOp = _d(
    "tcolexpandexpdif", ColumnExpandOpBase, "dst[i, j] = exp(a[i, j] - v[0, j])."
)

VECTOR_OPS: tuple[type[TileOpBase], ...] = (
    TAndOp,
    TOrOp,
    TShlOp,
    TShrOp,
    TFmodOp,
    TXorOp,
    TRemOp,
    TPreluOp,
    TAddcOp,
    TSubcOp,
    TPartAddOp,
    TPartMulOp,
    TPartMaxOp,
    TPartMinOp,
    TNegOp,
    TNotOp,
    TRecipOp,
    TSubsOp,
    TMaxsOp,
    TMinsOp,
    TAndsOp,
    TOrsOp,
    TShlsOp,
    TShrsOp,
    TFmodsOp,
    TLreluOp,
    TAxpyOp,
    TRemsOp,
    TXorsOp,
    TPowOp,
    TPowsOp,
    TAddscOp,
    TSubscOp,
    TDivsOp,
    TExpandsOp,
    TCmpOp,
    TCmpsOp,
    TSelOp,
    TSelsOp,
    TRowMinOp,
    TRowProdOp,
    TColMinOp,
    TColProdOp,
    TRowArgMaxOp,
    TRowArgMinOp,
    TColArgMaxOp,
    TColArgMinOp,
    TColExpandOp,
    TRowExpandAddOp,
    TRowExpandSubOp,
    TRowExpandMulOp,
    TRowExpandDivOp,
    TRowExpandMaxOp,
    TRowExpandMinOp,
    TRowExpandExpdifOp,
    TColExpandAddOp,
    TColExpandSubOp,
    TColExpandMulOp,
    TColExpandDivOp,
    TColExpandMaxOp,
    TColExpandMinOp,
    TColExpandExpdifOp,
)
