"""The backend rules of PTOAS's driver and of its VPTO backend's validation.

PTOAS compiles a module with one of two backends, EmitC (C++, the default) or VPTO,
chosen by `--pto-backend=` on the command line, else by the module's `pto.backend`
attribute, else by its child modules' (PTOAS `tools/ptoas/driver.cpp`,
`buildBackendInfo`):

- `pto.backend` is the string `emitc` or `vpto`.
- A command-line backend wins; a module whose child modules name different backends
  (a child without the attribute is EmitC) is compiled as a "fatobj" of one object
  per child: that mode writes a file, so it needs `-o PATH` (not `-`) and takes no
  flag that prints IR (`--emit-pto-ir`, `--emit-vpto`, `--emit-vpto-llvm-ir`, ...).
  Asked to print IR, the driver does not split the module: the backend then is the
  outer module's, else the children's if they agree.
- `--emit-vpto` and `--emit-vpto-llvm-ir` need the VPTO backend. A fatobj, and VPTO
  output that is an object, need the CANN toolchain `ASCEND_HOME_PATH` names.
- On the VPTO backend, A5 expands each tile op through a template
  (`tile_template_checks.py`: textract's location pairs); the async SDMA session ops need EmitC
  (`PTOValidateVPTOIR.cpp`), and the high-level memory-consistency ops
  (`pto.cmo.cacheinvalid`, `pto.fence.barrier_all`) must be lowered to `pto.dcci` /
  `pto.dsb` before LLVM emission (`VPTOLLVMEmitter.cpp`), which a full compile and
  `--emit-vpto-llvm-ir` run; so do `pto.ld_dev` / `pto.st_dev`, which only A5 with
  CANN 9.0.0 or newer lowers (`vpto_emission_checks.py`).
- Its kernel pipeline (run unless only `--emit-pto-ir` is asked) compiles kernel
  modules of a known core (`vpto_container_checks.py`) and outlines each
  `pto.section.simt` into a helper launched on its threads
  (`PTOOutlineSIMTSections.cpp`): the section sits in a function not marked
  `pto.simt_entry`, nests no other SIMT section, and launches a positive number of
  threads, at most 2048. Before that, A2/A3 tload/tstore views need a unit
  innermost stride and its persistent SIMT fragments (`llvm.alloca {pto.persistent}`)
  must be ones it can keep in registers (`simt_persistent_fragment.py`); after it, no
  register a load makes may leave the run of ops its inferred `pto.vecscope` covers
  (`vecscope_inference.py`), A5 integer `pto.vdiv`s must be ones its software library
  divides and no fp8 `arith.constant` may be left (`vpto_emission_checks.py`). (Its
  rule that no value defined inside escapes is
  MLIR's dominance, which the parser already enforces.)

`check_backend` raises `OpError` at the op the rule is about (the module, for the
driver's own errors), with PTOAS's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xla_emit.passes.analysis.simt_persistent_fragment import check_persistent_fragments
from xla_emit.passes.analysis.tile_template_checks import check_textract_templates
from xla_emit.passes.analysis.uncovered_tile_sections import check_uncovered_tile_sections
from xla_emit.passes.analysis.vecscope_inference import check_vecscope_escapes
from xla_emit.passes.analysis.vpto_container_checks import check_vpto_container
from xla_emit.passes.analysis.vpto_emission_checks import (
    check_a2a3_dma_strides,
    check_dev_access_lowering,
    check_fp8_constants,
    check_integer_vdiv,
)
from xla_emit.passes.diagnostics import OpError

BACKENDS = ("emitc", "vpto")
IR_OUTPUT_FLAGS = frozenset({"emit-pto-ir", "emit-vpto", "emit-vpto-llvm-ir", "pto-print-seam-ir"})
VPTO_ONLY_FLAGS = frozenset({"emit-vpto", "emit-vpto-llvm-ir", "pto-print-seam-ir"})
TOOLCHAIN_FREE_FLAGS = frozenset({"emit-pto-ir", "emit-vpto", "emit-vpto-llvm-ir"})
ASYNC_SESSION_OPS = frozenset(
    {
        "pto.comm.build_async_session",
        "pto.comm.tput_async",
        "pto.comm.tget_async",
        "pto.comm.wait_async_event",
        "pto.comm.test_async_event",
    }
)
MEMORY_CONSISTENCY_OPS = frozenset({"pto.cmo.cacheinvalid", "pto.fence.barrier_all"})
MAX_SIMT_THREADS = 2048


@dataclass(frozen=True)
class DriverOptions:
    """The `ptoas` options the backend rules read."""

    backend: str | None = None
    flags: frozenset[str] = frozenset()
    output: str | None = None
    # `--pto-arch` and `--cann-output-version`, where the command gives them.
    arch: str | None = None
    cann_version: str | None = None
    # Environment variables the command runs without (`env -u NAME ptoas ...`).
    unset_env: frozenset[str] = frozenset()

    @classmethod
    def from_words(cls, words: Sequence[str]) -> DriverOptions:
        """From a command's words after `ptoas` (`--pto-backend=vpto`, `-o`, `-`)."""
        backend, output, flags = None, None, set[str]()
        values: dict[str, str] = {}
        for at, word in enumerate(words):
            if word.startswith("--pto-backend="):
                backend = word.partition("=")[2]
            elif word == "-o" and at + 1 < len(words):
                output = words[at + 1]
            elif word.startswith("-"):
                flag, equals, value = word.lstrip("-").partition("=")
                flags.add(flag)
                if not equals and at + 1 < len(words) and not words[at + 1].startswith("-"):
                    value = words[at + 1]
                values[flag] = value
        arch, version = values.get("pto-arch"), values.get("cann-output-version")
        return cls(backend, frozenset(flags), output, arch or None, version or None)

    @property
    def prints_ir(self) -> bool:
        return bool(self.flags & IR_OUTPUT_FLAGS)


def _backend_attr(op: Operation) -> str | None:
    """A module's `pto.backend`, checked: `emitc`, `vpto` or none."""
    attr = op.attributes.get("pto.backend")
    if attr is None:
        return None
    if not isinstance(attr, StringAttr):
        raise OpError(op, "invalid pto.backend attribute. Expected string value 'emitc' or 'vpto'.")
    if attr.data not in BACKENDS:
        raise OpError(op, f"invalid pto.backend '{attr.data}'. Expected 'emitc' or 'vpto'.")
    return attr.data


def _children(module: ModuleOp) -> list[ModuleOp]:
    return [op for op in module.body.ops if isinstance(op, ModuleOp)]


def resolve_backend(module: ModuleOp, options: DriverOptions) -> str | None:
    """The one backend the module compiles with, or None for a fatobj of children."""
    children = _children(module)
    only_children = len(children) == len(list(module.body.ops))
    if options.backend is not None:
        split = not options.prints_ir and len(children) > 1 and only_children
        return None if split else options.backend
    own = _backend_attr(module)
    if own is not None:
        return own
    if not options.prints_ir and len(children) > 1:
        if not only_children:
            raise OpError(
                module,
                "mixed pto.backend fatobj mode expects either a single module or an outer "
                "module containing only child modules; found non-module top-level ops "
                "alongside child modules.",
            )
        return None
    chosen = {_backend_attr(child) or "emitc" for child in children}
    if len(chosen) > 1:
        return None
    return chosen.pop() if chosen else "emitc"


def check_backend(module: ModuleOp, options: DriverOptions) -> None:
    """The driver's backend rules and its toolchain, then the passes' rules: the core
    inference every backend runs (`uncovered_tile_sections.py`) and the VPTO backend's."""
    backend = resolve_backend(module, options)
    if backend is None:
        _check_fatobj(module, options)
    elif backend != "vpto" and options.flags & VPTO_ONLY_FLAGS:
        raise OpError(
            module,
            'VPTO-specific flags require --pto-backend=vpto or pto.backend = "vpto".',
        )
    check_uncovered_tile_sections(module)
    if backend == "vpto":
        _check_vpto_ops(module, options)
    # The driver only warns when it finds no toolchain; the object writer, after every
    # pass, fails.
    if "ASCEND_HOME_PATH" in options.unset_env and _needs_toolchain(backend, options):
        raise OpError(
            module,
            "CANN toolchain is required but was not initialized: ASCEND_HOME_PATH is "
            "required for VPTO fatobj emission.",
        )


def _needs_toolchain(backend: str | None, options: DriverOptions) -> bool:
    """A fatobj, or VPTO output that is an object rather than printed IR, is built by
    the CANN toolchain found through `ASCEND_HOME_PATH` (PTOAS `driver.cpp`)."""
    return backend is None or (backend == "vpto" and not options.flags & TOOLCHAIN_FREE_FLAGS)


def _check_fatobj(module: ModuleOp, options: DriverOptions) -> None:
    if options.prints_ir:
        raise OpError(
            module, "mixed pto.backend fatobj mode does not support debug IR output flags."
        )
    if options.output in (None, "-"):
        raise OpError(
            module, "mixed pto.backend fatobj mode requires an explicit file path passed with -o."
        )


def _check_vpto_ops(module: ModuleOp, options: DriverOptions) -> None:
    check_textract_templates(module, options.arch)
    # LLVM emission runs for a full compile and for --emit-vpto-llvm-ir only.
    emits_llvm = "emit-vpto-llvm-ir" in options.flags or not options.prints_ir
    for op in module.walk():
        if op.name in ASYNC_SESSION_OPS:
            raise OpError(
                op,
                "is not supported by the VPTO backend; async SDMA session operations "
                "currently require the EmitC backend",
            )
    if (options.flags & IR_OUTPUT_FLAGS) != {"emit-pto-ir"}:
        check_vpto_container(module)
        # Persistent fragments are materialized before the sections are outlined.
        check_a2a3_dma_strides(module, options.arch)
        check_persistent_fragments(module)
        for op in module.walk():
            if op.name == "pto.section.simt":
                _check_simt_outlining(op)
        check_vecscope_escapes(module)
        check_integer_vdiv(module)
        check_fp8_constants(module)
    if not emits_llvm:
        return
    check_dev_access_lowering(
        module, options.arch, options.cann_version, toolchain=not options.prints_ir
    )
    for op in module.walk():
        if op.name in MEMORY_CONSISTENCY_OPS:
            raise OpError(
                op,
                "is not supported by the VPTO backend yet; PTOAS validates the "
                "memory-consistency contract, but high-level CMO/fence ops must be lowered "
                "to `pto.dcci` or `pto.dsb` before VPTO LLVM lowering",
            )


def _check_simt_outlining(section: Operation) -> None:
    function = section.parent_op()
    while function is not None and function.name != "func.func":
        function = function.parent_op()
    if function is None:
        raise OpError(section, "must be nested in a func.func")
    if "pto.simt_entry" in function.attributes:
        raise OpError(section, "must not be nested in a function marked with 'pto.simt_entry'")
    if any(op.name == "pto.section.simt" for op in section.walk() if op is not section):
        raise OpError(section, "does not support nested pto.section.simt")
    _check_thread_count(section)


def _check_thread_count(section: Operation) -> None:
    """The product of the launch dimensions, each positive, at most MAX_SIMT_THREADS
    (checked dimension by dimension, as PTOAS does, so that no product overflows)."""
    dims = [_dim(section, name) for name in ("dimX", "dimY", "dimZ")]
    threads = 1
    for dim in dims:
        if dim <= 0 or threads > MAX_SIMT_THREADS // dim:
            raise OpError(
                section,
                "SIMT launch dimensions must have a positive product no greater than "
                f"{MAX_SIMT_THREADS}, got ({dims[0]}, {dims[1]}, {dims[2]})",
            )
        threads *= dim


def _dim(section: Operation, name: str) -> int:
    attr = section.properties.get(name, section.attributes.get(name))
    return attr.value.data if isinstance(attr, IntegerAttr) else 1
