"""PTOAS main's rules for the data ops of a fixpipe pipe: a front-end pipe whose init
carries `acc_push_epilogue`, so that the cube's accumulator tile goes through the
fixpipe (quantization, layout, ReLU) on its way to the vector cores.

- no front-end data op carries the fixpipe's internal attributes (`stPhase`, ...);
- the data ops of a fixpipe pipe do not split (split = 0);
- `tpush_to_aiv` pushes an `acc` tile whose element type the quantization mode reads
  (f32 for the f32 modes, i32 for the integer ones), after the `set_quant_scalar` /
  `set_quant_vector` of its pipe in the same block when the mode needs one;
- every `tpop_from_aic` of a fixpipe pipe pops one tile type, of the element type the
  quantization mode writes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import TileTypeBase, element_type_name

# Attributes the fixpipe lowering sets; front-end ops may not carry them.
UNPUBLISHED_ATTRIBUTES = frozenset(
    (
        "stPhase",
        "st_phase",
        "atomicType",
        "atomic_type",
        "subBlockId",
        "subBlockid",
        "sub_blockid",
        "clipReluMode",
        "clip_relu_mode",
        "isChannelSplit",
        "is_channel_split",
        "channelSplit",
        "channel_split",
    )
)
F32_MODES = frozenset(
    (
        "no_convert",
        "f32_f16",
        "f32_bf16",
        "qf322b8_pre_scalar",
        "qf322b8_pre_vec",
        "qf322f16_pre_scalar",
        "qf322bf16_pre_scalar",
        "qf322hif8_pre_scalar",
        "qf322fp8_pre_scalar",
    )
)
I32_MODES = frozenset(
    (
        "no_convert",
        "req8_scalar",
        "req8_vec",
        "deqf16_scalar",
        "deqf16_vec",
        "qs322bf16_pre_scalar",
        "qs322bf16_pre_vec",
    )
)
SCALAR_MODES = frozenset(
    (
        "deqf16_scalar",
        "req8_scalar",
        "qf322b8_pre_scalar",
        "qf322f16_pre_scalar",
        "qf322bf16_pre_scalar",
        "qs322bf16_pre_scalar",
        "qf322hif8_pre_scalar",
        "qf322fp8_pre_scalar",
    )
)
VECTOR_MODES = frozenset(("deqf16_vec", "req8_vec", "qf322b8_pre_vec", "qs322bf16_pre_vec"))
FRONTEND_INITS = ("pto.aic_initialize_pipe", "pto.aiv_initialize_pipe")
# The element types each mode writes to the vector cores.
CONSUMER_ELEMENTS = {
    "no_convert": ("f32", "i32", "si32", "ui32"),
    "f32_f16": ("f16",),
    "deqf16_scalar": ("f16",),
    "deqf16_vec": ("f16",),
    "qf322f16_pre_scalar": ("f16",),
    "f32_bf16": ("bf16",),
    "qf322bf16_pre_scalar": ("bf16",),
    "qs322bf16_pre_scalar": ("bf16",),
    "qs322bf16_pre_vec": ("bf16",),
    "req8_scalar": ("si8", "ui8"),
    "qf322b8_pre_scalar": ("si8", "ui8"),
    "req8_vec": ("si8",),
    "qf322b8_pre_vec": ("si8",),
    "qf322hif8_pre_scalar": ("!pto.hif8",),
    "qf322fp8_pre_scalar": ("f8E4M3FN", "f8E4M3"),
}
# The vec tile layout (blayout, slayout) each fixpipe layout writes.
CONSUMER_LAYOUTS = {
    "nz2nd": ("row_major", "none_box"),
    "nz2dn": ("col_major", "none_box"),
    "nz2nz": ("col_major", "row_major"),
}


def verify_no_unpublished_attributes(op: Operation) -> None:
    for name in op.attributes:
        if name in UNPUBLISHED_ATTRIBUTES:
            raise VerifyException(
                f"does not allow unpublished fixpipe attr '{name}'; STPhase / AtomicType / "
                "SubBlockId / ClipReluMode / IsChannelSplit are not part of the PTOIR "
                "frontend surface"
            )


def _integer(op: Operation, name: str) -> int:
    """An integer attribute or property (the table's ops keep theirs as properties)."""
    value = op.attributes.get(name, op.properties.get(name))
    return value.value.data if isinstance(value, IntegerAttr) else 0


def fixpipe_init(op: Operation, init_name: str) -> Operation | None:
    """The init of kind `init_name` that `op` names by id, if it has an epilogue."""
    function = op.parent_op()
    while function is not None and function.name != "func.func":
        function = function.parent_op()
    if function is None:
        return None
    pipe_id = _integer(op, "id")
    for candidate in function.walk():
        if candidate.name in FRONTEND_INITS and _integer(candidate, "id") == pipe_id:
            found = candidate.name == init_name and "acc_push_epilogue" in candidate.attributes
            return candidate if found else None
    return None


def quant_mode(init: Operation) -> str:
    epilogue: Attribute = init.attributes["acc_push_epilogue"]
    return epilogue.value("quant")  # type: ignore[attr-defined]


def verify_fixpipe_push(op: Operation, tile: Attribute) -> None:
    """`tpush_to_aiv` into a fixpipe pipe."""
    init = fixpipe_init(op, "pto.aic_initialize_pipe")
    if init is None:
        return
    if not isinstance(tile, TileTypeBase):
        raise VerifyException("expects fixpipe TPUSH source tile to be a tile type")
    if tile.loc.data != "acc":
        raise VerifyException("expects fixpipe TPUSH source tile to use loc=acc")
    if _integer(op, "split") != 0:
        raise VerifyException("expects fixpipe TPUSH to have split = 0")
    mode, element = quant_mode(init), element_type_name(tile.element_type)
    allowed = (mode in F32_MODES and element == "f32") or (mode in I32_MODES and element == "i32")
    if not allowed:
        raise VerifyException(
            "expects fixpipe TPUSH source element type to match acc_push_epilogue.quant mode "
            "requirements"
        )
    setter = (
        "pto.set_quant_scalar"
        if mode in SCALAR_MODES
        else "pto.set_quant_vector"
        if mode in VECTOR_MODES
        else None
    )
    if setter is None:
        return
    block = op.parent_block()
    earlier = []
    if block is not None:
        for other in block.ops:
            if other is op:
                break
            earlier.append(other)
    if not any(o.name == setter and _integer(o, "id") == _integer(op, "id") for o in earlier):
        raise VerifyException(
            f"expects a preceding {setter} with id = {_integer(op, 'id')} in the same block"
        )


def verify_fixpipe_split(op: Operation, init_name: str, what: str) -> None:
    """A pop or free of a fixpipe pipe does not split."""
    if fixpipe_init(op, init_name) is not None and _integer(op, "split") != 0:
        raise VerifyException(f"expects fixpipe {what} to have split = 0")


def verify_fixpipe_pop(op: Operation, tile: Attribute) -> None:
    """Every `tpop_from_aic` of one fixpipe pipe pops one tile type, of the element type
    and layout the fixpipe writes."""
    init = fixpipe_init(op, "pto.aiv_initialize_pipe")
    if init is None:
        return
    if not isinstance(tile, TileTypeBase):
        raise VerifyException("expects fixpipe TPOP result to be a tile type")
    function = op.parent_op()
    while function is not None and function.name != "func.func":
        function = function.parent_op()
    assert function is not None
    pipe_id = _integer(op, "id")
    for other in function.walk():
        same_pipe = other.name == op.name and other is not op and _integer(other, "id") == pipe_id
        if same_pipe and other.results and other.results[0].type != tile:
            raise VerifyException(
                f"expects all tpop_from_aic results for fixpipe pipe id = {pipe_id} to use "
                "the same tile type"
            )
    mode = quant_mode(init)
    if element_type_name(tile.element_type) not in CONSUMER_ELEMENTS[mode]:
        raise VerifyException(
            f"expects consumer element type to match acc_push_epilogue.quant {mode}"
        )
    layout = init.attributes["acc_push_epilogue"].value("layout")  # type: ignore[attr-defined]
    if tile.loc.data != "vec" or (tile.blayout.data, tile.slayout.data) != CONSUMER_LAYOUTS[layout]:
        raise VerifyException(
            f"expects consumer tile layout to match acc_push_epilogue.layout {layout}"
        )
