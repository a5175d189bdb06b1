"""Running a pass pipeline on a kernel module, with a hook after every pass.

The runtime compiles each fusion through a pipeline (`xla-gpu-pipeline` by
default) and `--check` needs the IR after every pass: `apply_pipeline` runs a
`-p` spec (named pipelines expand as in `xla-emit-opt`), verifies after each
pass and tells `after_pass` the pass name, the module and the time the pass took.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from passes.diagnostics import OpError
from passes.pipelines import available_passes, expand_pipelines
from xla_emit.diagnostics import UserError
from xla_emit.ir import SourceMap, make_context, op_error, verify_module

DEFAULT_PIPELINE = "xla-gpu-pipeline"

AfterPass = Callable[[str, ModuleOp, float], None]


def apply_pipeline(
    module: ModuleOp,
    spec: str,
    ctx: Context | None = None,
    source_map: SourceMap | None = None,
    after_pass: AfterPass | None = None,
) -> None:
    """Run the passes of `spec` on `module` in place; errors become `UserError`s."""
    if not spec.strip():
        return
    ctx = ctx if ctx is not None else make_context()
    source_map = source_map if source_map is not None else SourceMap("<kernel>", "")
    started = time.perf_counter()

    def after_each_pass(
        previous: ModulePass | None, current: ModuleOp, _next: ModulePass | None
    ) -> None:
        nonlocal started
        if previous is None:
            started = time.perf_counter()
            return
        elapsed = time.perf_counter() - started
        verify_module(current, source_map)
        if after_pass is not None:
            after_pass(previous.name, current, elapsed)
        started = time.perf_counter()

    try:
        pipeline = PassPipeline.parse_spec(
            available_passes(), expand_pipelines(spec), after_each_pass
        )
    except (ValueError, ArgSpecParseError) as error:
        # ArgSpecParseError (a malformed spec) derives from BaseException, so name it.
        raise UserError(f"invalid pass pipeline '{spec}': {error}") from None
    try:
        pipeline.apply(ctx, module)
    except OpError as error:
        raise op_error(error.op, error.message, source_map, error.notes) from None
    except DiagnosticException as error:
        raise UserError(str(error)) from None
