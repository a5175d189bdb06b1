"""Rules of PTOAS's VPTO LLVM emission that depend on the target and the CANN
version the output is for (`lib/PTO/Transforms/VPTOLLVMEmitterDispatcher.cpp`).

`pto.ld_dev` / `pto.st_dev` have an LLVM lowering only in the official CANN 9.0.0
emitter for A5: on A2/A3 (`dav-c220`) emission fails whatever the version, and on
A5 it fails for an output version before 9.0.0 (a `9.0.0-beta.N` is before it).
The version is `--cann-output-version`, else the installed CANN toolchain's, which a
survey cannot know: without the option only the A2/A3 rule is checked. The target is
`--pto-arch`, else the module's `pto.target_arch`, else A3 (PTOAS's default).

`check_dev_access_lowering` raises `OpError` at the module with PTOAS's message.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xla_emit.passes.diagnostics import OpError

DEV_ACCESS_OPS = frozenset({"pto.ld_dev", "pto.st_dev"})
# A release sorts after every beta of its version (PTOAS's CANNVersion::RELEASE).
RELEASE = 2**32 - 1
FIRST_LOWERING = (9, 0, 0, RELEASE)


def cann_version(text: str) -> tuple[int, int, int, int] | None:
    """`9.0.0` or `9.0.0-beta.1` as (major, minor, patch, beta); None if malformed."""
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:-beta\.(\d+))?", text)
    if match is None:
        return None
    major, minor, patch, beta = match.groups()
    return int(major), int(minor), int(patch), int(beta) if beta else RELEASE


def check_dev_access_lowering(module: ModuleOp, arch: str | None, version: str | None) -> None:
    if not any(op.name in DEV_ACCESS_OPS for op in module.walk()):
        return
    own = module.attributes.get("pto.target_arch")
    target = (arch or (own.data if isinstance(own, StringAttr) else "a3")).lower()
    failed = "VPTO LLVM emission failed: pto.ld_dev and pto.st_dev require "
    if target != "a5":
        raise OpError(module, failed + "--pto-arch=a5")
    parsed = cann_version(version) if version else None
    if parsed is not None and parsed < FIRST_LOWERING:
        raise OpError(module, failed + "CANN 9.0.0 or newer official lowering")
