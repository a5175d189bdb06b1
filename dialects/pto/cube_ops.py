"""PTOAS's matrix, data-movement and irregular tile ops: the matmul and gemv
variants, extract/insert, fixpipe moves and stores, pads, concatenation,
sorts, gathers and scatters, histograms, quantization, index generation,
printing and tile-level synchronization.

Each op is one `define_tile_op` line; the family base says what the verifier
checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.attrs import QuantTypeAttr
from xla_emit.dialects.pto.gather_scatter_rules import verify_mgather, verify_mscatter
from xla_emit.dialects.pto.tile_op import (
    FP_FORMS,
    SEGMENTS,
    LooseTileOpBase,
    TileOpBase,
    define_tile_op,
    plain_tile,
    require_same_element,
    shape_str,
)
from xla_emit.dialects.pto.types import (
    DYNAMIC,
    TileBufType,
    TileTypeBase,
    element_type_name,
    format_dim,
    op_target,
)

from xla_emit.pto.acc_form_rules import acc_store_error, prequant_source_error
from xla_emit.pto.mx_matmul_rules import mx_error
from xla_emit.pto.mx_quant_rules import MxQuant, tquant_mx_error
from xla_emit.pto.rules import is_low_precision
from xla_emit.pto.scratch_rules import tci_tmp_error, tgather_index_error, tquant_error


class MatmulFamilyOpBase(TileOpBase):
    """A cube op: each tile input in the location its role names; the left
    operand's valid columns (K) match the right operand's valid rows."""

    # The location of each tile input, in operand order.
    ROLES: ClassVar[tuple[str, ...]] = ("left", "right")

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        if dst.loc.data != "acc":
            raise VerifyException(f"expects the destination in 'acc', but got '{dst.loc.data}'")
        for index, loc in enumerate(self.ROLES):
            tile = self.source(index)
            if loc and tile.loc.data != loc:
                raise VerifyException(
                    f"expects input #{index} in '{loc}', but got '{tile.loc.data}'"
                )
        left = self.source(self.ROLES.index("left"))
        right = self.source(self.ROLES.index("right"))
        k, k2 = left.valid_shape[1], right.valid_shape[0]
        if DYNAMIC not in (k, k2) and k != k2:
            raise VerifyException(
                f"K mismatch: {k} != {k2} (left {shape_str(left.valid_shape)}, right "
                f"{shape_str(right.valid_shape)})"
            )
        if "acc" in self.ROLES:
            require_same_element("accumulator input", dst, self.source(self.ROLES.index("acc")))
        if self.name.startswith("pto.tgemv"):
            for role, tile in (("lhs", left), ("dst", dst)):
                if tile.valid_shape[0] not in (1, DYNAMIC):
                    raise VerifyException(f"expects {role} valid_shape[0] to be 1 for tgemv")
        if ".mx" in self.name and op_target(self) == "a5":
            self._verify_mx(dst)

    def _verify_mx(self, dst: TileTypeBase) -> None:
        """PTOAS main's A5 MX rules: K, the scale tiles, the element pair."""
        start = self.ROLES.index("left")
        tiles = [plain_tile(self.source(start + offset)) for offset in range(4)]
        error = mx_error(self.name.startswith("pto.tgemv"), *tiles, plain_tile(dst))
        if error:
            raise VerifyException(error)


def _matmul(mnemonic: str, roles: tuple[str, ...], doc: str) -> type[TileOpBase]:
    return define_tile_op(mnemonic, MatmulFamilyOpBase, doc, len(roles), (0, 0), ROLES=roles)


_ACC = ("acc", "left", "right")
_BIAS = ("left", "right", "bias")
_MX = ("left", "", "right", "")
TMatmulAccOp = _matmul("tmatmul.acc", _ACC, "dst = acc_in + left x right.")
TMatmulBiasOp = _matmul("tmatmul.bias", _BIAS, "dst = left x right + bias (one row).")
TMatmulMxOp = _matmul("tmatmul.mx", _MX, "dst = (a * a_scale) x (b * b_scale), MX scales.")
TMatmulMxAccOp = _matmul("tmatmul.mx.acc", ("acc", *_MX), "dst = acc_in + MX matmul.")
TMatmulMxBiasOp = _matmul("tmatmul.mx.bias", (*_MX, "bias"), "dst = MX matmul + bias.")
TGemvOp = _matmul("tgemv", ("left", "right"), "dst[1, N] = a[1, K] x b[K, N].")
TGemvAccOp = _matmul("tgemv.acc", _ACC, "dst = acc_in + a x b (one row).")
TGemvBiasOp = _matmul("tgemv.bias", _BIAS, "dst = a x b + bias (one row).")
TGemvMxOp = _matmul("tgemv.mx", _MX, "MX-scaled gemv.")
TGemvMxAccOp = _matmul("tgemv.mx.acc", ("acc", *_MX), "acc_in + MX-scaled gemv.")
TGemvMxBiasOp = _matmul("tgemv.mx.bias", (*_MX, "bias"), "MX-scaled gemv + bias.")


class SameElementMoveOpBase(TileOpBase):
    """A move that keeps the element type (pads, concatenation)."""

    def verify_semantics(self) -> None:
        dst = self.destination_type()
        for index in range(self.TILE_INPUTS):
            require_same_element(f"input #{index}", dst, self.source(index))


_d = define_tile_op


class _PreQuantOpBase(LooseTileOpBase):
    """textract / tinsert: a fourth input, the pre-quantization word, reads an acc tile."""

    def verify_semantics(self) -> None:
        super().verify_semantics()
        source = self.ins[0].type
        if len(self.ins) == 4 and isinstance(source, TileTypeBase):
            error = prequant_source_error(source.loc.data)
            if error:
                raise VerifyException(error)


TExtractOp = _d(
    "textract", _PreQuantOpBase, "dst = src[r:, c:] (ins src, r, c[, pre-quant scalar]).", 1, (2, 3)
)
TExtractFpOp = _d("textract_fp", LooseTileOpBase, "textract through fixpipe params.", 2, (2, 2))


class _TInsertOpBase(_PreQuantOpBase):
    @classmethod
    def create(
        cls,
        *,
        operands: Sequence[SSAValue] = (),
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **fields: Any,
    ) -> Self:
        """PTOAS's generic form segments tinsert's operands as (src, indexRow, indexCol,
        dst, fp, preQuantScalar) with its modes as properties; ours as (ins = src, row,
        col[, preQuantScalar], outs = dst). The fp form is tinsert_fp's."""
        segments = properties.get(SEGMENTS)
        sizes = tuple(segments.get_values()) if isinstance(segments, DenseArrayBase) else ()
        if len(sizes) == 6 and sizes[:4] == (1, 1, 1, 1) and len(operands) == sum(sizes):
            src, row, col, dst, *rest = operands
            options = {k: v for k, v in properties.items() if k != SEGMENTS}
            attributes = {**attributes, **options}
            if sizes[4]:  # the fixpipe tile: tinsert_fp's second input
                return TInsertFpOp.create(  # type: ignore[return-value]
                    operands=[src, rest[0], row, col, dst],
                    properties={SEGMENTS: DenseArrayBase.from_list(i32, [4, 1])},
                    attributes=attributes,
                    **fields,
                )
            operands = [src, row, col, *rest, dst]
            properties = {SEGMENTS: DenseArrayBase.from_list(i32, [len(operands) - 1, 1])}
        return super().create(
            operands=operands, properties=properties, attributes=attributes, **fields
        )


TInsertOp = _d(
    "tinsert", _TInsertOpBase, "dst[r:, c:] = src (ins src, r, c[, pre-quant scalar]).", 1, (2, 3)
)
TInsertFpOp = _d("tinsert_fp", LooseTileOpBase, "tinsert through fixpipe params.", 2, (2, 2))
TMovFpOp = _d("tmov.fp", LooseTileOpBase, "tmov from acc, quantized by fixpipe params.", 2)


class _TStoreFpOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        source, view = self.ins[0].type, self.outs[0].type
        if isinstance(source, TileTypeBase) and source.loc.data == "acc":
            destination = element_type_name(getattr(view, "element_type", source.element_type))
            error = acc_store_error(
                op_target(self), source.element_name, destination, fp=True, prequant=False
            )
            if error:
                raise VerifyException(error)


class _TPrefetchOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        if op_target(self) == "a5":
            return
        elements = [getattr(v.type, "element_type", None) for v in (*self.ins, *self.outs)]
        names = [element_type_name(e) for e in elements if e is not None]
        if any(is_low_precision(name) for name in names):
            raise VerifyException(
                "expects A2/A3 tprefetch low-precision element types to be unsupported"
            )


TStoreFpOp = _d("tstore_fp", _TStoreFpOpBase, "tstore from acc through fixpipe params.", 2)
FP_FORMS.update(
    {"pto.textract": TExtractFpOp, "pto.tinsert": TInsertFpOp, "pto.tstore": TStoreFpOp}
)
TPrefetchOp = _d("tprefetch", _TPrefetchOpBase, "Prefetch a global view into a tile.", 0, (1, 1))


class _TFillPadOpBase(SameElementMoveOpBase):
    """PTOAS main infers tfillpad's lowering (no `mode`); between `mat` tiles pto-isa
    has only the overload of one tile type, valid shape and pad included."""

    def verify_semantics(self) -> None:
        if "mode" in self.attributes:
            raise VerifyException(
                "does not accept 'mode'; PTOAS infers TFILLPAD lowering from physical shape "
                "and planned addresses"
            )
        super().verify_semantics()
        source, dst = self.ins[0].type, self.outs[0].type
        mat = all(isinstance(t, TileBufType) and t.loc.data == "mat" for t in (source, dst))
        if mat and source != dst:
            raise VerifyException(_fillpad_mismatch(source, dst))


def _fillpad_mismatch(source: TileBufType, dst: TileBufType) -> str:
    fields = [
        f"{name} ({format_dim(a)} vs {format_dim(b)})"
        for name, a, b in zip(("v_row", "v_col"), source.valid_shape, dst.valid_shape, strict=True)
        if a != b
    ]
    if source.pad != dst.pad:
        fields.append(f"pad ({source.pad.data} vs {dst.pad.data})")
    detail = f"; mismatching fields: {', '.join(fields)}" if fields else ""
    return f"expects src/dst tile types to be lowerable to TFILLPAD for loc=mat{detail}"


TFillPadOp = _d("tfillpad", _TFillPadOpBase, "dst = src, padding filled with dst's pad.")
TFillPadInplaceOp = _d(
    "tfillpad_inplace", SameElementMoveOpBase, "Fill src's padding in place with the pad value."
)
TFillPadExpandOp = _d(
    "tfillpad_expand", SameElementMoveOpBase, "dst = src in a larger tile, the rest padded."
)
TConcatOp = _d("tconcat", SameElementMoveOpBase, "dst = [a | b] along columns.", 2)
TPackOp = _d("tpack", LooseTileOpBase, "dst = src narrowed to dst's element type, packed.")


class _TCiOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        tmp, dst = self.ins[-1].type, self.outs[0].type if self.outs else None
        if len(self.ins) == 2 and isinstance(tmp, TileTypeBase) and isinstance(dst, TileTypeBase):
            error = tci_tmp_error(op_target(self), plain_tile(dst), plain_tile(tmp))
            if error:
                raise VerifyException(error)


TCiOp = _d(
    "tci",
    _TCiOpBase,
    "dst[0, j] = start + j (or start - j, descending); PTOAS main's optional second input "
    "is a scratch tile.",
    0,
    (1, 2),
)
TTriOp = _d("ttri", LooseTileOpBase, "dst = 1 on and below diagonal d, 0 above.", 0, (1, 1))
TSort32Op = _d("tsort32", LooseTileOpBase, "Sort each 32-element block, with indices.", 2, (0, 1))


class MergeSortOpBase(LooseTileOpBase):
    """tmrgsort: a second `outs` operand receives the executed counts, one per list, as
    PTOAS requires: a vector<4xi16>."""

    def verify_semantics(self) -> None:
        super().verify_semantics()
        if len(self.outs) < 2:
            return
        counts = self.outs[1].type
        if not (
            isinstance(counts, VectorType)
            and counts.get_shape() == (4,)
            and counts.element_type == IntegerType(16)
        ):
            raise VerifyException(f"expects its executed counts as vector<4xi16>, but got {counts}")


TMrgSortOp = _d(
    "tmrgsort", MergeSortOpBase, "Merge sorted lists (ins lists..., tmp).", 1, (0, 4), OUTS=(1, 2)
)


class _TGatherOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        index_form = "maskPattern" not in self.attributes and len(self.outs) == 1
        tiles = [v.type for v in (*self.ins, *self.outs)]
        if not index_form or not all(isinstance(t, TileTypeBase) for t in tiles):
            return
        src, *rest = (plain_tile(t) for t in tiles[:-1])
        error = tgather_index_error(
            op_target(self),
            src,
            plain_tile(tiles[-1]),
            rest[0] if rest else None,
            rest[1] if len(rest) > 1 else None,
        )
        if error:
            raise VerifyException(error)


TGatherOp = _d(
    "tgather", _TGatherOpBase, "dst[j] = src[idx[j]] (or a mask pattern).", 1, (0, 2), OUTS=(1, 2)
)
TGatherbOp = _d("tgatherb", LooseTileOpBase, "Gather 32-byte blocks at byte offsets.", 1, (1, 1))


class _TScatterOpBase(LooseTileOpBase):
    @classmethod
    def create(
        cls,
        *,
        operands: Sequence[SSAValue] = (),
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **fields: Any,
    ) -> Self:
        """PTOAS's generic form lists (src, dst[, indexes]) without segments, with its
        options as properties; ours is (ins = src[, indexes], outs = dst)."""
        if SEGMENTS not in properties and 2 <= len(operands) <= 3:
            operands = [operands[0], *operands[2:], operands[1]]
            attributes = {**attributes, **properties}
            properties = {SEGMENTS: DenseArrayBase.from_list(i32, [len(operands) - 1, 1])}
        return super().create(
            operands=operands, properties=properties, attributes=attributes, **fields
        )

    def verify_semantics(self) -> None:
        super().verify_semantics()
        if (len(self.ins) == 2) == ("maskPattern" in self.attributes):
            raise VerifyException("expects exactly one of indexes operand or maskPattern attribute")


TScatterOp = _d(
    "tscatter",
    _TScatterOpBase,
    "dst[idx[i, j]] = src[i, j] (or, with a maskPattern, no indices).",
    1,
    (0, 1),
)


class _MGatherOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        verify_mgather(self, self.ins[0].type, self.ins[1].type, self.outs[0].type)


class _MScatterOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        verify_mscatter(self, self.ins[0].type, self.ins[1].type)


MGatherOp = _d(
    "mgather",
    _MGatherOpBase,
    "dst[j] = mem[idx[j]] from global memory (ins mem, idx[, scratch]).",
    2,
    (0, 1),
    VIEW_INPUTS=(0, 1),
)
MScatterOp = _d("mscatter", _MScatterOpBase, "mem[idx[j]] = src[j] into global memory.", 2)


class _THistogramOpBase(LooseTileOpBase):
    def verify_semantics(self) -> None:
        super().verify_semantics()
        byte = self.attributes.get("byte")
        chosen = byte.value.data if isinstance(byte, IntegerAttr) else 1
        legacy = self.attributes.get("isMSB")  # the older spelling: true is byte 1
        if isinstance(legacy, IntegerAttr):
            legacy_byte = int(legacy.value.data != 0)  # an i1 `true` may read as -1
            if byte is not None and chosen != legacy_byte:
                raise VerifyException(
                    "does not allow conflicting 'byte' and legacy 'isMSB' attributes"
                )
            chosen = legacy_byte
        if not 0 <= chosen <= 3:
            raise VerifyException("expects byte to be in range [0, 3]")
        source = self.ins[0].type
        if isinstance(source, TileTypeBase) and source.element_name == "ui16" and chosen > 1:
            raise VerifyException("expects byte to be 0 or 1 when src element type is ui16")


THistogramOp = _d(
    "thistogram",
    _THistogramOpBase,
    "Count src's values per bin; `byte` picks the source byte that names the bin.",
    2,
)
TDequantOp = _d("tdequant", LooseTileOpBase, "dst = (src - offset) * scale.", 3)
TRandomOp = _d("trandom", LooseTileOpBase, "Philox random bits from keys and counters.", 0, (6, 6))
TSetValOp = _d("tsetval", LooseTileOpBase, "dst[offset] = val.", 0, (2, 2))


@irdl_op_definition
class TGetValOp(IRDLOperation):
    """`%v = pto.tgetval ins(%t, %i : T, index) outs : f32`: the element at linear offset
    %i of the tile's storage, read by the scalar unit (from a `vec` tile only)."""

    name = "pto.tgetval"
    src = operand_def()
    offset = operand_def(IndexType())
    dst = result_def()
    assembly_format = (
        "`ins` `(` $src `,` $offset `:` type($src) `,` type($offset) `)` `outs` `:` type($dst) "
        "attr-dict"
    )

    def verify_(self) -> None:
        tile = self.src.type
        if not isinstance(tile, TileBufType):
            raise VerifyException(f"expects src to be a !pto.tile_buf, but got {tile}")
        if tile.loc.data == "mat":
            raise VerifyException(
                "Ascend hardware does not support reading from Mat tile_buf to Scalar unit"
            )
        if tile.loc.data != "vec":
            raise VerifyException("expects src memory space to be vec")
        if tile.element_type != self.dst.type:
            raise VerifyException(
                f"expects dst type to match src element type {tile.element_type}, but got "
                f"{self.dst.type}"
            )


@irdl_op_definition
class TGetScaleAddrOp(LooseTileOpBase):
    """The scale tile bound to a tile (MX matmul operands)."""

    name = "pto.tget_scale_addr"

    def verify_semantics(self) -> None:
        if self.destination_type().loc.data != "scaling":
            raise VerifyException("expects dst to be in the scaling address space")


@irdl_op_definition
class TQuantOp(LooseTileOpBase):
    """dst = quantize(src, scale[, offset]): INT8_SYM takes no offset, INT8_ASYM needs one."""

    name = "pto.tquant"
    TILE_INPUTS: ClassVar[int] = 2
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)
    # PTOAS main's second `outs` is a scratch tile.
    OUTS: ClassVar[tuple[int, int]] = (1, 2)

    def _verify_operand_count(self) -> None:
        super()._verify_operand_count()
        # Checked on memrefs too: it is about operands, not tile types.
        quant = self.attributes.get("quant_type")
        kind = quant.data if isinstance(quant, QuantTypeAttr) else "INT8_SYM"
        if kind == "INT8_ASYM" and len(self.ins) < 3:
            raise VerifyException("INT8_ASYM quantization requires an offset operand")
        if kind == "INT8_SYM" and len(self.ins) > 2:
            raise VerifyException("INT8_SYM quantization must not have an offset operand")

    def verify_semantics(self) -> None:
        super().verify_semantics()
        tiles = [v.type for v in (*self.ins, *self.outs)]
        if not all(isinstance(t, TileTypeBase) for t in tiles):
            return
        src, *params = (plain_tile(v.type) for v in self.ins)
        tmp = plain_tile(self.outs[1].type) if len(self.outs) > 1 else None
        named = list(zip(("fp", "offset"), params, strict=False))
        error = tquant_error(op_target(self), src, plain_tile(self.outs[0].type), named, tmp)
        if error:
            raise VerifyException(error)


@irdl_op_definition
class TQuantMxOp(LooseTileOpBase):
    """MX quantization: `ins(src) outs(dst, exp, max, scaling[, exp_zz])`, one shared
    exponent per group; `exp_zz` (the older form) comes with a `storeMode`."""

    name = "pto.tquant.mx"
    TILE_INPUTS: ClassVar[int] = 1
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 0)
    OUTS: ClassVar[tuple[int, int]] = (4, 5)

    def _verify_operand_count(self) -> None:
        super()._verify_operand_count()
        quant = self.attributes.get("quant_type", self.properties.get("quant_type"))
        if not isinstance(quant, QuantTypeAttr) or quant.data not in ("MXFP8", "MXFP4_E2M1"):
            raise VerifyException("expects quant_type to be MXFP8 or MXFP4_E2M1")
        store_mode = "storeMode" in self.attributes or "storeMode" in self.properties
        if len(self.outs) == 5 and not store_mode:
            raise VerifyException("expects storeMode when exp_zz is present")
        if len(self.outs) == 4 and store_mode:
            raise VerifyException("expects exp_zz when storeMode is present")

    def verify_semantics(self) -> None:
        super().verify_semantics()
        if not all(isinstance(v.type, TileTypeBase) for v in [*self.ins, *self.outs]):
            return  # SSA (level-1) forms and views are checked once they are buffers
        error = tquant_mx_error(op_target(self), self.described())
        if error:
            raise VerifyException(error)

    def described(self) -> MxQuant:
        """The op as the IR-free MX rules take it."""
        tiles = [plain_tile(v.type) for v in self.outs]

        def option(name: str, default: str) -> str:
            attr = self.attributes.get(name, self.properties.get(name))
            if isinstance(attr, IntegerAttr):
                return "true" if attr.value.data else "false"
            return getattr(attr, "data", default)

        return MxQuant(
            plain_tile(self.ins[0].type),
            *tiles[:4],
            tiles[4] if len(tiles) == 5 else None,
            option("quant_type", "MXFP8"),
            option("grpAxis", "axis1"),
            option("interleave", "false") == "true",
            "storeMode" in self.attributes or "storeMode" in self.properties,
            option("quantScaleAlg", "ocp").lower(),
        )


@irdl_op_definition
class TReshapeOp(LooseTileOpBase):
    """`%r = pto.treshape %t : T -> U`: the same bytes seen as another tile shape
    (SSA at both levels: the result aliases the source)."""

    name = "pto.treshape"

    def _verify_form(self) -> None:
        if self.outs or len(self.res) != 1:
            raise VerifyException("returns one tile and has no 'outs'")
        src, dst = self.source(), self.destination_type()
        if type(src) is not type(dst):
            raise VerifyException(f"reshapes within one tile kind, but got {src} -> {dst}")
        src_bytes = src.shape[0] * src.shape[1] * src.element_bytes
        dst_bytes = dst.shape[0] * dst.shape[1] * dst.element_bytes
        if src_bytes != dst_bytes:
            raise VerifyException(f"keeps the tile's bytes, but {src_bytes} != {dst_bytes}")


@irdl_op_definition
class TPrintOp(LooseTileOpBase):
    """Print a tile's valid region (a debugging aid); PTOAS main's optional second
    input is a scratch tile or global view the print goes through."""

    name = "pto.tprint"
    OUTS: ClassVar[tuple[int, int]] = (0, 0)
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (0, 1)


@irdl_op_definition
class TSyncOp(LooseTileOpBase):
    """Wait for the events (or the ops on the given buffers) named by its inputs."""

    name = "pto.tsync"
    OUTS: ClassVar[tuple[int, int]] = (0, 0)
    TILE_INPUTS: ClassVar[int] = 0
    EXTRA_INPUTS: ClassVar[tuple[int, int]] = (1, 8)

    def verify_semantics(self) -> None:
        pass


CUBE_AND_IRREGULAR_OPS: tuple[type[IRDLOperation], ...] = (
    TMatmulAccOp,
    TMatmulBiasOp,
    TMatmulMxOp,
    TMatmulMxAccOp,
    TMatmulMxBiasOp,
    TGemvOp,
    TGemvAccOp,
    TGemvBiasOp,
    TGemvMxOp,
    TGemvMxAccOp,
    TGemvMxBiasOp,
    TExtractOp,
    TExtractFpOp,
    TInsertOp,
    TInsertFpOp,
    TMovFpOp,
    TStoreFpOp,
    TPrefetchOp,
    TFillPadOp,
    TFillPadInplaceOp,
    TFillPadExpandOp,
    TConcatOp,
    TPackOp,
    TCiOp,
    TTriOp,
    TSort32Op,
    TMrgSortOp,
    TGatherOp,
    TGatherbOp,
    TScatterOp,
    MGatherOp,
    MScatterOp,
    THistogramOp,
    TDequantOp,
    TRandomOp,
    TSetValOp,
    TGetValOp,
    TGetScaleAddrOp,
    TQuantOp,
    TQuantMxOp,
    TReshapeOp,
    TPrintOp,
    TSyncOp,
)
