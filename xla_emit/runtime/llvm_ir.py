"""LLVM IR text from a module in the `llvm` dialect (what `xla-lower-to-llvm` leaves).

Printed directly rather than through xDSL's llvmlite translation: llvmlite's IR
builder has no `bfloat`, and a kernel needs what MLIR's NVVM target adds —
`ptx_kernel`, `"nvvm.reqntid"`, `noalias` arguments, `!range` on the special
registers and `!invariant.load` on loads of read-only buffers — spelled as
XLA's `*.ir-no-opt.ll` spells them. An op the printer does not know is an
`OpError` at that op.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xla_emit.dialects.llvm_ext import (
    AddrSpaceCastOp,
    AtomicRMWOp,
    ExtractElementOp,
    FPToSIOp,
    FPToUIOp,
    IntrinsicOp,
    LoadOp,
    PoisonOp,
    UIToFPOp,
)
from xla_emit.dialects.nvvm import BarrierOp, ReadSpecialRegisterOp, ShflSyncOp
from xla_emit.passes.diagnostics import OpError
from xla_emit.passes.gpu.lower_to_llvm import HOST_VECTOR_BITS, NO_LOOP_VECTORIZE

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"
# The NVPTX data layout XLA's modules carry.
NVPTX_DATA_LAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

_BINARY = {
    llvm.AddOp: "add", llvm.SubOp: "sub", llvm.MulOp: "mul", llvm.SDivOp: "sdiv",
    llvm.UDivOp: "udiv", llvm.SRemOp: "srem", llvm.URemOp: "urem", llvm.AndOp: "and",
    llvm.OrOp: "or", llvm.XOrOp: "xor", llvm.ShlOp: "shl", llvm.AShrOp: "ashr",
    llvm.LShrOp: "lshr", llvm.FAddOp: "fadd", llvm.FSubOp: "fsub", llvm.FMulOp: "fmul",
    llvm.FDivOp: "fdiv", llvm.FRemOp: "frem",
}  # fmt: skip
_CASTS = {
    llvm.TruncOp: "trunc", llvm.ZExtOp: "zext", llvm.SExtOp: "sext", llvm.FPExtOp: "fpext",
    llvm.FPTruncOp: "fptrunc", llvm.SIToFPOp: "sitofp", llvm.BitcastOp: "bitcast",
    FPToSIOp: "fptosi", FPToUIOp: "fptoui", UIToFPOp: "uitofp",
    AddrSpaceCastOp: "addrspacecast",
}  # fmt: skip
# MLIR's marker in a GEP's constant indices: this index is the next SSA operand.
_GEP_SSA_INDEX = -2147483648
_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_FCMP = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip


# The C library's functions whose results IEEE 754 fixes (exact, or correctly rounded),
# so LLVM's intrinsic of the name computes the same bits.
_EXACT_ON_THE_HOST = frozenset(
    {"floor", "ceil", "trunc", "round", "rint", "fabs", "sqrt", "copysign", "fma"}
)


def type_text(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, BFloat16Type):
        return "bfloat"
    if isinstance(t, Float16Type):
        return "half"
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float64Type):
        return "double"
    if isinstance(t, llvm.LLVMPointerType):
        space = t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0
        return f"ptr addrspace({space})" if space else "ptr"
    if isinstance(t, llvm.LLVMArrayType):
        return f"[{t.size.data} x {type_text(t.type)}]"
    if isinstance(t, llvm.LLVMStructType):
        return "{ " + ", ".join(type_text(m) for m in t.types.data) + " }"
    if isinstance(t, llvm.LLVMVoidType):
        return "void"
    if isinstance(t, VectorType) and t.get_num_dims() == 1:
        return f"<{t.get_shape()[0]} x {type_text(t.element_type)}>"
    raise ValueError(f"no LLVM IR type for {t}")


def float_text(value: float, t: Attribute) -> str:
    """A float constant exactly: hex of the double (f32, f64), `0xR`/`0xH` bits (bf16, f16)."""
    if isinstance(t, BFloat16Type):
        bits = struct.unpack("<I", struct.pack("<f", value))[0] >> 16
        return f"0xR{bits:04X}"
    if isinstance(t, Float16Type):
        return f"0xH{struct.unpack('<H', struct.pack('<e', value))[0]:04X}"
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def intrinsic_suffix(t: Attribute) -> str:
    """The overload suffix of an intrinsic for type `t`: `f32`, `bf16`, `i32`, `v4f32`."""
    if isinstance(t, VectorType):
        return f"v{t.get_shape()[0]}{intrinsic_suffix(t.element_type)}"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float16Type | Float32Type | Float64Type):
        return f"f{t.bitwidth}"
    return type_text(t)


def scalar_text(value: Attribute, t: Attribute) -> str:
    if isinstance(value, FloatAttr):
        return float_text(value.value.data, t)
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    raise ValueError(f"no LLVM IR constant for {value}")


# A host kernel's last argument, and the registers it holds in order (int32 each).
HOST_IDS = "%ids"
HOST_ID_REGISTERS = ("tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z")


class _Printer:
    """Prints one module; names every value `%vN` and numbers the metadata.

    For the host (`host=True`) the kernel takes one more argument, `ptr %ids`: the
    six ids of the thread and block it runs (`HOST_ID_REGISTERS`' order), which the
    grid driver keeps on its own stack, so that several host threads can run blocks
    of one kernel at once; a special register is a load from it. libdevice's
    functions call the C library's.
    """

    def __init__(self, host: bool = False) -> None:
        self.host = host
        self.names: dict[SSAValue, str] = {}
        self.metadata: list[str] = []
        # Declarations of the overloaded intrinsics called, by mangled name.
        self.intrinsics: dict[str, str] = {}
        self.labels: dict[Block, str] = {}
        # Set while printing a host kernel, whose `%ids` argument its registers read.
        self.reads_ids = False

    def name(self, value: SSAValue) -> str:
        if value not in self.names:
            self.names[value] = f"%v{len(self.names)}"
        return self.names[value]

    def typed(self, value: SSAValue) -> str:
        return f"{type_text(value.type)} {self.name(value)}"

    def add_metadata(self, text: str) -> str:
        self.metadata.append(text)
        return f"!{len(self.metadata) - 1}"

    def module(self, module: ModuleOp) -> str:
        lines = (
            []
            if self.host
            else [
                f'target datalayout = "{NVPTX_DATA_LAYOUT}"',
                f'target triple = "{NVPTX_TRIPLE}"',
                "",
            ]
        )
        for op in module.ops:
            if isinstance(op, llvm.GlobalOp):
                lines += [self.global_variable(op), ""]
            elif isinstance(op, llvm.FuncOp):
                lines += [*self.function(op), ""]
            else:
                raise OpError(op, f"LLVM IR: cannot translate '{op.name}' at module level")
        declared = sorted(
            {op.name for op in module.walk() if isinstance(op, ReadSpecialRegisterOp)}
        )
        lines += [self.intrinsics[name] for name in sorted(self.intrinsics)]
        if declared and not self.host:  # the host's kernel reads them from `%ids`
            lines += [f"declare i32 @{self.register_function(name)}()" for name in declared]
            lines.append("")
        lines += [f"!{i} = {text}" for i, text in enumerate(self.metadata)]
        return "\n".join(lines) + "\n"

    def global_variable(self, op: llvm.GlobalOp) -> str:
        """A global without initial value (XLA's shared memory): `undef`, as MLIR writes it."""
        if op.value is not None or op.body.blocks:
            raise OpError(op, "LLVM IR: only globals without an initial value are translated")
        space = op.addr_space.value.data
        where = f" addrspace({space})" if space and not self.host else ""
        linkage = op.linkage.linkage.data
        constant = "constant" if op.constant is not None else "global"
        return (
            f"@{op.sym_name.data} = {linkage}{where} {constant} {type_text(op.global_type)} undef"
        )

    def register_function(self, op_name: str) -> str:
        """The NVVM intrinsic a special register's op calls."""
        return f"llvm.{op_name}"

    def function(self, op: llvm.FuncOp) -> list[str]:
        result = type_text(op.function_type.output)
        body = op.body.blocks.first
        if body is None:
            inputs = ", ".join(type_text(t) for t in op.function_type.inputs.data)
            name = op.sym_name.data
            if self.host and name in ("__nv_rsqrtf", "__nv_rsqrt"):
                # The C library has no rsqrt: 1 / sqrt(x), each correctly rounded (LLVM's
                # sqrt intrinsic: a kernel may declare the C library's `sqrtf` too).
                sqrt = f"llvm.sqrt.{intrinsic_suffix(op.function_type.output)}"
                self.intrinsics[sqrt] = f"declare {result} @{sqrt}({result})"
                return [
                    f"define internal {result} @{name}({result} %x) {{",
                    f"  %s = call {result} @{sqrt}({result} %x)",
                    f"  %r = fdiv {result} 1.0, %s",
                    f"  ret {result} %r",
                    "}",
                ]
            if self.host and name.startswith("__nv_"):
                # libdevice's `__nv_fmaf(a, b, c)` is the C library's `fmaf(a, b, c)`
                # (`__nv_rintf`: `rintf`, which rounds half to even by default).
                types = [type_text(t) for t in op.function_type.inputs.data]
                params = ", ".join(f"{t} %a{i}" for i, t in enumerate(types))
                c_name = name.removeprefix("__nv_")
                exact = c_name.removesuffix("f") if result == "float" else c_name
                if exact in _EXACT_ON_THE_HOST:
                    # LLVM's intrinsic: the same bits, inline and vectorizable (a call
                    # of the C library's in a loop's scalar remainder cost as much as
                    # its vector body in softmax's exp kernel).
                    callee = f"llvm.{exact}.{intrinsic_suffix(op.function_type.output)}"
                    self.intrinsics[callee] = f"declare {result} @{callee}({inputs})"
                    declaration = []
                else:
                    callee, declaration = c_name, [f"declare {result} @{c_name}({inputs})"]
                return [
                    f"define internal {result} @{name}({params}) {{",
                    f"  %r = call {result} @{callee}({params})",
                    f"  ret {result} %r",
                    "}",
                    *declaration,
                ]
            return [f"declare {result} @{name}({inputs})"]
        arg_attrs = op.arg_attrs.data if op.arg_attrs is not None else ()
        params = []
        for i, arg in enumerate(body.args):
            flags = ""
            if i < len(arg_attrs) and isinstance(arg_attrs[i], DictionaryAttr):
                flags = argument_flags(arg_attrs[i])
            params.append(f"{type_text(arg.type)}{flags} {self.name(arg)}")
        self.reads_ids = self.host and "nvvm.kernel" in op.attributes
        if self.reads_ids:
            params.append(f"ptr noalias readonly {HOST_IDS}")
        kernel = "nvvm.kernel" in op.attributes and not self.host
        header = f"define {'ptx_kernel ' if kernel else ''}{result} @{op.sym_name.data}"
        header += f"({', '.join(params)})"
        reqntid = op.attributes.get("nvvm.reqntid")
        if isinstance(reqntid, DenseArrayBase) and not self.host:
            sizes = ",".join(str(int(v)) for v in reqntid.get_values())
            header += f' "nvvm.reqntid"="{sizes}"'
        vector_bits = op.attributes.get(HOST_VECTOR_BITS)
        if isinstance(vector_bits, IntegerAttr) and self.host:
            header += f' "prefer-vector-width"="{vector_bits.value.data}"'
        lines = [header + " {"]
        blocks = list(op.body.blocks)
        self.labels = {block: f"bb{i}" for i, block in enumerate(blocks)}
        incoming = self.incoming_values(blocks)
        # The entry block is labelled only where a phi names it (a loop's first trip).
        entry_named = any(pred is blocks[0] for preds in incoming.values() for pred, _ in preds)
        for i, block in enumerate(blocks):
            if i > 0 or entry_named:
                lines.append(f"{self.labels[block]}:")
            if i > 0:
                lines += ["  " + phi for phi in self.phis(block, incoming[block])]
            for inner in block.ops:
                lines += ["  " + line for line in self.instruction(inner)]
        lines.append("}")
        return lines

    def host_register(self, op: ReadSpecialRegisterOp, suffix: str) -> Iterator[str]:
        """A special register on the host: the kernel's `%ids` slot of it, loaded."""
        if not self.reads_ids:
            raise OpError(op, "LLVM IR: on the host only the kernel reads thread and block ids")
        register = op.name.removeprefix("nvvm.read.ptx.sreg.")
        name = self.name(op.results[0])
        slot = HOST_ID_REGISTERS.index(register)
        yield f"{name}.p = getelementptr inbounds i32, ptr {HOST_IDS}, i64 {slot}"
        yield f"{name} = load i32, ptr {name}.p, align 4{suffix}"

    def incoming_values(
        self, blocks: list[Block]
    ) -> dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]]:
        """For each block, its predecessors and the values each passes to its arguments."""
        incoming: dict[Block, list[tuple[Block, tuple[SSAValue, ...]]]] = {b: [] for b in blocks}
        for block in blocks:
            terminator = block.last_op
            if isinstance(terminator, llvm.BrOp):
                incoming[terminator.successor].append((block, tuple(terminator.arguments)))
            elif isinstance(terminator, llvm.CondBrOp):
                incoming[terminator.then_block].append((block, tuple(terminator.then_arguments)))
                incoming[terminator.else_block].append((block, tuple(terminator.else_arguments)))
        return incoming

    def phis(
        self, block: Block, incoming: list[tuple[Block, tuple[SSAValue, ...]]]
    ) -> Iterator[str]:
        for index, arg in enumerate(block.args):
            sources = ", ".join(
                f"[ {self.name(values[index])}, %{self.labels[pred]} ]" for pred, values in incoming
            )
            yield f"{self.name(arg)} = phi {type_text(arg.type)} {sources}"

    def instruction(self, op: Operation) -> Iterator[str]:
        result = f"{self.name(op.results[0])} = " if op.results else ""
        if type(op) in _BINARY:
            lhs, rhs = op.operands
            yield f"{result}{_BINARY[type(op)]} {self.typed(lhs)}, {self.name(rhs)}"
        elif type(op) in _CASTS:
            target = type_text(op.results[0].type)
            yield f"{result}{_CASTS[type(op)]} {self.typed(op.operands[0])} to {target}"
        elif isinstance(op, llvm.ConstantOp):
            yield from self.constant(op)
        elif isinstance(op, PoisonOp):
            # A value no lane of which is read: folded into its users.
            self.names[op.res] = "poison"
        elif isinstance(op, llvm.UndefOp):
            self.names[op.res] = "undef"
        elif isinstance(op, llvm.AddressOfOp):
            # A global's address is a constant: its name.
            self.names[op.result] = f"@{op.global_name.string_value()}"
        elif isinstance(op, llvm.InsertValueOp):
            position = ", ".join(str(int(p)) for p in op.position.get_values())
            yield (
                f"{result}insertvalue {self.typed(op.container)}, {self.typed(op.value)}, "
                f"{position}"
            )
        elif isinstance(op, llvm.ExtractValueOp):
            position = ", ".join(str(int(p)) for p in op.position.get_values())
            yield f"{result}extractvalue {self.typed(op.container)}, {position}"
        elif isinstance(op, AtomicRMWOp):
            operation = op.bin_op.data.lstrip("_")  # MLIR's `_and` is LLVM's `and`
            yield (
                f"{result}atomicrmw {operation} {self.typed(op.ptr)}, {self.typed(op.val)} "
                f"{op.ordering.data}"
            )
        elif isinstance(op, BarrierOp):
            name = "xla.barrier" if self.host else "llvm.nvvm.barrier0"
            self.intrinsics[name] = f"declare void @{name}()"
            yield f"call void @{name}()"
        elif isinstance(op, ShflSyncOp):
            yield from self.shuffle(op, result)
        elif isinstance(op, ReadSpecialRegisterOp):
            value_range = op.attributes.get("range")
            suffix = ""
            if isinstance(value_range, DenseArrayBase):
                low, high = (int(v) for v in value_range.get_values())
                suffix = ", !range " + self.add_metadata(f"!{{i32 {low}, i32 {high}}}")
            if self.host:
                yield from self.host_register(op, suffix)
            else:
                yield f"{result}call i32 @{self.register_function(op.name)}(){suffix}"
        elif isinstance(op, llvm.GEPOp):
            element = type_text(op.elem_type)
            indices = ", ".join(self.gep_indices(op))
            inbounds = "inbounds " if op.inbounds is not None else ""
            yield f"{result}getelementptr {inbounds}{element}, {self.typed(op.ptr)}, {indices}"
        elif isinstance(op, LoadOp):
            align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
            invariant = ""
            if "invariant" in op.attributes:
                invariant = ", !invariant.load " + self.add_metadata("!{}")
            loaded = type_text(op.dereferenced_value.type)
            yield f"{result}load {loaded}, {self.typed(op.ptr)}{align}{invariant}"
        elif isinstance(op, llvm.StoreOp):
            align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
            yield f"store {self.typed(op.value)}, {self.typed(op.ptr)}{align}"
        elif isinstance(op, ExtractElementOp):
            yield f"{result}extractelement {self.typed(op.vector)}, {self.typed(op.position)}"
        elif isinstance(op, llvm.InsertElementOp):
            yield (
                f"{result}insertelement {self.typed(op.vector)}, {self.typed(op.value)}, "
                f"{self.typed(op.index)}"
            )
        elif isinstance(op, llvm.ICmpOp):
            predicate = _ICMP[op.predicate.value.data]
            yield f"{result}icmp {predicate} {self.typed(op.lhs)}, {self.name(op.rhs)}"
        elif isinstance(op, llvm.FCmpOp):
            predicate = _FCMP[op.predicate.value.data]
            yield f"{result}fcmp {predicate} {self.typed(op.lhs)}, {self.name(op.rhs)}"
        elif isinstance(op, llvm.SelectOp):
            cond, lhs, rhs = op.operands
            yield f"{result}select {self.typed(cond)}, {self.typed(lhs)}, {self.typed(rhs)}"
        elif isinstance(op, llvm.FNegOp):
            yield f"{result}fneg {self.typed(op.operands[0])}"
        elif isinstance(op, llvm.CallOp):
            callee = op.callee.string_value() if op.callee is not None else "?"
            returned = type_text(op.results[0].type) if op.results else "void"
            args = ", ".join(self.typed(a) for a in op.args)
            yield f"{result}call {returned} @{callee}({args})"
        elif isinstance(op, IntrinsicOp):
            yield from self.intrinsic_call(result, op.intrinsic, list(op.args), op.res.type)
        elif isinstance(op, llvm.CallIntrinsicOp):
            returned = op.ress.type if op.ress is not None else None
            name = f"{op.intrin.data}.{intrinsic_suffix(op.args[0].type)}"
            self.intrinsics[name] = (
                f"declare {type_text(returned) if returned else 'void'} @{name}("
                + ", ".join(type_text(a.type) for a in op.args)
                + ")"
            )
            args = ", ".join(self.typed(a) for a in op.args)
            yield f"{result}call {type_text(returned) if returned else 'void'} @{name}({args})"
        elif isinstance(op, llvm.BrOp):
            loop = ""
            if NO_LOOP_VECTORIZE in op.attributes:
                disable = self.add_metadata('!{!"llvm.loop.vectorize.enable", i1 false}')
                number = len(self.metadata)
                loop = ", !llvm.loop " + self.add_metadata(f"distinct !{{!{number}, {disable}}}")
            yield f"br label %{self.labels[op.successor]}{loop}"
        elif isinstance(op, llvm.CondBrOp):
            yield (
                f"br {self.typed(op.cond)}, label %{self.labels[op.then_block]}, "
                f"label %{self.labels[op.else_block]}"
            )
        elif isinstance(op, llvm.ReturnOp):
            yield f"ret {self.typed(op.arg)}" if op.arg is not None else "ret void"
        else:
            raise OpError(op, f"LLVM IR: cannot translate '{op.name}'")

    def gep_indices(self, op: llvm.GEPOp) -> Iterator[str]:
        """A GEP's indices: its constants (`i32 0`, as MLIR translates them) and SSA values."""
        values = iter(op.ssa_indices)
        for raw in op.rawConstantIndices.iter_values():
            yield self.typed(next(values)) if raw == _GEP_SSA_INDEX else f"i32 {raw}"

    def intrinsic_call(
        self, result: str, intrinsic: str, args: list[SSAValue], returned: Attribute
    ) -> Iterator[str]:
        """A call of an overloaded intrinsic, `@llvm.maximum.f32`, declared once."""
        name = f"{intrinsic}.{intrinsic_suffix(args[0].type)}"
        operand_types = ", ".join(type_text(a.type) for a in args)
        self.intrinsics[name] = f"declare {type_text(returned)} @{name}({operand_types})"
        typed = ", ".join(self.typed(a) for a in args)
        yield f"{result}call {type_text(returned)} @{name}({typed})"

    def shuffle(self, op: ShflSyncOp, result: str) -> Iterator[str]:
        """`llvm.nvvm.shfl.sync.<kind>.<i32|f32>(mask, value, offset, clamp)`; on the
        host, a call of `@xla.shfl.sync.<kind>.<type>` of the same operands, which the
        grid driver defines."""
        value_type = type_text(op.value.type)
        suffix = "f32" if value_type == "float" else "i32"
        prefix = "xla" if self.host else "llvm.nvvm"
        name = f"{prefix}.shfl.sync.{op.kind.data}.{suffix}"
        self.intrinsics[name] = f"declare {value_type} @{name}(i32, {value_type}, i32, i32)"
        args = ", ".join(self.typed(a) for a in op.operands)
        yield f"{result}call {value_type} @{name}({args})"

    def constant(self, op: llvm.ConstantOp) -> Iterator[str]:
        """Constants are folded into their users, as LLVM IR writes them."""
        t = op.result.type
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(t, VectorType):
            element = t.element_type
            lanes = [scalar_attr(v, element) for v in value.get_values()]
            if all(lane in ("0", float_text(0.0, element)) for lane in lanes):
                self.names[op.result] = "zeroinitializer"
            else:
                parts = ", ".join(f"{type_text(element)} {lane}" for lane in lanes)
                self.names[op.result] = f"<{parts}>"
        else:
            self.names[op.result] = scalar_text(value, t)
        return iter(())


def argument_flags(attrs: DictionaryAttr) -> str:
    """` noalias align 16 dereferenceable(N)` from `llvm.*` argument attributes."""
    flags = ""
    if "llvm.noalias" in attrs.data:
        flags += " noalias"
    for key, spelling in (
        ("llvm.align", " align {}"),
        ("llvm.dereferenceable", " dereferenceable({})"),
    ):
        value = attrs.data.get(key)
        if isinstance(value, IntegerAttr):
            flags += spelling.format(value.value.data)
    return flags


def scalar_attr(value: int | float, element: Attribute) -> str:
    if isinstance(element, IntegerType):
        return str(int(value))
    return float_text(float(value), element)


def module_to_llvm_ir(module: ModuleOp, host: bool = False) -> str:
    """The module as LLVM IR text for the NVPTX target (or, `host`, for the CPU)."""
    return _Printer(host).module(module)
