"""`tpu` ops with regions, their terminator, and the tracing and grid-query ops.

Mosaic prints `tpu.region` and `tpu.trace` in generic form, as Pallas's
`pl.run_scoped` and `jax.named_scope` leave them:

    "tpu.region"() ({
      %alloca = memref.alloca() : memref<32x256xbf16, #tpu.memory_space<vmem>>
      ...
      tpu.yield
    }) : () -> ()
    "tpu.trace_start"() <{level = 10 : i32, message = "step"}> : () -> ()
    %b = tpu.iteration_bound 0 : i32
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, IntegerAttr, StringAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, ReturnLike
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`tpu.yield %a, %b : T, U`: ends a `tpu.region`/`tpu.trace` block with its results."""

    name = "tpu.yield"

    results_ = var_operand_def(AnyAttr())

    traits = traits_def(IsTerminator(), Pure(), ReturnLike())
    assembly_format = "attr-dict ($results_^ `:` type($results_))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()) -> None:
        super().__init__(operands=[values])


def _check_yield(op: IRDLOperation, region: Region) -> None:
    """The region is one block ending in `tpu.yield` of values typed like the op's results."""
    if len(region.blocks) != 1:
        raise VerifyException(f"'{op.name}' op expects a region with exactly one block")
    block = region.blocks.first
    assert block is not None
    terminator = block.last_op
    if not isinstance(terminator, YieldOp):
        raise VerifyException(f"'{op.name}' op expects its block to end in 'tpu.yield'")
    yielded = [value.type for value in terminator.results_]
    produced = [result.type for result in op.results]
    if yielded != produced:
        raise VerifyException(
            f"'{op.name}' op yields ({', '.join(map(str, yielded))}) but returns "
            f"({', '.join(map(str, produced))})"
        )


@irdl_op_definition
class RegionOp(IRDLOperation):
    """A scope (`pl.run_scoped`): allocations inside live until the region ends."""

    name = "tpu.region"

    results_ = var_result_def(AnyAttr())
    region = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, body: Block | Region, result_types: Sequence[Attribute] = ()) -> None:
        region = body if isinstance(body, Region) else Region(body)
        super().__init__(regions=[region], result_types=[result_types])

    def verify_(self) -> None:
        _check_yield(self, self.region)


@irdl_op_definition
class TraceOp(IRDLOperation):
    """A profiler trace scope around its region (`jax.named_scope` in a kernel)."""

    name = "tpu.trace"

    message = prop_def(StringAttr)
    level = prop_def(IntegerAttr[I32])
    results_ = var_result_def(AnyAttr())
    region = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def verify_(self) -> None:
        _check_yield(self, self.region)


@irdl_op_definition
class TraceStartOp(IRDLOperation):
    """Opens a profiler trace scope named `message`; `tpu.trace_stop` closes it."""

    name = "tpu.trace_start"

    message = prop_def(StringAttr)
    level = prop_def(IntegerAttr[I32])

    def __init__(self, message: str, level: int) -> None:
        super().__init__(
            properties={"message": StringAttr(message), "level": IntegerAttr(level, 32)}
        )


@irdl_op_definition
class TraceStopOp(IRDLOperation):
    """Closes the innermost open `tpu.trace_start` scope."""

    name = "tpu.trace_stop"


@irdl_op_definition
class IterationBoundOp(IRDLOperation):
    """`%n = tpu.iteration_bound 0 : i32`: the grid's size along dimension `dim`."""

    name = "tpu.iteration_bound"

    dim = prop_def(IntegerAttr[I32])
    result = result_def(i32)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$dim attr-dict `:` type($result)"

    def __init__(self, dim: int) -> None:
        super().__init__(properties={"dim": IntegerAttr(dim, 32)}, result_types=[i32])

    def verify_(self) -> None:
        if self.dim.value.data < 0:
            raise VerifyException(
                f"Expected a non-negative dimension, but got {self.dim.value.data}"
            )


REGION_OPS: tuple[type[IRDLOperation], ...] = (
    YieldOp,
    RegionOp,
    TraceOp,
    TraceStartOp,
    TraceStopOp,
    IterationBoundOp,
)
