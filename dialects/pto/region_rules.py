"""PTOAS main's C++ verifiers of the region ops its table builds (`lib/PTO/IR/PTO.cpp`).

- `pto.section.simt <<<x, y, z>>>`: inside a `func.func` not marked `pto.simt_entry`
  (that function is already a SIMT kernel), launch dimensions not negative, and no
  SIMT section nested in it;
- `pto.fusion_region`: one body block without arguments, ending in a `pto.yield`
  of one value per result, of the result's type;
- `pto.yield`: only as a fusion region's terminator, matching its results.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import enclosing_function

SIMT_ENTRY_ATTR = "pto.simt_entry"


def _int(op: Operation, name: str) -> int:
    attr = op.properties.get(name, op.attributes.get(name))
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def verify_section_simt(op: Operation) -> None:
    function = enclosing_function(op)
    if function is None:
        raise VerifyException("must be nested under a func.func")
    if any(_int(op, name) < 0 for name in ("dimX", "dimY", "dimZ")):
        raise VerifyException("requires non-negative i32 launch dimensions")
    if SIMT_ENTRY_ATTR in function.attributes:
        raise VerifyException(f"must not appear inside a function marked with '{SIMT_ENTRY_ATTR}'")
    if any(inner.name == "pto.section.simt" for inner in op.walk() if inner is not op):
        raise VerifyException("nested pto.section.simt is not allowed")


def _check_yielded(yielded: list[object], outputs: list[object]) -> None:
    for index, (value, output) in enumerate(zip(yielded, outputs, strict=True)):
        if value.type != output.type:  # type: ignore[attr-defined]
            raise VerifyException(
                f"expects yielded value #{index} to have type '{output.type}', "  # type: ignore[attr-defined]
                f"got '{value.type}'"  # type: ignore[attr-defined]
            )


def verify_fusion_region(op: Operation) -> None:
    region = op.regions[0]
    if not region.blocks:
        raise VerifyException("expects a non-empty body region")
    body = region.blocks[0]
    if body.args:
        raise VerifyException(f"expects body block to have no arguments, got {len(body.args)}")
    last = body.last_op
    if last is None or last.name != "pto.yield":
        raise VerifyException("expects body to terminate with pto.yield")
    if len(last.operands) != len(op.results):
        raise VerifyException(
            f"expects pto.yield to return {len(op.results)} values, got {len(last.operands)}"
        )
    _check_yielded(list(last.operands), list(op.results))


def verify_yield(op: Operation) -> None:
    parent = op.parent_op()
    if parent is None or parent.name != "pto.fusion_region":
        raise VerifyException("expects parent op to be pto.fusion_region")
    if len(op.operands) != len(parent.results):
        raise VerifyException(
            f"expects {len(parent.results)} yielded values to match parent results, "
            f"got {len(op.operands)}"
        )
    _check_yielded(list(op.operands), list(parent.results))


REGION_RULES: dict[str, Callable[[Operation], None]] = {
    "section.simt": verify_section_simt,
    "fusion_region": verify_fusion_region,
    "yield": verify_yield,
}
