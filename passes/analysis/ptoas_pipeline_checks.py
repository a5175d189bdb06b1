"""Checks of passes that PTOAS's `ptoas` pipeline runs on every compile
(`tools/ptoas/ptoas.cpp`), beyond op verifiers:

- `PTOValidateIntToPtrUses`: a pointer made by `pto.inttoptr` is only the pointer
  operand of `pto.load_scalar` / `pto.store_scalar` (it names a scalar in global
  memory; no view, offset or tile op may be built on it).
- `PTOMaterializeTileOpSections`: a function marked `pto.tileop.helper` (a PTODSL
  tile-op body, which PTOAS wraps in one vector or cube section) takes tile buffers
  and scalars, returns nothing, and holds no section, MTE transfer, pipe
  synchronization, SIMT op (it launches a SIMT helper instead), tile allocation or
  high-level tile op, nor a call. The op families are PTOAS's op interfaces
  (`MteOpInterface`, `SimtOpInterface`, `TileOpInterface`), listed here by name.
- `PTOResolveReservedBuffers`: peer pipe pairing and flag ids (`pipe_flag_checks`).
- PlanMemory's (or, at level 3, ResolveReservedBuffers') semantic no-alias rule
  (`semantic_alias_checks`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    ModuleOp,
)
from xdsl.ir import Operation
from xla_emit.dialects.pto.types import TileBufType
from xla_emit.passes.analysis.pipe_flag_checks import check_pipe_flags
from xla_emit.passes.analysis.semantic_alias_checks import check_semantic_no_alias
from xla_emit.passes.diagnostics import OpError

SCALAR_ACCESSES = ("pto.load_scalar", "pto.store_scalar")


def check_inttoptr_uses(module: ModuleOp) -> None:
    for op in module.walk():
        if op.name != "pto.inttoptr":
            continue
        pointer = op.results[0]
        for use in pointer.uses:
            user = use.operation
            if user.name in SCALAR_ACCESSES and getattr(user, "ptr", None) is pointer:
                continue
            raise OpError(
                op,
                "result may only be used as the pointer operand of pto.load_scalar or "
                f"pto.store_scalar; found use by '{user.name}'",
            )


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


TILEOP_HELPER_ATTR = "pto.tileop.helper"
SECTION_OPS = frozenset({"section.cube", "section.vector"})
MTE_OPS = _names(
    """copy_cbuf_to_bt copy_cbuf_to_fbuf copy_cbuf_to_ubuf copy_gm_to_cbuf
    copy_gm_to_cbuf_multi_dn2nz copy_gm_to_cbuf_multi_nd2nz copy_gm_to_ubuf
    copy_matrix_cc_to_cbuf copy_matrix_cc_to_gm copy_matrix_cc_to_ub copy_ubuf_to_cbuf
    copy_ubuf_to_gm copy_ubuf_to_ubuf load_cbuf_to_ca load_cbuf_to_ca_mx load_cbuf_to_ca_s4
    load_cbuf_to_cb load_cbuf_to_cb_mx load_cbuf_to_cb_s4 mgather mscatter mte_gm_l1
    mte_gm_l1_frac mte_gm_ub mte_l0c_gm mte_l0c_l1 mte_l0c_ub mte_l1_bt mte_l1_fb mte_l1_l0a
    mte_l1_l0a_mx mte_l1_l0b mte_l1_l0b_mx mte_l1_ub mte_ub_gm mte_ub_l1 mte_ub_ub"""
)
PIPE_SYNC_OPS = _names(
    """record_event wait_event barrier_sync aic_initialize_pipe aiv_initialize_pipe
    initialize_l2g2l_pipe initialize_l2l_pipe declare_eventid_array eventid_array_get
    eventid_array_set set_flag wait_flag set_flag_dyn wait_flag_dyn get_buf rls_buf sync.set
    sync.wait set_cross_block wait_cross_block set_intra_block wait_intra_block barrier
    fence.barrier_all tsync syncall dsb"""
)
SIMT_OPS = _names(
    """absf convert fma get_block_idx get_block_num get_subblock_idx get_subblock_num keep ldg
    load mul_i32toi64 mulhi prmt redux_add redux_max redux_min resume shuffle_bfly
    shuffle_down shuffle_idx shuffle_up sqrt stg store store_vfsimt_info syncthreads
    threadfence threadfence_block trap vote_all vote_any vote_ballot vote_uni"""
)
TILE_OPS = _names(
    """mgather mscatter tabs tadd taddc taddrelu tadds taddsc talloc talloc_to_aic talloc_to_aiv
    tand tands taxpy tci tcmp tcmps tcolargmax tcolargmin tcolexpand tcolexpandadd
    tcolexpanddiv tcolexpandexpdif tcolexpandmax tcolexpandmin tcolexpandmul tcolexpandsub
    tcolmax tcolmin tcolprod tcolsum tconcat tconcatidx tcvt tdequant tdiv tdivs texp texpands
    textract tfillpad tfmod tfmods tfree tfree_from_aic tfree_from_aiv tgather tgatherb tgemv
    tgemv.acc tgemv.bias tgemv.mx tgemv.mx.acc tgemv.mx.bias tget_scale_addr tgetval
    thistogram tinsert tload tlog tlrelu tmatmul tmatmul.acc tmatmul.bias tmatmul.mx
    tmatmul.mx.acc tmatmul.mx.bias tmax tmaxs tmin tmins tmov tmrgsort tmul tmuls tneg tnot
    tor tors tpartadd tpartargmax tpartargmin tpartmax tpartmin tpartmul tpop tpop_from_aic
    tpop_from_aiv tpow tpows tprefetch tprelu tprint tpush tpush_to_aic tpush_to_aiv tquant
    tquant.mx trandom trecip trelu trem trems treshape trowargmax trowargmin trowexpand
    trowexpandadd trowexpanddiv trowexpandexpdif trowexpandmax trowexpandmin trowexpandmul
    trowexpandsub trowmax trowmin trowprod trowsum trsqrt tscatter tsel tsels tsetval tshl
    tshls tshr tshrs tsort32 tsqrt tstore tsub tsubc tsubs tsubsc tsync ttrans ttri txor txors
    alloc_tile alloc_multi_tile reserve_buffer tprefetch_async tassign
    tensor_view_addr"""
)
# What each family is called in PTOAS's message, in the order its pass tests them.
HELPER_FAMILIES = (
    (SECTION_OPS, "tileop helpers must not contain pre-existing sections"),
    (MTE_OPS, "tileop helpers must not contain MTE data movement"),
    (PIPE_SYNC_OPS, "tileop helpers must not contain pipe synchronization"),
    (
        SIMT_OPS,
        "tileop helpers must launch a @pto.simt helper instead of containing SIMT operations "
        "directly",
    ),
    (TILE_OPS, "tileop helpers must not contain Tile allocation or high-level TileOps"),
)


def _scalar(kind: object) -> bool:
    return isinstance(kind, IntegerType | IndexType | AnyFloat)


def _helper_op_error(op: Operation) -> str | None:
    if op.name == "func.call":
        return "tileop helpers must not call another helper; use pto.simt_launch for SIMT work"
    if not op.name.startswith("pto."):
        return None
    name = op.name.removeprefix("pto.")
    for family, message in HELPER_FAMILIES:
        if name in family:
            return message
    return None


def check_tileop_helpers(module: ModuleOp) -> None:
    for function in module.walk():
        if function.name != "func.func" or TILEOP_HELPER_ATTR not in function.attributes:
            continue
        body = function.regions[0]
        arguments = body.blocks[0].args if body.blocks else ()
        for index, argument in enumerate(arguments):
            if not isinstance(argument.type, TileBufType) and not _scalar(argument.type):
                raise OpError(
                    function,
                    f"tileop argument #{index} must be !pto.tile_buf or a PTO scalar, got "
                    f"{argument.type}",
                )
        if function.function_type.outputs.data:  # type: ignore[attr-defined]
            raise OpError(
                function,
                "tileop helpers must not return values; write results through mutable Tile "
                "parameters",
            )
        for op in function.walk():
            message = _helper_op_error(op) if op is not function else None
            if message is not None:
                raise OpError(op, message)


def check_pipeline(module: ModuleOp) -> None:
    """Raise `OpError` at the first op a pipeline check rejects."""
    check_inttoptr_uses(module)
    check_tileop_helpers(module)
    check_pipe_flags(module)
    check_semantic_no_alias(module)
