"""Rules of PTOAS's VPTO LLVM emission that depend on the target and the CANN
version the output is for (`lib/PTO/Transforms/VPTOLLVMEmitterDispatcher.cpp`).

`pto.ld_dev` / `pto.st_dev` have an LLVM lowering only in the official CANN 9.0.0
emitter for A5: on A2/A3 (`dav-c220`) emission fails whatever the version, and on
A5 it fails for an output version before 9.0.0 (a `9.0.0-beta.N` is before it).
The version is `--cann-output-version`, else the installed CANN toolchain's, which a
survey cannot know, except for `--emit-vpto-llvm-ir`: that needs no toolchain, so the
driver never reads its version and keeps its default, 9.0.0-beta.1. The target is
`--pto-arch`, else the module's `pto.target_arch`, else A3 (PTOAS's default).

`check_dev_access_lowering` raises `OpError` at the module with PTOAS's message.

Before emission, PTOAS's VPTO legality validator (`PTOValidateVPTOIR.cpp`, run at the
end of the VPTO pipeline, for `--emit-vpto` too) refuses an `arith.constant` of an
fp8 type (E4M3 and E5M2 kinds, scalar or vector): the backend has no fp8 immediate,
so fp8 values must come from `pto.convert`. Constants nothing uses are gone by then
(canonicalization), so only used ones count. `check_fp8_constants` raises at the
constant.

Before that, PTOAS's SoftLib expansion (`PTOExpandSoftLib.cpp`) replaces an A5 integer
`pto.vdiv` (the hardware divides floats only) by a library call, which exists for
signed or signless i16 registers under a b16 mask and i32 registers under a b32 mask,
all three registers of one type; any other integer vdiv is refused there
(`check_integer_vdiv`, at the vdiv).

On A2/A3 the VPTO backend lowers tload and tstore to DMA loops itself
(`LowerPTOToUBufOps.cpp`): a global view made by `pto.make_tensor_view` (through a
`pto.partition_view`) must have a constant 1 as its innermost stride, since a DMA
burst reads contiguous elements (`check_a2a3_dma_strides`, at the tload or tstore).
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xla_emit.dialects.pto.vpto_types import MaskType, VRegType
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


DEFAULT_VERSION = "9.0.0-beta.1"


def check_dev_access_lowering(
    module: ModuleOp, arch: str | None, version: str | None, toolchain: bool = True
) -> None:
    """`toolchain`: the run builds objects, so the installed CANN's version counts."""
    if version is None and not toolchain:
        version = DEFAULT_VERSION
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


FP8_TYPES = frozenset({"f8E4M3", "f8E4M3FN", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E5M2", "f8E5M2FNUZ"})


def is_fp8(kind: Attribute) -> bool:
    element = kind.element_type if isinstance(kind, VectorType) else kind
    return str(element) in FP8_TYPES


def check_fp8_constants(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name == "arith.constant" and op.results[0].uses and is_fp8(op.results[0].type):
            raise OpError(
                op,
                "does not support directly constructed FP8 constants in the VPTO backend; "
                "produce FP8 values with pto.convert",
            )


def check_integer_vdiv(module: ModuleOp) -> None:
    own = module.attributes.get("pto.target_arch")
    if not (isinstance(own, StringAttr) and own.data.lower() == "a5"):
        return
    for op in module.walk():
        if op.name != "pto.vdiv" or len(op.operands) != 3:
            continue
        result = op.results[0].type
        if not (isinstance(result, VRegType) and isinstance(result.element_type, IntegerType)):
            continue
        lhs, rhs, mask = (value.type for value in op.operands)
        wanted = "b16" if result.element_type.width.data == 16 else "b32"
        legal = _library_vdiv_register(lhs) and _library_vdiv_register(rhs)
        same = lhs == rhs == result
        if not (legal and same and isinstance(mask, MaskType) and mask.granularity.data == wanted):
            raise OpError(
                op,
                f"A5 integer pto.vdiv is not supported for '{result}' with mask '{mask}'; only "
                "signed or signless i16 vectors with a b16 mask and i32 vectors with a b32 mask "
                "are materialized through the A5 Software Library, and f16/f32 pto.vdiv uses "
                "the native vector instruction",
            )


def _library_vdiv_register(kind: Attribute) -> bool:
    if not isinstance(kind, VRegType) or not isinstance(kind.element_type, IntegerType):
        return False
    element = kind.element_type
    return element.width.data in (16, 32) and element.signedness.data != Signedness.UNSIGNED


def check_a2a3_dma_strides(module: ModuleOp, arch: str | None) -> None:
    own = module.attributes.get("pto.target_arch")
    target = (arch or (own.data if isinstance(own, StringAttr) else "a3")).lower()
    if target == "a5":
        return
    for op in module.walk():
        if op.name not in ("pto.tload", "pto.tstore") or not op.operands:
            continue
        view = op.operands[0] if op.name == "pto.tload" else op.operands[-1]
        partition = view.owner
        if not isinstance(partition, Operation) or partition.name != "pto.partition_view":
            continue
        made = partition.operands[0].owner
        if not isinstance(made, Operation) or made.name != "pto.make_tensor_view":
            continue
        strides = getattr(made, "strides", ())
        if not strides or _constant_int(strides[-1]) != 1:
            raise OpError(op, "A2/A3 DMA lowering requires a unit innermost stride")


def _constant_int(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None
