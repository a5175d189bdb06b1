"""What `xla-emit-opt` does with one chunk of input: parse (or emit), verify, run passes, print.

Kept apart from the command line (`tools/opt.py`) so that `--help` and
`--version` answer before xDSL's dialects, the emitters and the passes load;
and the spelling policy, the passes and the emitters load only when a chunk
needs them, so a file with no pass starts as fast as plain `xdsl-opt`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from io import StringIO
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, parse_mlir, verify_module
from xla_emit.runtime.sources import input_format
from xla_emit.runtime.timing import PARSE, PRINT, VERIFY, Timer

if TYPE_CHECKING:
    from xla_emit.hlo.ir import HloInstruction


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
    # For HLO input: emit only the fusion of this name (its HLO or its kernel name).
    fusion: str | None = None


class Driver:
    """Runs one chunk of input at a time: parse, verify, apply the pipeline, print."""

    def __init__(self, options: DriverOptions, timer: Timer):
        self.options = options
        self.timer = timer
        self.ctx: Context = make_context(options.allow_unregistered_dialect)
        # The spelling the chunk being run is printed in when --emit names none;
        # None prints the ops as they are.
        self.spelling: str | None = None

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
            from dialects.xla.seed_spelling import SEED_SPELLING
            from passes.gpu.respell import module_spelling

            # Input with no target-neutral op takes the seed's spelling, as HLO does;
            # with no pass, nothing was built and the module prints as written.
            self.spelling = module_spelling(module) or SEED_SPELLING
            self._apply_passes(module, source_map)
        return self._print(module, self.options.emit or self.spelling)

    def _run_hlo(self, text: str, file: str) -> str:
        from dialects.xla.seed_spelling import SEED_SPELLING
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
        return self._print(module, self.options.emit or self.spelling)

    def _emit_hlo(self, text: str, file: str) -> ModuleOp:
        """The kernels of the module's fusions (or of `--fusion`'s one) in one module.

        A module without fusions (HLO before XLA's passes, as `jax.jit(f).lower(x)
        .as_text(dialect="hlo")` prints it) gets the kernels `xla-emit-run` launches for
        it: every instruction that is neither a library call nor bookkeeping, as a fusion
        of its own.
        """
        from xla_emit.emitters.fusion import emit_kernels, fusion_instructions, kernels_module
        from xla_emit.hlo.parser import parse_hlo_module
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
        if self.options.fusion is not None:
            fusions = [_named_fusion(fusions, self.options.fusion, file)]
        return kernels_module(emit_kernels(fusions))

    def _apply_passes(self, module: ModuleOp, source_map: SourceMap) -> None:
        from xla_emit.runtime.pipeline import apply_pipeline

        apply_pipeline(
            module, self.options.passes, self.ctx, source_map, self._after_pass, self.timer
        )

    def _after_pass(self, name: str, module: ModuleOp, _seconds: float) -> None:
        from passes.gpu.respell import RespellPass, module_spelling

        if name == RespellPass.name:
            # The pass has chosen the spelling: keep it for the output.
            self.spelling = module_spelling(module) or self.spelling
        if self.options.print_ir_after_all:
            sys.stderr.write(f"// -----// IR Dump After {name} //----- //\n")
            sys.stderr.write(self._print(module, self.spelling))

    def _print(self, module: ModuleOp, spelling: str | None) -> str:
        """`module` as text, its target-neutral ops spelled as `spelling` (None: as they are)."""
        with self.timer.measure(PRINT):
            if spelling is not None:
                from passes.gpu.respell import RespellPass

                RespellPass(spelling).apply(self.ctx, module)
            out = StringIO()
            printer = Printer(stream=out, print_generic_format=self.options.print_op_generic)
            printer.print_op(module)
            out.write("\n")
            return out.getvalue()

    def error_of(self, text: str, file: str) -> UserError | None:
        """The error running `text` raises, if any (for `--verify-diagnostics`)."""
        try:
            self.run_chunk(text, file)
        except UserError as error:
            return error
        return None


def _unique_names(fusions: list[HloInstruction]) -> list[HloInstruction]:
    """The first fusion of each name (a sort's comparator kernels share theirs)."""
    seen: dict[str, HloInstruction] = {}
    for fusion in fusions:
        seen.setdefault(fusion.name, fusion)
    return list(seen.values())


def _named_fusion(fusions: list[HloInstruction], name: str, file: str) -> HloInstruction:
    from xla_emit.emitters.partitioner import sanitize_function_name

    for fusion in fusions:
        if name in (fusion.name, sanitize_function_name(fusion.name)):
            return fusion
    listed = ", ".join(fusion.name for fusion in fusions)
    raise UserError(f"{file}: no fusion named '{name}' (the fusions: {listed})")


def _has_content(text: str) -> bool:
    """Whether `text` holds anything but blank lines and `//` comments."""
    return any(line.strip() and not line.strip().startswith("//") for line in text.splitlines())
