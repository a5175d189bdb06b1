"""Running a pass pipeline on a kernel module, with a hook after every pass.

The runtime compiles each fusion through a pipeline (`xla-gpu-pipeline` by
default) and `--check` needs the IR after every pass: `apply_pipeline` runs a
`-p` spec (named pipelines expand as in `xla-emit-opt`), verifies after each
pass and tells `after_pass` the pass name, the module and the time the pass took.

The passes run one by one here (not through xDSL's `PassPipeline.apply`) so
that an error names the pass it came from, `[PASS] message`, and so that
`--timing` can tell each pass's time from the verification after it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from dialects import built_in_dialects
from passes.diagnostics import OpError
from passes.pipelines import available_passes, expand_pipelines, names_only_built_in_passes
from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, op_error, verify_module
from xla_emit.runtime.timing import VERIFY, Timer

DEFAULT_PIPELINE = "xla-gpu-pipeline"

AfterPass = Callable[[str, ModuleOp, float], None]
BeforePass = Callable[[str, ModuleOp], None]


def parse_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """The passes of a `-p` spec, named pipelines expanded (`UserError` if it is malformed)."""
    try:
        expanded = expand_pipelines(spec)
        return PassPipeline.parse_spec(available_passes(expanded), expanded).passes
    except (ValueError, ArgSpecParseError) as error:
        # ArgSpecParseError (a malformed spec) derives from BaseException, so name it.
        raise UserError(f"invalid pass pipeline '{spec}': {_dashed(str(error))}") from None


def _dashed(message: str) -> str:
    """xDSL's message with option names as MLIR spells them (`["max_unrol"]` -> `["max-unrol"]`)."""
    return re.sub(
        r'"([a-z0-9]+(?:_[a-z0-9]+)+)"', lambda m: '"' + m[1].replace("_", "-") + '"', message
    )


def apply_pipeline(
    module: ModuleOp,
    spec: str,
    ctx: Context | None = None,
    source_map: SourceMap | None = None,
    after_pass: AfterPass | None = None,
    timer: Timer | None = None,
    before_pass: BeforePass | None = None,
) -> None:
    """Run the passes of `spec` on `module` in place, verifying after each.

    Errors become `UserError`s whose message starts with the pass's name;
    `timer` (if any) gets each pass's time and the verification's under `verify`;
    `before_pass` (if any) sees the module as each pass receives it.
    """
    if not spec.strip():
        return
    passes = parse_pipeline(spec)
    ctx = ctx if ctx is not None else _context_for(spec)
    source_map = source_map if source_map is not None else SourceMap("<kernel>", "")
    timer = timer if timer is not None else Timer()
    for module_pass in passes:
        if before_pass is not None:
            before_pass(module_pass.name, module)
        started = time.perf_counter()
        _apply_one(module_pass, ctx, module, source_map)
        elapsed = time.perf_counter() - started
        timer.add(module_pass.name, elapsed)
        with timer.measure(VERIFY):
            _verify_after(module_pass, module, source_map)
        if after_pass is not None:
            after_pass(module_pass.name, module, elapsed)


def _context_for(spec: str) -> Context:
    """The context the passes of `spec` run in: xDSL's dialects and ours.

    Read from our own table when every pass is xDSL's or ours (no scan of the
    installed packages' entry points); a plugin's pass may need its package's
    dialects, so then every published dialect.
    """
    if names_only_built_in_passes(expand_pipelines(spec)):
        return make_context(ours=built_in_dialects())
    return make_context()


def _apply_one(
    module_pass: ModulePass, ctx: Context, module: ModuleOp, source_map: SourceMap
) -> None:
    try:
        module_pass.apply(ctx, module)
    except OpError as error:
        error = op_error(error.op, error.message, source_map, error.notes)
        raise _named(module_pass, error) from None
    except UserError as error:
        raise _named(module_pass, error) from None
    except DiagnosticException as error:
        raise _named(module_pass, UserError(str(error))) from None


def _verify_after(module_pass: ModulePass, module: ModuleOp, source_map: SourceMap) -> None:
    try:
        verify_module(module, source_map)
    except UserError as error:
        raise _named(module_pass, error, "left invalid IR: ") from None


def _named(module_pass: ModulePass, error: UserError, what: str = "") -> UserError:
    """`error` with the pass's name in front of its message."""
    return replace(error, message=f"[{module_pass.name}] {what}{error.message}")
