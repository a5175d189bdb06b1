"""The Triton emitter: a `__triton` fusion as an `xtile.entry_func` over tiles.

As XLA's fusion emitter writes it (the first snapshot of its Triton pass log):
the entry function takes the fusion's operands, then its results, as memrefs,
and the program id as an index with `xla.range = [0, programs - 1]`. Each tiled
instruction (`tiling.tile_computation`, operands first) becomes one op on its
tile: a parameter an `xtile.extract` at the tile's offsets (each offset an
`xla.apply_indexing` of the pid, the pid itself, or a constant 0), a constant
a 0-d `arith.constant` tensor, elementwise ops `stablehlo` ops (and `math` ops
for the transcendental ones, as XLA does), broadcasts `stablehlo.broadcast_in_dim`,
reshapes and bitcasts `stablehlo.reshape`, reduces `stablehlo.reduce` with the
reducer as its region; each output an `xtile.insert`. Tiles are the padded
(power-of-two) sizes; a reduce over a dimension the padding runs past first
masks the padding with its init value (`xtile.mask`). A gemm fusion's dot is an
`scf.for` over the tiles of its contracting dimension: inside, the operands'
tiles at `k_0` and a `stablehlo.dot_general` added to an f32 accumulator;
after it, a convert to the dot's type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith, math, scf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float32Type,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xla_emit.diagnostics import UserError
from xla_emit.dialects import stablehlo, xtile
from xla_emit.dialects.xla import ApplyIndexingOp, IndexingMapAttr
from xla_emit.emitters.triton.tiling import (
    TiledComputation,
    TiledInstruction,
    physical_order,
    tile_computation,
    uses_contracting_tile,
)
from xla_emit.emitters.types import element_type
from xla_emit.hlo.fusion_configs import triton_gemm_config, triton_launch_config
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.shape import ArrayShape
from xla_emit.indexing import AffineExpr, ConstantExpr, DimExpr, IndexingMap, Interval, Variable

# HLO elementwise opcodes XLA's Triton emitter writes as `stablehlo` ops.
_STABLEHLO_OPS: dict[str, type[Operation]] = {
    "add": stablehlo.AddOp,
    "subtract": stablehlo.SubtractOp,
    "multiply": stablehlo.MultiplyOp,
    "divide": stablehlo.DivideOp,
    "maximum": stablehlo.MaximumOp,
    "minimum": stablehlo.MinimumOp,
    "negate": stablehlo.NegateOp,
    "abs": stablehlo.AbsOp,
    "and": stablehlo.AndOp,
    "or": stablehlo.OrOp,
    "xor": stablehlo.XorOp,
    "not": stablehlo.NotOp,
    "power": stablehlo.PowerOp,
    "remainder": stablehlo.RemainderOp,
    "floor": stablehlo.FloorOp,
    "ceil": stablehlo.CeilOp,
    "sign": stablehlo.SignOp,
}
# ...and the ones it writes as `math` ops on the tile.
_MATH_OPS: dict[str, type[Operation]] = {
    "exponential": math.ExpOp,
    "exponential-minus-one": math.ExpM1Op,
    "log": math.LogOp,
    "log-plus-one": math.Log1pOp,
    "rsqrt": math.RsqrtOp,
    "sqrt": math.SqrtOp,
    "tanh": math.TanhOp,
    "sine": math.SinOp,
    "cosine": math.CosOp,
}


def _fail(instruction: HloInstruction, message: str) -> UserError:
    return UserError(f"Triton emitter, '{instruction.name}': {message}", instruction.location)


def kernel_name(fusion: HloInstruction) -> str:
    """XLA's name for a fusion's kernel: its name with '.' and '-' as '_'."""
    return fusion.name.replace(".", "_").replace("-", "_")


def emit_triton_fusion(fusion: HloInstruction) -> ModuleOp:
    """The `xtile` kernel of a Triton fusion, tiled by its block_level_fusion_config (or a
    gemm fusion's triton_gemm_config)."""
    config = triton_launch_config(fusion)
    computation = fusion.called_computations[0]
    gemm = triton_gemm_config(fusion)
    # A dot without its own K tile (`sizes`) takes the gemm config's `block_k`.
    tiled = tile_computation(
        computation, config.output_tiles, gemm.block_k if gemm is not None else None
    )
    return emit_tiled_computation(kernel_name(fusion), computation, tiled)


def emit_tiled_computation(
    name: str, computation: HloComputation, tiled: TiledComputation
) -> ModuleOp:
    """The entry function computing `tiled`, one program per output tile."""
    parameters = computation.parameters
    outputs = [t.instruction for t in tiled.roots]
    buffer_types: list[Attribute] = [_memref(p.array_shape) for p in parameters]
    buffer_types += [_memref(o.array_shape) for o in outputs]
    block = Block(arg_types=[*buffer_types, IndexType()])
    emitter = _TileEmitter(
        Builder(InsertPoint.at_end(block)),
        block.args[-1],
        tiled.num_programs,
        tiled.contracting_tiles,
    )
    for parameter, arg in zip(parameters, block.args, strict=False):
        emitter.parameters[parameter] = arg
    # Tiles that move along a dot's contracting dimension are made in its loop over K.
    in_loop = [t for t in tiled.instructions if uses_contracting_tile(t)]
    for tiled_instruction in tiled.instructions:
        if tiled_instruction.instruction.opcode == "dot":
            emitter.emit_dot(tiled_instruction, in_loop)
        elif not uses_contracting_tile(tiled_instruction):
            emitter.emit(tiled_instruction)
    for root, buffer in zip(tiled.roots, block.args[len(parameters) : -1], strict=True):
        emitter.insert(root, buffer)
    emitter.builder.insert(xtile.EntryFuncReturnOp())
    function = xtile.EntryFuncOp.create(
        properties={
            "sym_name": StringAttr(name),
            "function_type": FunctionType.from_lists([*buffer_types, IndexType()], []),
            "arg_attrs": _arg_attrs(len(buffer_types), tiled.num_programs),
            "num_opaque_args": IntegerAttr(0, i32),
        },
        regions=[Region(block)],
    )
    return ModuleOp([function])


def _arg_attrs(buffers: int, programs: int) -> ArrayAttr[DictionaryAttr]:
    pid_range = ArrayAttr([IntegerAttr(0, IndexType()), IntegerAttr(programs - 1, IndexType())])
    attrs = [DictionaryAttr({}) for _ in range(buffers)]
    return ArrayAttr([*attrs, DictionaryAttr({"xla.range": pid_range})])


def _memref(shape: ArrayShape) -> MemRefType[Attribute]:
    return MemRefType(element_type(shape.element_type), shape.dimensions)


def _tile_type(tiled: TiledInstruction) -> TensorType[Attribute]:
    return TensorType(element_type(tiled.shape.element_type), tiled.padded_sizes)


@dataclass
class _TileEmitter:
    builder: Builder
    pid: SSAValue
    programs: int
    contracting_tiles: int = 0
    # The loop's index over K tiles while its body is emitted.
    k: SSAValue | None = None
    parameters: dict[HloInstruction, SSAValue] = field(
        default_factory=dict[HloInstruction, SSAValue]
    )
    values: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])

    def value(self, tiled: TiledInstruction) -> SSAValue:
        return self.values[id(tiled)]

    def emit(self, tiled: TiledInstruction) -> None:
        instruction = tiled.instruction
        opcode = instruction.opcode
        emit = _EMITTERS.get(opcode)
        if emit is None:
            if opcode in _STABLEHLO_OPS or opcode in _MATH_OPS:
                emit = _TileEmitter._elementwise
            else:
                raise _fail(instruction, f"'{opcode}' is not supported by the Triton emitter")
        self.values[id(tiled)] = emit(self, tiled)

    def add(self, op: Operation) -> SSAValue:
        self.builder.insert(op)
        return op.results[0]

    # -- offsets -----------------------------------------------------------------------

    def offsets(self, tiled: TiledInstruction) -> list[SSAValue]:
        return [self._offset(expr) for expr in tiled.offsets]

    def _offset(self, expr: AffineExpr) -> SSAValue:
        """The pid itself, a constant, or `xla.apply_indexing` of `(pid, tid)[k_0] -> (expr)`
        (`k_0` in the loop over a dot's contracting tiles)."""
        if expr == DimExpr(0):
            return self.pid
        if isinstance(expr, ConstantExpr):
            return self.add(arith.ConstantOp(IntegerAttr(expr.value, IndexType())))
        in_loop = self.k is not None
        range_vars = (Variable(Interval(0, self.contracting_tiles - 1), "k_0"),) if in_loop else ()
        indexing_map = IndexingMap(
            dim_vars=(
                Variable(Interval(0, self.programs - 1), "pid"),
                Variable(Interval(0, 0), "tid"),
            ),
            range_vars=range_vars,
            rt_vars=(),
            results=(expr,),
        ).simplify()
        symbols = [self.k] if self.k is not None else []
        apply = ApplyIndexingOp(
            IndexingMapAttr.from_map(indexing_map), [self.pid, self.pid], symbols
        )
        return self.add(apply)

    # -- dots ----------------------------------------------------------------------------

    def emit_dot(self, tiled: TiledInstruction, in_loop: list[TiledInstruction]) -> None:
        """The dot's tile, summed over K tiles in an `scf.for` with an f32 accumulator (as
        XLA writes it: `stablehlo.dot_general` of the K tiles, `arith.addf` to the
        accumulator), then converted to the dot's type."""
        instruction = tiled.instruction
        dims = instruction.dot_dimensions
        assert dims is not None
        accumulator = TensorType(Float32Type(), tiled.padded_sizes)
        zero = self.add(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(accumulator, [0.0])))
        bounds = [
            self.add(arith.ConstantOp(IntegerAttr(v, IndexType())))
            for v in (0, self.contracting_tiles, 1)
        ]
        body = Block(arg_types=[IndexType(), accumulator])
        outer, self.builder, self.k = self.builder, Builder(InsertPoint.at_end(body)), body.args[0]
        for inner in in_loop:
            self.emit(inner)
        lhs, rhs = (self.value(o) for o in tiled.operands)
        dot = self.add(
            stablehlo.DotGeneralOp.create(
                operands=[lhs, rhs],
                result_types=[accumulator],
                properties={
                    "dot_dimension_numbers": stablehlo.DotDimensionNumbersAttr(
                        dims.lhs_batch, dims.rhs_batch, dims.lhs_contracting, dims.rhs_contracting
                    ),
                    "precision_config": ArrayAttr(
                        [stablehlo.PrecisionAttr("DEFAULT"), stablehlo.PrecisionAttr("DEFAULT")]
                    ),
                },
            )
        )
        total = self.add(arith.AddfOp(body.args[1], dot))
        self.builder.insert(scf.YieldOp(total))
        self.builder, self.k = outer, None
        loop = self.add(scf.ForOp(bounds[0], bounds[1], bounds[2], [zero], body))
        if instruction.array_shape.element_type.dtype != np.float32:
            loop = self.add(stablehlo.ConvertOp(loop, result_type=_tile_type(tiled)))
        self.values[id(tiled)] = loop

    # -- tiles in and out --------------------------------------------------------------

    def _parameter(self, tiled: TiledInstruction) -> SSAValue:
        buffer = self.parameters[tiled.instruction]
        if tiled.shape.rank == 0:
            # A scalar parameter: a 0-d tile (XLA's emitter reads it whole).
            return self.add(xtile.ExtractTileOp(buffer, [], [], [], _tile_type(tiled)))
        sizes = tiled.padded_sizes
        extract = xtile.ExtractTileOp(
            buffer, self.offsets(tiled), sizes, [1] * len(sizes), _tile_type(tiled)
        )
        return self.add(extract)

    def insert(self, tiled: TiledInstruction, buffer: SSAValue) -> None:
        sizes = tiled.padded_sizes
        insert = xtile.InsertTileOp(
            self.value(tiled), buffer, self.offsets(tiled), sizes, [1] * len(sizes)
        )
        self.builder.insert(insert)

    # -- computation -------------------------------------------------------------------

    def _constant(self, tiled: TiledInstruction) -> SSAValue:
        literal = tiled.instruction.literal
        if literal is None or literal.size != 1:
            raise _fail(tiled.instruction, "only scalar constants are supported in Triton fusions")
        type_ = TensorType(element_type(tiled.shape.element_type), [])
        return self.add(arith.ConstantOp(_dense(type_, literal)))

    def _elementwise(self, tiled: TiledInstruction) -> SSAValue:
        opcode = tiled.instruction.opcode
        operands = [self.value(o) for o in tiled.operands]
        if opcode in _MATH_OPS:
            return self.add(_MATH_OPS[opcode](*operands))
        op_class = _STABLEHLO_OPS[opcode]
        return self.add(op_class(*operands, result_type=_tile_type(tiled)))  # type: ignore[call-arg]

    def _compare(self, tiled: TiledInstruction) -> SSAValue:
        instruction = tiled.instruction
        lhs, rhs = (self.value(o) for o in tiled.operands)
        direction = instruction.comparison_direction or "EQ"
        kind = instruction.comparison_type
        return self.add(stablehlo.CompareOp(direction, lhs, rhs, kind))

    def _select(self, tiled: TiledInstruction) -> SSAValue:
        pred, on_true, on_false = (self.value(o) for o in tiled.operands)
        return self.add(stablehlo.SelectOp(pred, on_true, on_false))

    def _convert(self, tiled: TiledInstruction) -> SSAValue:
        (operand,) = (self.value(o) for o in tiled.operands)
        return self.add(stablehlo.ConvertOp(operand, result_type=_tile_type(tiled)))

    def _broadcast(self, tiled: TiledInstruction) -> SSAValue:
        dims = tiled.instruction.dimensions or ()
        (operand,) = (self.value(o) for o in tiled.operands)
        return self.add(stablehlo.BroadcastInDimOp(operand, dims, _tile_type(tiled)))

    def _reshape(self, tiled: TiledInstruction) -> SSAValue:
        """A reshape regroups the tile; a bitcast that changes the layout goes through the
        memory order: transpose there, regroup, transpose to the result's order."""
        (operand_tile,) = tiled.operands
        value = self.value(operand_tile)
        if tiled.instruction.opcode == "bitcast":
            source_order = physical_order(operand_tile.shape)
            target_order = physical_order(tiled.shape)
        else:
            source_order = list(range(operand_tile.shape.rank))
            target_order = list(range(tiled.shape.rank))
        element = element_type(tiled.shape.element_type)
        if tiled.instruction.opcode == "bitcast" and tiled.shape.element_type != (
            operand_tile.shape.element_type
        ):
            # An element type of the same width (an f32 read as s32): the bits, as they are.
            assert isinstance(value.type, TensorType)
            same_shape = TensorType(element, value.type.get_shape())
            value = self.add(
                stablehlo.BitcastConvertOp.create(operands=[value], result_types=[same_shape])
            )
        value = self._transposed(value, source_order)
        physical = [tiled.padded_sizes[d] for d in target_order]
        if _shape(value.type) != tuple(physical):
            value = self.add(stablehlo.ReshapeOp(value, TensorType(element, physical)))
        inverse = sorted(range(len(target_order)), key=lambda i: target_order[i])
        return self._transposed(value, inverse)

    def _transposed(self, value: SSAValue, permutation: list[int]) -> SSAValue:
        if permutation == sorted(permutation):
            return value
        shape = _shape(value.type)
        assert isinstance(value.type, TensorType)
        result = TensorType(value.type.get_element_type(), [shape[p] for p in permutation])
        return self.add(stablehlo.TransposeOp(value, permutation, result))

    def _transpose(self, tiled: TiledInstruction) -> SSAValue:
        permutation = tiled.instruction.dimensions or ()
        (operand,) = (self.value(o) for o in tiled.operands)
        return self.add(stablehlo.TransposeOp(operand, permutation, _tile_type(tiled)))

    def _iota(self, tiled: TiledInstruction) -> SSAValue:
        """The tile of an iota: the tile's positions plus the offset along its dimension."""
        instruction = tiled.instruction
        dimension = instruction.iota_dimension or 0
        tile_type = _tile_type(tiled)
        iota = self.add(stablehlo.IotaOp(dimension, tile_type))
        offset = self._offset(tiled.offsets[dimension])
        scalar = element_type(tiled.shape.element_type)
        cast = self.add(arith.IndexCastOp(offset, scalar))
        splat = self.add(
            tensor.FromElementsOp.create(operands=[cast], result_types=[TensorType(scalar, [])])
        )
        start = self.add(stablehlo.BroadcastInDimOp(splat, [], tile_type))
        return self.add(stablehlo.AddOp(iota, start, result_type=tile_type))  # type: ignore[call-arg]

    def _reduce(self, tiled: TiledInstruction) -> SSAValue:
        instruction = tiled.instruction
        operand_tile, init_tile = tiled.operands
        operand, init = self.value(operand_tile), self.value(init_tile)
        dims = list(instruction.dimensions or ())
        scalar = TensorType(element_type(instruction.array_shape.element_type), [])
        bounds = list(operand_tile.padded_sizes)
        for dim in dims:
            bounds[dim] = operand_tile.shape.dimensions[dim]
        # XLA reads the init value out of its tensor before each reduce.
        element = self.add(tensor.ExtractOp(init, [], scalar.get_element_type()))
        if bounds != list(operand_tile.padded_sizes):
            operand = self.add(xtile.MaskOp(operand, bounds, element))
        body = Block(arg_types=[scalar, scalar])
        reducer = _reducer_op(instruction, body.args[0], body.args[1], scalar)
        body.add_ops([reducer, stablehlo.ReturnOp([reducer.results[0]])])
        reduce = stablehlo.ReduceOp.build(
            operands=[[operand], [init]],
            result_types=[[_tile_type(tiled)]],
            properties={"dimensions": DenseArrayBase.from_list(i64, dims)},
            regions=[Region(body)],
        )
        return self.add(reduce)


def _reducer_op(
    reduce: HloInstruction, lhs: SSAValue, rhs: SSAValue, scalar: TensorType[Attribute]
) -> Operation:
    """The reducer computation's one op, on 0-d tensors."""
    reducer = reduce.called_computations[0]
    root = reducer.root
    parameters = reducer.parameters
    if (
        len(reducer.instructions) != 3
        or list(root.operands) != parameters
        or root.opcode not in _STABLEHLO_OPS
    ):
        raise _fail(reduce, "only reducers of one binary op are supported by the Triton emitter")
    return _STABLEHLO_OPS[root.opcode](lhs, rhs, result_type=scalar)  # type: ignore[call-arg]


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else ()


def _dense(type_: TensorType[Attribute], literal: np.ndarray) -> DenseIntOrFPElementsAttr:
    value = literal.reshape(())
    if literal.dtype.kind in "biu":
        return DenseIntOrFPElementsAttr.from_list(type_, [int(value)])
    return DenseIntOrFPElementsAttr.from_list(type_, [float(value)])


_EMITTERS: dict[str, Callable[[_TileEmitter, TiledInstruction], SSAValue]] = {
    "parameter": _TileEmitter._parameter,
    "constant": _TileEmitter._constant,
    "compare": _TileEmitter._compare,
    "select": _TileEmitter._select,
    "convert": _TileEmitter._convert,
    "broadcast": _TileEmitter._broadcast,
    "reshape": _TileEmitter._reshape,
    "bitcast": _TileEmitter._reshape,
    "transpose": _TileEmitter._transpose,
    "iota": _TileEmitter._iota,
    "reduce": _TileEmitter._reduce,
}
