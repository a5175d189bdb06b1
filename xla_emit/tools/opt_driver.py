"""What `xla-emit-opt` does with one chunk of input: parse (or emit), verify, run passes, print.

Kept apart from the command line (`tools/opt.py`) so that `--help` and
`--version` answer before xDSL's dialects, the emitters and the passes load;
and the spelling policy, the passes and the emitters load only when a chunk
needs them, so a file with no pass starts as fast as plain `xdsl-opt`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from io import StringIO
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, parse_mlir, verify_module
from xla_emit.ir.locations import DebugInfoPrinter
from xla_emit.runtime.sources import input_format
from xla_emit.runtime.timing import PARSE, PRINT, VERIFY, Timer

if TYPE_CHECKING:
    from xdsl.dialects.func import FuncOp
    from xdsl.ir import Operation

    from xla_emit.hlo.ir import HloInstruction
    from xla_emit.tools.pass_pipeline import PipelineStep


@dataclass(frozen=True)
class IRPrinting:
    """When to print the IR around a pass, as mlir-opt's `--mlir-print-ir-*` flags say."""

    before: frozenset[str] = frozenset()
    after: frozenset[str] = frozenset()
    before_all: bool = False
    after_all: bool = False
    # With after-printing on, print only when the pass changed the IR.
    after_change: bool = False
    # Print after a pass only when it failed (alone, this turns after-printing on).
    after_failure: bool = False

    def prints_before(self, name: str) -> bool:
        return self.before_all or name in self.before

    def prints_after(self, name: str) -> bool:
        """After `name` succeeded (`--mlir-print-ir-after-failure` alone prints no success)."""
        return self.after_all or name in self.after

    def prints_after_failure(self, name: str) -> bool:
        return self.after_failure or self.prints_after(name)


@dataclass(frozen=True)
class DriverOptions:
    """The flags that change how a chunk is processed."""

    passes: str
    print_ir_after_all: bool
    print_op_generic: bool
    allow_unregistered_dialect: bool
    emit: str | None
    print_partitions: bool
    input_format: str | None
    print_debuginfo: bool = False
    ir_printing: IRPrinting = field(default_factory=IRPrinting)
    # The one fusion of an HLO module to emit (None: every fusion).
    fusion: str | None = None
    # Emit library fusions' kernels too, which a run never launches (else they are listed).
    emit_library_kernels: bool = False
    # `--pass-pipeline`'s steps, each run on the module or on each function (empty: `passes`
    # on the module).
    steps: tuple[PipelineStep, ...] = ()


class Driver:
    """Runs one chunk of input at a time: parse, verify, apply the pipeline, print."""

    def __init__(self, options: DriverOptions, timer: Timer):
        self.options = options
        self.timer = timer
        self.ctx: Context = make_context(options.allow_unregistered_dialect)
        # The spelling the chunk being run is printed in when --emit names none;
        # None prints the ops as they are.
        self.spelling: str | None = None
        printing = options.ir_printing
        self.ir_printing = replace(
            printing, after_all=printing.after_all or options.print_ir_after_all
        )
        # The pass running now and the IR it was given (for after-change), by name.
        self._running: str | None = None
        self._text_before: str | None = None
        # The function a `func.func(...)` list runs on now (None: the whole module).
        self._function: FuncOp | None = None

    def run_chunk(self, text: str, file: str) -> str:
        """The printed result of one chunk (`UserError` on bad input or a failing pass)."""
        kind = input_format(text, file, self.options.input_format)
        if kind == "hlo":
            return self._run_hlo(text, file)
        if kind == "pto":
            from xla_emit.pto.assembly import pto_as_to_mlir

            # PTO-AS assembly becomes MLIR line for line, so locations still hold.
            text = pto_as_to_mlir(text, file)
        if not _has_content(text):
            # As mlir-opt and xdsl-opt: no ops is an empty module.
            return self._print(ModuleOp([]), None)
        with self.timer.measure(PARSE):
            module, source_map = parse_mlir(text, file, self.ctx)
        with self.timer.measure(VERIFY):
            verify_module(module, source_map)
        self.spelling = None
        if self.options.passes.strip():
            from xla_emit.dialects.xla.seed_spelling import SEED_SPELLING
            from xla_emit.passes.gpu.respell import module_spelling

            # Input with no target-neutral op takes the seed's spelling, as HLO does;
            # with no pass, nothing was built and the module prints as written.
            self.spelling = module_spelling(module) or SEED_SPELLING
            self._apply_passes(module, source_map)
        return self._output(module, source_map)

    def _run_hlo(self, text: str, file: str) -> str:
        from xla_emit.dialects.xla.seed_spelling import SEED_SPELLING
        from xla_emit.emitters import format_hlo_partitions

        if self.options.print_partitions:
            return format_hlo_partitions(text, file)
        with self.timer.measure("parse HLO and emit"):
            module = self._emit_hlo(text, file)
        source_map = SourceMap(file, text)
        with self.timer.measure(VERIFY):
            verify_module(module, source_map)
        self.spelling = SEED_SPELLING
        self._apply_passes(module, source_map)
        return self._output(module, source_map)

    def _output(self, module: ModuleOp, source_map: SourceMap) -> str:
        """The module printed, or with `--emit=llvm|ptx` its LLVM IR or PTX."""
        if self.options.emit in TARGET_LANGUAGES:
            return target_code(module, source_map, self.options.emit)
        return self._print(module, self.options.emit or self.spelling)

    def _emit_hlo(self, text: str, file: str) -> ModuleOp:
        """The kernels of the module's fusions (or of `--fusion`'s one) in one module.

        A module without fusions (HLO before XLA's passes, as `jax.jit(f).lower(x)
        .as_text(dialect="hlo")` prints it) gets the kernels `xla-emit-run` launches for
        it: every instruction that is neither a library call nor bookkeeping, as a fusion
        of its own.
        """
        from xla_emit.emitters.fusion import emit_fusions_module, fusion_instructions
        from xla_emit.hlo.launches import unfused_library_calls
        from xla_emit.hlo.parser import parse_hlo_module
        from xla_emit.hlo.select_fusion import fusion_named
        from xla_emit.runtime.module_runtime import kernel_fusions

        hlo = parse_hlo_module(text, file)
        fusions = fusion_instructions(hlo)
        if not fusions:
            fusions = _unique_names(kernel_fusions(hlo))
            if not fusions:
                raise UserError(
                    f"module '{hlo.name}' has no fusion and no op that runs as a kernel"
                )
            sys.stderr.write(
                f"note: module '{hlo.name}' has no fusions (HLO before XLA's passes?): each op "
                "is emitted as a kernel of its own, as xla-emit-run runs it; XLA's fusions come "
                "from its optimized module (xla-emit-jax writes it)\n"
            )
        # The library calls a run makes outside any fusion are listed beside the library
        # fusions', so that the module shows every launch of a run (one fusion: its own).
        unfused = unfused_library_calls(hlo)
        if self.options.fusion is not None:
            fusions = [fusion_named(hlo, self.options.fusion, fusions)]
            unfused = []
        return emit_fusions_module(fusions, self.options.emit_library_kernels, unfused)

    def _apply_passes(self, module: ModuleOp, source_map: SourceMap) -> None:
        from xla_emit.runtime.pipeline import apply_pipeline, apply_pipeline_to_each_function
        from xla_emit.tools.pass_pipeline import FUNCTION, MODULE, PipelineStep

        steps = self.options.steps or (PipelineStep(MODULE, self.options.passes),)
        hooks = (self.ctx, source_map, self._after_pass, self.timer, self._before_pass)
        try:
            for step in steps:
                if step.anchor == FUNCTION:
                    apply_pipeline_to_each_function(
                        module, step.passes, *hooks, entering=self._enter_function
                    )
                else:
                    self._function = None
                    apply_pipeline(module, step.passes, *hooks)
        except UserError:
            if self._running is not None and self.ir_printing.prints_after_failure(self._running):
                self._dump(f"After {self._running} Failed", module)
            raise
        finally:
            self._running = None
            self._function = None

    def _enter_function(self, function: FuncOp) -> None:
        """Dumps around the passes that follow show `function` alone, as mlir-opt's do."""
        self._function = function

    def _before_pass(self, name: str, module: ModuleOp) -> None:
        self._running = name
        printing = self.ir_printing
        if printing.prints_before(name):
            self._dump(f"Before {name}", module)
        if printing.after_change and printing.prints_after(name):
            self._text_before = self._print(module, self.spelling)

    def _after_pass(self, name: str, module: ModuleOp, _seconds: float) -> None:
        from xla_emit.passes.gpu.respell import RespellPass, module_spelling

        self._running = None
        if name == RespellPass.name:
            # The pass has chosen the spelling: keep it for the output.
            self.spelling = module_spelling(module) or self.spelling
        printing = self.ir_printing
        if not printing.prints_after(name):
            return
        text = self._print(module, self.spelling)
        if printing.after_change and text == self._text_before:
            return
        sys.stderr.write(f"// -----// IR Dump After {name}{self._scope()} //----- //\n{text}")

    def _scope(self) -> str:
        """mlir-opt's note of the op a nested pass ran on (`('func.func' operation: @f)`)."""
        if self._function is None:
            return ""
        return f" ('func.func' operation: @{self._function.sym_name.data})"

    def _dump(self, what: str, module: ModuleOp) -> None:
        """The IR with MLIR's `// -----// IR Dump <what> //----- //` header, on stderr."""
        try:
            text = self._print(module, self.spelling)
        except Exception:  # noqa: BLE001 - a failed pass may leave IR the custom printers reject
            text = self._print(module, None, generic=True)
        sys.stderr.write(f"// -----// IR Dump {what}{self._scope()} //----- //\n{text}")

    def _print(self, module: ModuleOp, spelling: str | None, generic: bool = False) -> str:
        """`module` as text, its target-neutral ops spelled as `spelling` (None: as they are).

        With `--mlir-print-debuginfo` every op carries `loc(#locN)` and the
        aliases follow the module, as mlir-opt prints them.
        """
        with self.timer.measure(PRINT):
            if spelling is not None:
                from xla_emit.passes.gpu.respell import RespellPass

                RespellPass(spelling).apply(self.ctx, module)
            out = StringIO()
            generic = generic or self.options.print_op_generic
            shown: Operation = module
            if self._function is not None and self._function.parent_op() is module:
                shown = self._function
            if self.options.print_debuginfo:
                DebugInfoPrinter(
                    stream=out, print_generic_format=generic, print_debuginfo=True
                ).print_module_with_aliases(shown)
                return out.getvalue()
            Printer(stream=out, print_generic_format=generic).print_op(shown)
            out.write("\n")
            return out.getvalue()

    def error_of(self, text: str, file: str) -> UserError | None:
        """The error running `text` raises, if any (for `--verify-diagnostics`)."""
        try:
            self.run_chunk(text, file)
        except UserError as error:
            return error
        return None


# `--emit` values that print the code below MLIR rather than a spelling of it.
TARGET_LANGUAGES = ("llvm", "ptx")


def target_code(module: ModuleOp, source_map: SourceMap, language: str) -> str:
    """LLVM IR (or PTX) of a module in the `llvm` dialect; an op that has no
    translation is a located error."""
    from xla_emit.ir import op_error
    from xla_emit.passes.diagnostics import OpError
    from xla_emit.runtime.llvm_ir import module_to_llvm_ir

    try:
        llvm_ir = module_to_llvm_ir(module)
    except OpError as error:
        hint = " (run xla-lower-tensors,xla-lower-to-llvm first)"
        raise op_error(error.op, error.message + hint, source_map, error.notes) from None
    if language == "llvm":
        return llvm_ir
    from xla_emit.runtime.ptx import llvm_ir_to_ptx

    return llvm_ir_to_ptx(llvm_ir)


def _unique_names(fusions: list[HloInstruction]) -> list[HloInstruction]:
    """The first fusion of each name (a sort's comparator kernels share theirs)."""
    seen: dict[str, HloInstruction] = {}
    for fusion in fusions:
        seen.setdefault(fusion.name, fusion)
    return list(seen.values())


def _has_content(text: str) -> bool:
    """Whether `text` holds anything but blank lines and `//` comments."""
    return any(line.strip() and not line.strip().startswith("//") for line in text.splitlines())
