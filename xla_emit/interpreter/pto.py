"""A numpy executor for PTO programs, level 1 and level 2.

    from xla_emit.interpreter.pto import PTOExecutor
    results = PTOExecutor(module).run("kernel", [x, out])

Values: a tile (`!pto.tile` value or `!pto.tile_buf` buffer) is a `Tile`, a
2-D numpy array of its static shape plus its valid rows and columns; global
memory (`!pto.ptr`, `!pto.tensor_view`, `!pto.partition_tensor_view`) is a
numpy array that `tstore` writes through, so the caller's arrays hold the
outputs; scalars are Python numbers. Control flow (`func`, `scf`) and scalar
`arith` run op by op; every tile op is one numpy expression over the valid
region of its destination, and elements outside it keep their values.

Level 1 gives every op a fresh tile; level 2 writes the `outs` buffer. An
`alloc_tile` buffer starts zeroed in storage of its own; `pto.tassign` moves
it (with its contents) into the simulated memory of its location at the given
address, so two buffers placed over each other really share bytes: a wrong
memory plan changes the results. `tassign` on a level-1 value is a placement
hint with no effect on values.

`ttrans` transposes over the target's domain (A2A3: the source's valid
region, A5: its static shape; `pto.target_arch` or the `target` argument) or
performs its ConvTile `conversion` on the tiles' row-major contents.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.dialects import pto
from xla_emit.dialects.pto.block_sync_ops import BLOCK_SYNC_OPS
from xla_emit.interpreter import pto_fixpipe, pto_semantics, scalars
from xla_emit.interpreter.budget import MemoryMeter, Reservation, StepCounter, result_label
from xla_emit.interpreter.pto_aggregates import AGGREGATE_HANDLERS
from xla_emit.interpreter.pto_comm import COMM_HANDLERS
from xla_emit.interpreter.pto_cores import CORE_HANDLERS, Pipes
from xla_emit.interpreter.pto_cores_schedule import Scheduler, run_cores
from xla_emit.interpreter.pto_semantics_base import ROUNDING, ViewRegion, compute_dtype
from xla_emit.interpreter.pto_simt import SIMT_HANDLERS
from xla_emit.interpreter.pto_tile import Array, Scalar, Tile, Value
from xla_emit.interpreter.pto_vmi import VMI_HANDLERS
from xla_emit.interpreter.pto_vreg import VREG_HANDLERS
from xla_emit.interpreter.registry import OpTable
from xla_emit.interpreter.scalar_arith import WholeValueArithImpls
from xla_emit.pto.conv_layouts import convert
from xla_emit.pto.rules import transpose_domain
from xla_emit.pto.targets import CAPACITIES, Target
from xla_emit.pto.ttrans_tmp import Conversion

Locator = Callable[[Operation], SourceLocation | None]


def _scalar(value: Value) -> Scalar:
    if isinstance(value, Tile | np.ndarray):
        raise TypeError(f"expected a scalar, but got {type(value).__name__}")
    return value


def _index(value: Value) -> int:
    return int(_scalar(value))


class PTOExecutionError(UserError):
    """A PTO program did something the hardware would not (named op, location)."""


_BINARY: dict[type[Operation], Callable[[Array, Array], Array]] = {
    pto.TAddOp: np.add,
    pto.TSubOp: np.subtract,
    pto.TMulOp: np.multiply,
    pto.TMaxOp: np.maximum,
    pto.TMinOp: np.minimum,
}

_UNARY: dict[type[Operation], Callable[[Array], Array]] = {
    pto.TExpOp: np.exp,
    pto.TLogOp: np.log,
    pto.TSqrtOp: np.sqrt,
    pto.TRsqrtOp: lambda x: 1 / np.sqrt(x),
    pto.TAbsOp: np.abs,
    pto.TReluOp: lambda x: np.maximum(x, 0),
}


def _as_rows(view: Array) -> Array:
    """A global view as rows x its last dim (empty views included)."""
    if view.ndim == 0:
        return view.reshape(1, 1)
    return view.reshape(math.prod(view.shape[:-1]), view.shape[-1])


def _attribute_value(attr: Attribute) -> pto_semantics.AttrValue:
    """An op attribute as the plain value `pto_semantics` reads."""
    if isinstance(attr, pto.PTOEnumAttrBase):
        return attr.data
    if isinstance(attr, IntegerAttr):  # booleans are i1 integers
        return int(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    return str(attr)


class _Return(Exception):
    """Unwinds a function body at `func.return`."""

    def __init__(self, values: list[Value]) -> None:
        super().__init__()
        self.values = values


class PTOExecutor:
    """Runs functions of a PTO module on numpy values."""

    def __init__(
        self, module: ModuleOp, target: str | None = None, locate: Locator | None = None
    ) -> None:
        self.module = module
        self.target: Target = pto.module_target(module, target)
        self.locate = locate
        self.functions = {f.sym_name.data: f for f in module.walk() if isinstance(f, func.FuncOp)}
        self.memories: dict[str, NDArray[np.uint8]] = {}
        self.env: dict[SSAValue, Value] = {}
        self.step_counter = StepCounter()
        self.memory = MemoryMeter()
        self.pipes = Pipes()
        # Set while the functions of a mixed kernel run as cores (`pto_cores_schedule`).
        self.subblock, self.subblocks = 0, 1
        self.scheduler: Scheduler | None = None
        self.core: object = None
        self.calls_run_ahead: set[Operation] = set()
        # The running SIMT thread and its section's extents (`pto_simt`).
        self.thread, self.threads = (0, 0, 0), (1, 1, 1)

    # -- entry points ----------------------------------------------------------------

    def run(self, name: str, args: Sequence[Value]) -> list[Value]:
        """Call function `name`; tile arguments may be Tiles or 2-D arrays."""
        function = self.functions.get(name)
        if function is None:
            raise UserError(
                f"no function named '{name}' (have: {', '.join(sorted(self.functions))})"
            )
        block = function.body.block
        if len(args) != len(block.args):
            raise UserError(f"'{name}' takes {len(block.args)} arguments, but got {len(args)}")
        values = [
            self._argument(function, i, arg, value)
            for i, (arg, value) in enumerate(zip(block.args, args, strict=True))
        ]
        return self._call(function, values)

    def holder(self, op: Operation, what: str) -> Callable[[int], Reservation]:
        """`MemoryMeter.holder` for `what`, failing at `op` (for `Tile.of_type`)."""
        return self.memory.holder(what, partial(self.error, op))

    def _argument(self, function: func.FuncOp, position: int, arg: SSAValue, value: Value) -> Value:
        hold = self.holder(function, f"argument {position} ({arg.type})")
        if isinstance(value, np.ndarray):
            # Global memory is the caller's array, held for the whole run; a tile is a copy.
            if not isinstance(arg.type, pto.TileTypeBase):
                hold(value.nbytes)
                return value
            tile = Tile.of_type(arg.type, hold=hold)
            if value.shape != tile.data.shape:
                raise UserError(
                    f"argument {position} ({arg.type}) expects a {tile.data.shape} array, but got "
                    f"{value.shape}"
                )
            tile.data[...] = value
            return tile
        return value

    def _call(self, function: func.FuncOp, args: list[Value]) -> list[Value]:
        caller_env = self.env
        self.env = dict(zip(function.body.block.args, args, strict=True))
        try:
            self._run_block(function.body.block)
        except _Return as returned:
            return returned.values
        finally:
            self.env = caller_env
        return []

    # -- control flow ------------------------------------------------------------------

    def _run_block(self, block: Block) -> list[Value]:
        """Run a block; returns the operands of its terminating `scf.yield` (or
        `scf.condition`: the condition, then the values it forwards)."""
        for op in block.ops:
            if self.step_counter.charge(1):
                raise self.error(block.parent_op() or op, self.step_counter.exceeded())
            if isinstance(op, scf.YieldOp | scf.ConditionOp):
                return [self.env[v] for v in op.operands]
            if isinstance(op, func.ReturnOp):
                raise _Return([self.env[v] for v in op.operands])
            self.run_op(op)
        return []

    def run_op(self, op: Operation) -> None:
        """Run one op (not a terminator) on the values of `self.env`."""
        handler = _HANDLERS.lookup(type(op))
        if handler is None:
            raise self.error(op, f"the PTO executor cannot run '{op.name}'")
        results = handler(self, op, [self.env[v] for v in op.operands])
        for result, value in zip(op.results, results, strict=True):
            self.env[result] = value

    def _for(self, op: scf.ForOp, args: list[Value]) -> list[Value]:
        lower, upper, step = (_index(v) for v in args[:3])
        carried = args[3:]
        body = op.body.block
        for i in range(lower, upper, step):
            self.env[body.args[0]] = i
            for arg, value in zip(body.args[1:], carried, strict=True):
                self.env[arg] = value
            carried = self._run_block(body)
        return carried

    def _while(self, op: scf.WhileOp, args: list[Value]) -> list[Value]:
        """`before` computes the condition and the values it forwards; while it holds,
        `after` runs on them and yields the next iteration's arguments."""
        before, after = op.before_region.block, op.after_region.block
        while True:
            self.env.update(zip(before.args, args, strict=True))
            condition, *forwarded = self._run_block(before)
            if not condition:
                return forwarded
            self.env.update(zip(after.args, forwarded, strict=True))
            args = self._run_block(after)

    def _if(self, op: scf.IfOp, args: list[Value]) -> list[Value]:
        branch = op.true_region if args[0] else op.false_region
        return self._run_block(branch.block) if branch.blocks else []

    def _call_op(self, op: func.CallOp, args: list[Value]) -> list[Value]:
        if op in self.calls_run_ahead:  # ran as a core with the kernel call before it
            self.calls_run_ahead.discard(op)
            return []
        results = run_cores(self, op, args)
        if results is not None:
            return results
        return self._call(self.functions[op.callee.root_reference.data], args)

    def _no_effect(self, op: Operation, args: list[Value]) -> list[Value]:
        return []  # the executor runs ops one at a time: pipes never overlap

    def _section(
        self, op: pto.SectionCubeOp | pto.SectionVectorOp, args: list[Value]
    ) -> list[Value]:
        # One core of each kind: both sections run, in program order.
        self._run_block(op.body.block)
        return []

    def _block_query(self, op: Operation, args: list[Value]) -> list[Value]:
        # A single block; its vector sub-blocks as far as a vector kernel call runs them.
        if isinstance(op, pto.GetSubblockIdxOp | pto.GetSubblockNumOp):
            return [self.subblock if isinstance(op, pto.GetSubblockIdxOp) else self.subblocks]
        return [1 if isinstance(op, pto.GetBlockNumOp) else 0]

    def _print(self, op: pto.TPrintOp, args: list[Value]) -> list[Value]:
        tile = args[0]
        if isinstance(tile, Tile):
            print(f"{op.name}: {tile.valid.tolist()}")
        return []

    def _set_valid_shape(self, op: pto.SetValidShapeOp, args: list[Value]) -> list[Value]:
        tile = args[0]
        assert isinstance(tile, Tile)
        rows, cols = _index(args[1]), _index(args[2])
        if not (0 <= rows <= tile.data.shape[0] and 0 <= cols <= tile.data.shape[1]):
            raise self.error(op, f"valid shape {rows}x{cols} exceeds the tile's {tile.data.shape}")
        tile.valid_rows, tile.valid_cols = rows, cols
        return []

    def _reshape(self, op: pto.TReshapeOp, args: list[Value]) -> list[Value]:
        src = args[0]
        assert isinstance(src, Tile)
        result = Tile.of_type(op.destination_type())
        # The same bytes: the result aliases the source's storage.
        result.data = src.data.reshape(-1).view(result.data.dtype).reshape(result.data.shape)
        return [result]

    def _scalar_at(self, op: Operation, base: Value, offset: Value) -> tuple[Array, int]:
        assert isinstance(base, np.ndarray)
        flat, index = base.reshape(-1), _index(offset)
        if not 0 <= index < flat.size:
            raise self.error(op, f"offset {index} is outside the {flat.size}-element buffer")
        return flat, index

    def _load_scalar(self, op: pto.LoadScalarOp, args: list[Value]) -> list[Value]:
        flat, index = self._scalar_at(op, args[0], args[1])
        return [flat[index].item()]

    def _get_value(self, op: pto.TGetValOp, args: list[Value]) -> list[Value]:
        tile = args[0]
        assert isinstance(tile, Tile)
        flat, index = self._scalar_at(op, tile.data, args[1])
        return [flat[index].item()]

    def _memory_gather_scatter(self, op: Operation, args: list[Value]) -> list[Value]:
        # mgather's args are (memory, indices[, scratch], dst), mscatter's (src, indices,
        # memory): the written operand comes last.
        indices = args[1]
        if isinstance(indices, np.ndarray):  # indices in global memory (gm2l1 form)
            indices = ViewRegion.of(_as_rows(indices))
        try:
            pto_semantics.MEMORY_MOVES[op.name](args[-1], args[0], indices)
        except pto_semantics.SemanticsError as error:
            raise self.error(op, str(error)) from None
        return []

    def _store_scalar(self, op: pto.StoreScalarOp, args: list[Value]) -> list[Value]:
        flat, index = self._scalar_at(op, args[1], args[2])
        flat[index] = _scalar(args[0])
        return []

    def _view_dim(self, op: pto.GetTensorViewDimOp, args: list[Value]) -> list[Value]:
        view = args[0]
        assert isinstance(view, np.ndarray)
        axis = _index(args[1])
        if not 0 <= axis < view.ndim:
            raise self.error(op, f"dim {axis} of a rank-{view.ndim} view")
        return [view.shape[axis]]

    def _event_array(self, op: pto.DeclareEventIdArrayOp, args: list[Value]) -> list[Value]:
        size = op.array.type.size.data  # type: ignore[union-attr]
        return [np.zeros(size, dtype=np.int64)]

    def _event_array_access(self, op: Operation, args: list[Value]) -> list[Value]:
        flat, index = self._scalar_at(op, args[0], args[1])
        if isinstance(op, pto.EventIdArraySetOp):
            flat[index] = _index(args[2])
            return []
        return [int(flat[index])]

    def _trap(self, op: pto.TrapOp, args: list[Value]) -> list[Value]:
        raise self.error(op, "the kernel trapped")

    def _add_ptr(self, op: pto.AddPtrOp, args: list[Value]) -> list[Value]:
        base = args[0]
        assert isinstance(base, np.ndarray)
        offset = _index(args[1])
        flat = base.reshape(-1)
        if not 0 <= offset <= flat.size:
            raise self.error(op, f"offset {offset} is outside the {flat.size}-element buffer")
        return [flat[offset:]]

    # -- buffers and memory --------------------------------------------------------------

    def _alloc(self, op: pto.AllocTileOp, args: list[Value]) -> list[Value]:
        tile_type = op.result.type
        assert isinstance(tile_type, pto.TileBufType)
        valid = None
        if op.valid_row is not None:
            valid = (_index(args[-2]), _index(args[-1]))
        tile = Tile.of_type(tile_type, valid, self.holder(op, result_label(op)))
        if op.addr is not None:
            # A tile at a fixed address names memory that is already there: it sees what
            # earlier tiles at that address left (PTOAS's manual memory plans rely on it).
            self._bind(op, tile, _index(args[0]), keep_memory=True)
        return [tile]

    def _assign(self, op: pto.TAssignOp, args: list[Value]) -> list[Value]:
        tile = args[0]
        assert isinstance(tile, Tile)
        if isinstance(op.tile.type, pto.TileType):
            return [tile] if op.result else []  # a placement hint on a value
        address = op.address.data if op.address is not None else _index(args[1])
        self._bind(op, tile, address)
        return [tile] if op.result else []

    def _memory(self, op: Operation, loc: str) -> NDArray[np.uint8]:
        if loc not in self.memories:  # all of its capacity, made at its first use (`op`)
            self.holder(op, f"the {loc} memory of {self.target}")(CAPACITIES[self.target][loc])
            self.memories[loc] = np.zeros(CAPACITIES[self.target][loc], dtype=np.uint8)
        return self.memories[loc]

    def _bind(self, op: Operation, tile: Tile, address: int, keep_memory: bool = False) -> None:
        """Move the tile's storage (with its contents, unless `keep_memory`) to `address` of
        its location's memory."""
        memory = self._memory(op, tile.loc)
        size = tile.data.nbytes
        if address < 0 or address + size > memory.size:
            raise self.error(
                op,
                f"tile of {size} bytes at {hex(address)} does not fit the {memory.size}-byte "
                f"{tile.loc} memory",
            )
        view = memory[address : address + size].view(tile.data.dtype).reshape(tile.data.shape)
        if not keep_memory:
            view[...] = tile.data
        tile.data = view

    def _make_tensor_view(self, op: pto.MakeTensorViewOp, args: list[Value]) -> list[Value]:
        base = args[0]
        if not isinstance(base, np.ndarray):
            raise self.error(
                op, f"expected a numpy array for {op.ptr.type}, but got {type(base).__name__}"
            )
        flat = base.reshape(-1)
        rank = len(op.shape)
        shape = [_index(v) for v in args[1 : 1 + rank]]
        strides = [_index(v) for v in args[1 + rank :]]
        extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides, strict=True))
        if extent > flat.size:
            raise self.error(
                op,
                f"the view {shape} with strides {strides} reaches element {extent - 1} of a "
                f"{flat.size}-element buffer",
            )
        return [np.lib.stride_tricks.as_strided(flat, shape, [s * flat.itemsize for s in strides])]

    def _partition_view(self, op: pto.PartitionViewOp, args: list[Value]) -> list[Value]:
        view = args[0]
        assert isinstance(view, np.ndarray)
        rank = view.ndim
        offsets = [_index(v) for v in args[1 : 1 + rank]]
        sizes = [_index(v) for v in args[1 + rank :]]
        for axis, (offset, size) in enumerate(zip(offsets, sizes, strict=True)):
            if offset < 0 or offset + size > view.shape[axis]:
                raise self.error(
                    op,
                    f"partition [{offset}, {offset + size}) of dim {axis} is outside the view's "
                    f"{view.shape[axis]}",
                )
        return [view[tuple(slice(o, o + s) for o, s in zip(offsets, sizes, strict=True))]]

    # -- tile ops --------------------------------------------------------------------------

    def _tile_op(self, op: pto.TileOpBase, args: list[Value]) -> list[Value]:
        ins = args[: len(op.ins)]
        if op.is_dps:
            dst, *reported = args[len(op.ins) :]
            assert isinstance(dst, Tile)
            report = self._compute(op, ins, dst)
            if report is not None and reported:
                pto_semantics.write_report(reported[0], report)
            return []
        hold = self.holder(op, result_label(op))
        dst = Tile.of_type(op.destination_type(), self._result_valid(op, ins), hold)
        self._compute(op, ins, dst)
        return [dst]

    def _result_valid(self, op: pto.TileOpBase, ins: list[Value]) -> tuple[int, int] | None:
        """A level-1 result with a dynamic valid shape takes its source's."""
        source = next((v for v in ins if isinstance(v, Tile)), None)
        if source is None:
            return None
        if isinstance(op, pto.TTransOp):
            return source.valid_cols, source.valid_rows
        return source.valid_rows, source.valid_cols

    def _compute(self, op: pto.TileOpBase, ins: list[Value], dst: Tile) -> pto_semantics.Report:
        """Write the result of tile op `op` on `ins` into the valid region of `dst`; returns
        what the op reports besides (`pto_semantics.compute`)."""
        # Ops named in `pto_semantics` go there even when their base class has a handler
        # (trowmin is a row reduction like trowsum).
        compute = (
            PTOExecutor._semantic
            if op.name in pto_semantics.SUPPORTED
            else _COMPUTES.lookup(type(op))
        )
        if compute is None:
            raise self.error(op, f"the PTO executor cannot run '{op.name}'")
        return compute(self, op, ins, dst)

    def _semantic(self, op: pto.TileOpBase, ins: list[Value], dst: Tile) -> pto_semantics.Report:
        """The ops `pto_semantics` defines: tiles, scalars and attributes in, `dst` written."""
        tiles = [v for v in ins if isinstance(v, Tile)]
        numbers = [v for v in ins if not isinstance(v, Tile | np.ndarray)]
        attrs = {key: _attribute_value(value) for key, value in op.attributes.items()}
        attrs["dst_pad"] = op.destination_type().pad.data
        attrs["scalar_first"] = bool(ins) and not isinstance(ins[0], Tile)
        try:
            return pto_semantics.compute(op.name, dst, tiles, numbers, attrs)
        except pto_semantics.SemanticsError as error:
            raise self.error(op, str(error)) from None

    def _source(self, op: Operation, ins: list[Value], dst: Tile, position: int = 0) -> Array:
        """The region of the `position`th input tile that `dst`'s valid region covers."""
        tile = [v for v in ins if isinstance(v, Tile)][position]
        return self._region(op, tile, dst.valid_rows, dst.valid_cols)

    def _binary(self, op: pto.TileOpBase, ins: list[Value], dst: Tile) -> None:
        a, b = self._source(op, ins, dst), self._source(op, ins, dst, 1)
        self._write(dst, self._elementwise(op, dst, a, b))

    def _unary(self, op: pto.TileOpBase, ins: list[Value], dst: Tile) -> None:
        self._write(dst, _UNARY[type(op)](self._as_compute(self._source(op, ins, dst), dst)))

    def _with_scalar(self, op: pto.TAddsOp | pto.TMulsOp, ins: list[Value], dst: Tile) -> None:
        src = self._as_compute(self._source(op, ins, dst), dst)
        scalar = _scalar(ins[1])
        self._write(
            dst, np.add(src, scalar) if isinstance(op, pto.TAddsOp) else np.multiply(src, scalar)
        )

    def _row_expand(self, op: pto.TRowExpandOp, ins: list[Value], dst: Tile) -> None:
        tile = ins[0]
        assert isinstance(tile, Tile)
        rows, cols = dst.valid_rows, dst.valid_cols
        column = self._region(op, tile, rows, 1)
        dst.data[:rows, :cols] = np.broadcast_to(column, (rows, cols))

    def _mov(self, op: pto.TMovOp, ins: list[Value], dst: Tile) -> None:
        rows, cols = dst.valid_rows, dst.valid_cols
        dst.data[:rows, :cols] = self._source(op, ins, dst).astype(dst.data.dtype)

    def _region(self, op: Operation, tile: Tile, rows: int, cols: int) -> Array:
        if rows > tile.data.shape[0] or cols > tile.data.shape[1]:
            raise self.error(
                op,
                f"reads {rows}x{cols} elements of a {tile.data.shape[0]}x{tile.data.shape[1]} tile",
            )
        return tile.data[:rows, :cols]

    @staticmethod
    def _as_compute(values: Array, dst: Tile) -> Array:
        return values.astype(compute_dtype(dst.data.dtype))

    def _elementwise(self, op: pto.TileOpBase, dst: Tile, a: Array, b: Array) -> Array:
        a, b = self._as_compute(a, dst), self._as_compute(b, dst)
        if isinstance(op, pto.TDivOp):
            if np.issubdtype(dst.data.dtype, np.integer):
                if np.any(b == 0):
                    raise self.error(op, "integer division by zero")
                return scalars.truncating_divide(a, b)
            return np.divide(a, b)
        return _BINARY[type(op)](a, b)

    @staticmethod
    def _write(dst: Tile, values: Array) -> None:
        rows, cols = values.shape
        dst.data[:rows, :cols] = values.astype(dst.data.dtype)

    def _convert(self, op: pto.TCvtOp, ins: list[Value], dst: Tile) -> None:
        src = self._source(op, ins, dst)
        values = src
        if np.issubdtype(dst.data.dtype, np.integer) and not np.issubdtype(src.dtype, np.integer):
            mode = op.attributes.get("rmode")
            name = mode.data if isinstance(mode, StringAttr) else "CAST_RINT"
            rounding = ROUNDING.get(name)
            if rounding is None:
                raise self.error(
                    op, f"unknown rmode '{name}' (expected one of {', '.join(ROUNDING)})"
                )
            info = np.iinfo(dst.data.dtype.name)
            values = np.clip(rounding(src.astype(np.float64)), info.min, info.max)
        self._write(dst, values)

    def _reduce(self, op: pto.ReductionOpBase, ins: list[Value], dst: Tile) -> None:
        src = ins[0]
        assert isinstance(src, Tile)
        values = src.valid.astype(compute_dtype(src.data.dtype))
        reduce = np.sum if isinstance(op, pto.TRowSumOp | pto.TColSumOp) else np.max
        if op.REDUCES_ROWS:
            dst.data[: src.valid_rows, 0] = reduce(values, axis=1).astype(dst.data.dtype)
        else:
            dst.data[0, : src.valid_cols] = reduce(values, axis=0).astype(dst.data.dtype)

    def _matmul(self, op: pto.TMatmulOp, ins: list[Value], dst: Tile) -> None:
        left, right = ins[0], ins[1]
        assert isinstance(left, Tile) and isinstance(right, Tile)
        accumulate = np.int64 if np.issubdtype(dst.data.dtype, np.integer) else np.float64
        product = left.valid.astype(accumulate) @ right.valid.astype(accumulate)
        self._write(dst, product)

    def _transpose(self, op: pto.TTransOp, ins: list[Value], dst: Tile) -> None:
        src = ins[0]
        assert isinstance(src, Tile)
        conversion, shape, c0 = pto.ttrans_conversion(op)
        if conversion is Conversion.TRANSPOSE_2D:
            # A2A3 reads the valid region the source has at run time.
            desc = replace(op.source().desc(), valid_rows=src.valid_rows, valid_cols=src.valid_cols)
            rows, cols = transpose_domain(self.target, desc)
            if cols > dst.data.shape[0] or rows > dst.data.shape[1]:
                raise self.error(
                    op,
                    f"the {rows}x{cols} transpose does not fit the "
                    f"{dst.data.shape[0]}x{dst.data.shape[1]} destination",
                )
            dst.data[:cols, :rows] = src.data[:rows, :cols].T
            return
        flat = src.data.reshape(-1)[: math.prod(shape)].reshape(shape)
        result = convert(conversion, flat, c0).reshape(-1)
        if result.size > dst.data.size:
            raise self.error(
                op,
                f"{conversion.value} produces {result.size} elements, more than the "
                f"{dst.data.size}-element destination",
            )
        dst.data.reshape(-1)[: result.size] = result.astype(dst.data.dtype)

    def _load(self, op: pto.TLoadOp, ins: list[Value], dst: Tile) -> None:
        view = ins[0]
        assert isinstance(view, np.ndarray)
        rows, cols = dst.valid_rows, dst.valid_cols
        # The view's last dim is the tile's columns, the others its rows.
        window = _as_rows(view)
        if window.shape[0] < rows or window.shape[1] < cols:
            raise self.error(
                op,
                f"loads {rows}x{cols} valid elements from a "
                f"{window.shape[0]}x{window.shape[1]} view",
            )
        dst.data[:rows, :cols] = window[:rows, :cols].astype(dst.data.dtype)

    def _store(self, op: Operation, args: list[Value]) -> list[Value]:
        src, view = args[0], args[-1]
        assert isinstance(src, Tile) and isinstance(view, np.ndarray)
        values = src.valid
        if isinstance(op, pto.TStoreFpOp):  # through the fixpipe, with fp's words
            assert isinstance(args[1], Tile)
            try:
                words = pto_fixpipe.quantization_words(args[1], values.shape[1])
            except pto_semantics.SemanticsError as error:
                raise self.error(op, str(error)) from None
            values = pto_fixpipe.quantize(values, words, view.dtype)
        if values.size == view.size:
            view[...] = values.reshape(view.shape).astype(view.dtype)
            return []
        # A partial tile (a dynamic valid shape) fills the view's top-left corner.
        window = _as_rows(view) if view.ndim > 1 else None
        if window is None or window.shape[0] < values.shape[0] or window.shape[1] < values.shape[1]:
            raise self.error(
                op,
                f"stores {values.shape[0]}x{values.shape[1]} valid elements into a view of "
                f"{view.size}",
            )
        window[: values.shape[0], : values.shape[1]] = values.astype(view.dtype)
        return []

    def error(self, op: Operation, message: str) -> PTOExecutionError:
        location = self.locate(op) if self.locate is not None else None
        return PTOExecutionError(f"'{op.name}' op {message}", location)


# The PTO executor's handlers: its own methods (the op and its operand values),
# after the shared scalar `arith`.
_Handler = Callable[[PTOExecutor, Operation, list[Value]], list[Value]]
_HANDLERS: OpTable[_Handler] = OpTable()
_HANDLERS.register(WholeValueArithImpls())
for _op_type, _method in (
    (pto.TileOpBase, PTOExecutor._tile_op),
    (pto.TStoreOp, PTOExecutor._store),
    (pto.TStoreFpOp, PTOExecutor._store),
    (scf.ForOp, PTOExecutor._for),
    (scf.IfOp, PTOExecutor._if),
    (scf.WhileOp, PTOExecutor._while),
    (func.CallOp, PTOExecutor._call_op),
    (pto.AllocTileOp, PTOExecutor._alloc),
    (pto.TAssignOp, PTOExecutor._assign),
    (pto.MakeTensorViewOp, PTOExecutor._make_tensor_view),
    (pto.PartitionViewOp, PTOExecutor._partition_view),
    (pto.BarrierOp, PTOExecutor._no_effect),
    (pto.SetFlagOp, PTOExecutor._no_effect),
    (pto.WaitFlagOp, PTOExecutor._no_effect),
    (pto.TSyncOp, PTOExecutor._no_effect),
    (pto.TPrintOp, PTOExecutor._print),
    (pto.TReshapeOp, PTOExecutor._reshape),
    (pto.SetValidShapeOp, PTOExecutor._set_valid_shape),
    (pto.AddPtrOp, PTOExecutor._add_ptr),
    (pto.LoadScalarOp, PTOExecutor._load_scalar),
    (pto.StoreScalarOp, PTOExecutor._store_scalar),
    (pto.TGetValOp, PTOExecutor._get_value),
    (pto.MGatherOp, PTOExecutor._memory_gather_scatter),
    (pto.MScatterOp, PTOExecutor._memory_gather_scatter),
    (pto.GetTensorViewDimOp, PTOExecutor._view_dim),
    (pto.DeclareEventIdArrayOp, PTOExecutor._event_array),
    (pto.EventIdArrayGetOp, PTOExecutor._event_array_access),
    (pto.EventIdArraySetOp, PTOExecutor._event_array_access),
    (pto.TrapOp, PTOExecutor._trap),
    (pto.SectionCubeOp, PTOExecutor._section),
    (pto.SectionVectorOp, PTOExecutor._section),
):
    _HANDLERS.add(_op_type, _method)
for _op_type, _core_handler in (
    *CORE_HANDLERS.items(),
    *VREG_HANDLERS.items(),
    *VMI_HANDLERS.items(),
    *SIMT_HANDLERS.items(),
    *COMM_HANDLERS.items(),
    *AGGREGATE_HANDLERS.items(),
):
    _HANDLERS.add(_op_type, _core_handler)
for _op_type in (*pto.SYNCHRONIZATION_OPS, *BLOCK_SYNC_OPS):
    _HANDLERS.add(_op_type, PTOExecutor._no_effect)
for _op_type in (pto.GetBlockIdxOp, pto.GetBlockNumOp, pto.GetSubblockIdxOp, pto.GetSubblockNumOp):
    _HANDLERS.add(_op_type, PTOExecutor._block_query)


# How each tile op computes its destination tile from its inputs.
_Compute = Callable[[PTOExecutor, Any, list[Value], Tile], None]
_COMPUTES: OpTable[_Compute] = OpTable()
for _op_types, _method in (
    ((*_BINARY, pto.TDivOp), PTOExecutor._binary),
    (tuple(_UNARY), PTOExecutor._unary),
    ((pto.TAddsOp, pto.TMulsOp), PTOExecutor._with_scalar),
    ((pto.TCvtOp,), PTOExecutor._convert),
    ((pto.ReductionOpBase,), PTOExecutor._reduce),
    ((pto.TRowExpandOp,), PTOExecutor._row_expand),
    ((pto.TMatmulOp,), PTOExecutor._matmul),
    ((pto.TMovOp,), PTOExecutor._mov),
    ((pto.TTransOp,), PTOExecutor._transpose),
    ((pto.TLoadOp,), PTOExecutor._load),
):
    for _op_type in _op_types:
        _COMPUTES.add(_op_type, _method)
