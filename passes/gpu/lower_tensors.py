"""`xla-lower-tensors`: tensors become pointers, accesses become loads and stores.

As XLA's pass of that name does for its kernels:

* every tensor argument of a function becomes an `!llvm.ptr`; the tensors a
  function returns are its output buffers, written in place, so the results go
  and `func.return` returns nothing;
* `tensor.extract` and a 1-d `vector.transfer_read` become the address of the
  element (`llvm.getelementptr inbounds %buffer[0, %i]` into the buffer as an
  `!llvm.array`, as XLA writes it) and an `llvm.load` of the element or the
  vector; `tensor.insert` and `vector.transfer_write` an address and an
  `llvm.store`. The tensor they produce is the pointer they wrote through.
  A vector access is aligned to one element, a scalar one to its type (no
  `alignment`), as in XLA's output; a transfer's padding value goes if unused;
* a tensor carried by `scf.for` or produced by `scf.if` is the pointer it was
  given, so loops and ifs stop carrying it (an `scf.if` left with no results and
  an `else` that does nothing loses the `else`, as XLA prints it);
* `xla_gpu.allocate_shared` becomes a module-level `llvm.mlir.global` in
  address space 3 (shared memory, one per block), named `shared_<n>`, whose
  address (`llvm.mlir.addressof`) is cast to a generic pointer
  (`llvm.addrspacecast`); `xla_gpu.sync_threads` becomes `gpu.barrier`, its
  results the pointers it was given;
* a 0-d tensor is a one-element array (`[0, 0]`);
* a complex element is `!llvm.struct<(f32, f32)>` in memory (interleaved parts, as
  XLA's type converter lays it out): it is loaded and stored as that struct, with a
  `builtin.unrealized_conversion_cast` to and from the `complex` value;
* an `xla.atomic_rmw` whose body is one add (or integer min/max) of the current
  value and a value from outside is `llvm.atomicrmw fadd %p, %v monotonic` (XLA's
  scatter-add); other bodies, which XLA loops on a compare-and-swap for, are an
  error at the op.

The index is cast to `i32` where the tensor has fewer than 2^31 elements, to
`i64` otherwise (XLA's GEPs are `i32` for such buffers). Loads of arguments no
op of the function writes are marked invariant, as XLA marks them; that is what
lets the NVPTX backend read them through the non-coherent cache (`ld.global.nc`).
A transfer that may run out of bounds, a multi-dimensional vector or a tensor
op the pass does not know is an error at that op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, scf, tensor, ub, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    ComplexType,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xla_emit.dialects import gpu
from xla_emit.dialects.arith_ext import IndexCastUIOp
from xla_emit.dialects.llvm_ext import INVARIANT, AddrSpaceCastOp, AtomicRMWOp, LoadOp
from xla_emit.dialects.xla.bases import AtomicRMWOp as XlaAtomicRMWOp
from xla_emit.dialects.xla_gpu import AllocateSharedOp, SyncThreadsOp
from xla_emit.passes.diagnostics import OpError

# The NVPTX address space of shared memory.
SHARED_ADDRESS_SPACE = 3
_GEP_SSA_INDEX = -2147483648  # MLIR's marker: the GEP index is an operand


@dataclass(frozen=True)
class LowerTensorsPass(ModulePass):
    """Tensors to pointers: accesses to GEPs, loads and stores; shared memory to
    address-space-3 globals, `sync_threads` to barriers (XLA's `xla-lower-tensors`).
    No options."""

    name = "xla-lower-tensors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            lower_function(function)
        lower_shared_memory(op)


@dataclass(frozen=True)
class Buffers:
    """What the pass knew of each buffer before it became a pointer."""

    tensor_types: dict[SSAValue, TensorType[Attribute]]
    # The arguments no op of the function writes.
    invariant: set[SSAValue]

    def retype(self, value: SSAValue) -> None:
        """`value` becomes an `!llvm.ptr` (a new SSA value that keeps what was known)."""
        new = Rewriter.replace_value_with_new_type(value, llvm.LLVMPointerType())
        self.tensor_types[new] = self.tensor_types.pop(value)
        if value in self.invariant:
            self.invariant.add(new)


def lower_function(function: func.FuncOp) -> None:
    if function.body.blocks.first is None:
        return
    invariant = set(function.args) - written_arguments(function)
    tensor_types = {
        value: value.type
        for op in function.walk()
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args))
        if isinstance(value.type, TensorType)
    }
    if "xla.entry" in function.attributes:
        describe_buffers(function)
    buffers = Buffers(tensor_types, invariant)
    pointer_types(function, buffers)
    for op in list(function.walk()):
        lower_access(op, buffers)
    for op in reversed(list(function.walk())):  # inner loops and ifs first
        if isinstance(op, scf.IfOp):
            drop_if_pointers(op)
        elif isinstance(op, scf.ForOp):
            drop_loop_pointers(op)
    drop_returned_tensors(function)


# XLA's buffers start at least this far apart (`kXlaAllocatedBufferAlignBytes`).
BUFFER_ALIGNMENT = 16


def describe_buffers(function: func.FuncOp) -> None:
    """Each tensor argument of a kernel: `llvm.align` (XLA's least buffer alignment)
    and `llvm.dereferenceable` (its bytes), unless the emitter said already."""
    arg_attrs = function.arg_attrs.data if function.arg_attrs is not None else ()
    described: list[DictionaryAttr] = []
    for i, arg in enumerate(function.args):
        attrs = dict(arg_attrs[i].data) if i < len(arg_attrs) else {}
        if isinstance(arg.type, TensorType):
            size = arg.type.element_count() * element_size(arg.type.element_type)
            attrs.setdefault("llvm.align", IntegerAttr(BUFFER_ALIGNMENT, i64))
            attrs.setdefault("llvm.dereferenceable", IntegerAttr(size, i64))
        described.append(DictionaryAttr(attrs))
    function.arg_attrs = ArrayAttr(described)


def element_size(element: Attribute) -> int:
    if isinstance(element, ComplexType):
        return 2 * element_size(element.element_type)
    bits = (
        element.width.data if isinstance(element, IntegerType) else getattr(element, "bitwidth", 8)
    )
    return max(1, bits // 8)


def written_arguments(function: func.FuncOp) -> set[SSAValue]:
    """The arguments some op stores into (followed through loops, ifs and stores)."""
    root: dict[SSAValue, SSAValue] = {arg: arg for arg in function.args}
    written: set[SSAValue] = set()
    for op in function.walk():
        if isinstance(op, tensor.InsertOp | vector.TransferWriteOp | XlaAtomicRMWOp):
            dest = (
                op.dest
                if isinstance(op, tensor.InsertOp)
                else op.input
                if isinstance(op, XlaAtomicRMWOp)
                else op.source
            )
            origin = root.get(dest)
            if origin is not None:
                written.add(origin)
                root[op.results[0]] = origin
        elif isinstance(op, scf.ForOp):
            for init, arg, result in zip(
                op.iter_args, op.body.block.args[1:], op.results, strict=True
            ):
                if init in root:
                    root[arg] = root[result] = root[init]
        elif isinstance(op, scf.YieldOp) and isinstance(op.parent_op(), scf.IfOp):
            parent = op.parent_op()
            assert parent is not None
            for value, result in zip(op.operands, parent.results, strict=True):
                if value in root:
                    root[result] = root[value]
    return written


def pointer_types(function: func.FuncOp, buffers: Buffers) -> None:
    """Every tensor-typed block argument and loop or if result becomes `!llvm.ptr`."""
    for op in function.walk():
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    if isinstance(arg.type, TensorType):
                        buffers.retype(arg)
        if isinstance(op, scf.ForOp | scf.IfOp):
            for result in op.results:
                if isinstance(result.type, TensorType):
                    buffers.retype(result)


def lower_access(op: Operation, buffers: Buffers) -> None:
    if isinstance(op, tensor.ExtractOp):
        address = element_address(op, op.tensor, op.indices, buffers)
        stored = memory_type(op.result.type)
        load = LoadOp(address, stored, element_bytes(op, op.tensor, buffers))
        mark_invariant(load, op.tensor, buffers)
        if stored == op.result.type:
            Rewriter.replace_op(op, [load], [load.dereferenced_value])
        else:
            cast = UnrealizedConversionCastOp.get([load.dereferenced_value], [op.result.type])
            Rewriter.replace_op(op, [load, cast], cast.results)
    elif isinstance(op, tensor.InsertOp):
        address = element_address(op, op.dest, op.indices, buffers)
        value: SSAValue = op.scalar
        stored = memory_type(value.type)
        if stored != value.type:
            cast = UnrealizedConversionCastOp.get([value], [stored])
            Rewriter.insert_op(cast, _before(op))
            value = cast.results[0]
        Rewriter.insert_op(
            llvm.StoreOp(value, address, element_bytes(op, op.dest, buffers)), _before(op)
        )
        op.result.replace_all_uses_with(op.dest)
        Rewriter.erase_op(op)
    elif isinstance(op, vector.TransferReadOp):
        check_transfer(op, op.result.type)
        address = element_address(op, op.source, op.indices, buffers)
        load = LoadOp(address, op.result.type, element_bytes(op, op.source, buffers))
        mark_invariant(load, op.source, buffers)
        padding = op.padding.owner
        Rewriter.replace_op(op, [load], [load.dereferenced_value])
        if isinstance(padding, ub.PoisonOp | arith.ConstantOp) and not padding.result.uses:
            Rewriter.erase_op(padding)
    elif isinstance(op, vector.TransferWriteOp):
        check_transfer(op, op.vector.type)
        address = element_address(op, op.source, op.indices, buffers)
        Rewriter.insert_op(
            llvm.StoreOp(op.vector, address, element_bytes(op, op.source, buffers)), _before(op)
        )
        if op.result is not None:
            op.result.replace_all_uses_with(op.source)
        Rewriter.erase_op(op)
    elif isinstance(op, XlaAtomicRMWOp):
        lower_atomic(op, buffers)
    elif touches_tensors(op) and not isinstance(
        op, func.ReturnOp | scf.YieldOp | scf.ForOp | scf.IfOp | AllocateSharedOp | SyncThreadsOp
    ):
        raise OpError(op, f"xla-lower-tensors: cannot lower '{op.name}' to pointers")


# A body's binary op -> `llvm.atomicrmw`'s operation.
_ATOMIC_OPS: dict[type[Operation], str] = {
    arith.AddfOp: "fadd",
    arith.AddiOp: "add",
    arith.MaxSIOp: "max",
    arith.MinSIOp: "min",
    arith.MaxUIOp: "umax",
    arith.MinUIOp: "umin",
}


def lower_atomic(op: XlaAtomicRMWOp, buffers: Buffers) -> None:
    """`xla.atomic_rmw` of one binary op: `llvm.atomicrmw` at the element's address."""
    block = op.body.block
    combine = block.first_op
    terminator = block.last_op
    current = block.args[0] if block.args else None
    if (
        type(combine) not in _ATOMIC_OPS
        or combine is None
        or terminator is None
        or combine.next_op is not terminator
        or list(terminator.operands) != [combine.results[0]]
        or current not in combine.operands
    ):
        raise OpError(op, "xla-lower-tensors: only an atomic add, min or max is lowered")
    other = [v for v in combine.operands if v is not current]
    if len(other) != 1 or op.is_ancestor(other[0].owner):  # type: ignore[arg-type]
        raise OpError(op, "xla-lower-tensors: only an atomic add, min or max is lowered")
    address = element_address(op, op.input, tuple(op.indices), buffers)
    atomic = AtomicRMWOp(_ATOMIC_OPS[type(combine)], address, other[0], "monotonic")
    Rewriter.insert_op(atomic, _before(op))
    op.result.replace_all_uses_with(op.input)
    Rewriter.erase_op(op)


def lower_shared_memory(module: ModuleOp) -> None:
    """Each `allocate_shared` becomes a global in shared memory and a pointer to it.

    Runs after the accesses are lowered, so every use of the tensor is a GEP
    (or a barrier, a loop or a branch) and only the pointer's origin changes.
    """
    for op in [o for o in module.walk() if isinstance(o, SyncThreadsOp)]:
        Rewriter.insert_op(gpu.BarrierOp(), _before(op))
        for result, operand in zip(op.res, op.tensors, strict=True):
            result.replace_all_uses_with(operand)
        Rewriter.erase_op(op)
    allocations = [o for o in module.walk() if isinstance(o, AllocateSharedOp)]
    for index, op in enumerate(allocations):
        tensor_type = op.result.type
        assert isinstance(tensor_type, TensorType)
        name = f"shared_{index}"
        array = llvm.LLVMArrayType(
            IntAttr(tensor_type.element_count()), memory_type(tensor_type.element_type)
        )
        shared = llvm.GlobalOp(array, name, "private", addr_space=SHARED_ADDRESS_SPACE)
        module.body.block.insert_op_before(shared, module.body.block.first_op)  # type: ignore[arg-type]
        address = llvm.AddressOfOp(name, llvm.LLVMPointerType(IntAttr(SHARED_ADDRESS_SPACE)))
        generic = AddrSpaceCastOp(address.result, llvm.LLVMPointerType())
        Rewriter.replace_op(op, [address, generic], [generic.result])


def memory_type(element: Attribute) -> Attribute:
    """An element as it lies in memory: a complex number is a struct of its two parts."""
    if isinstance(element, ComplexType):
        part = element.element_type
        return llvm.LLVMStructType.from_type_list([part, part])
    return element


def touches_tensors(op: Operation) -> bool:
    return op.dialect_name() == "tensor" or any(
        isinstance(v.type, TensorType) for v in (*op.operands, *op.results)
    )


def _before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


def check_transfer(op: Operation, vector_type: Attribute) -> None:
    in_bounds = op.properties.get("in_bounds")
    all_in_bounds = isinstance(in_bounds, ArrayAttr) and all(
        isinstance(flag, IntegerAttr) and flag.value.data != 0 for flag in in_bounds.data
    )
    if not isinstance(vector_type, VectorType) or vector_type.get_num_dims() != 1:
        raise OpError(op, "xla-lower-tensors: only 1-d vector transfers are lowered")
    if not all_in_bounds:
        raise OpError(op, "xla-lower-tensors: a transfer must be in bounds (in_bounds = [true])")


def element_address(
    op: Operation, buffer: SSAValue, indices: tuple[SSAValue, ...], buffers: Buffers
) -> SSAValue:
    """`getelementptr inbounds elt, ptr %buffer, iN %index` before `op`."""
    tensor_type = buffers.tensor_types.get(buffer)
    if tensor_type is None:
        raise OpError(op, "xla-lower-tensors: the buffer is not a tensor")
    array = llvm.LLVMArrayType(
        IntAttr(tensor_type.element_count()), memory_type(tensor_type.element_type)
    )
    if not indices and tensor_type.get_num_dims() == 0:
        only = llvm.GEPOp(buffer, [0, 0], array, inbounds=True)
        Rewriter.insert_op(only, _before(op))
        return only.result
    if len(indices) != 1:
        raise OpError(op, "xla-lower-tensors: tensors must be flat (run xla-flatten-tensors)")
    index = indices[0]
    width = i32 if tensor_type.element_count() < 2**31 else i64
    ops: list[Operation] = []
    if isinstance(index.type, IndexType):
        # Unsigned: an in-bounds index is never negative (XLA casts it so too).
        cast = IndexCastUIOp(index, width)
        ops.append(cast)
        index = cast.result
    elif not isinstance(index.type, IntegerType):
        raise OpError(op, "xla-lower-tensors: an index must be an integer")
    gep = llvm.GEPOp(buffer, [0, _GEP_SSA_INDEX], array, ssa_indices=[index], inbounds=True)
    ops.append(gep)
    Rewriter.insert_op(ops, _before(op))
    return gep.result


def element_bytes(op: Operation, buffer: SSAValue, buffers: Buffers) -> int | None:
    """The alignment XLA gives a load or store: one element for a vector access (LLVM
    would assume the whole vector's), none for a scalar (its type's is right)."""
    tensor_type = buffers.tensor_types.get(buffer)
    if tensor_type is None:
        raise OpError(op, "xla-lower-tensors: the buffer is not a tensor")
    accessed = (
        op.results[0].type
        if isinstance(op, tensor.ExtractOp | vector.TransferReadOp)
        else (op.operands[0].type)
    )
    if not isinstance(accessed, VectorType):
        return None
    return element_size(tensor_type.element_type)


def mark_invariant(load: LoadOp, buffer: SSAValue, buffers: Buffers) -> None:
    if buffer in buffers.invariant:
        load.attributes[INVARIANT] = UnitAttr()


def _is_pointer(value: SSAValue) -> bool:
    return isinstance(value.type, llvm.LLVMPointerType)


def _yield_of(block: Block | None) -> scf.YieldOp | None:
    last = block.last_op if block is not None else None
    return last if isinstance(last, scf.YieldOp) else None


def drop_if_pointers(op: scf.IfOp) -> None:
    """An `scf.if` returns no pointer: each is the one it was given (defined before it)."""
    dropped = [i for i, r in enumerate(op.results) if _is_pointer(r)]
    if not dropped:
        return
    then_yield = _yield_of(op.true_region.blocks.first)
    assert then_yield is not None
    for i in dropped:
        pointer = then_yield.operands[i]
        if pointer.owner is not None and op.is_ancestor(pointer.owner):  # type: ignore[arg-type]
            raise OpError(op, "xla-lower-tensors: a branch yields a buffer made inside it")
        op.results[i].replace_all_uses_with(pointer)
    for block in (op.true_region.blocks.first, op.false_region.blocks.first):
        yielded = _yield_of(block)
        if yielded is not None:
            kept = [v for i, v in enumerate(yielded.operands) if i not in dropped]
            Rewriter.replace_op(yielded, scf.YieldOp(*kept))
    kept_types = [r.type for i, r in enumerate(op.results) if i not in dropped]
    else_block = op.false_region.blocks.first
    else_does_nothing = (
        else_block is not None
        and not kept_types
        and isinstance(else_block.first_op, scf.YieldOp)
        and not else_block.first_op.operands
    )
    false_region = None if else_does_nothing else op.detach_region(op.false_region)
    new = scf.IfOp(op.cond, kept_types, op.detach_region(op.true_region), false_region)
    Rewriter.replace_op(op, new, [None if i in dropped else r for i, r in _kept(op, new)])


def _kept(old: Operation, new: Operation) -> list[tuple[int, SSAValue | None]]:
    """Each old result's position and its new result (None for a dropped one)."""
    pairs: list[tuple[int, SSAValue | None]] = []
    remaining = iter(new.results)
    for i, result in enumerate(old.results):
        pairs.append((i, None if _is_pointer(result) else next(remaining)))
    return pairs


def drop_loop_pointers(op: scf.ForOp) -> None:
    """An `scf.for` carries no pointer: each iteration writes through the one it was given."""
    body = op.body.block
    dropped = [i for i, r in enumerate(op.results) if _is_pointer(r)]
    if not dropped:
        return
    yielded = _yield_of(body)
    assert yielded is not None
    for i in dropped:
        init = op.iter_args[i]
        op.results[i].replace_all_uses_with(init)
        body.args[i + 1].replace_all_uses_with(init)
    kept = [v for i, v in enumerate(yielded.operands) if i not in dropped]
    Rewriter.replace_op(yielded, scf.YieldOp(*kept))
    for i in reversed(dropped):
        body.erase_arg(body.args[i + 1])
    inits = [v for i, v in enumerate(op.iter_args) if i not in dropped]
    new = scf.ForOp(op.lb, op.ub, op.step, inits, op.detach_region(op.body))
    new.attributes.update(op.attributes)  # hints for LLVM on the loop stay with it
    Rewriter.replace_op(op, new, [r for _, r in _kept(op, new)])


def drop_returned_tensors(function: func.FuncOp) -> None:
    inputs = [
        llvm.LLVMPointerType() if isinstance(t, TensorType) else t
        for t in function.function_type.inputs.data
    ]
    outputs = [t for t in function.function_type.outputs.data if not isinstance(t, TensorType)]
    for ret in [r for r in function.walk() if isinstance(r, func.ReturnOp)]:
        kept = [v for v in ret.operands if not isinstance(v.type, llvm.LLVMPointerType)]
        Rewriter.replace_op(ret, func.ReturnOp(*kept))
    function.function_type = FunctionType.from_lists(inputs, outputs)
