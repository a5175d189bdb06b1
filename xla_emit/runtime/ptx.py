"""PTX from LLVM IR through llvmlite's NVPTX target (an optional extra: `pip install .[llvm]`).

The module is verified, optimized by LLVM's O3 pipeline (as XLA optimizes its
kernels before the NVPTX backend; that is where loads get their alignment
from the arguments' and become vector loads) and emitted for `sm_90`.
"""

from __future__ import annotations

from typing import Any

from xla_emit.diagnostics import UserError

DEFAULT_COMPUTE_CAPABILITY = "sm_90"
# The PTX ISA version that `sm_90` needs at least.
_PTX_FEATURES = "+ptx80"


def load_llvmlite() -> Any:
    """llvmlite's binding with the targets initialized, or a `UserError` saying how to get it."""
    try:
        import llvmlite.binding as binding
    except ImportError:
        raise UserError("PTX needs llvmlite: pip install 'xla-emit[llvm]'") from None
    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    return binding


def optimized_llvm_ir(llvm_ir: str, cpu: str = DEFAULT_COMPUTE_CAPABILITY) -> str:
    binding = load_llvmlite()
    module, _ = _optimize(binding, llvm_ir, cpu)
    return str(module)


def llvm_ir_to_ptx(llvm_ir: str, cpu: str = DEFAULT_COMPUTE_CAPABILITY) -> str:
    """The PTX of an NVPTX module in LLVM IR text, optimized at O3."""
    binding = load_llvmlite()
    module, machine = _optimize(binding, llvm_ir, cpu)
    return str(machine.emit_assembly(module))


def _optimize(binding: Any, llvm_ir: str, cpu: str) -> tuple[Any, Any]:
    try:
        module = binding.parse_assembly(llvm_ir)
        module.verify()
    except RuntimeError as error:
        raise UserError(f"invalid LLVM IR: {first_error_line(str(error))}") from None
    target = binding.Target.from_triple(module.triple)
    machine = target.create_target_machine(cpu=cpu, features=_PTX_FEATURES, opt=3)
    tuning = binding.create_pipeline_tuning_options(speed_level=3)
    builder = binding.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)
    return module, machine


def first_error_line(message: str) -> str:
    """The line of LLVM's message that says what is wrong (`<string>:L:C: error: ...`)."""
    lines = message.strip().splitlines()
    return next((line for line in lines if "error:" in line), lines[0] if lines else message)
