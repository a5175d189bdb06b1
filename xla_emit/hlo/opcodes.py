"""The HLO opcodes the front end supports, grouped by how they behave."""

from __future__ import annotations

UNARY_FLOAT_OPS: frozenset[str] = frozenset(
    {
        "ceil", "floor", "round-nearest-even", "round-nearest-afz", "exponential",
        "exponential-minus-one", "log", "log-plus-one", "logistic", "sqrt", "rsqrt",
        "cbrt", "tanh", "sine", "cosine", "tan", "erf", "is-finite",
    }
)  # fmt: skip
UNARY_ANY_OPS: frozenset[str] = frozenset({"abs", "negate", "sign", "copy"})
UNARY_INT_OPS: frozenset[str] = frozenset({"not", "popcnt", "count-leading-zeros"})
UNARY_OPS: frozenset[str] = UNARY_FLOAT_OPS | UNARY_ANY_OPS | UNARY_INT_OPS

BINARY_ARITH_OPS: frozenset[str] = frozenset(
    {"add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power"}
)
BINARY_FLOAT_OPS: frozenset[str] = frozenset({"atan2"})
BINARY_INT_OPS: frozenset[str] = frozenset(
    {"and", "or", "xor", "shift-left", "shift-right-logical", "shift-right-arithmetic"}
)
BINARY_OPS: frozenset[str] = BINARY_ARITH_OPS | BINARY_FLOAT_OPS | BINARY_INT_OPS

# Ops whose output element at an index depends only on operand elements at the
# same index (XLA's IsElementwise).
ELEMENTWISE_OPS: frozenset[str] = (
    UNARY_OPS
    | BINARY_OPS
    | frozenset({"compare", "select", "clamp", "convert", "reduce-precision"})
    | frozenset({"real", "imag", "complex"})
)

# Ops that only move data: an output element is one input element.
DATA_MOVEMENT_OPS: frozenset[str] = frozenset(
    {
        "broadcast", "reshape", "bitcast", "transpose", "slice", "dynamic-slice",
        "dynamic-update-slice", "pad", "reverse", "concatenate", "bitcast-convert",
    }
)  # fmt: skip

STRUCTURAL_OPS: frozenset[str] = frozenset(
    {"parameter", "constant", "iota", "tuple", "get-tuple-element", "fusion", "call", "reduce"}
)

# Ops that read or write the operand at positions taken from an index array.
INDEXED_OPS: frozenset[str] = frozenset({"gather", "scatter"})

# Ops that compute each result element from many operand elements.
CONTRACTION_OPS: frozenset[str] = frozenset(
    {"dot", "convolution", "reduce-window", "select-and-scatter"}
)

# Ops that run called computations a data-dependent number of times.
CONTROL_OPS: frozenset[str] = frozenset({"sort", "while", "conditional"})

# Library calls, random bits, and collectives (identities on one device).
CALL_OPS: frozenset[str] = frozenset(
    {
        "custom-call", "rng-bit-generator", "all-reduce", "all-gather", "collective-permute",
        "map", "opt-barrier", "fft",
    }
)  # fmt: skip

# Each start of a start/update/done chain and its synchronous op: the parser rewrites
# every chain into that op (`xla_emit.hlo.async_ops`), so nothing after it sees them.
ASYNC_START_OPS: dict[str, str] = {
    "fusion-start": "fusion",
    "copy-start": "copy",
    "all-reduce-start": "all-reduce",
    "all-gather-start": "all-gather",
    "collective-permute-start": "collective-permute",
    "async-start": "call",
}
ASYNC_DONE_OPS: frozenset[str] = frozenset(s.replace("-start", "-done") for s in ASYNC_START_OPS)
ASYNC_PAIR_OPS: frozenset[str] = (
    frozenset(ASYNC_START_OPS) | ASYNC_DONE_OPS | frozenset({"async-update"})
)

# Point-to-point transfers: the parser rewrites each send/recv pair into what it means on one
# device (`xla_emit.hlo.send_recv`); `after-all` (a token joining others) stays.
SEND_RECV_OPS: frozenset[str] = frozenset({"send", "send-done", "recv", "recv-done"})
TOKEN_OPS: frozenset[str] = frozenset({"after-all"})

SUPPORTED_OPS: frozenset[str] = (
    ELEMENTWISE_OPS | DATA_MOVEMENT_OPS | STRUCTURAL_OPS | INDEXED_OPS | CONTRACTION_OPS
    | CONTROL_OPS | CALL_OPS | TOKEN_OPS
)  # fmt: skip

COMPARISON_DIRECTIONS: frozenset[str] = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE"})
COMPARISON_TYPES: frozenset[str] = frozenset({"FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"})
FUSION_KINDS: frozenset[str] = frozenset({"kLoop", "kInput", "kOutput", "kCustom"})

# Ops whose result is a view of their operands' buffers (a tuple of them, one of them, the
# same bytes read with another shape): a run allocates nothing for them.
ALIASING_OPS: frozenset[str] = frozenset({"tuple", "get-tuple-element", "bitcast", "opt-barrier"})
