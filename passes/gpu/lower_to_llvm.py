"""`xla-lower-to-llvm`: arith, math, vector, ub and the gpu ids to the `llvm` dialect.

The last MLIR pass of XLA's kernel pipeline, for kernels that `xla-lower-tensors`
has turned into code on pointers:

* `func.func` becomes `llvm.func`; an entry function (`xla.entry`) is a kernel:
  `nvvm.kernel`, `noalias` pointer arguments (XLA's buffers never alias), and
  `nvvm.reqntid` = the block size, read off the `xla.range` of `gpu.thread_id`;
* `index` is the integer of the module's `dlti.dl_spec` index width (XLA's
  kernels say 32), else `i64`; arith ops become their `llvm` twins, casts become
  `trunc`/`sext`/`fpext`/`fptrunc`;
* min/max, `trunc` and `ctpop` become LLVM intrinsics, `llvm.intr.*` ops
  (`llvm.intr.maximum` propagates NaN, as `arith.maximumf` does); the other
  `math` functions, `fabs`, `sqrt`, `fma` and the roundings included, become
  calls of libdevice's `__nv_*f`, as MLIR's GPU to NVVM lowering makes them
  (XLA's final modules call `__nv_fabsf`, `__nv_fmaf`, `__nv_sqrtf`); a 16-bit
  float is computed in f32, as XLA computes it;
* `vector.extract`/`insert` at constant lanes become `llvm.extractelement` /
  `llvm.insertelement`; `ub.poison` becomes `llvm.mlir.poison`;
* `gpu.thread_id` / `gpu.block_id` read the special registers `tid` and `ctaid`
  (`nvvm.read.ptx.sreg.*`, i32) with their ranges, extended to the index type;
* `gpu.barrier` is `nvvm.barrier` (as XLA's MLIR writes it); `gpu.shuffle` is
  `nvvm.shfl.sync` with the mask and clamp MLIR's GPU to NVVM lowering gives it: the active lanes
  `-1 >> (32 - width)`, clamp `width - 1` (for `up`: `32 - width`);
* a complex value (what `convert-complex-to-standard` leaves: `complex.create`, `re`,
  `im`, selects and block arguments of complex type) is an `!llvm.struct<(f32, f32)>`,
  built with `llvm.insertvalue` and taken apart with `llvm.extractvalue`, as MLIR's
  ComplexToLLVM does; the casts `xla-lower-tensors` put between it and the struct in
  memory go away;
* a function of several results returns them in an `llvm.struct`, built from
  `llvm.mlir.poison` with `llvm.insertvalue` and taken apart at each call with `llvm.extractvalue`,
  as MLIR's func to LLVM lowering does.

`scf.for`/`scf.if` become blocks and branches first (`llvm.br`, `llvm.cond_br`,
block arguments for the loop-carried values). An op this pass does not know is
an error at that op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, builtin, cf, func, llvm, math, scf, ub, vector
from xdsl.dialects import complex as cplx
from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
    i32,
    i64,
)
from xdsl.dialects.dlti import DataLayoutSpecAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf
from xla_emit.dialects import gpu
from xla_emit.dialects.arith_ext import IndexCastUIOp, RemFOp
from xla_emit.dialects.gpu import ShuffleMode
from xla_emit.dialects.llvm_ext import (
    INTRINSIC_OPS,
    ExtractElementOp,
    FPToSIOp,
    FPToUIOp,
    PoisonOp,
    UIToFPOp,
)
from xla_emit.dialects.nvvm import BLOCK_ID_OPS, THREAD_ID_OPS, BarrierOp, ShflSyncOp
from xla_emit.dialects.vector_ext import FromElementsOp
from xla_emit.dialects.xla.bases import PureCallOpBase
from xla_emit.passes.diagnostics import OpError

# Attributes MLIR's NVVM target reads off an `llvm.func`: a kernel and its block size.
KERNEL = "nvvm.kernel"
REQNTID = "nvvm.reqntid"
# The widest vectors LLVM should use for a host kernel, in bits (`xla-host-thread-loops`
# sets it; the LLVM IR printer makes it the function's "prefer-vector-width").
HOST_VECTOR_BITS = "xla.host_vector_bits"
# On a host kernel: its blocks must run one after the other, not on several threads at
# once (`xla-host-serialize-atomics` sets it where updates of one element became plain
# reads and writes).
BLOCKS_IN_ORDER = "xla.host_blocks_in_order"
# On an `scf.for`, then on its back edge: LLVM's loop vectorizer must leave the loop
# alone (printed as `!llvm.loop` metadata with `llvm.loop.vectorize.enable` false).
NO_LOOP_VECTORIZE = "xla.no_loop_vectorize"

_INT_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
    RemFOp: llvm.FRemOp,
}

# Ops that are one LLVM intrinsic, overloaded on the operand type.
_INTRINSICS: dict[type[Operation], str] = {
    arith.MaximumfOp: "maximum",
    arith.MinimumfOp: "minimum",
    arith.MaxSIOp: "smax",
    arith.MinSIOp: "smin",
    arith.MaxUIOp: "umax",
    arith.MinUIOp: "umin",
    math.TruncOp: "trunc",
    math.CtPopOp: "ctpop",
}

# math op -> libdevice's f32 function (f64: the same name without the `f`).
_LIBDEVICE: dict[type[Operation], str] = {
    math.TanhOp: "__nv_tanhf",
    math.ExpOp: "__nv_expf",
    math.LogOp: "__nv_logf",
    math.RsqrtOp: "__nv_rsqrtf",
    math.SinOp: "__nv_sinf",
    math.CosOp: "__nv_cosf",
    math.Log1pOp: "__nv_log1pf",
    math.ExpM1Op: "__nv_expm1f",
    math.ErfOp: "__nv_erff",
    math.Exp2Op: "__nv_exp2f",
    math.Log2Op: "__nv_log2f",
    math.Log10Op: "__nv_log10f",
    math.TanOp: "__nv_tanf",
    math.AtanOp: "__nv_atanf",
    math.Atan2Op: "__nv_atan2f",
    math.PowFOp: "__nv_powf",
    math.CbrtOp: "__nv_cbrtf",
    math.AbsFOp: "__nv_fabsf",
    math.SqrtOp: "__nv_sqrtf",
    math.FloorOp: "__nv_floorf",
    math.CeilOp: "__nv_ceilf",
    math.RoundOp: "__nv_roundf",
    math.RoundEvenOp: "__nv_rintf",
    math.CopySignOp: "__nv_copysignf",
    math.FmaOp: "__nv_fmaf",
    math.AcosOp: "__nv_acosf",
    math.AcoshOp: "__nv_acoshf",
    math.AsinOp: "__nv_asinf",
    math.AsinhOp: "__nv_asinhf",
    math.AtanhOp: "__nv_atanhf",
    math.CoshOp: "__nv_coshf",
    math.SinhOp: "__nv_sinhf",
}

# gpu.shuffle's modes as `nvvm.shfl.sync` names them.
_SHUFFLE_KINDS = {
    ShuffleMode.XOR: "bfly",
    ShuffleMode.UP: "up",
    ShuffleMode.DOWN: "down",
    ShuffleMode.IDX: "idx",
}
_WARP_LANES = 32


@dataclass(frozen=True)
class LowerToLLVMPass(ModulePass):
    """arith, math, vector, scf/cf, func and the gpu ops to the `llvm` and `nvvm`
    dialects, math functions to libdevice calls (XLA's `xla-lower-to-llvm`). No options."""

    name = "xla-lower-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Loops and ifs to blocks and branches first, as MLIR's SCF to CF lowering does.
        marked = [
            loop.body.block
            for loop in op.walk()
            if isinstance(loop, scf.ForOp) and NO_LOOP_VECTORIZE in loop.attributes
        ]
        ConvertScfToCf().apply(ctx, op)
        mark_back_edges(marked)
        declared: dict[str, llvm.FuncOp] = {}
        index = index_type(op)
        for function in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            lower_function(function, Lowering(op, declared, index))


def mark_back_edges(headers: list[Block]) -> None:
    """Each marked loop's back edge (after the SCF to CF lowering its header is the loop's
    first block, and the back edge the branch to it carrying the stepped counter)."""
    for header in headers:
        counter = header.args[0]
        for use in list(counter.uses):
            stepped = use.operation
            if not isinstance(stepped, arith.AddiOp):
                continue
            for branch_use in stepped.result.uses:
                branch = branch_use.operation
                if isinstance(branch, cf.BranchOp) and branch.successor is header:
                    branch.attributes[NO_LOOP_VECTORIZE] = UnitAttr()


def index_type(module: ModuleOp) -> IntegerType:
    """The integer `index` lowers to: the width the module's data layout gives, else 64."""
    spec = module.attributes.get("dlti.dl_spec")
    if isinstance(spec, DataLayoutSpecAttr):
        for entry in spec.entries:
            key, value = entry.key, entry.value
            names_index = isinstance(key, IndexType) or key == StringAttr("index")
            if names_index and isinstance(value, IntegerAttr):
                return IntegerType(value.value.data)
    return i64


@dataclass
class Lowering:
    """The module being lowered and the libdevice functions declared in it so far."""

    module: ModuleOp
    declared: dict[str, llvm.FuncOp]
    index: IntegerType

    def declare(self, name: str, element: Attribute, arity: int = 1) -> None:
        if name in self.declared:
            return
        signature = llvm.LLVMFunctionType([element] * arity, element)
        declaration = llvm.FuncOp(name, signature, linkage=llvm.LinkageAttr("external"))
        self.declared[name] = declaration
        self.module.body.block.add_op(declaration)


def lower_function(function: func.FuncOp, lowering: Lowering) -> None:
    if function.body.blocks.first is None:
        return
    for block in function.body.blocks:
        for arg in block.args:
            if isinstance(arg.type, IndexType | ComplexType):
                Rewriter.replace_value_with_new_type(arg, llvm_type(arg.type, lowering.index))
    for block in function.body.blocks:
        for op in list(block.ops):
            lower_op(op, lowering)
    retype_complex_results(function)
    block = function.body.blocks.first
    inputs = [arg.type for arg in block.args]
    outputs = [llvm_type(t, lowering.index) for t in function.function_type.outputs.data]
    if len(outputs) > 1:
        result: Attribute = llvm.LLVMStructType.from_type_list(outputs)
    else:
        result = outputs[0] if outputs else llvm.LLVMVoidType()
    lowered = llvm.FuncOp(
        function.sym_name.data,
        llvm.LLVMFunctionType(inputs, result),
        linkage=llvm.LinkageAttr("external"),
        body=function.detach_region(function.body),
    )
    if "xla.entry" in function.attributes:
        mark_kernel(lowered, block, function.arg_attrs)
    for host_attribute in (HOST_VECTOR_BITS, BLOCKS_IN_ORDER):
        if host_attribute in function.attributes:
            lowered.attributes[host_attribute] = function.attributes[host_attribute]
    Rewriter.replace_op(function, lowered)


def packed_return(ret: func.ReturnOp, index: IntegerType) -> list[Operation]:
    """`func.return` of several values: one `llvm.struct` of them, returned."""
    struct = llvm.LLVMStructType.from_type_list([llvm_type(v.type, index) for v in ret.operands])
    packed: SSAValue = (poison := PoisonOp(struct)).res
    ops: list[Operation] = [poison]
    for position, value in enumerate(ret.operands):
        insert = llvm.InsertValueOp(_position(position), packed, value)
        ops.append(insert)
        packed = insert.res
    return [*ops, llvm.ReturnOp(packed)]


def _position(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [index])


def mark_kernel(kernel: llvm.FuncOp, block: Block, arg_attrs: ArrayAttr | None) -> None:
    kernel.attributes[KERNEL] = UnitAttr()
    kernel.attributes[REQNTID] = DenseArrayBase.from_list(i32, block_size(kernel))
    given = arg_attrs.data if arg_attrs is not None else ()
    described: list[DictionaryAttr] = []
    for i, arg in enumerate(block.args):
        attrs = (
            dict(given[i].data) if i < len(given) and isinstance(given[i], DictionaryAttr) else {}
        )
        if isinstance(arg.type, llvm.LLVMPointerType):
            attrs = {"llvm.noalias": UnitAttr(), **attrs}
        described.append(DictionaryAttr(attrs))
    kernel.arg_attrs = ArrayAttr(described)


def block_size(kernel: Operation) -> list[int]:
    """Threads per block in x, y, z: one past the largest thread id each register reads."""
    size = [1, 1, 1]
    for op in kernel.walk():
        if type(op) in THREAD_ID_OPS.values():
            value_range = op.attributes.get("range")
            if not isinstance(value_range, DenseArrayBase):
                raise OpError(op, "xla-lower-to-llvm: a thread id without a range")
            dim = "xyz".index(op.name[-1])
            size[dim] = max(size[dim], int(value_range.get_values()[1]))
    return size


def llvm_type(t: Attribute, index: IntegerType) -> Attribute:
    if isinstance(t, ComplexType):
        return complex_struct(t)
    return index if isinstance(t, IndexType) else t


def complex_struct(t: ComplexType) -> llvm.LLVMStructType:
    """A complex number as LLVM holds it: the real part, then the imaginary part."""
    return llvm.LLVMStructType.from_type_list([t.element_type, t.element_type])


def retype_complex_results(function: Operation) -> None:
    """Results still typed complex (a select of two structs) become the struct."""
    for op in function.walk():
        for result in op.results:
            if isinstance(result.type, ComplexType):
                Rewriter.replace_value_with_new_type(result, complex_struct(result.type))


def complex_ops(op: Operation) -> list[Operation] | None:
    """`complex.create`, `re` and `im` as struct operations."""
    if isinstance(op, cplx.CreateOp):
        assert isinstance(op.complex.type, ComplexType)
        built: SSAValue = (poison := PoisonOp(complex_struct(op.complex.type))).res
        real = llvm.InsertValueOp(_position(0), built, op.real)
        imaginary = llvm.InsertValueOp(_position(1), real.res, op.imaginary)
        return [poison, real, imaginary]
    if isinstance(op, cplx.ReOp | cplx.ImOp):
        position = _position(0 if isinstance(op, cplx.ReOp) else 1)
        return [llvm.ExtractValueOp(position, op.complex, op.results[0].type)]
    return None


def lower_op(op: Operation, lowering: Lowering) -> None:
    if isinstance(op, PureCallOpBase | func.CallOp) and len(op.results) > 1:
        unpack_call(op, lowering.index)
        return
    if isinstance(op, gpu.ShuffleOp) and op.valid.uses:
        raise OpError(op, "xla-lower-to-llvm: a shuffle's 'valid' result is not lowered")
    new = lowered_ops(op, lowering)
    if new is None:
        return
    # The first result is the last new op's; others (a shuffle's `valid`) have no uses.
    results: list[SSAValue | None] = [new[-1].results[0]] if op.results else []
    results += [None] * (len(op.results) - len(results))
    Rewriter.replace_op(op, new, results)


def unpack_call(op: Operation, index: IntegerType) -> None:
    """A call of a function of several results: the struct it returns, taken apart."""
    callee = op.properties.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        raise OpError(op, "xla-lower-to-llvm: a call without a callee")
    types = [llvm_type(r.type, index) for r in op.results]
    struct = llvm.LLVMStructType.from_type_list(types)
    call = llvm.CallOp(callee.string_value(), *op.operands, return_type=struct)
    assert call.returned is not None
    parts = [llvm.ExtractValueOp(_position(i), call.returned, t) for i, t in enumerate(types)]
    Rewriter.replace_op(op, [call, *parts], [p.res for p in parts])


def lowered_ops(op: Operation, lowering: Lowering) -> list[Operation] | None:
    """The ops that replace `op` (its result is the last one's), or None to keep it."""
    if op.dialect_name() in ("llvm", "nvvm"):
        return None
    if isinstance(op, func.ReturnOp):
        if len(op.operands) > 1:
            return packed_return(op, lowering.index)
        return [llvm.ReturnOp(*op.operands)]
    if isinstance(op, PureCallOpBase | func.CallOp):
        return function_call(op, lowering.index)
    if isinstance(op, cf.BranchOp):
        branch = llvm.BrOp(op.successor, *op.arguments)
        if NO_LOOP_VECTORIZE in op.attributes:
            branch.attributes[NO_LOOP_VECTORIZE] = UnitAttr()
        return [branch]
    if isinstance(op, cf.ConditionalBranchOp):
        return [
            llvm.CondBrOp(
                op.cond, op.then_block, op.then_arguments, op.else_block, op.else_arguments
            )
        ]
    if isinstance(op, ub.PoisonOp):
        return [PoisonOp(llvm_type(op.result.type, lowering.index))]
    if isinstance(op, arith.ConstantOp):
        return [constant(op, lowering.index)]
    if type(op) in _INT_BINARY:
        return [_INT_BINARY[type(op)](op.operands[0], op.operands[1])]
    if isinstance(op, arith.CmpiOp):
        return [llvm.ICmpOp(op.lhs, op.rhs, IntegerAttr(op.predicate.value.data, i64))]
    if isinstance(op, arith.CmpfOp):
        return [llvm.FCmpOp(op.lhs, op.rhs, IntegerAttr(op.predicate.value.data, i64))]
    if isinstance(op, arith.SelectOp):
        return [llvm.SelectOp(op.cond, op.lhs, op.rhs)]
    if isinstance(op, cplx.CreateOp | cplx.ReOp | cplx.ImOp):
        return complex_ops(op)
    if isinstance(op, arith.NegfOp):
        return [llvm.FNegOp(op.operand)]
    if isinstance(
        op, arith.IndexCastOp | IndexCastUIOp | arith.ExtSIOp | arith.ExtUIOp | arith.TruncIOp
    ):
        return integer_cast(
            op, llvm_type(op.input.type, lowering.index), llvm_type(op.result.type, lowering.index)
        )
    if isinstance(op, arith.ExtFOp):
        return [llvm.FPExtOp(op.input, op.result.type)]
    if isinstance(op, arith.TruncFOp):
        return [llvm.FPTruncOp(op.input, op.result.type)]
    if isinstance(op, arith.SIToFPOp):
        return [llvm.SIToFPOp(op.input, op.result.type)]
    if isinstance(op, arith.UIToFPOp):
        return [UIToFPOp(op.input, op.result.type)]
    if isinstance(op, arith.FPToSIOp):
        return [FPToSIOp(op.input, op.result.type)]
    if isinstance(op, arith.FPToUIOp):
        return [FPToUIOp(op.input, op.result.type)]
    if type(op) in _INTRINSICS:
        result = llvm_type(op.results[0].type, lowering.index)
        return [INTRINSIC_OPS[_INTRINSICS[type(op)]](list(op.operands), result)]
    if type(op) in _LIBDEVICE:
        return libdevice_call(op, _LIBDEVICE[type(op)], lowering)
    if isinstance(op, math.AbsIOp):
        poison_if_min = llvm.ConstantOp(IntegerAttr(0, 1), IntegerType(1))
        call = llvm.CallIntrinsicOp(
            "llvm.abs", [op.operand, poison_if_min.result], [op.result.type]
        )
        return [poison_if_min, call]
    if isinstance(op, arith.BitcastOp | vector.BitcastOp):
        return [llvm.BitcastOp(op.operands[0], op.results[0].type)]
    if isinstance(op, builtin.UnrealizedConversionCastOp):
        return same_bits_cast(op)
    if isinstance(op, vector.ExtractOp | vector.InsertOp):
        return lane_access(op)
    if isinstance(op, FromElementsOp | vector.BroadcastOp):
        return build_vector(op)
    if isinstance(op, gpu.ThreadIdOp | gpu.BlockIdOp):
        return special_register(op, lowering.index)
    if isinstance(op, gpu.BarrierOp):
        return [BarrierOp()]
    if isinstance(op, gpu.ShuffleOp):
        return warp_shuffle(op)
    raise OpError(op, f"xla-lower-to-llvm: cannot lower '{op.name}'")


def function_call(op: Operation, index: IntegerType) -> list[Operation]:
    """A call of another function of the kernel (one result at most, as in LLVM)."""
    callee = op.properties.get("callee")
    if not isinstance(callee, SymbolRefAttr) or len(op.results) > 1:
        raise OpError(op, "xla-lower-to-llvm: a call returns at most one value")
    returned = llvm_type(op.results[0].type, index) if op.results else None
    return [llvm.CallOp(callee.string_value(), *op.operands, return_type=returned)]


def constant(op: arith.ConstantOp, index: IntegerType) -> Operation:
    value = op.value
    if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
        value = IntegerAttr(value.value.data, index)
    if not isinstance(value, IntegerAttr | FloatAttr | DenseIntOrFPElementsAttr):
        raise OpError(op, "xla-lower-to-llvm: an unsupported constant")
    return llvm.ConstantOp(value, llvm_type(op.result.type, index))


def integer_cast(op: Operation, source: Attribute, target: Attribute) -> list[Operation] | None:
    value = op.operands[0]
    if not isinstance(source, IntegerType) or not isinstance(target, IntegerType):
        raise OpError(op, "xla-lower-to-llvm: only scalar integer casts are lowered")
    if source.width.data == target.width.data:
        op.results[0].replace_all_uses_with(value)
        Rewriter.erase_op(op)
        return None
    if source.width.data > target.width.data:
        return [llvm.TruncOp(value, target)]
    if isinstance(op, arith.ExtUIOp | IndexCastUIOp):
        return [llvm.ZExtOp(value, target)]
    return [llvm.SExtOp(value, target)]


def libdevice_call(op: Operation, name: str, lowering: Lowering) -> list[Operation]:
    """`__nv_<f>f(x)`; 16-bit floats go through f32 and back, f64 calls `__nv_<f>`."""
    element = op.results[0].type
    if element not in (bf16, f16, f32, f64):
        raise OpError(op, f"xla-lower-to-llvm: '{op.name}' is lowered for scalar floats only")
    compute = f64 if element == f64 else f32
    callee = name[:-1] if element == f64 else name
    lowering.declare(callee, compute, len(op.operands))
    ops: list[Operation] = []
    arguments: list[SSAValue] = []
    for argument in op.operands:
        if element != compute:
            ops.append(llvm.FPExtOp(argument, compute))
            argument = ops[-1].results[0]
        arguments.append(argument)
    ops.append(llvm.CallOp(callee, *arguments, return_type=compute))
    if element != compute:
        ops.append(llvm.FPTruncOp(ops[-1].results[0], element))
    return ops


def lane_access(op: vector.ExtractOp | vector.InsertOp) -> list[Operation]:
    position = op.static_position.get_values()
    vector_type = op.vector.type if isinstance(op, vector.ExtractOp) else op.dest.type
    if (
        op.dynamic_position
        or len(position) != 1
        or not isinstance(vector_type, VectorType)
        or vector_type.get_num_dims() != 1
    ):
        raise OpError(op, "xla-lower-to-llvm: only a constant lane of a 1-d vector is lowered")
    lane = llvm.ConstantOp(IntegerAttr(position[0], i64), i64)
    if isinstance(op, vector.ExtractOp):
        return [lane, ExtractElementOp(op.vector, lane.result)]
    return [lane, llvm.InsertElementOp(op.dest, op.source, lane.result)]


def same_bits_cast(op: builtin.UnrealizedConversionCastOp) -> None:
    """A cast between an unsigned and a signless integer (the same bits), or between a
    complex value and its struct, goes away."""
    if len(op.inputs) != 1 or len(op.outputs) != 1:
        raise OpError(op, "xla-lower-to-llvm: only a one-value cast is lowered")
    source, target = op.inputs[0], op.outputs[0].type
    types = {llvm_type(source.type, i64), llvm_type(target, i64)}
    if len(types) == 1 and isinstance(next(iter(types)), llvm.LLVMStructType):
        op.outputs[0].replace_all_uses_with(source)
        Rewriter.erase_op(op)
        return None
    if not (
        isinstance(source.type, IntegerType)
        and isinstance(target, IntegerType)
        and source.type.width == target.width
    ):
        raise OpError(op, "xla-lower-to-llvm: only casts between integers of one width go away")
    op.outputs[0].replace_all_uses_with(source)
    Rewriter.erase_op(op)
    return None


def build_vector(op: FromElementsOp | vector.BroadcastOp) -> list[Operation]:
    """A vector from its lanes (or one scalar in every lane): insertelement into poison."""
    vector_type = op.results[0].type
    if not isinstance(vector_type, VectorType) or vector_type.get_num_dims() != 1:
        raise OpError(op, "xla-lower-to-llvm: only 1-d vectors are built")
    lanes = vector_type.get_shape()[0]
    if isinstance(op, vector.BroadcastOp):
        if op.source.type != vector_type.element_type:
            raise OpError(op, "xla-lower-to-llvm: only a scalar is broadcast")
        elements: list[SSAValue] = [op.source] * lanes
    else:
        elements = list(op.operands)
    built: SSAValue = (poison := PoisonOp(vector_type)).res
    ops: list[Operation] = [poison]
    for lane, element in enumerate(elements):
        position = llvm.ConstantOp(IntegerAttr(lane, i64), i64)
        insert = llvm.InsertElementOp(built, element, position.result)
        ops += [position, insert]
        built = insert.res
    return ops


def warp_shuffle(op: gpu.ShuffleOp) -> list[Operation]:
    """`nvvm.shfl.sync` of a 32-bit value with MLIR's mask and clamp for `width` lanes."""
    if not isinstance(op.value.type, IntegerType | Float32Type) or (
        isinstance(op.value.type, IntegerType) and op.value.type.width.data != 32
    ):
        raise OpError(op, "xla-lower-to-llvm: a shuffle moves one i32 or f32")
    mode = ShuffleMode(op.mode.data)
    one = llvm.ConstantOp(IntegerAttr(1, i32), i32)
    all_lanes = llvm.ConstantOp(IntegerAttr(-1, i32), i32)
    warp = llvm.ConstantOp(IntegerAttr(_WARP_LANES, i32), i32)
    inactive = llvm.SubOp(warp.result, op.width)
    mask = llvm.LShrOp(all_lanes.result, inactive.res)
    ops: list[Operation] = [one, all_lanes, warp, inactive, mask]
    if mode == ShuffleMode.UP:
        clamp: SSAValue = inactive.res
    else:
        last = llvm.SubOp(op.width, one.result)
        ops.append(last)
        clamp = last.res
    ops.append(ShflSyncOp(_SHUFFLE_KINDS[mode], mask.res, op.value, op.offset, clamp))
    return ops


def special_register(op: gpu.ThreadIdOp | gpu.BlockIdOp, index: IntegerType) -> list[Operation]:
    dim = op.dimension.data.value
    registers = THREAD_ID_OPS if isinstance(op, gpu.ThreadIdOp) else BLOCK_ID_OPS
    value_range = op.attributes.get("xla.range")
    bounds: tuple[int, int] | None = None
    if isinstance(value_range, ArrayAttr) and len(value_range.data) == 2:
        low, high = (a.value.data for a in value_range.data if isinstance(a, IntegerAttr))
        bounds = (low, high + 1)
    read = registers[dim](bounds)
    if index.width.data == 32:
        return [read]
    if index.width.data < 32:
        return [read, llvm.TruncOp(read.res, index)]
    return [read, llvm.ZExtOp(read.res, index)]
