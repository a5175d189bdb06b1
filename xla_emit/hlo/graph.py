"""Order and cycle checks of an HLO module's graphs.

Instructions may be written before their operands, but no instruction may
depend on itself; computations call each other in a DAG. Both are checked
with explicit stacks, so a long chain cannot exhaust Python's recursion.
"""

from __future__ import annotations

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction


def definition_order(instructions: list[HloInstruction]) -> list[HloInstruction]:
    """Source order, except that an operand is moved before its first user."""
    ordered: list[HloInstruction] = []
    state: dict[HloInstruction, int] = {}  # 1 = visiting, 2 = done
    for start in instructions:
        if state.get(start) == 2:
            continue
        stack: list[tuple[HloInstruction, int]] = [(start, 0)]
        while stack:
            instr, next_operand = stack.pop()
            if next_operand == 0:
                if state.get(instr) == 2:
                    continue
                state[instr] = 1
            if next_operand < len(instr.operands):
                stack.append((instr, next_operand + 1))
                operand = instr.operands[next_operand]
                if state.get(operand) == 1:
                    raise UserError(
                        f"instruction '{instr.name}' depends on itself through '{operand.name}'",
                        instr.location,
                    )
                if state.get(operand) is None:
                    stack.append((operand, 0))
                continue
            state[instr] = 2
            ordered.append(instr)
    return ordered


def reject_call_cycles(computations: list[HloComputation]) -> None:
    """HLO computations form a DAG: a cycle would make every consumer recurse forever."""
    callees = {
        c: [(callee, i) for i in c.instructions for callee in i.called_computations]
        for c in computations
    }
    state: dict[HloComputation, int] = {}  # 1 = on the current path, 2 = done
    for start in computations:
        if start in state:
            continue
        path: list[HloComputation] = [start]
        stack = [iter(callees[start])]
        state[start] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            callee, instruction = step
            if state.get(callee) == 1:
                cycle = [*path[path.index(callee) :], callee]
                names = " -> ".join(c.name for c in cycle)
                raise UserError(
                    f"{instruction.opcode} '{instruction.name}' calls '{callee.name}', "
                    f"which is already being called: the call graph has a cycle ({names})",
                    instruction.location,
                )
            if callee not in state:
                state[callee] = 1
                path.append(callee)
                stack.append(iter(callees[callee]))
