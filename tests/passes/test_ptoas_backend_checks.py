"""PTOAS's backend choice and the VPTO backend's unsupported ops
(`passes/analysis/ptoas_backend_checks.py`), on small modules of ours whose backend is
worked out by hand: the command line wins, then the module's `pto.backend`; a module
of several children compiles one object per child unless IR is printed, and then
takes their common backend (a child without one is EmitC)."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xla_emit.passes.analysis.ptoas_backend_checks import (
    DriverOptions,
    check_backend,
    resolve_backend,
)
from xla_emit.passes.diagnostics import OpError

from xla_emit.diagnostics import UserError
from xla_emit.ir import parse_mlir, verify_module

KIND = "pto.kernel_kind = #pto.kernel_kind<vector>"


def _module(text: str) -> ModuleOp:
    module, source_map = parse_mlir(text, "backend.mlir")
    verify_module(module, source_map)
    return module


def _single(backend: str | None, body: str = "") -> ModuleOp:
    attr = f'pto.backend = "{backend}", ' if backend else ""
    return _module(
        f'module attributes {{{attr}{KIND}, pto.target_arch = "a5"}} {{\n'
        f"func.func @k() {{\n{body}\nreturn\n}}\n}}\n"
    )


def _children(*backends: str | None, stray: bool = False) -> ModuleOp:
    parts = []
    for number, backend in enumerate(backends):
        attr = f'pto.backend = "{backend}", ' if backend else ""
        parts.append(
            f"module attributes {{{attr}{KIND}}} {{\nfunc.func @k{number}() {{ return }}\n}}"
        )
    if stray:
        parts.append("func.func @outer() { return }")
    body = "\n".join(parts)
    return _module(f'module attributes {{pto.target_arch = "a5"}} {{\n{body}\n}}\n')


def _options(command: str) -> DriverOptions:
    return DriverOptions.from_words(command.split())


def _error(module: ModuleOp, command: str) -> str:
    with pytest.raises(OpError) as caught:
        check_backend(module, _options(command))
    return caught.value.message


def test_options_read_from_a_command() -> None:
    options = _options("--pto-arch=a5 --pto-backend=vpto --emit-vpto %s -o -")
    assert (options.backend, options.output) == ("vpto", "-")
    assert {"pto-arch", "emit-vpto"} <= options.flags and options.prints_ir


@pytest.mark.parametrize(
    ("module", "command", "backend"),
    [
        (_single(None), "%s", "emitc"),
        (_single("vpto"), "%s", "vpto"),
        (_single("vpto"), "--pto-backend=emitc %s", "emitc"),
        # Several children compile as one object each, even where they agree...
        (_children("vpto", "vpto"), "%s -o out.o", None),
        # ...unless IR is printed: then their common backend is the module's.
        (_children("vpto", "vpto"), "--emit-vpto %s -o -", "vpto"),
        (_children("emitc", None), "--emit-pto-ir %s -o -", "emitc"),
        (_children("emitc", "vpto"), "%s -o out.o", None),
        (_children("emitc", "vpto"), "--pto-backend=vpto %s -o out.o", None),
        (_children("emitc", "vpto"), "--pto-backend=vpto --emit-vpto %s -o -", "vpto"),
    ],
)
def test_backend_resolution(module: ModuleOp, command: str, backend: str | None) -> None:
    assert resolve_backend(module, _options(command)) == backend


def test_pto_backend_is_emitc_or_vpto() -> None:
    message = _error(_single("cuda"), "--emit-vpto %s -o -")
    assert message == "invalid pto.backend 'cuda'. Expected 'emitc' or 'vpto'."


def test_vpto_flags_need_the_vpto_backend() -> None:
    check_backend(_single("vpto"), _options("--emit-vpto %s -o -"))
    message = _error(_single("vpto"), "--pto-backend=emitc --emit-vpto %s -o -")
    assert message.startswith("VPTO-specific flags require --pto-backend=vpto")
    assert _error(_single(None), "--emit-vpto-llvm-ir %s -o -").startswith("VPTO-specific")


def test_mixed_children_compile_to_a_file_without_ir_output() -> None:
    mixed = _children("emitc", "vpto")
    check_backend(mixed, _options("%s -o kernels.o"))
    assert _error(mixed, "%s -o -").endswith("requires an explicit file path passed with -o.")
    assert _error(mixed, "%s").endswith("requires an explicit file path passed with -o.")
    assert _error(mixed, "--emit-pto-ir %s -o -").endswith(
        "does not support debug IR output flags."
    )
    stray = _error(_children("emitc", "vpto", stray=True), "%s -o kernels.o")
    assert "found non-module top-level ops alongside child modules" in stray


def test_vpto_backend_has_no_high_level_memory_consistency_ops() -> None:
    fence = _single("vpto", "pto.fence.barrier_all #pto.fence_scope<gm>")
    assert "high-level CMO/fence ops must be lowered" in _error(fence, "%s -o k.o")
    assert "is not supported by the VPTO backend yet" in _error(fence, "--emit-vpto-llvm-ir %s")
    # Printing VPTO IR stops before LLVM emission; EmitC lowers the op itself.
    check_backend(fence, _options("--emit-vpto %s -o -"))
    check_backend(_single("emitc", "pto.fence.barrier_all #pto.fence_scope<gm>"), _options("%s"))


def _simt(dims: str, body: str = "", after: str = "", entry: str = "pto.entry") -> ModuleOp:
    return _module(
        f'module attributes {{pto.backend = "vpto", {KIND}, pto.target_arch = "a5"}} {{\n'
        f"func.func @k(%dst: !pto.ptr<i32, ub>) attributes {{{entry}}} {{\n"
        f"pto.section.simt<<<{dims}>>> {{\n%c0 = arith.constant 0 : index\n"
        f"%t = pto.get_tid_x : i32\npto.store %t, %dst[%c0] : !pto.ptr<i32, ub>, i32\n{body}}}\n"
        f"{after}\nreturn\n}}\n}}\n"
    )


@pytest.mark.parametrize(
    ("dims", "ok"),
    [("2048, 1, 1", True), ("32, 32, 2", True), ("64, 64, 1", False), ("32, 0, 1", False)],
)
def test_simt_sections_launch_at_most_2048_threads(dims: str, ok: bool) -> None:
    # 32 * 32 * 2 = 2048 fits; 64 * 64 = 4096 does not; a zero dimension launches nothing.
    command = "--emit-vpto %s -o -"
    if ok:
        check_backend(_simt(dims), _options(command))
        return
    expected = f"positive product no greater than 2048, got ({dims})"
    assert _error(_simt(dims), command).endswith(expected)
    # Printing PTO IR stops before the kernel pipeline that outlines the section.
    check_backend(_simt(dims), _options("--emit-pto-ir %s -o -"))


def test_simt_sections_in_simt_entries_fail_the_op_verifier_first() -> None:
    """PTOAS main's section verifier rejects a section in a `pto.simt_entry` function
    before any backend runs (`tests/pto/test_pto_region_rules.py`)."""
    with pytest.raises(UserError, match="must not appear inside a function marked with"):
        _simt("32, 1, 1", entry="pto.simt_entry")
