"""PTOAS main's C++ verifiers of table-built ops other than the VMI and VPTO
micro-ops (those are `vmi_rules` and `vpto_rules`), keyed by op name without `pto.`:
region ops (`region_rules`), the fixpipe pipe's quantization setters
(`fixpipe_rules`), point-to-point communication (`comm_p2p_rules`),
`inttoptr` (`scalar_ptr_rules`), multi-buffer tiles (`multi_tile_rules`) and
`talloc` (`internal_pipe_rules`)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Operation
from xla_emit.dialects.pto.comm_p2p_rules import COMM_P2P_RULES
from xla_emit.dialects.pto.fixpipe_rules import FIXPIPE_OP_RULES
from xla_emit.dialects.pto.internal_pipe_rules import INTERNAL_PIPE_RULES
from xla_emit.dialects.pto.multi_tile_rules import MULTI_TILE_RULES
from xla_emit.dialects.pto.region_rules import REGION_RULES
from xla_emit.dialects.pto.scalar_ptr_rules import SCALAR_PTR_RULES

TABLE_OP_RULES: dict[str, Callable[[Operation], None]] = {
    **REGION_RULES,
    **FIXPIPE_OP_RULES,
    **COMM_P2P_RULES,
    **SCALAR_PTR_RULES,
    **MULTI_TILE_RULES,
    **INTERNAL_PIPE_RULES,
}
