"""One fusion of an HLO module, by name (`--fusion NAME` of `xla-emit-opt` and `xla-emit-run`).

`xla-emit-opt --fusion NAME` emits that fusion's kernel alone;
`xla-emit-run --fusion NAME` runs it alone, as the module `fusion_as_module`
makes: an entry whose parameters are the fusion's operands, in order, and
whose root is the fusion. Its inputs `arg0, arg1, ...` are those operands.
"""

from __future__ import annotations

from dataclasses import replace

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.symbols import sanitize_function_name


def fusions_of(module: HloModule) -> list[HloInstruction]:
    """The module's fusion instructions, in the order of its computations and instructions."""
    return [
        instruction
        for computation in module.computations
        for instruction in computation.instructions
        if instruction.opcode == "fusion"
    ]


def fusion_named(
    module: HloModule, name: str, fusions: list[HloInstruction] | None = None
) -> HloInstruction:
    """The fusion instruction called `name`, among the module's fusions or `fusions`
    (`UserError` naming the fusions there are). A kernel's name (`fusion_1` for `fusion.1`,
    as the emitters and XLA's dumps name kernels) picks its fusion too."""
    fusions = fusions if fusions is not None else fusions_of(module)
    for fusion in fusions:
        if name in (fusion.name, sanitize_function_name(fusion.name)):
            return fusion
    there = ", ".join(f.name for f in fusions) or "none"
    raise UserError(f"module '{module.name}' has no fusion named '{name}' (its fusions: {there})")


def fusion_as_module(module: HloModule, name: str) -> HloModule:
    """A module that runs fusion `name` alone: its operands become the entry's parameters."""
    fusion = fusion_named(module, name)
    parameters = [
        HloInstruction(
            f"{fusion.name}.arg{number}",
            "parameter",
            operand.shape,
            parameter_number=number,
            location=operand.location,
        )
        for number, operand in enumerate(fusion.operands)
    ]
    root = replace(fusion, operands=list(parameters))
    entry = HloComputation(
        f"{fusion.name}.entry", [*parameters, root], root, is_entry=True, location=fusion.location
    )
    others = [c for c in module.computations if not c.is_entry and c is not module.entry]
    return HloModule(f"{module.name}.{fusion.name}", [*others, entry])
