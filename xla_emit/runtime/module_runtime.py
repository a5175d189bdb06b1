"""Runs a whole HLO module: one interpreted kernel per fusion, buffers in between.

The entry computation's parameters are the input buffers. Instructions run in
order: a fusion is compiled (once per distinct fusion text) and launched;
`tuple`, `get-tuple-element` and `bitcast` only alias buffers; `constant` is
its literal; `call`, `while` and `conditional` run their computations the same
way; dots, cuBLAS/cuDNN custom calls and the one-device collectives are calls
into the kernel library (`runtime.library`), and a `kind=kCustom` gemm or sort
fusion runs its computation op by op, its dot or sort as a library call, and a
`__triton` fusion (softmax, layernorm) runs as a tile program of the Triton
route (`runtime.triton_kernels`); any other instruction is
wrapped as a fusion of its own, as XLA does, and emitted like one.

The runtime executes these entry-level instructions with its own code, never
with the reference evaluator's: `--check` compares the two, so sharing code
would hide a bug in it on both sides.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType

from xla_emit.diagnostics import Note, UserError
from xla_emit.emitters.triton.route import runs_as_triton
from xla_emit.hlo.evaluator import check_arguments, flatten_value
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule
from xla_emit.hlo.launches import (
    LIBRARY_CALL_OPS,
    NOT_LAUNCHED_OPS,
    RUNS_COMPUTATIONS,
    is_library_fusion,
    library_launch_name,
)
from xla_emit.hlo.opcodes import ALIASING_OPS
from xla_emit.hlo.shape import ArrayShape, Shape, TupleShape, flatten_shape
from xla_emit.interpreter.element_types import numpy_dtype
from xla_emit.interpreter.executor import ProgressCallback
from xla_emit.runtime import library, library_fft
from xla_emit.runtime.comparators import comparator_fusion
from xla_emit.runtime.kernels import Kernel, KernelCache, wrap_as_fusion
from xla_emit.runtime.library_collectives import one_device_collective
from xla_emit.runtime.library_rng import rng_bit_generator
from xla_emit.runtime.native_kernels import (
    NativeKernelCache,
    NativeSequence,
    launch_native,
    native_sequence,
)

RuntimeValue = np.ndarray | tuple["RuntimeValue", ...]

_ALIASES = ALIASING_OPS
_NOT_LAUNCHED = NOT_LAUNCHED_OPS | LIBRARY_CALL_OPS
# Ops whose called computations run as computations (their fusions launch kernels).
_RUNS_COMPUTATIONS = RUNS_COMPUTATIONS


@dataclass
class KernelRun:
    """One launch: which kernel, how many lanes, how long."""

    name: str
    lanes: int
    seconds: float


@dataclass
class ModuleRuntime:
    """Runs `module` with kernels from `kernels` (compiled on first use)."""

    module: HloModule
    kernels: KernelCache = field(default_factory=KernelCache)
    # Given a kernel's name, the callback that shows its progress (if any).
    progress: Callable[[str], ProgressCallback | None] | None = None
    runs: list[KernelRun] = field(default_factory=list[KernelRun])
    # Set: every kernel of ours runs natively (`runtime.native_kernels`), compiled by LLVM.
    native: NativeKernelCache | None = None
    # Natively, per computation: its launches decided once (None: the general route).
    _sequences: dict[HloComputation, NativeSequence | None] = field(
        default_factory=dict[HloComputation, NativeSequence | None]
    )

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """The entry computation's outputs (tuples flattened) for `inputs`."""
        arguments = check_arguments(self.module.entry, inputs)
        return flatten_value(self.run_computation(self.module.entry, list(arguments)))

    def run_computation(
        self, computation: HloComputation, arguments: Sequence[RuntimeValue]
    ) -> RuntimeValue:
        sequence = self._native_sequence(computation)
        if sequence is not None:
            return self._run_sequence(sequence, arguments)
        values: dict[HloInstruction, RuntimeValue] = {}
        for instruction in computation.instructions:
            if instruction.opcode == "parameter":
                assert instruction.parameter_number is not None
                values[instruction] = arguments[instruction.parameter_number]
                continue
            operands = [values[operand] for operand in instruction.operands]
            values[instruction] = self._execute(instruction, operands)
        return values[computation.root]

    def _native_sequence(self, computation: HloComputation) -> NativeSequence | None:
        if self.native is None:
            return None
        if computation not in self._sequences:
            native = self.native
            self._sequences[computation] = native_sequence(
                computation,
                lambda fusion: native.kernel(self.module, fusion),
                lambda instruction: (
                    instruction.opcode == "fusion"
                    and not runs_as_triton(instruction)
                    and not is_library_fusion(instruction)
                ),
                native.pool,
            )
        return self._sequences[computation]

    def _run_sequence(
        self, sequence: NativeSequence, arguments: Sequence[RuntimeValue]
    ) -> RuntimeValue:
        result, seconds = sequence.run(_arrays(sequence.launches[0].fusion, list(arguments)))
        for launch, took in zip(sequence.launches, seconds, strict=True):
            self.runs.append(KernelRun(launch.fusion.name, launch.kernel.lanes, took))
        return result

    def _execute(self, instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        opcode = instruction.opcode
        if opcode == "constant":
            assert instruction.literal is not None
            return instruction.literal
        if opcode == "after-all":  # a token: orders side effects, holds no data
            return np.zeros((), np.bool_)
        if opcode in _ALIASES:
            return _alias(instruction, operands)
        if runs_as_triton(instruction):
            return self.launch_triton(instruction, operands)
        if opcode == "call" or is_library_fusion(instruction):
            return self.run_computation(instruction.called_computations[0], operands)
        if opcode == "while":
            return self._while(instruction, operands)
        if opcode == "conditional":
            return self._conditional(instruction, operands)
        if opcode in LIBRARY_CALL_OPS:
            return self._library_call(instruction, operands)
        fusion = instruction if opcode == "fusion" else wrap_as_fusion(instruction)
        return self.launch(fusion, operands)

    def _while(self, instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        """Runs the condition's and the body's kernels (compiled once) every trip.

        The loop state is handed from one trip to the next as the body returns it,
        without copies: buffers the body passes through unchanged stay the same arrays.
        """
        condition, body = instruction.called_computations
        state = operands[0]
        while _predicate(self.run_computation(condition, [state]), instruction):
            state = self.run_computation(body, [state])
        return state

    def _library_call(
        self, instruction: HloInstruction, operands: list[RuntimeValue]
    ) -> RuntimeValue:
        """A call into the kernel library, listed among the launches (`--time`)."""
        started = time.perf_counter()
        if instruction.opcode == "sort":
            result = self._sort(instruction, operands)
        else:
            result = _library_call(instruction, operands)
        elements = sum(leaf.size for leaf in flatten_value(result))
        seconds = time.perf_counter() - started
        self.runs.append(KernelRun(library_launch_name(instruction), elements, seconds))
        return result

    def _sort(self, instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        """The library sort; its comparator runs as a kernel of ours over all pairs of a row."""
        arrays = _arrays(instruction, operands)
        assert instruction.dimensions is not None

        def compare(pairs: list[np.ndarray]) -> np.ndarray:
            fusion = comparator_fusion(instruction, pairs[0].size)
            result = self.launch(fusion, list(pairs))
            assert isinstance(result, np.ndarray)
            return result

        results = library.sort(arrays, instruction.dimensions[0], compare)
        return results[0] if len(results) == 1 else tuple(results)

    def _conditional(
        self, instruction: HloInstruction, operands: list[RuntimeValue]
    ) -> RuntimeValue:
        selector = operands[0]
        branches = instruction.called_computations
        if isinstance(selector, np.ndarray) and selector.dtype == np.bool_:
            chosen = 0 if _predicate(selector, instruction) else 1
        else:
            index = int(np.asarray(selector))
            # XLA runs the last branch for an index out of range.
            chosen = index if 0 <= index < len(branches) else len(branches) - 1
        return self.run_computation(branches[chosen], [operands[1 + chosen]])

    def launch(self, fusion: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        """Run the kernel of `fusion` on `operands`; returns its output(s)."""
        if self.native is not None:
            return self.launch_native(fusion, operands)
        kernel = self.kernels.kernel(self.module, fusion)
        arguments = _kernel_arguments(kernel, fusion, operands)
        progress = self.progress(fusion.name) if self.progress is not None else None
        started = time.perf_counter()
        try:
            results = kernel.executor.run(
                arguments, entry=kernel.entry.sym_name.data, progress=progress
            )
        except UserError as error:
            # Kernel ops have no source text: point at the fusion in the HLO instead.
            note = Note(f"in the kernel of '{fusion.name}'", fusion.location)
            raise UserError(error.message, error.location, [*error.notes, note]) from None
        self.runs.append(
            KernelRun(fusion.name, kernel.executor.grid.num_lanes, time.perf_counter() - started)
        )
        return _fusion_outputs(fusion, results)

    def launch_native(self, fusion: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        """Run the fusion's kernel compiled for this CPU (its grid as loops)."""
        assert self.native is not None
        kernel = self.native.kernel(self.module, fusion)
        started = time.perf_counter()
        results = launch_native(kernel, fusion, _arrays(fusion, operands), self.native.pool)
        self.runs.append(KernelRun(fusion.name, kernel.lanes, time.perf_counter() - started))
        return _fusion_outputs(fusion, results)

    def launch_triton(self, fusion: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
        """Run the tile kernel of a `__triton` fusion, all its programs at once."""
        kernel = self.kernels.triton_kernel(fusion)
        arguments = [
            np.ascontiguousarray(array).reshape(operand.array_shape.dimensions)
            for array, operand in zip(_arrays(fusion, operands), fusion.operands, strict=True)
        ]
        started = time.perf_counter()
        try:
            results = kernel.executor.run(arguments)
        except UserError as error:
            note = Note(f"in the Triton kernel of '{fusion.name}'", fusion.location)
            raise UserError(error.message, error.location, [*error.notes, note]) from None
        self.runs.append(KernelRun(fusion.name, kernel.programs, time.perf_counter() - started))
        return _fusion_outputs(fusion, results)


def _predicate(value: RuntimeValue, instruction: HloInstruction) -> bool:
    if not isinstance(value, np.ndarray) or value.size != 1:
        message = f"'{instruction.name}': the condition must be a pred[]"
        raise UserError(message, instruction.location)
    return bool(value.reshape(()))


def _arrays(instruction: HloInstruction, operands: list[RuntimeValue]) -> list[np.ndarray]:
    arrays: list[np.ndarray] = []
    for operand in operands:
        if not isinstance(operand, np.ndarray):
            raise UserError(f"'{instruction.name}': operands must be arrays", instruction.location)
        arrays.append(operand)
    return arrays


def _library_call(instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
    arrays = _arrays(instruction, operands)
    if instruction.opcode == "dot":
        return library.dot(instruction, arrays[0], arrays[1])
    if instruction.opcode == "custom-call":
        return library.custom_call(instruction, arrays)
    if instruction.opcode == "fft":
        return library_fft.fft(instruction, arrays[0])
    if instruction.opcode == "rng-bit-generator":
        # XLA expands it into hash fusions; the bits are the same host-side.
        return rng_bit_generator(instruction, arrays)
    return one_device_collective(instruction, arrays)


def _alias(instruction: HloInstruction, operands: list[RuntimeValue]) -> RuntimeValue:
    """A tuple, tuple element or bitcast: the result views the operands' buffers."""
    if instruction.opcode == "tuple":
        return tuple(operands)
    operand = operands[0]
    if instruction.opcode == "opt-barrier":  # only orders the schedule
        return operand
    if instruction.opcode == "get-tuple-element":
        index = instruction.tuple_index
        if not isinstance(operand, tuple) or index is None:
            raise UserError(f"'{instruction.name}': operand is not a tuple", instruction.location)
        return operand[index]
    if not isinstance(operand, np.ndarray):
        raise UserError(f"'{instruction.name}': a bitcast takes an array", instruction.location)
    return reinterpret_bytes(operand, instruction.operands[0].array_shape, instruction.array_shape)


def reinterpret_bytes(array: np.ndarray, source: ArrayShape, target: ArrayShape) -> np.ndarray:
    """A bitcast: `array`'s bytes, in the order its layout stores them, read as `target` (its
    element type, dimensions and layout; XLA keeps the byte size, not the element width)."""
    stored_order = list(reversed(source.minor_to_major))  # dims, major first
    in_memory = np.ascontiguousarray(array.transpose(stored_order)).reshape(-1)
    words = in_memory.view(target.element_type.dtype)
    target_order = list(reversed(target.minor_to_major))
    laid_out = words.reshape([target.dimensions[d] for d in target_order])
    # Axis k of `laid_out` is dimension target_order[k]: put the dimensions back in order.
    return laid_out.transpose([target_order.index(d) for d in range(len(target_order))])


def kernel_fusions(module: HloModule) -> list[HloInstruction]:
    """The fusions a run of `module` launches (non-fusion instructions wrapped), in order."""
    fusions: list[HloInstruction] = []
    pending = [module.entry]
    while pending:
        for instruction in pending.pop(0).instructions:
            opcode = instruction.opcode
            if runs_as_triton(instruction):
                fusions.append(instruction)
            elif opcode in _RUNS_COMPUTATIONS or is_library_fusion(instruction):
                pending.extend(instruction.called_computations)
            elif opcode == "sort":
                fusions.extend(_comparator_fusions(instruction))
            elif opcode == "fusion":
                fusions.append(instruction)
            elif opcode not in _NOT_LAUNCHED:
                fusions.append(wrap_as_fusion(instruction))
    return fusions


def _comparator_fusions(sort: HloInstruction) -> list[HloInstruction]:
    assert sort.dimensions is not None
    shape = sort.operands[0].array_shape.dimensions
    return [
        comparator_fusion(sort, lanes)
        for lanes in library.sort_launch_lanes(shape, sort.dimensions[0])
    ]


def _kernel_arguments(
    kernel: Kernel, fusion: HloInstruction, operands: list[RuntimeValue]
) -> list[np.ndarray]:
    """Operands in the kernel's argument types (flattened tensors, signless integers)."""
    arg_types = kernel.entry.function_type.inputs.data
    arguments: list[np.ndarray] = []
    for position, operand in enumerate(operands):
        if not isinstance(operand, np.ndarray):
            raise UserError(f"'{fusion.name}': operand {position} is a tuple; fusions take arrays")
        type_ = arg_types[position]
        assert isinstance(type_, TensorType | MemRefType)
        array = np.ascontiguousarray(operand)
        dtype = numpy_dtype(type_)
        if array.dtype != dtype:
            # u32 and s32 share the signless i32 of the kernel, and so on.
            array = array.view(dtype)
        arguments.append(array.reshape(tuple(type_.get_shape())))
    return arguments


def _fusion_outputs(fusion: HloInstruction, results: list[np.ndarray]) -> RuntimeValue:
    """The kernel's flat results shaped as the fusion's (possibly nested) tuple shape."""
    leaves = iter(results)

    def build(shape: Shape) -> RuntimeValue:
        if isinstance(shape, TupleShape):
            return tuple(build(element) for element in shape.elements)
        array = next(leaves).reshape(shape.dimensions)
        if array.dtype != shape.element_type.dtype:
            array = array.view(shape.element_type.dtype)
        return array

    assert len(results) == len(flatten_shape(fusion.shape)), "one kernel result per leaf"
    return build(fusion.shape)
