"""A sort's comparator as a kernel over many pairs at once.

XLA:GPU compiles a sort's comparator into its sort kernel. The runtime's
library sort does the same with our emitters: the comparator, a computation
on scalars, is rewritten into a loop fusion over `count` lanes (each
parameter becomes an array of `count` elements, each scalar constant is
broadcast, each op keeps its opcode), so one kernel launch compares `count`
pairs.
"""

from __future__ import annotations

from dataclasses import replace

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import ArrayShape


def comparator_fusion(sort: HloInstruction, count: int) -> HloInstruction:
    """A kLoop fusion computing `sort`'s comparator on `count` pairs (parameters in order)."""
    comparator = sort.called_computations[0]
    lifted: dict[HloInstruction, HloInstruction] = {}
    instructions: list[HloInstruction] = []
    for instruction in comparator.instructions:
        shape = instruction.shape
        if not isinstance(shape, ArrayShape) or shape.rank != 0:
            raise _unsupported(sort, instruction, "it does not work on scalars")
        wide = ArrayShape(shape.element_type, (count,))
        operands = [lifted[o] for o in instruction.operands]
        if instruction.opcode == "parameter":
            copy = replace(instruction, shape=wide, operands=[])
        elif instruction.opcode == "constant":
            instructions.append(instruction)
            copy = HloInstruction(
                f"{instruction.name}.lanes", "broadcast", wide, [instruction], dimensions=()
            )
        elif instruction.opcode == "bitcast":
            # On scalars a bitcast only changes the type: a bitcast-convert on lanes.
            copy = replace(instruction, opcode="bitcast-convert", shape=wide, operands=operands)
        elif instruction.opcode in ELEMENTWISE_OPS:
            copy = replace(instruction, shape=wide, operands=operands)
        else:
            raise _unsupported(sort, instruction, "only elementwise comparators are supported")
        instructions.append(copy)
        lifted[instruction] = copy
    root = lifted[comparator.root]
    computation = HloComputation(f"{comparator.name}_lanes", instructions, root)
    parameters = [lifted[p] for p in comparator.parameters]
    return HloInstruction(
        f"{sort.name}_comparator",
        "fusion",
        root.shape,
        parameters,
        fusion_kind="kLoop",
        called_computations=[computation],
        location=sort.location,
    )


def _unsupported(sort: HloInstruction, op: HloInstruction, why: str) -> UserError:
    return UserError(
        f"sort '{sort.name}': comparator op {op.opcode} '{op.name}' cannot run as a kernel ({why})",
        op.location,
    )
