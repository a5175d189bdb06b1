"""Collectives on one device, in the runtime's own code (the reference evaluator has its own
in `xla_emit.hlo.eval_control`; `--check` compares the two, so they share nothing).

With one device (replica and partition 0), `all-reduce`, `all-gather`, `all-to-all`,
`reduce-scatter` and `collective-broadcast` hand their operands back unchanged (a group of
one). `collective-permute` sends device `s` to device `t` for each `{s,t}` of its
`source_target_pairs`: device 0 keeps its operand where `{0,0}` is a pair, and receives
zeros where no pair sends to it.
"""

from __future__ import annotations

import re

import numpy as np

from xla_emit.hlo.ir import HloInstruction

_PAIR = re.compile(r"\{\s*(-?\d+)\s*,\s*(-?\d+)\s*\}")


def _targets_of_device_zero(instruction: HloInstruction) -> set[int]:
    """The devices device 0 sends to, read off `source_target_pairs={{s,t},...}`."""
    text = dict(instruction.extra_attributes).get("source_target_pairs", "")
    return {int(target) for source, target in _PAIR.findall(text) if int(source) == 0}


def one_device_collective(
    instruction: HloInstruction, operands: list[np.ndarray]
) -> np.ndarray | tuple[np.ndarray, ...]:
    """The collective's result on a single device."""
    if instruction.opcode.startswith("collective-permute"):
        kept = 0 in _targets_of_device_zero(instruction)
        first = operands[0]
        return first if kept else np.zeros(first.shape, first.dtype)
    if len(operands) == 1:
        return operands[0]
    return tuple(operands)
