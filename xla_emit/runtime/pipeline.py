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
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from xla_emit.diagnostics import UserError
from xla_emit.dialects import built_in_dialects
from xla_emit.ir import SourceMap, make_context, op_error, verify_module
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.pipelines import (
    MODULE_PASSES,
    available_passes,
    expand_pipelines,
    names_only_built_in_passes,
)
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


def apply_pipeline_to_each_function(
    module: ModuleOp,
    spec: str,
    ctx: Context | None = None,
    source_map: SourceMap | None = None,
    after_pass: AfterPass | None = None,
    timer: Timer | None = None,
    before_pass: BeforePass | None = None,
    entering: Callable[[FuncOp], None] | None = None,
) -> None:
    """Run `spec` on each `func.func` of `module` on its own, as MLIR's `func.func(...)` does.

    The passes see one function at a time, in a module of its own that carries the module's
    attributes and a copy of the module's other ops (so calls still verify and callees can be
    read), then the function goes back in its place; `entering` (if any) hears of each
    function first.
    """
    passes = parse_pipeline(spec)
    for module_pass in passes:
        if module_pass.name in MODULE_PASSES:
            raise UserError(
                f"'{module_pass.name}' runs on the whole module: it cannot be nested under "
                "'func.func' (give it outside the func.func(...) list)"
            )
    functions = [op for op in module.ops if isinstance(op, FuncOp)]
    for function in functions:
        if entering is not None:
            entering(function)
        _apply_to_function(module, function, spec, ctx, source_map, after_pass, timer, before_pass)


def _apply_to_function(
    module: ModuleOp,
    function: FuncOp,
    spec: str,
    ctx: Context | None,
    source_map: SourceMap | None,
    after_pass: AfterPass | None,
    timer: Timer | None,
    before_pass: BeforePass | None,
) -> None:
    # Copies of the other functions: a pass may read them (XLA's loop unroller weighs a
    # callee's body) but what it does to them is dropped.
    others = [op.clone() for op in module.ops if op is not function]
    block = module.body.block
    following = function.next_op
    function.detach()
    scope = ModuleOp([function, *others], attributes=dict(module.attributes))
    try:
        apply_pipeline(scope, spec, ctx, source_map, after_pass, timer, before_pass)
    finally:
        # What the passes left in the function's place (before the copies) goes back.
        copies = {id(op) for op in others}
        results: list[Operation] = []
        for op in scope.ops:
            if id(op) in copies:
                break
            results.append(op)
        for op in results:
            op.detach()
            if following is None:
                block.add_op(op)
            else:
                block.insert_op_before(op, following)


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
