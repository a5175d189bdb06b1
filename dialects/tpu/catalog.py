"""The rest of Mosaic's `tpu` ops, defined from one table.

Ops the project computes with or proves things about have their own classes
(`memory`, `views`, `compute`, `dma`, `regions`). The others are listed here
one line each: operands (`name`, `name?` optional, `name*` variadic), results,
properties and Mosaic's printed form (`tpu_ops.td`'s assembly format, which
xDSL's declarative format reads the same way). An op whose row has no format
prints in generic form, as Mosaic prints it. `define_op` turns a row into an
IRDL op class; per-op checks beyond the types live in `catalog_checks`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    TypeAttribute,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.constraints import AttrConstraint, EqAttrConstraint, VarConstraint
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu import catalog_checks as checks
from xla_emit.dialects.tpu.attributes import ConvDimensionNumbersAttr, MemorySpaceAttr
from xla_emit.dialects.tpu.enums import (
    ContractPrecisionAttr,
    PackFormatAttr,
    ReductionKindAttr,
    RoundingModeAttr,
)

# Property kinds, as `tpu_ops.td` names them.
I32_ATTR = IntegerAttr[I32]
I64_ATTR = IntegerAttr[I64]
STR_ATTR: AttrConstraint = base(StringAttr)
BOOL_ATTR: AttrConstraint = base(BoolAttr)
I32_ARRAY: AttrConstraint = DenseArrayBase.constr(i32)
I64_ARRAY: AttrConstraint = DenseArrayBase.constr(i64)
BOOL_ARRAY: AttrConstraint = base(DenseArrayBase)
TYPE_ATTR: AttrConstraint = base(TypeAttribute)

OPTIONAL = "?"  # a property suffix: may be absent (OptionalAttr or DefaultValuedAttr)


@dataclass(frozen=True)
class OpRow:
    """One Mosaic op: its operands, results, properties, printed form and checks."""

    name: str
    operands: str = ""
    results: str = ""
    properties: Mapping[str, object] = field(default_factory=dict)
    format: str | None = None
    pure: bool = True
    check: Callable[[IRDLOperation], None] | None = None
    summary: str = ""


# Operand types a row may pin (`name:index`); the printed forms leave these types out.
FIXED_TYPES: dict[str, Attribute] = {"index": IndexType(), "i32": i32, "i1": i1}


def _values(spec: str, single, optional, variadic) -> dict[str, object]:
    """Field definitions for `a, b?, c*, d:i32, e:$T` (`$T`: the same type wherever named)."""
    fields: dict[str, object] = {}
    for raw in filter(None, (part.strip() for part in spec.split(","))):
        name, _, type_name = raw.partition(":")
        constraint: AttrConstraint = AnyAttr()
        if type_name.startswith("$"):
            constraint = VarConstraint(type_name[1:], AnyAttr())
        elif type_name:
            constraint = EqAttrConstraint(FIXED_TYPES[type_name])
        if name.endswith("*"):
            fields[name[:-1]] = variadic(constraint)
        elif name.endswith("?"):
            fields[name[:-1]] = optional(constraint)
        else:
            fields[name] = single(constraint)
    return fields


def _segment_count(spec: str) -> int:
    return sum(1 for part in spec.split(",") if part.partition(":")[0].strip().endswith(("*", "?")))


def define_op(row: OpRow) -> type[IRDLOperation]:
    """An IRDL op class for `row`."""
    body: dict[str, object] = {"name": f"tpu.{row.name}", "__doc__": row.summary or None}
    body |= _values(row.operands, operand_def, opt_operand_def, var_operand_def)
    body |= _values(row.results, result_def, lambda c: var_result_def(c), var_result_def)
    for prop_name, constraint in row.properties.items():
        if isinstance(constraint, tuple):
            body[prop_name] = opt_prop_def(constraint[0])
        else:
            body[prop_name] = prop_def(constraint)
    options: list[object] = [ParsePropInAttrDict()]
    if _segment_count(row.operands) > 1:
        options.append(AttrSizedOperandSegments(as_property=True))
    if _segment_count(row.results) > 1:
        options.append(AttrSizedResultSegments(as_property=True))
    body["irdl_options"] = tuple(options)
    if row.pure:
        body["traits"] = traits_def(Pure())
    if row.format is not None:
        body["assembly_format"] = row.format
    if row.check is not None:
        check = row.check
        body["verify_"] = lambda self: check(self)
    class_name = "".join(part.title() for part in row.name.split("_")) + "Op"
    return irdl_op_definition(type(class_name, (IRDLOperation,), body))


def opt(constraint: AttrConstraint) -> tuple[AttrConstraint, str]:
    return (constraint, OPTIONAL)


def _rounding_convert(name: str) -> OpRow:
    """`tpu.fptosi` and kin: an elementwise conversion with a rounding mode."""
    return OpRow(
        name,
        "in",
        "output",
        {"rounding_mode": RoundingModeAttr},
        "$in attr-dict `:` type($in) `->` type($output)",
        check=checks.check_same_shape("in", "output"),
    )


UNARY = "$input attr-dict `:` type($input) `->` type($output)"
FLOAT_CONVERT = "$in attr-dict `:` type($in) `->` type($out)"
MEMREF_VIEW = "$input attr-dict `:` type($input) `->` type($result)"
LOAD_AT = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"
STORE_AT = (
    "$base `[` $indices `]` `,` $valueToStore attr-dict `:` type($base) `,` type($valueToStore)"
)

COMPRESS_STORE = (
    "$base `[` $indices `]` `,` $valueToStore `,` $mask attr-dict `:` type($base) `,` "
    "type($valueToStore) `,` type($mask)"
)
EXPAND_LOAD = (
    "$base `[` $indices `]` `,` $mask attr-dict `:` type($base) `,` type($result) `,` type($mask)"
)

ROWS: tuple[OpRow, ...] = (
    # Reductions, scans and sorting.
    OpRow(
        "all_reduce",
        "input",
        "output",
        {"dim": I64_ATTR, "kind": ReductionKindAttr},
        "$input attr-dict `:` type($input) `->` type($output)",
        pure=False,
        check=checks.check_reduction_dim("dim"),
    ),
    OpRow(
        "reduce_index",
        "input",
        "output",
        {"axis": I32_ATTR, "kind": ReductionKindAttr},
        "$input attr-dict `:` type($input) `->` type($output)",
        check=checks.check_reduction_dim("axis"),
    ),
    OpRow(
        "scan",
        "input, mask?",
        "output",
        # `dimension`: jaxlib 0.12 (0.10.2 scans the last dimension).
        {"kind": ReductionKindAttr, "dimension": opt(I64_ATTR)},
        "$kind `,` $input (`masked` $mask^)? attr-dict `:` type($input) `,` type($mask) `->` "
        "type($output)",
    ),
    OpRow(
        "reduce",
        "input",
        "output",
        {"dimensions": I64_ARRAY, "kind": ReductionKindAttr},
        "$kind `,` $input $dimensions attr-dict `:` type($input) `->` type($output)",
    ),
    OpRow(
        "sort",
        "keys, values, mask?",
        "output_mask, sorted_keys, sorted_values",
        {"descending": opt(BOOL_ATTR)},
        "$keys `,` $values (`masked` $mask^)? attr-dict `:` functional-type(operands, results)",
        check=checks.check_sort,
    ),
    OpRow(
        "scan_count",
        "in_mask, values",
        "out_mask, counts",
        {},
        "`mask` `(` $in_mask `:` type($in_mask) `)` `value` `(` $values `:` type($values) `)` "
        "attr-dict `:` type(results)",
    ),
    # Shuffled and indexed memory access.
    OpRow(
        "shuffled_load",
        "base, indices*:index",
        "result",
        {"sublane_mask": BOOL_ARRAY, "sublane_offsets": I32_ARRAY},
        LOAD_AT,
        pure=False,
    ),
    OpRow(
        "shuffled_store",
        "valueToStore, base, indices*:index",
        "",
        {"sublane_mask": BOOL_ARRAY, "sublane_offsets": I32_ARRAY},
        STORE_AT,
        pure=False,
    ),
    OpRow("vector_load_idx", "base, indices*, mask?", "value", {}, pure=False),
    OpRow(
        "vector_store_idx",
        "valueToStore, base, indices*, mask?",
        "",
        {"add": opt(BOOL_ATTR)},
        pure=False,
    ),
    OpRow(
        "fetch_and_add_sync",
        "base, indices*:i32, value:i32, core_id:i32",
        "result",
        {},
        "$base `[` $indices `]` `,` $value `,` $core_id attr-dict `:` type($base) `,` "
        "type($value) `->` type($result)",
        pure=False,
    ),
    # Vector shape and layout changes.
    OpRow(
        "reshape",
        "source",
        "result",
        {},
        "$source attr-dict `:` type($source) `->` type($result)",
        check=checks.check_same_element_count("source", "result"),
    ),
    # jaxlib 0.10.2 (gone in 0.12).
    OpRow(
        "repeat",
        "source",
        "output",
        {"dimension": I32_ATTR, "times": I32_ATTR},
        "$source `,` $dimension `x` $times attr-dict `:` type($source) `->` type($output)",
    ),
    OpRow(
        "broadcast_in_sublanes",
        "source",
        "output",
        {"lane": I32_ATTR},
        "$source `,` $lane attr-dict `:` type($source) `->` type($output)",
    ),
    OpRow(
        "concatenate",
        "sources*",
        "output",
        {"dimension": I32_ATTR},
        "$sources `in` $dimension attr-dict `:` type($sources) `->` type($output)",
        check=checks.check_concatenate,
    ),
    OpRow(
        "transpose",
        "vector",
        "result",
        {"permutation": I64_ARRAY},
        "$vector `,` $permutation attr-dict `:` type($vector) `->` type($result)",
        check=checks.check_transpose,
    ),
    OpRow(
        "gather",
        "source",
        "output",
        {"indices": I32_ARRAY, "dimension": I32_ATTR},
        "$source `[` $indices `]` `in` $dimension attr-dict `:` type($source) `->` type($output)",
    ),
    OpRow(
        "dynamic_gather",
        "source, indices",
        "output",
        {"dimensions": I32_ARRAY},
        "$source `[` $indices `]` `in` $dimensions attr-dict `:` type($source) `,` "
        "type($indices) `->` type($output)",
    ),
    OpRow(
        "sublane_shuffle",
        "lhs, rhs",
        "result",
        {"pattern": I32_ARRAY},
        "$lhs `,` $rhs `,` $pattern attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)",
    ),
    OpRow("roll_vectors", "input*", "output", {}, UNARY),
    OpRow("unroll_vectors", "input", "output*", {}, UNARY),
    OpRow("relayout", "input", "output", {}, UNARY),  # jaxlib 0.10.2 (gone in 0.12)
    # Packing.
    OpRow(
        "unpack_subelements",
        "source",
        "output",
        {
            "index": I32_ATTR,
            "pack_format": PackFormatAttr,
            "integer_extended": opt(BOOL_ATTR),
            "unsigned_integers": opt(BOOL_ATTR),
        },
        "$source `,` $index attr-dict `:` type($source) `->` type($output)",
    ),
    OpRow(
        "pack_subelements",
        "sources*",
        "output",
        {
            "positions": I32_ARRAY,
            "pack_format": PackFormatAttr,
            "unsigned_integers": opt(BOOL_ATTR),
        },
        "$sources attr-dict `:` type($sources) `->` type($output)",
    ),
    OpRow(
        "pack_elementwise",
        "sources*",
        "output",
        {"target_type": TYPE_ATTR},
        "$sources attr-dict `:` type($sources) `->` type($output)",
    ),
    OpRow(
        "unpack_elementwise",
        "source",
        "output",
        {"source_type": TYPE_ATTR, "index": I32_ATTR},
        "$source `,` $index attr-dict `:` type($source) `->` type($output)",
    ),
    OpRow(
        "pack_vmsk",
        "sources*",
        "output",
        {"positions": I32_ARRAY},
        "$sources attr-dict `:` type($sources) `->` type($output)",
    ),
    # Conversions and elementwise math.
    _rounding_convert("fptosi"),
    _rounding_convert("fptoui"),
    _rounding_convert("sitofp"),
    _rounding_convert("uitofp"),
    OpRow("extf", "in", "out", {}, FLOAT_CONVERT, check=checks.check_same_shape("in", "out")),
    OpRow(
        "truncf",
        "in",
        "out",
        {"rounding_mode": RoundingModeAttr},
        FLOAT_CONVERT,
        check=checks.check_same_shape("in", "out"),
    ),
    OpRow("bitcast", "input", "output", {}, UNARY, check=checks.check_bitcast),
    OpRow("bitcast_vreg", "input", "output", {}, UNARY),
    OpRow("weird", "input", "output", {}, UNARY),
    OpRow(
        "reciprocal",
        "input",
        "output",
        {"approx": opt(BOOL_ATTR), "full_range": opt(BOOL_ATTR)},
        UNARY,
        check=checks.check_same_type("input", "output"),
    ),
    OpRow(
        "logistic", "input", "output", {}, UNARY, check=checks.check_same_type("input", "output")
    ),
    OpRow(
        "reduce_precision",
        "input",
        "output",
        {"exponent_bits": I32_ATTR, "mantissa_bits": I32_ATTR},
        UNARY,
        check=checks.check_same_type("input", "output"),
    ),
    OpRow(
        "conv",
        "lhs, rhs, acc",
        "result",
        {
            "dimension_numbers": ConvDimensionNumbersAttr,
            "window_strides": I64_ARRAY,
            "padding": I64_ARRAY,
            "lhs_dilation": I64_ARRAY,
            "rhs_dilation": I64_ARRAY,
            "window_reversal": BOOL_ARRAY,
            "feature_group_count": opt(I64_ATTR),
            "batch_group_count": opt(I64_ATTR),
            "precision": opt(ContractPrecisionAttr),
        },
        "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc) `->` "
        "type($result)",
    ),
    # jaxlib 0.12's compressing stores and expanding loads.
    OpRow(
        "compress_store_vreg",
        "valueToStore, base, indices*:index, mask",
        "",
        {"add": opt(BOOL_ATTR)},
        COMPRESS_STORE,
        pure=False,
    ),
    OpRow("expand_load_vreg", "base, indices*:index, mask", "result", {}, EXPAND_LOAD, pure=False),
    OpRow(
        "vector_compress_store",
        "valueToStore, base, indices*:index, mask",
        "",
        {"compress_dim": I32_ATTR, "add": opt(BOOL_ATTR)},
        COMPRESS_STORE,
        pure=False,
    ),
    OpRow(
        "vector_expand_load",
        "base, indices*:index, mask",
        "result",
        {"expand_dim": I32_ATTR},
        EXPAND_LOAD,
        pure=False,
    ),
    OpRow(
        "stochastic_convert",
        "input, random",
        "output",
        {},
        "$input `,` $random attr-dict `:` type($input) `,` type($random) `->` type($output)",
    ),
    OpRow(
        "stochastic_convert_elementwise",
        "input, random",
        "output",
        {"dst_type": TYPE_ATTR},
        "$input `,` $random attr-dict `:` type($input) `,` type($random) `->` type($output)",
    ),
    OpRow("prng_set_seed_32", "seeds*", "", {}, pure=False),
    OpRow("prng_random_bits", "", "output", {}, pure=False),
    # Masks.
    OpRow(
        "create_subelement_mask",
        "",
        "output",
        {"from": I32_ATTR, "to": I32_ATTR},
        "$from `,` $to attr-dict `:` type($output)",
    ),
    OpRow("mask_cast", "input", "result", {}, MEMREF_VIEW),
    # MXU staging.
    OpRow(
        "matmul_push_rhs",
        "rhs",
        "",
        {"mxu_index": I32_ATTR, "staging_register": opt(I32_ATTR), "transpose": opt(BOOL_ATTR)},
        "$rhs attr-dict `:` type($rhs)",
        pure=False,
    ),
    OpRow(
        "matmul_acc_lhs",
        "lhs",
        "",
        {"acc": I32_ATTR, "mxu_index": I32_ATTR, "load_staged_rhs": opt(I32_ATTR)},
        pure=False,
    ),
    OpRow(
        "matmul_pop",
        "",
        "result",
        {"acc": I32_ATTR, "mxu_index": I32_ATTR},
        "$acc attr-dict `:` type($result)",
        pure=False,
    ),
    OpRow(
        "matmul_lhs_fifo",
        "lhs",
        "",
        {"mxu_index": I32_ATTR, "load_staged_rhs": opt(I32_ATTR)},
        "$lhs attr-dict `:` type($lhs)",
        pure=False,
    ),
    OpRow(
        "matmul_pop_fifo",
        "",
        "result",
        {"mxu_index": I32_ATTR},
        "$mxu_index attr-dict `:` type($result)",
        pure=False,
    ),
    # Memref views.
    OpRow(
        "reinterpret_cast",
        # `dynamic_strides`: jaxlib 0.12.
        "input, dynamic_offset?:i32, dynamic_sizes*:i32, dynamic_strides*:i32",
        "result",
        {},
        "$input ($dynamic_offset^)? (`<` $dynamic_sizes^ `>`)? (`[` $dynamic_strides^ `]`)? "
        "attr-dict `:` type($input) `->` type($result)",
    ),
    # jaxlib 0.12's memref queries and views.
    OpRow(
        "annotate",
        "operand:$T",
        "result:$T",
        {
            "no_store": opt(BOOL_ATTR),
            "no_bank_conflict": opt(BOOL_ATTR),
            "no_hazard": opt(BOOL_ATTR),
            "no_hazard_no_deps": opt(BOOL_ATTR),
        },
        "$operand attr-dict `:` type($operand)",
        pure=False,
    ),
    OpRow(
        "memref_memory_space_is",
        "source",
        "result:i1",
        {"memory_space": MemorySpaceAttr},
        "$source `,` $memory_space attr-dict `:` type($source)",
    ),
    OpRow(
        "shared_memref_slice",
        "mem_ref",
        "result",
        {},
        "$mem_ref attr-dict `:` type($mem_ref) `->` type($result)",
    ),
    OpRow(
        "tile_size",
        "source",
        "result:i32",
        {"index": I32_ATTR},
        "$source `,` $index attr-dict `:` type($source)",
    ),
    OpRow("assume_layout", "input", "result", {}, MEMREF_VIEW),
    OpRow(
        "erase_memref_layout",
        "operand",
        "result",
        {},
        "$operand attr-dict `:` type($operand) `->` type($result)",
        check=checks.check_erase_layout,
    ),
    OpRow("internal_scratch", "", "result", {}, "attr-dict `:` type($result)", pure=False),
    # Ids, semaphores, barriers and DMA.
    OpRow(
        "device_id", "", "result", {}, "attr-dict `:` type($result)", check=checks.check_i32_result
    ),
    OpRow(
        "core_id", "", "result", {}, "attr-dict `:` type($result)", check=checks.check_i32_result
    ),
    OpRow(
        "subcore_id", "", "result", {}, "attr-dict `:` type($result)", check=checks.check_i32_result
    ),
    OpRow(
        "sem_read",
        "semaphore",
        "result",
        {},
        "$semaphore attr-dict `:` type($semaphore) `->` type($result)",
        pure=False,
        check=checks.check_rank0_semaphore,
    ),
    OpRow("sem_barrier", "", "semaphore", {}, "attr-dict `:` type($semaphore)", pure=False),
    OpRow(
        "barrier",
        "barrier_id:index",
        "",
        {},
        "`barrier_id` `(` $barrier_id `)` attr-dict",
        pure=False,
    ),
    OpRow(
        "wait_dma",
        "source, source_semaphore?, target, target_semaphore?, device_id?:i32, "
        "core_id?:i32, subcore_id?:i32",
        "",
        {"wait_target": BOOL_ATTR, "priority": opt(I32_ATTR), "strict_ordering": opt(BOOL_ATTR)},
        "`source` `(` $source `:` type($source) `)` `target` `(` $target `:` type($target) `)` "
        "(`source_semaphore` `(` $source_semaphore^ `:` type($source_semaphore) `)`)? "
        "(`target_semaphore` `(` $target_semaphore^ `:` type($target_semaphore) `)`)? "
        "(`device_id` `(` $device_id^ `)`)? (`core_id` `(` $core_id^ `)`)? "
        "(`subcore_id` `(` $subcore_id^ `)`)? attr-dict",
        pure=False,
    ),
    OpRow(
        "enqueue_indirect_dma",
        "source, target, offsets, semaphore, offset_filter?:i32",
        "",
        {"add": opt(BOOL_ATTR)},
        "`source` `(` $source `:` type($source) `)` `target` `(` $target `:` type($target) `)` "
        "`offsets` `(` $offsets `:` type($offsets) `)` "
        "(`offset_filter` `(` $offset_filter^ `)`)? "
        "`semaphore` `(` $semaphore `:` type($semaphore) `)` attr-dict",
        pure=False,
    ),
    OpRow(
        "wait_indirect_dma",
        "semaphore, src, dst",
        "",
        {},
        "`semaphore` `(` $semaphore `:` type($semaphore) `)` `src` `(` $src `:` type($src) `)` "
        "`dst` `(` $dst `:` type($dst) `)` attr-dict",
        pure=False,
    ),
    # Debugging.
    OpRow(
        "trace_value",
        "value",
        "",
        {"label": STR_ATTR},
        "$value `,` $label attr-dict `:` type($value)",
        pure=False,
    ),
    OpRow("delay", "nanos:i32", "", {}, "$nanos attr-dict", pure=False),
    OpRow(
        "log",
        "inputs*",
        "",
        {"tag": STR_ATTR, "formatted": opt(BOOL_ATTR)},
        "$tag attr-dict (`:` `[` $inputs^ `]` `:` type($inputs))?",
        pure=False,
    ),
    OpRow(
        "log_buffer",
        "input",
        "",
        {"shape": I64_ARRAY, "tag": STR_ATTR},
        "$tag attr-dict `:` $input `:` type($input)",
        pure=False,
    ),
)


@irdl_op_definition
class CreateMaskOp(IRDLOperation):
    """`%m = tpu.create_mask[%l0, %l1] [%h0, %h1] : vector<8x128xi1>`: true inside the box.

    Low and high bounds are one operand list of equal halves (MLIR's
    SameVariadicOperandSize), so the generic form carries no segment sizes.
    """

    name = "tpu.create_mask"

    bounds = var_operand_def(EqAttrConstraint(IndexType()))
    output = result_def(AnyAttr())

    traits = traits_def(Pure())

    @property
    def low(self) -> tuple[SSAValue, ...]:
        return tuple(self.bounds[: len(self.bounds) // 2])

    @property
    def high(self) -> tuple[SSAValue, ...]:
        return tuple(self.bounds[len(self.bounds) // 2 :])

    @classmethod
    def parse(cls, parser: Parser) -> CreateMaskOp:
        delimiter = parser.Delimiter.SQUARE
        low = parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)
        high = parser.parse_comma_separated_list(delimiter, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        output = parser.parse_type()
        bounds = parser.resolve_operands(
            [*low, *high], [IndexType()] * (len(low) + len(high)), parser.pos
        )
        op = cls(operands=[bounds], result_types=[output], attributes=attributes)
        return op

    def print(self, printer: Printer) -> None:
        # Mosaic prints no space after the op name and one between the lists.
        printer.print_string("[")
        printer.print_list(self.low, printer.print_operand)
        printer.print_string("] [")
        printer.print_list(self.high, printer.print_operand)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.output.type}")

    def verify_(self) -> None:
        rank = len(self.output.type.get_shape()) if isinstance(self.output.type, VectorType) else 0
        if len(self.bounds) % 2 or len(self.low) != rank:
            raise VerifyException(
                f"Expected {rank} low and {rank} high bounds for {self.output.type}, but got "
                f"{len(self.bounds)} operands"
            )


CATALOG_OPS: tuple[type[IRDLOperation], ...] = (
    *(define_op(row) for row in ROWS),
    CreateMaskOp,
)
CATALOG_BY_NAME: dict[str, type[IRDLOperation]] = {op.name: op for op in CATALOG_OPS}

__all__ = ["CATALOG_BY_NAME", "CATALOG_OPS", "I32", "ROWS", "OpRow", "define_op"]
