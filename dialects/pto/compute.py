"""`pto` tile compute ops: elementwise, conversions, reductions, row expansion,
matmul, moves and transposes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import prod
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa
from xla_emit.dialects.pto.attrs import PTOEnumAttrBase
from xla_emit.dialects.pto.tile_op import (
    SEGMENTS,
    TileOpBase,
    is_float,
    plain_tile,
    require_same_element,
    require_same_valid_shape,
    require_vec_row_major,
    shape_str,
    tile_params,
)
from xla_emit.dialects.pto.types import DYNAMIC, TileTypeBase, op_target

from xla_emit.pto.targets import TRANSPOSABLE_TYPES
from xla_emit.pto.ttrans_tmp import SOURCE_RANK, Conversion
from xla_emit.pto.zz_move_rules import x2zz_errors


class ElementwiseOpBase(TileOpBase):
    """Vector elementwise ops: every tile is a row-major vec tile of one element
    type and one valid shape; the op runs over the destination's valid region."""

    FLOAT_ONLY: ClassVar[bool] = False

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        require_vec_row_major(self.name, "the destination", dst)
        if self.FLOAT_ONLY and not is_float(dst.element_type):
            raise VerifyException(f"needs a float element type, but got {dst.element_name}")
        for index in range(self.TILE_INPUTS):
            src = self.source(index)
            require_vec_row_major(self.name, f"input #{index}", src)
            require_same_element(f"input #{index}", dst, src)
            require_same_valid_shape(f"input #{index}", dst, src)


class BinaryOpBase(ElementwiseOpBase):
    TILE_INPUTS: ClassVar[int] = 2


class UnaryOpBase(ElementwiseOpBase):
    TILE_INPUTS: ClassVar[int] = 1


class FloatUnaryOpBase(UnaryOpBase):
    """Unary ops defined on floats only (exp, log, square roots)."""

    FLOAT_ONLY: ClassVar[bool] = True


class TileScalarOpBase(ElementwiseOpBase):
    """`tile OP scalar`; the scalar has the tile's element type."""

    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 1)

    def verify_semantics(self) -> None:
        super().verify_semantics()
        scalar = self.ins[1].type
        if scalar != self.destination_type().element_type:
            raise VerifyException(
                "expected a scalar of the tile element type "
                f"{self.destination_type().element_name}, but got {scalar}"
            )


def _vec_row_major_destination_and_source(op: TileOpBase) -> tuple[TileTypeBase, TileTypeBase]:
    """The destination and source tiles of an op that needs both to be row-major vec tiles."""
    dst, src = op.destination_type(), op.source()
    require_vec_row_major(op.name, "the destination", dst)
    require_vec_row_major(op.name, "the source", src)
    return dst, src


@irdl_op_definition
class TCvtOp(TileOpBase):
    """dst = convert(src) to the destination's element type (optional `rmode`)."""

    name = "pto.tcvt"
    # PTOAS's optional scratch tile.
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)

    def verify_semantics(self) -> None:
        dst, src = _vec_row_major_destination_and_source(self)
        require_same_valid_shape("source", dst, src)


@irdl_op_definition
class TAddOp(BinaryOpBase):
    """dst = a + b over the destination's valid region."""

    name = "pto.tadd"


@irdl_op_definition
class TSubOp(BinaryOpBase):
    """dst = a - b."""

    name = "pto.tsub"


@irdl_op_definition
class TMulOp(BinaryOpBase):
    """dst = a * b."""

    name = "pto.tmul"


@irdl_op_definition
class TDivOp(BinaryOpBase):
    """dst = a / b."""

    name = "pto.tdiv"


@irdl_op_definition
class TMaxOp(BinaryOpBase):
    """dst = max(a, b)."""

    name = "pto.tmax"


@irdl_op_definition
class TMinOp(BinaryOpBase):
    """dst = min(a, b)."""

    name = "pto.tmin"


@irdl_op_definition
class TExpOp(FloatUnaryOpBase):
    """dst = exp(src)."""

    name = "pto.texp"


@irdl_op_definition
class TLogOp(FloatUnaryOpBase):
    """dst = log(src)."""

    name = "pto.tlog"


@irdl_op_definition
class TSqrtOp(FloatUnaryOpBase):
    """dst = sqrt(src)."""

    name = "pto.tsqrt"


@irdl_op_definition
class TRsqrtOp(FloatUnaryOpBase):
    """dst = 1 / sqrt(src)."""

    name = "pto.trsqrt"
    # PTOAS's optional scratch tile.
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)


@irdl_op_definition
class TAbsOp(UnaryOpBase):
    """dst = |src|."""

    name = "pto.tabs"


@irdl_op_definition
class TReluOp(UnaryOpBase):
    """dst = max(src, 0)."""

    name = "pto.trelu"


@irdl_op_definition
class TAddsOp(TileScalarOpBase):
    """dst = src + scalar."""

    name = "pto.tadds"


@irdl_op_definition
class TMulsOp(TileScalarOpBase):
    """dst = src * scalar."""

    name = "pto.tmuls"


# Row/column reductions: source element -> allowed accumulator elements.
_REDUCTION_RESULTS: dict[str, tuple[str, ...]] = {
    "f16": ("f16", "f32"),
    "bf16": ("bf16", "f32"),
    "f32": ("f32",),
    "i16": ("i16", "i32"),
    "si16": ("si16", "si32"),
    "i32": ("i32",),
    "si32": ("si32",),
}


# PTOAS main's A5 column reductions also take 8-bit integers (tcolmax, tcolmin, tcolsum) and
# unsigned 16/32-bit integers (tcolprod), each into its own type.
_A5_COLUMN_REDUCTION_RESULTS: dict[str, tuple[str, ...]] = {
    "i8": ("i8",),
    "ui8": ("ui8",),
    "si8": ("si8",),
    "ui16": ("ui16",),
    "ui32": ("ui32",),
}


class ReductionOpBase(TileOpBase):
    """Reduce each row (to a one-column tile) or each column (to a one-row tile).
    An optional second input is the scratch tile PTOAS passes explicitly."""

    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)
    REDUCES_ROWS: ClassVar[bool] = True

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        require_vec_row_major(self.name, "the source", src)
        if dst.loc.data != "vec":
            raise VerifyException(f"writes a vec tile, but the destination is in '{dst.loc.data}'")
        allowed = _REDUCTION_RESULTS.get(src.element_name)
        if allowed is None and not self.REDUCES_ROWS and op_target(self) == "a5":
            allowed = _A5_COLUMN_REDUCTION_RESULTS.get(src.element_name)
        if allowed is None or dst.element_name not in allowed:
            raise VerifyException(
                f"cannot reduce {src.element_name} into {dst.element_name}"
                + (f" (allowed: {', '.join(allowed)})" if allowed else "")
            )
        if dst.valid_shape == (0, 0):
            return  # PTOAS main's no-op marker: an empty destination writes nothing
        kept, reduced = (0, 1) if self.REDUCES_ROWS else (1, 0)
        if dst.valid_shape[reduced] not in (1, DYNAMIC):
            what = "columns" if self.REDUCES_ROWS else "rows"
            raise VerifyException(
                f"leaves one valid {what[:-1]} per {'row' if self.REDUCES_ROWS else 'column'}, "
                f"but the destination has {dst.valid_shape[reduced]} valid {what}"
            )
        a, b = src.valid_shape[kept], dst.valid_shape[kept]
        if DYNAMIC not in (a, b) and a != b:
            what = "rows" if self.REDUCES_ROWS else "columns"
            raise VerifyException(
                f"expected {a} valid {what} in the destination, as in the source, but got {b}"
            )
        if len(self.ins) == 2 and tile_params(self.ins[1]) is None:
            raise VerifyException(f"the scratch operand must be a tile, but got {self.ins[1].type}")


class RowReductionOpBase(ReductionOpBase):
    REDUCES_ROWS: ClassVar[bool] = True


class ColumnReductionOpBase(ReductionOpBase):
    REDUCES_ROWS: ClassVar[bool] = False


@irdl_op_definition
class TRowSumOp(RowReductionOpBase):
    """dst[i, 0] = sum_j src[i, j]."""

    name = "pto.trowsum"


@irdl_op_definition
class TRowMaxOp(RowReductionOpBase):
    """dst[i, 0] = max_j src[i, j]."""

    name = "pto.trowmax"


@irdl_op_definition
class TColSumOp(ColumnReductionOpBase):
    """dst[0, j] = sum_i src[i, j]."""

    name = "pto.tcolsum"


@irdl_op_definition
class TColMaxOp(ColumnReductionOpBase):
    """dst[0, j] = max_i src[i, j]."""

    name = "pto.tcolmax"


@irdl_op_definition
class TRowExpandOp(TileOpBase):
    """dst[i, j] = src[i, 0]: broadcast a one-column tile along each row."""

    name = "pto.trowexpand"

    def verify_semantics(self) -> None:
        # PTOAS main reads column 0 of a source of any layout and width.
        dst, src = self.destination_type(), self.source()
        require_vec_row_major(self.name, "the destination", dst)
        if src.loc.data != "vec":
            raise VerifyException(
                f"expects src to be in the vec address space, not '{src.loc.data}'"
            )
        if src.slayout.data != "none_box":
            raise VerifyException("expects src to use the none_box slayout")
        require_same_element("source", dst, src)
        if dst.valid_shape == (0, 0):
            return  # an empty destination: a no-op PTOAS accepts
        a, b = src.valid_rows.data, dst.valid_rows.data
        if DYNAMIC not in (a, b) and a != b:
            raise VerifyException(
                f"expected {a} valid rows in the destination, as in the source, but got {b}"
            )
        for role, tile in (("src", src), ("dst", dst)):
            for axis in range(2):
                if tile.valid_shape[axis] == 0:
                    raise VerifyException(f"expects {role} valid_shape[{axis}] to be non-zero")


_MATMUL_TYPES = {
    ("i32", "i8", "i8"),
    ("f32", "f16", "f16"),
    ("f32", "f32", "f32"),
    ("f32", "bf16", "bf16"),
}


def _a5_low_precision_matmul(op: Operation, acc: str, left: str, right: str) -> bool:
    """A5 also multiplies any two f8 kinds, or hif8 by hif8, into f32 (PTOAS main)."""
    if acc != "f32" or op_target(op) != "a5":
        return False
    return (left.startswith("f8") and right.startswith("f8")) or left == right == "!pto.hif8"


@irdl_op_definition
class TMatmulOp(TileOpBase):
    """acc[M, N] = left[M, K] x right[K, N]."""

    name = "pto.tmatmul"
    TILE_INPUTS: ClassVar[int] = 2

    def verify_semantics(self) -> None:
        dst, a, b = self.destination_type(), self.source(0), self.source(1)
        for role, tile, loc in (
            ("the left operand", a, "left"),
            ("the right operand", b, "right"),
            ("the destination", dst, "acc"),
        ):
            if tile.loc.data != loc:
                raise VerifyException(f"expects {role} in '{loc}', but got '{tile.loc.data}'")
        types = (dst.element_name, a.element_name, b.element_name)
        if types not in _MATMUL_TYPES and not _a5_low_precision_matmul(self, *types):
            raise VerifyException(f"unsupported types (acc, left, right) = ({', '.join(types)})")
        (m, k), (k2, n), (dm, dn) = a.valid_shape, b.valid_shape, dst.valid_shape
        for what, x, y in (("K", k, k2), ("M", m, dm), ("N", n, dn)):
            if DYNAMIC not in (x, y) and x != y:
                raise VerifyException(
                    f"{what} mismatch: {x} != {y} (left {shape_str(a.valid_shape)}, right "
                    f"{shape_str(b.valid_shape)}, acc {shape_str(dst.valid_shape)})"
                )


@irdl_op_definition
class TMovOp(TileOpBase):
    """Copy the valid region of a tile into another (possibly another location).
    Optional inputs after the source: fixpipe parameters and a pre-quantization
    scalar, for moves out of `acc` that convert (f32 acc -> f16 vec)."""

    name = "pto.tmov"
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 2)

    @classmethod
    def create(
        cls,
        *,
        operands: Sequence[SSAValue] = (),
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **fields: Any,
    ) -> Self:
        """PTOAS's generic form segments tmov's operands as (src, dst, fp, preQuantScalar),
        with its modes as properties; ours as (ins, outs) with ins = src, fp,
        preQuantScalar, and the modes as attributes: regroup the former."""
        segments = properties.get(SEGMENTS)
        if isa(segments, DenseArrayBase[IntegerType]) and len(segments.get_values()) == 4:
            src, dst, fp, pre = (int(n) for n in segments.get_values())
            if (src, dst) == (1, 1) and len(operands) == 2 + fp + pre:
                operands = [operands[0], *operands[2:], operands[1]]
                attributes = {**attributes, **properties}
                del attributes[SEGMENTS]
                properties = {SEGMENTS: DenseArrayBase.from_list(i32, [1 + fp + pre, 1])}
        return super().create(
            operands=operands, properties=properties, attributes=attributes, **fields
        )

    def verify_semantics(self) -> None:
        if len(self.ins) > 1 and isinstance(self.ins[1].type, TensorType):
            raise VerifyException("expects the third tile to have an explicit address space")
        if self.is_x2zz():
            self._verify_x2zz()
            return
        if "grpAxis" in self.attributes:
            raise VerifyException(
                "expects grpAxis only on the X-to-ZZ form with a non-scaling third tile"
            )
        dst, src = self.destination_type(), self.source()
        if src.loc.data != "acc":
            require_same_element("source", dst, src)
        require_same_valid_shape("source", dst, src)

    def is_x2zz(self) -> bool:
        """PTOAS main's X-to-ZZ form: a third tile outside `scaling` (a scratch tile)."""
        third = self.ins[1].type if len(self.ins) > 1 else None
        return isinstance(third, TileTypeBase) and third.loc.data != "scaling"

    def _verify_x2zz(self) -> None:
        if self.res:
            raise VerifyException("expects X-to-ZZ tmov not to have results")
        if len(self.ins) > 2 or {"accToVecMode", "reluPreMode"} & set(self.attributes):
            raise VerifyException(
                "expects the X-to-ZZ form not to use preQuantScalar, accToVecMode, or reluPreMode"
            )
        src, tmp, dst = self.ins[0], self.ins[1], self.outs[0]
        axis = self.attributes.get("grpAxis")
        error = x2zz_errors(
            op_target(self),
            *(plain_tile(value.type) for value in (src, dst, tmp)),
            axis.data if isinstance(axis, PTOEnumAttrBase) else "axis1",
            len({src, tmp, dst}) == 3,
        )
        if error:
            raise VerifyException(error)


def ttrans_conversion(op: Operation) -> tuple[Conversion, tuple[int, ...], int]:
    """A ttrans's conversion (default a 2-D transpose), logical source shape and C0."""
    attr = op.attributes.get("conversion")
    conversion = Conversion(attr.data) if isinstance(attr, StringAttr) else Conversion.TRANSPOSE_2D
    shape_attr = op.attributes.get("source_shape")
    shape = tuple(shape_attr.get_values()) if isa(shape_attr, DenseArrayBase[IntegerType]) else ()
    c0_attr = op.attributes.get("c0")
    c0 = c0_attr.value.data if isinstance(c0_attr, IntegerAttr) else 0
    return conversion, tuple(int(d) for d in shape), c0


@irdl_op_definition
class TTransOp(TileOpBase):
    """dst[i, j] = src[j, i] over the transpose domain (A2A3: the source's valid
    region; A5: its static shape). A second input is the scratch tile. With
    `{conversion = "nchw_to_nc1hwc0", source_shape = array<i64: ...>, c0 = 8}`
    it performs a ConvTile format change on the tiles' row-major contents."""

    name = "pto.ttrans"
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)

    def verify_semantics(self) -> None:
        dst, src = self.destination_type(), self.source()
        for role, tile in (("source", src), ("destination", dst)):
            if tile.element_name not in TRANSPOSABLE_TYPES:
                raise VerifyException(
                    f"{role} element type {tile.element_name} is not supported "
                    "(4 B: ui32/i32/f32, 2 B: ui16/i16/f16/bf16, 1 B: ui8/i8)"
                )
        if src.element_bytes != dst.element_bytes:
            raise VerifyException(
                f"needs equal element sizes, but the source {src.element_name} has "
                f"{src.element_bytes} bytes and the destination {dst.element_name} has "
                f"{dst.element_bytes}"
            )
        if len(self.ins) == 2:
            tmp = tile_params(self.ins[1])
            if tmp is None:
                raise VerifyException(
                    f"the scratch operand must be a tile, but got {self.ins[1].type}"
                )
            if tmp.element_bytes != src.element_bytes:
                raise VerifyException(
                    f"scratch elements must have {src.element_bytes} bytes like the source, but "
                    f"{tmp.element_name} has {tmp.element_bytes}"
                )
        if self.is_dps and (
            self.outs[0] == self.ins[0] or (len(self.ins) == 2 and self.outs[0] == self.ins[1])
        ):
            raise VerifyException(
                "cannot write the buffer it reads (the destination aliases an input)"
            )
        self._verify_conversion(src, dst)

    def _verify_conversion(self, src: TileTypeBase, dst: TileTypeBase) -> None:
        conversion, shape, c0 = ttrans_conversion(self)
        if conversion is Conversion.TRANSPOSE_2D:
            return
        if len(shape) != SOURCE_RANK[conversion]:
            raise VerifyException(
                f"{conversion.value} needs a rank-{SOURCE_RANK[conversion]} source_shape, but got "
                f"{list(shape)}"
            )
        if src.loc.data != "vec" or dst.loc.data != "vec":
            raise VerifyException("ConvTile conversions run on vec tiles")
        if c0 <= 0 and conversion.value.endswith(("to_nc1hwc0", "to_gnc1hwc0", "fractal_z_3d")):
            raise VerifyException(f"{conversion.value} needs a positive c0 attribute")
        capacity = src.rows.data * src.cols.data
        if prod(shape) > capacity:
            raise VerifyException(
                f"source_shape {list(shape)} holds {prod(shape)} elements, more than the "
                f"{src.shape[0]}x{src.shape[1]} source tile"
            )
