"""`tpu-verify-alignment`: prove that dynamic indices of TPU memory accesses are tile-aligned.

For every `vector.load`, `vector.store`, `tpu.load`, `tpu.store`,
`tpu.vector_load` and `tpu.vector_store` on a tiled memref, each dynamic index
into a tiled dim must be a multiple of that dim's tile size (rules in
`tpu_alignment`); `tpu.memref_slice` offsets and sizes along tiled dims must be
multiples of the tile. The first access that cannot be proven fails with
Mosaic's message at the op, e.g.

    'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128

followed by notes Mosaic does not give: whether the index is provably
misaligned (and by which remainder) or merely unproven (and where the
analysis lost track); for a Pallas kernel with a grid, when the index
depends on the program ids alone, a grid point where it is misaligned or
that it never is (`grid_values`); which tiling forced the multiple, the fix,
and, when `tpu-realign-accesses` cannot rewrite the access, why not.

A Pallas kernel (a `func.func` with `dimension_semantics`) is first held to
its calling contract (`dialects.tpu.kernel.check_kernel`): the grid, the
windows and the `@transform_N` index maps must fit its arguments.

Options:
- `mosaic-report` (default false): also write Mosaic's full report to stderr
  (`INTERNAL: Mosaic failed to compile TPU kernel: ...`, `at location: ...`,
  `The MLIR operation involved:` and the op in generic form with
  function-wide value numbers).
- `hardware-generation` (default 6): the TPU generation for default tilings.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.tpu import MemRefSliceOp
from xla_emit.dialects.tpu.kernel import check_kernel, is_kernel
from xla_emit.passes.analysis.divisibility_analysis import DivisibilityAnalysis
from xla_emit.passes.analysis.grid_values import (
    first_misaligned,
    grid_note,
    index_values,
    loop_verdict,
)
from xla_emit.passes.analysis.tpu_alignment import (
    Access,
    CannotRealign,
    Tiling,
    as_access,
    check_hardware_generation,
    plan_realignment,
    requirements,
    tiling_of,
)
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.loop_utils import constant_int

from xla_emit.indexing.congruence import Answer, Divisibility
from xla_emit.ir.locations import location_text


@dataclass(frozen=True)
class TpuVerifyAlignmentPass(ModulePass):
    """Prove every dynamic index into a tiled memref dim is a multiple of its tile.

    This is Mosaic's check.
    """

    name = "tpu-verify-alignment"

    mosaic_report: bool = False
    hardware_generation: int = 6

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_hardware_generation(self.hardware_generation)
        analysis = DivisibilityAnalysis()
        for inner in op.walk():
            failure = self._check(inner, analysis)
            if failure is None:
                continue
            if self.mosaic_report:
                sys.stderr.write(mosaic_report(failure.op, failure.message))
            raise failure

    def _check(self, op: Operation, analysis: DivisibilityAnalysis) -> OpError | None:
        if isinstance(op, FuncOp) and is_kernel(op):
            return _check_kernel_contract(op)
        if isinstance(op, MemRefSliceOp):
            return _check_slice(op, analysis, self.hardware_generation)
        access = as_access(op)
        if access is None:
            return None
        tiling = tiling_of(access.base, self.hardware_generation)
        if tiling is None:
            return None
        for requirement in requirements(access, tiling):
            index = access.indices[requirement.dim]
            if constant_int(index) is not None:
                continue  # static indices need no alignment for vector loads and stores
            result = analysis.divisibility(index, requirement.multiple)
            if result.answer is Answer.PROVEN:
                continue
            message = (
                f"cannot statically prove that index in dimension {requirement.dim} "
                f"is a multiple of {requirement.multiple}"
            )
            plan = plan_realignment(access, self.hardware_generation)
            obstacle = plan.reason if isinstance(plan, CannotRealign) else None
            notes = [
                *_verdict_notes(index, requirement.multiple, result, analysis),
                _tiling_note(access, tiling, requirement.dim, requirement.multiple),
                _fix_note(
                    requirement.multiple,
                    analysis.names.of(index),
                    _misaligned(index, requirement.multiple, result),
                    realignable=obstacle is None,
                ),
            ]
            if obstacle is not None:
                notes.append(f"tpu-realign-accesses cannot realign this access: {obstacle}")
            return OpError(op, message, notes)
        return None


def _check_kernel_contract(function: FuncOp) -> OpError | None:
    """A Pallas kernel's grid, windows and index maps must fit together before any access
    can be judged."""
    module = function.parent_op()
    if not isinstance(module, ModuleOp):
        return None
    try:
        check_kernel(function, module)
    except VerifyException as error:
        return OpError(function, str(error))
    return None


def explain(result: Divisibility, lost_at: str | None) -> str:
    """Proven misaligned (with the remainder) or unknown (and why), in words."""
    k = result.divisor
    congruence = result.congruence
    if result.answer is Answer.DISPROVEN:
        if congruence.is_constant:
            return (
                f"the index is provably misaligned: it is always {congruence.residue}, "
                f"{result.remainder} past a multiple of {k}"
            )
        if result.remainder is not None:
            return (
                f"the index is provably misaligned: it is always {result.remainder} past a "
                "multiple "
                f"of {k} (index ≡ {congruence.residue} mod {congruence.modulus})"
            )
        return (
            f"the index is provably not a multiple of {k}: it is always ≡ "
            f"{result.remainder_mod_known} "
            f"(mod {result.known_modulus})"
        )
    known = ""
    if not congruence.is_unknown:
        known = f"; it is only known to be ≡ {congruence.residue} (mod {congruence.modulus})"
    reason = f": {lost_at}" if lost_at else ""
    return f"the alignment of the index is unknown, not disproven{reason}{known}"


def _tiling_note(access: Access, tiling: Tiling, dim: int, multiple: int) -> str:
    memref_type = access.base.type
    assert isinstance(memref_type, MemRefType)
    return (
        f"{tiling.describe(memref_type)}, so a dynamic index into dimension {dim} must be a "
        f"multiple of {multiple}"
    )


def _verdict_notes(
    index: SSAValue, multiple: int, result: Divisibility, analysis: DivisibilityAnalysis
) -> list[str]:
    """Why the index is not proven aligned. An index built from constant-bound loop
    variables (and program ids) is known at every point: it is judged there, not
    called unknown. Over the grid alone, the grid note adds to the analysis's verdict."""
    enumeration = index_values(index)
    if enumeration is not None and enumeration.has_loops and result.answer is not Answer.DISPROVEN:
        return [loop_verdict(enumeration, multiple, analysis.names.of)]
    grid = grid_note(index, multiple)
    return [explain(result, analysis.fact(index).lost_at), *([grid] if grid else [])]


def _misaligned(index: SSAValue, multiple: int, result: Divisibility) -> bool | None:
    """True if provably misaligned somewhere, False if aligned everywhere, None if unknown."""
    if result.answer is Answer.DISPROVEN:
        return True
    enumeration = index_values(index)
    if enumeration is None or not enumeration.has_loops:
        return None
    return first_misaligned(enumeration, multiple) is not None


def _fix_note(k: int, name: str, misaligned: bool | None, realignable: bool) -> str:
    """What to do, naming the index as the kernel prints it (`%5`)."""
    by_pass = " (pass tpu-realign-accesses does this)" if realignable else ""
    realign = (
        f"load the enclosing aligned tiles and move the data into place with tpu.dynamic_rotate"
        f"{by_pass}, or pad/repack the data so accesses start at multiples of {k}"
    )
    if misaligned:
        return f"fix: tpu.assume_multiple would be a false promise here; {realign}"
    if misaligned is False:
        return (
            f"fix: {name} is always a multiple of {k}: say so with "
            f"'tpu.assume_multiple {name}, {k}'"
        )
    return (
        f"fix: if {name} is always a multiple of {k}, say so with "
        f"'tpu.assume_multiple {name}, {k}'; otherwise {realign}"
    )


def _check_slice(
    op: MemRefSliceOp, analysis: DivisibilityAnalysis, generation: int
) -> OpError | None:
    tiling = tiling_of(op.mem_ref, generation)
    if tiling is None:
        return None
    source = op.mem_ref.type
    result_type = op.result.type
    assert isinstance(source, MemRefType) and isinstance(result_type, MemRefType)
    source_shape: tuple[int, ...] = source.get_shape()
    sizes: tuple[int, ...] = result_type.get_shape()
    for dim, tile in tiling.layout.tiled_dims(len(source_shape)).items():
        result = analysis.divisibility(op.base_idx[dim], tile)
        if result.answer is not Answer.PROVEN:
            return OpError(
                op,
                "Offsets along tiled dimensions must be aligned to tiles. Failed to verify that "
                "the "
                f"index at dimension {dim} is divisible by the tile dimension {tile}. If it is, "
                "use "
                "tpu.assume_multiple to suppress this error.",
                [
                    explain(result, analysis.fact(op.base_idx[dim]).lost_at),
                    *filter(None, [grid_note(op.base_idx[dim], tile)]),
                ],
            )
        size = sizes[dim]
        if size >= 0 and size != source_shape[dim] and size % tile != 0:
            return OpError(
                op,
                "Slice sizes along tiled dimensions must be aligned to tiles. Failed to verify "
                "that "
                f"the size at dimension {dim} is divisible by the tile dimension {tile}.",
                [f"the slice takes {size} of {source_shape[dim]} elements in dimension {dim}"],
            )
    return None


# ----------------------------------------------------------------------------- Mosaic's report


def mosaic_report(op: Operation, message: str) -> str:
    """Mosaic's error text as libtpu prints it (the seed's form)."""
    return (
        f"INTERNAL: Mosaic failed to compile TPU kernel: {message}\n"
        f"\n"
        f"at location: {_location_text(op)}\n"
        f"\n"
        f"The MLIR operation involved:\n"
        f"  {generic_form_with_numbers(op)}\n"
    )


def _location_text(op: Operation) -> str:
    """The op's location as Mosaic prints it: in full, inline (for Pallas, the Python line)."""
    return location_text(op.location)


def generic_form_with_numbers(op: Operation) -> str:
    """`%N = "name"(%a, %b) <{...}> : (T...) -> R`, numbering values through the function."""
    numbers = _function_value_numbers(op)
    out = StringIO()
    printer = Printer(stream=out, print_generic_format=True)

    def name(value: SSAValue) -> str:
        return numbers.get(value, "%?")

    results = ", ".join(name(r) for r in op.results)
    out.write(f"{results} = " if results else "")
    out.write(f'"{op.name}"(' + ", ".join(name(v) for v in op.operands) + ")")
    properties = {k: v for k, v in op.properties.items()}
    if properties:
        out.write(" <")
        printer.print_attr_dict(properties)
        out.write(">")
    if op.attributes:
        out.write(" ")
        printer.print_attr_dict(op.attributes)
    out.write(" : (")
    _print_types(printer, [v.type for v in op.operands])
    out.write(") -> ")
    result_types = [r.type for r in op.results]
    if len(result_types) == 1:
        printer.print_attribute(result_types[0])
    else:
        out.write("(")
        _print_types(printer, result_types)
        out.write(")")
    return out.getvalue()


def _print_types(printer: Printer, types: list[Attribute]) -> None:
    for position, type_ in enumerate(types):
        if position:
            printer.print_string(", ")
        printer.print_attribute(type_)


def _function_value_numbers(op: Operation) -> dict[SSAValue, str]:
    """MLIR's numbering without name hints: `%argN` for function arguments, then `%0, %1, ...`."""
    function = op
    while not isinstance(function, FuncOp) and function.parent_op() is not None:
        parent = function.parent_op()
        assert parent is not None
        function = parent
    numbers: dict[SSAValue, str] = {}
    arguments = 0
    results = 0
    for inner in function.walk():
        if inner is not function:
            for result in inner.results:
                numbers[result] = f"%{results}"
                results += 1
        for region in inner.regions:
            for block in region.blocks:
                for arg in block.args:
                    numbers[arg] = f"%arg{arguments}"
                    arguments += 1
    return numbers
