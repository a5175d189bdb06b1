"""The conflicts PTOAS's VMI solvers find while they collect their constraints.

PTOAS's `-vmi-mask-granularity-assignment` (`VMIMaskGranularityAssignment.cpp`) and
`-vmi-layout-assignment` (`VMILayoutAssignment.cpp`) each gather the values that must
share one fact into classes (a union-find), seed facts from the ops that fix them, and
refuse a class that gets two:

- mask granularity: a compare's mask is `b8`/`b16`/`b32` by its operands' element width
  (a unified `vcmp` is a legacy `cmpf`/`cmpi` on its operands), a mask type of concrete
  granularity keeps its own; `mask_and`/`or`/`xor`/`not` and `ensure_mask_layout` join
  their masks: `conflicting mask granularities b16 and b32`;
- preferred data layouts: a widening cast (`extf`, `extsi`, `extui`, and a unified
  `vcvt` read as one) prefers a result layout from PTOAS's cast tables (one-register
  lane-strided sources widen into a contiguous result; else 64 lanes contiguous, else
  2x into `deinterleaved = 2` and 4x into `deinterleaved = 4`): `conflicting preferred
  layouts #pto.vmi.layout<deinterleaved = 2> and #pto.vmi.layout<deinterleaved = 4>`.

Both solvers join an `scf.if`'s results with what its branches yield, a branch's
operands with its successor's arguments, and each `func.return`'s operands with those
of the function's first return. Seeds and joins the model leaves out (other ops'
layouts, loops, calls) only take conflicts away, so it refuses only what PTOAS refuses.
Walks are MLIR's post-order, as PTOAS's: where only the modelled seeds conflict, the
first conflict reported is PTOAS's first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xla_emit.dialects.pto.vmi_rules import physical_arity, storage_bits
from xla_emit.dialects.pto.vpto_types import VMILayoutAttr, VMIMaskType, VMIVRegType
from xla_emit.passes.analysis.vmi_legacy_form import vmi_form
from xla_emit.passes.analysis.vmi_lowering_checks import LAYOUT_CONTRACT, post_order, type_text
from xla_emit.passes.diagnostics import OpError


class _Classes:
    """Values that must share one fact, and the fact each class has, if any."""

    def __init__(self, fact_name: str, show: Callable[[Attribute | str], str]) -> None:
        self.fact_name = fact_name
        self.show = show
        self.parent: dict[SSAValue, SSAValue] = {}
        self.fact: dict[SSAValue, Attribute | str] = {}

    def tracks(self, value: SSAValue) -> bool:
        raise NotImplementedError

    def find(self, value: SSAValue) -> SSAValue:
        root = value
        while self.parent.get(root, root) is not root:
            root = self.parent[root]
        self.parent[value] = root
        return root

    def _conflict(self, op: Operation, first: Attribute | str, second: Attribute | str) -> OpError:
        return OpError(
            op,
            f"{LAYOUT_CONTRACT}conflicting {self.fact_name} {self.show(first)} and "
            f"{self.show(second)}",
        )

    def seed(self, value: SSAValue, fact: Attribute | str, op: Operation) -> None:
        root = self.find(value)
        existing = self.fact.get(root)
        if existing is not None and existing != fact:
            raise self._conflict(op, existing, fact)
        self.fact[root] = fact

    def unite(self, lhs: SSAValue, rhs: SSAValue, op: Operation) -> None:
        left, right = self.find(lhs), self.find(rhs)
        if left is right:
            return
        a, b = self.fact.get(left), self.fact.get(right)
        if a is not None and b is not None and a != b:
            raise self._conflict(op, a, b)
        self.parent[right] = left
        if a is None and b is not None:
            self.fact[left] = b


# -- joins both solvers share --------------------------------------------------------------


Returns = dict[Operation, tuple[SSAValue, ...]]


def _joins(op: Operation, first_returns: Returns) -> Iterator[tuple[SSAValue, SSAValue]]:
    """The (value, value) pairs an op makes equivalent, in PTOAS's order."""
    if op.name == "scf.if":
        for index, result in enumerate(op.results):
            for region in op.regions:
                terminator = region.blocks[0].last_op if region.blocks else None
                if terminator is not None and index < len(terminator.operands):
                    yield result, terminator.operands[index]
    elif op.name in ("cf.br", "cf.cond_br"):
        yield from _branch_pairs(op)
    elif op.name == "func.return":
        function = op.parent_op()
        while function is not None and function.name != "func.func":
            function = function.parent_op()
        if function is None:
            return
        if function not in first_returns:
            first_returns[function] = tuple(op.operands)
            return
        yield from zip(first_returns[function], op.operands, strict=False)


def _branch_pairs(op: Operation) -> Iterator[tuple[SSAValue, SSAValue]]:
    if op.name == "cf.br":
        groups: list[tuple[Block, tuple[SSAValue, ...]]] = [(op.successors[0], tuple(op.operands))]
    else:
        true_ops = tuple(op.then_arguments)  # type: ignore[attr-defined]
        false_ops = tuple(op.else_arguments)  # type: ignore[attr-defined]
        groups = [(op.successors[0], true_ops), (op.successors[1], false_ops)]
    for dest, operands in groups:
        yield from zip(operands, dest.args, strict=False)


def _walk_joins(classes: _Classes, op: Operation, firsts: Returns) -> None:
    for lhs, rhs in _joins(op, firsts):
        if classes.tracks(lhs) and classes.tracks(rhs):
            classes.unite(lhs, rhs, op)


# -- mask granularity ------------------------------------------------------------------------

_GRANULARITIES: Final = {8: "b8", 16: "b16", 32: "b32"}
_BINARY_MASK_LOGIC: Final = frozenset(
    f"pto.vmi.{name}" for name in ("mask_and", "mask_or", "mask_xor")
)
_MASK_LOGIC: Final = _BINARY_MASK_LOGIC | {"pto.vmi.mask_not"}
_LEGACY_COMPARES: Final = frozenset({"pto.vmi.cmpf", "pto.vmi.cmpi"})
_UNIFIED_COMPARES: Final = frozenset({"pto.vmi.vcmp", "pto.vmi.vcmps"})


class _MaskClasses(_Classes):
    def tracks(self, value: SSAValue) -> bool:
        return isinstance(value.type, VMIMaskType)


def check_mask_granularities(module: ModuleOp, lowered: bool) -> None:
    """`-vmi-mask-granularity-assignment`'s conflicts between the masks it must join.
    A unified `vcmp` is read as the rewrite makes it (`cmpf`/`cmpi`, then a
    `mask_and` with its seed mask) once `-vmi-lower-unified-to-legacy` ran."""
    classes = _MaskClasses("mask granularities", str)
    ops = post_order(module)
    for op in ops:  # every mask's own granularity first, as PTOAS collects them
        for value in _defined_values(op):
            own = value.type.granularity.data if classes.tracks(value) else None  # type: ignore[attr-defined]
            if own in _GRANULARITIES.values():
                classes.fact[value] = own
    firsts: Returns = {}
    for op in ops:
        if op.name in _MASK_LOGIC or op.name == "pto.vmi.ensure_mask_layout":
            for operand in op.operands[1:] if op.name in _BINARY_MASK_LOGIC else ():
                classes.unite(op.operands[0], operand, op)
            classes.unite(op.operands[0], op.results[0], op)
        elif _compares(op, lowered) and classes.tracks(op.results[0]):
            bits = storage_bits(op.operands[0].type.element_type)  # type: ignore[attr-defined]
            granularity = _GRANULARITIES.get(bits)
            if granularity is not None:
                classes.seed(op.results[0], granularity, op)
            if op.name in _UNIFIED_COMPARES and len(op.operands) > 2:
                classes.unite(op.results[0], op.operands[2], op)
        _walk_joins(classes, op, firsts)


def _compares(op: Operation, lowered: bool) -> bool:
    if not op.results:
        return False
    return op.name in _LEGACY_COMPARES or (lowered and op.name in _UNIFIED_COMPARES)


def _defined_values(op: Operation) -> Iterator[SSAValue]:
    yield from op.results
    for region in op.regions:
        for block in region.blocks:
            yield from block.args


# -- preferred data layouts --------------------------------------------------------------------


def vmi_layout(kind: str, factor: int = 1, lane_stride: int = 1) -> VMILayoutAttr:
    return VMILayoutAttr(
        StringAttr(kind), IntAttr(factor), IntAttr(1), IntAttr(0), IntAttr(lane_stride)
    )


_WIDENING: Final = frozenset(f"pto.vmi.{name}" for name in ("extf", "extsi", "extui"))


def preferred_widening_layout(source: VMIVRegType, result: VMIVRegType) -> VMILayoutAttr | None:
    """The result layout PTOAS's cast tables prefer for a 2x or 4x widening cast."""
    wide, narrow = storage_bits(result.element_type), storage_bits(source.element_type)
    if not wide or not narrow or wide % narrow or wide // narrow not in (2, 4):
        return None
    factor = wide // narrow
    # High-priority rows: a one-register lane-strided source into one contiguous register.
    strided = VMIVRegType(source.count, source.element_type, vmi_layout("contiguous", 1, factor))
    dense = VMIVRegType(result.count, result.element_type, vmi_layout("contiguous"))
    if physical_arity(strided) == 1 and physical_arity(dense) == 1:
        return vmi_layout("contiguous")
    # Exact rows for 64 lanes (16 or 8 to 32 bits), then the default rows.
    if source.count.data == 64 and wide == 32:
        return vmi_layout("contiguous")
    return vmi_layout("deinterleaved", factor)


class _DataClasses(_Classes):
    def tracks(self, value: SSAValue) -> bool:
        return isinstance(value.type, VMIVRegType)


def check_preferred_layouts(module: ModuleOp, lowered: bool) -> None:
    """`-vmi-layout-assignment`'s conflicts between the preferred layouts of values it
    must give one layout."""
    classes = _DataClasses("preferred layouts", _layout_text)
    firsts: Returns = {}
    for op in post_order(module):
        if op.name.startswith("pto.vmi."):
            form = vmi_form(op, lowered)
            source, result = form.type("source"), form.type("result")
            if (
                form.name in _WIDENING
                and isinstance(source, VMIVRegType)
                and isinstance(result, VMIVRegType)
            ):
                layout = preferred_widening_layout(source, result)
                if layout is not None:
                    classes.seed(op.results[0], layout, op)
        _walk_joins(classes, op, firsts)


def _layout_text(layout: Attribute | str) -> str:
    return type_text(layout) if isinstance(layout, Attribute) else layout
