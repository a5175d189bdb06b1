"""PTX from LLVM IR through llvmlite's NVPTX target (an optional extra: `pip install .[llvm]`).

The module is verified, linked with libdevice where it calls `__nv_*` functions
(as XLA links it: libdevice's functions become internal, so the optimizer keeps
only those called and inlines them), optimized by LLVM's O3 pipeline (as XLA
optimizes its kernels before the NVPTX backend; that is where loads get their
alignment from the arguments' and become vector loads) and emitted for `sm_90`,
f32 division and square root compiled as XLA compiles them.

libdevice (`libdevice.10.bc`) and `ptxas` come with the `nvidia-cuda-nvcc-cu12`
wheel (the `ptx` extra). Without libdevice the `__nv_*` functions stay
declarations: the PTX is valid but `ptxas` cannot resolve them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xla_emit.diagnostics import UserError

DEFAULT_COMPUTE_CAPABILITY = "sm_90"
# The PTX ISA version that `sm_90` needs at least.
_PTX_FEATURES = "+ptx80"
_LIBDEVICE_PREFIX = "__nv_"
# How XLA's NVPTX backend compiles an f32 division and square root, as its PTX
# shows (`div.full.f32`, `sqrt.approx.f32`; LLVM's defaults are the IEEE `.rn` ones).
_NVPTX_OPTIONS = ("-nvptx-prec-divf32=1", "-nvptx-prec-sqrtf32=0")


def load_llvmlite() -> Any:
    """llvmlite's binding with the targets initialized, or a `UserError` saying how to get it."""
    try:
        import llvmlite.binding as binding
    except ImportError:
        raise UserError("PTX needs llvmlite: pip install 'xla-emit[llvm]'") from None
    binding.initialize_all_targets()
    binding.initialize_all_asmprinters()
    for option in _NVPTX_OPTIONS:
        binding.set_option("xla-emit", option)
    return binding


def cuda_nvcc_root() -> Path | None:
    """The folder of the `nvidia-cuda-nvcc-cu12` wheel (`bin/ptxas`, `nvvm/libdevice/`)."""
    try:
        import nvidia.cuda_nvcc as nvcc  # type: ignore[import-not-found]
    except ImportError:
        return None
    paths = list(getattr(nvcc, "__path__", []))
    return Path(paths[0]) if paths else None


def libdevice_path() -> Path | None:
    root = cuda_nvcc_root()
    candidate = root / "nvvm" / "libdevice" / "libdevice.10.bc" if root else None
    return candidate if candidate is not None and candidate.is_file() else None


def ptxas_path() -> Path | None:
    """`ptxas` of the nvcc wheel, else the one on `PATH`."""
    root = cuda_nvcc_root()
    if root is not None and (root / "bin" / "ptxas").is_file():
        return root / "bin" / "ptxas"
    found = shutil.which("ptxas")
    return Path(found) if found else None


def optimized_llvm_ir(llvm_ir: str, cpu: str = DEFAULT_COMPUTE_CAPABILITY) -> str:
    binding = load_llvmlite()
    module, _ = _optimize(binding, llvm_ir, cpu)
    return str(module)


def llvm_ir_to_ptx(llvm_ir: str, cpu: str = DEFAULT_COMPUTE_CAPABILITY) -> str:
    """The PTX of an NVPTX module in LLVM IR text, linked with libdevice and optimized at O3."""
    binding = load_llvmlite()
    module, machine = _optimize(binding, llvm_ir, cpu)
    return str(machine.emit_assembly(module))


def _optimize(binding: Any, llvm_ir: str, cpu: str) -> tuple[Any, Any]:
    try:
        module = binding.parse_assembly(llvm_ir)
        module.verify()
    except RuntimeError as error:
        raise UserError(f"invalid LLVM IR: {first_error_line(str(error))}") from None
    link_libdevice(binding, module)
    target = binding.Target.from_triple(module.triple)
    machine = target.create_target_machine(cpu=cpu, features=_PTX_FEATURES, opt=3)
    tuning = binding.create_pipeline_tuning_options(speed_level=3)
    builder = binding.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)
    return module, machine


def link_libdevice(binding: Any, module: Any) -> bool:
    """Links libdevice into `module` if it calls `__nv_*` and libdevice is installed.

    Every function libdevice brings becomes internal, so that O3 inlines the
    ones called and drops the rest (XLA's NVPTX compiler does the same).
    """
    wanted = [
        f.name
        for f in module.functions
        if f.is_declaration and f.name.startswith(_LIBDEVICE_PREFIX)
    ]
    path = libdevice_path()
    if not wanted or path is None:
        return False
    library = binding.parse_bitcode(path.read_bytes())
    library.triple = module.triple
    library.data_layout = module.data_layout
    module.link_in(library)
    for function in module.functions:
        if function.name.startswith(_LIBDEVICE_PREFIX) and not function.is_declaration:
            function.linkage = binding.Linkage.internal
    return True


def first_error_line(message: str) -> str:
    """The line of LLVM's message that says what is wrong (`<string>:L:C: error: ...`)."""
    lines = message.strip().splitlines()
    return next((line for line in lines if "error:" in line), lines[0] if lines else message)


@dataclass(frozen=True)
class KernelResources:
    """What `ptxas -v` says of one kernel."""

    name: str
    registers: int
    spill_stores: int  # bytes
    spill_loads: int  # bytes
    shared_bytes: int
    stack_bytes: int


_FUNCTION_LINE = re.compile(r"Compiling entry function '([^']+)'|Function properties for (\S+)")
_REGISTERS = re.compile(r"Used (\d+) registers")
_SHARED = re.compile(r"(\d+) bytes smem")
_SPILLS = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")


def assemble(ptx: str, arch: str = DEFAULT_COMPUTE_CAPABILITY) -> list[KernelResources]:
    """Assembles `ptx` with `ptxas -v` for `arch`; each kernel's registers, spills and
    shared memory. A `UserError` if `ptxas` is missing or rejects the PTX."""
    ptxas = ptxas_path()
    if ptxas is None:
        raise UserError("ptxas not found: pip install 'xla-emit[ptx]' (nvidia-cuda-nvcc-cu12)")
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "kernel.ptx")
        Path(source).write_text(ptx)
        run = subprocess.run(
            [str(ptxas), "-v", f"-arch={arch}", source, "-o", os.path.join(folder, "k.cubin")],
            capture_output=True,
            text=True,
            check=False,
        )
    if run.returncode != 0:
        errors = [line for line in run.stderr.splitlines() if "error" in line]
        first = (errors or run.stderr.splitlines() or ["failed"])[0]
        if "Unresolved extern function '__nv_" in first and libdevice_path() is None:
            first += " (libdevice is missing: pip install 'xla-emit[ptx]')"
        raise UserError(f"ptxas: {first}")
    return parse_ptxas_report(run.stderr)


def parse_ptxas_report(text: str) -> list[KernelResources]:
    """The per-kernel figures of `ptxas -v`'s `info` lines."""
    kernels: list[KernelResources] = []
    name: str | None = None
    spills = (0, 0, 0)
    for line in text.splitlines():
        header = _FUNCTION_LINE.search(line)
        if header:
            name = header.group(1) or header.group(2)
            continue
        spill = _SPILLS.search(line)
        if spill:
            spills = (int(spill.group(1)), int(spill.group(2)), int(spill.group(3)))
            continue
        registers = _REGISTERS.search(line)
        if registers and name is not None:
            shared = _SHARED.search(line)
            kernels.append(
                KernelResources(
                    name=name,
                    registers=int(registers.group(1)),
                    spill_stores=spills[1],
                    spill_loads=spills[2],
                    shared_bytes=int(shared.group(1)) if shared else 0,
                    stack_bytes=spills[0],
                )
            )
            name, spills = None, (0, 0, 0)
    return kernels
