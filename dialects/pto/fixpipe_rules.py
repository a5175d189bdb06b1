"""PTOAS main's rules for the data ops of a fixpipe pipe: a front-end pipe whose init
carries `acc_push_epilogue`, so that the cube's accumulator tile goes through the
fixpipe (quantization, layout, ReLU) on its way to the vector cores.

- no front-end data op carries the fixpipe's internal attributes (`stPhase`, ...);
- the data ops of a fixpipe pipe do not split (split = 0);
- `tpush_to_aiv` pushes an `acc` tile whose element type the quantization mode reads
  (f32 for the f32 modes, i32 for the integer ones), after the `set_quant_scalar` /
  `set_quant_vector` of its pipe in the same block when the mode needs one;
- every `tpop_from_aic` of a fixpipe pipe pops one tile type, of the element type the
  quantization mode writes;
- `set_quant_scalar` / `set_quant_vector` name, by id, the one init of their function
  (a front-end init, or a lowered one keeping `__pto.frontend_id`) whose epilogue's
  mode is of their family; a vector setter's scaling tile is in `scaling` memory,
  of f16, bf16 or f32 on A5 and of packed 64-bit words on A2A3;
- across functions (`verify_fixpipe_peer`): a producer init and the consumer init of
  the function its imported buffer names carry one epilogue (layout, quant, relu);
  the consumer resolves its entry from its pops, its slot (and its peer's) holds one
  popped tile, and each push of the peer's pipe reads the element type the mode
  turns into the popped one.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException
from xla_emit.dialects.pto.types import (
    TileTypeBase,
    element_type_name,
    enclosing_function,
    op_target,
)

from xla_emit.pto.targets import element_bytes, is_element_type

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


# -- the quantization setters ----------------------------------------------------------

LOWERED_INITS = ("pto.initialize_l2l_pipe", "pto.initialize_l2g2l_pipe")
FRONTEND_ID_ATTR = "__pto.frontend_id"
# The scaling tile's element types per target (PTOAS's isFixpipeQuantPayloadElemType).
A5_PAYLOAD_ELEMENTS = ("f16", "bf16", "f32")
A2A3_PAYLOAD_ELEMENTS = ("i64", "si64", "ui64")


def _init_by_id(op: Operation, function: Operation) -> Operation:
    """The one front-end init of `op`'s id in the function, else the one lowered init
    that keeps it (PTOAS's lookupFrontendOrLoweredInitOpById)."""
    pipe_id = _integer(op, "id")
    frontend = [
        o for o in function.walk() if o.name in FRONTEND_INITS and _integer(o, "id") == pipe_id
    ]
    if len(frontend) == 1:
        return frontend[0]
    if frontend:
        raise VerifyException(
            f"expects 'id' = {pipe_id} to match exactly one frontend initialize_pipe op in the "
            "same function"
        )
    lowered = [
        o
        for o in function.walk()
        if o.name in LOWERED_INITS
        and _integer(o, FRONTEND_ID_ATTR) == pipe_id
        and FRONTEND_ID_ATTR in o.attributes
    ]
    if not lowered:
        raise VerifyException(
            f"expects 'id' = {pipe_id} to match a frontend or lowered initialize_pipe op in the "
            "same function"
        )
    if len(lowered) > 1:
        raise VerifyException(
            f"expects 'id' = {pipe_id} to match exactly one frontend or lowered initialize_pipe "
            "op in the same function"
        )
    return lowered[0]


def _setter_mode(op: Operation, family: str, modes: frozenset[str]) -> None:
    """The checks both setters share: the pipe they name, and its mode's family."""
    verify_no_unpublished_attributes(op)
    function = enclosing_function(op)
    if function is None:
        raise VerifyException("must be nested under a func.func")
    init = _init_by_id(op, function)
    pipe_id = _integer(op, "id")
    if init.name == "pto.aiv_initialize_pipe":
        raise VerifyException(
            f"expects 'id' = {pipe_id} to reference an aic_initialize_pipe or lowered producer pipe"
        )
    if "acc_push_epilogue" not in init.attributes:
        raise VerifyException(
            f"expects 'id' = {pipe_id} to reference a fixpipe pipe (with acc_push_epilogue)"
        )
    if quant_mode(init) not in modes:
        raise VerifyException(
            f"expects 'id' = {pipe_id} to reference a pipe with {family} quantization mode, but "
            f"found non-{family} mode"
        )


def verify_set_quant_scalar(op: Operation) -> None:
    _setter_mode(op, "scalar", SCALAR_MODES)


def verify_set_quant_vector(op: Operation) -> None:
    _setter_mode(op, "vector", VECTOR_MODES)
    tile = op.operands[0].type
    if not isinstance(tile, TileTypeBase):
        raise VerifyException("expects 'scaling_tile' to be a tile type")
    if tile.loc.data != "scaling":
        raise VerifyException("expects 'scaling_tile' to use loc=scaling")
    element = element_type_name(tile.element_type)
    if op_target(op) == "a5":
        if element not in A5_PAYLOAD_ELEMENTS:
            raise VerifyException(
                "expects 'scaling_tile' element type to be f16, bf16, or f32 on A5"
            )
    elif element not in A2A3_PAYLOAD_ELEMENTS:
        raise VerifyException("expects 'scaling_tile' element type to be packed i64/ui64 on A3")


def verify_talloc_to_aiv(op: Operation) -> None:
    """The cube's `talloc_to_aiv` of a fixpipe pipe does not split."""
    verify_no_unpublished_attributes(op)
    if fixpipe_init(op, "pto.aic_initialize_pipe") is not None and _integer(op, "split") != 0:
        raise VerifyException("expects fixpipe TALLOC to have split = 0")


FIXPIPE_OP_RULES: dict[str, Callable[[Operation], None]] = {
    "set_quant_scalar": verify_set_quant_scalar,
    "set_quant_vector": verify_set_quant_vector,
    "talloc_to_aiv": verify_talloc_to_aiv,
    "talloc_to_aic": verify_no_unpublished_attributes,
}


# -- the contract between a producer init and its peer consumer ------------------------


def _peer_function(imported: Operation) -> Operation | None:
    """The `func.func` an `import_reserved_buffer`'s `peer_func` names, in its module."""
    peer = imported.attributes.get("peer_func")
    module = imported.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if not isinstance(peer, SymbolRefAttr) or module is None:
        return None
    for candidate in module.walk():
        name = candidate.properties.get("sym_name")
        named = isinstance(name, StringAttr) and name.data == peer.root_reference.data
        if candidate.name == "func.func" and named:
            return candidate
    return None


def _buffer_name(op: Operation) -> str | None:
    name = op.attributes.get("name")
    return name.data if isinstance(name, StringAttr) else None


def _c2v_buffer_owner(init: Operation, kind: str) -> Operation | None:
    buffer = getattr(init, "c2v_consumer_buf", None)
    if buffer is None or buffer.owner.name != kind:  # type: ignore[union-attr]
        return None
    return buffer.owner  # type: ignore[union-attr]


def _peer_consumer_init(producer: Operation) -> Operation | None:
    imported = _c2v_buffer_owner(producer, "pto.import_reserved_buffer")
    function = _peer_function(imported) if imported is not None else None
    if imported is None or function is None:
        return None
    name = _buffer_name(imported)
    matches = [
        o
        for o in function.walk()
        if (
            o.name == "pto.aiv_initialize_pipe"
            and (reserved := _c2v_buffer_owner(o, "pto.reserve_buffer")) is not None
            and _buffer_name(reserved) == name
        )
        or _lowered_peer(o, function, name)
    ]
    return matches[0] if len(matches) == 1 else None


def _lowered_peer(op: Operation, owner: Operation, buffer: str | None) -> bool:
    """A lowered fixpipe init that keeps its C2V peer contract: the function owning
    the reserved buffer, the buffer's name, direction 1 (PTOAS's
    matchesLoweredFixpipePeerContract)."""
    if op.name not in LOWERED_INITS or "acc_push_epilogue" not in op.attributes:
        return False
    owner_attr = op.attributes.get("__pto.peer_owner_func")
    name_attr = op.attributes.get("__pto.peer_reserve_name")
    owner_name = owner.properties.get("sym_name")
    return (
        isinstance(owner_attr, SymbolRefAttr)
        and isinstance(owner_name, StringAttr)
        and owner_attr.root_reference.data == owner_name.data
        and isinstance(name_attr, StringAttr)
        and name_attr.data == buffer
        and _integer(op, "__pto.peer_dir_mask") == 1
    )


def _epilogue_fields(init: Operation) -> Attribute | None:
    return init.attributes.get("acc_push_epilogue")


def _compare_epilogues(ours: Attribute, peer: Attribute, side: str, other: str) -> None:
    for key in ("layout", "quant", "relu"):
        mine, theirs = ours.value(key), peer.value(key)  # type: ignore[attr-defined]
        if mine != theirs:
            raise VerifyException(
                f"expects acc_push_epilogue.{key} to match peer {side} ({other} has {mine}, "
                f"{side} has {theirs})"
            )


def verify_fixpipe_producer_peer(init: Operation) -> None:
    """An `aic_initialize_pipe` with an epilogue has a consumer init of the same one."""
    epilogue = _epilogue_fields(init)
    if epilogue is None:
        return
    peer = _peer_consumer_init(init)
    if peer is None:
        raise VerifyException(
            "expects peer consumer function to contain a matching aiv_initialize_pipe with "
            "the same consumer buffer contract"
        )
    _compare_epilogues(epilogue, _peer_epilogue(peer, "consumer"), "consumer", "producer")


def _peer_epilogue(peer: Operation, role: str) -> Attribute:
    """The epilogue of the peer `role` pipe init, which one side's epilogue requires."""
    epilogue = _epilogue_fields(peer)
    if epilogue is None:
        raise VerifyException(
            f"expects peer {role} pipe init to also have 'acc_push_epilogue' for fixpipe "
            "contract consistency"
        )
    return epilogue


def _peer_producer_init(consumer: Operation) -> tuple[Operation, Operation]:
    """The consumer's peer function and producer init, found from the one import of its
    reserved buffer that names the consumer's function."""
    reserved = _c2v_buffer_owner(consumer, "pto.reserve_buffer")
    if reserved is None:
        if _c2v_buffer_owner(consumer, "pto.import_reserved_buffer") is not None:
            raise VerifyException(
                "expects consumer-side fixpipe pipe to use reserve_buffer, not "
                "import_reserved_buffer"
            )
        raise VerifyException(
            "expects fixpipe pipe 'c2v_consumer_buf' to trace to reserve_buffer or "
            "import_reserved_buffer for peer contract verification"
        )
    name, own_function = _buffer_name(reserved), enclosing_function(consumer)
    module = own_function.parent_op() if own_function is not None else None
    imports = [
        o
        for o in (module.walk() if module is not None else ())
        if o.name == "pto.import_reserved_buffer"
        and _buffer_name(o) == name
        and _peer_function(o) is own_function
    ]
    if not imports:
        raise VerifyException(
            f"cannot find peer import_reserved_buffer for consumer buffer '{name}'"
        )
    if len(imports) > 1:
        raise VerifyException(
            f"finds multiple peer import_reserved_buffer ops for consumer buffer '{name}'"
        )
    function = enclosing_function(imports[0])
    producers = [
        o
        for o in (function.walk() if function is not None else ())
        if (
            o.name == "pto.aic_initialize_pipe"
            and (imported := _c2v_buffer_owner(o, "pto.import_reserved_buffer")) is not None
            and _buffer_name(imported) == name
            and _peer_function(imported) is own_function
        )
        or (own_function is not None and _lowered_peer(o, own_function, name))
    ]
    if function is None or len(producers) != 1:
        raise VerifyException(
            "expects peer producer function to contain a matching aic_initialize_pipe with "
            "the same consumer buffer contract"
        )
    return function, producers[0]


def _tile_bytes(tile: TileTypeBase) -> int | None:
    """A tile's static size in bytes (None when dynamic or of an unsized element)."""
    element = element_type_name(tile.element_type)
    rows, cols = tile.shape
    if not is_element_type(element) or rows < 0 or cols < 0:
        return None
    return rows * cols * element_bytes(element)


_I32 = ("i32", "si32", "ui32")


def _producer_consumer_types(mode: str, source: str, popped: str) -> bool:
    """PTOAS's matchesFixpipeProducerAndConsumerTypes: the pushed acc element type is
    the mode's input (f32 or a 32-bit integer), the popped one among its outputs;
    `no_convert` keeps the type."""
    if mode == "no_convert":
        return source in ("f32", *_I32) and source == popped
    reads = ("f32",) if mode in F32_MODES else _I32
    return source in reads and popped in CONSUMER_ELEMENTS[mode]


def verify_fixpipe_consumer_peer(init: Operation) -> None:
    """An `aiv_initialize_pipe` with an epilogue against its peer producer and pops."""
    epilogue = _epilogue_fields(init)
    if epilogue is None:
        return
    function, producer = _peer_producer_init(init)
    _compare_epilogues(epilogue, _peer_epilogue(producer, "producer"), "producer", "consumer")
    pipe_id = _integer(init, "id")
    own = enclosing_function(init)
    pops = [
        o
        for o in (own.walk() if own is not None else ())
        if o.name == "pto.tpop_from_aic" and _integer(o, "id") == pipe_id
    ]
    if not pops:
        raise VerifyException(
            f"expects at least one tpop_from_aic for fixpipe pipe id = {pipe_id} to resolve "
            "the consumer entry type"
        )
    tile = pops[0].results[0].type
    if any(pop.results[0].type != tile for pop in pops[1:]):
        raise VerifyException(
            f"expects all tpop_from_aic results for fixpipe pipe id = {pipe_id} to use the "
            "same tile type"
        )
    if not isinstance(tile, TileTypeBase):
        raise VerifyException("expects fixpipe consumer tpop result to be !pto.tile_buf")
    mode, popped = quant_mode(init), element_type_name(tile.element_type)
    if popped not in CONSUMER_ELEMENTS[mode]:
        raise VerifyException(
            f"expects consumer element type to match acc_push_epilogue.quant {mode}"
        )
    layout = epilogue.value("layout")  # type: ignore[attr-defined]
    if tile.loc.data != "vec" or (tile.blayout.data, tile.slayout.data) != CONSUMER_LAYOUTS[layout]:
        raise VerifyException(
            f"expects consumer tile layout to match acc_push_epilogue.layout {layout}"
        )
    _verify_slot_sizes(init, producer, tile)
    lowered = producer.name in LOWERED_INITS
    producer_id = _integer(producer, FRONTEND_ID_ATTR if lowered else "id")
    for push in function.walk():
        if push.name != "pto.tpush_to_aiv" or _integer(push, "id") != producer_id:
            continue
        source = push.operands[0].type
        if isinstance(source, TileTypeBase) and not _producer_consumer_types(
            mode, element_type_name(source.element_type), popped
        ):
            raise VerifyException(
                "expects producer source element type and consumer tpop result element type "
                f"to satisfy acc_push_epilogue.quant {mode}"
            )


def _verify_slot_sizes(consumer: Operation, producer: Operation, tile: TileTypeBase) -> None:
    needed = _tile_bytes(tile)
    if needed is None:
        return
    if _integer(consumer, "slot_size") < needed:
        raise VerifyException(
            f"expects consumer-side fixpipe slot_size to be at least {needed} bytes for the "
            "resolved post-fixpipe consumer entry"
        )
    if _integer(producer, "slot_size") < needed:
        raise VerifyException(
            f"expects peer producer fixpipe slot_size to be at least {needed} bytes for the "
            "resolved post-fixpipe consumer entry"
        )
