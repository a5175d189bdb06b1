"""HLO text parser: what XLA prints and what its documentation shows.

Accepted forms include `HloModule name, attrs...` and the docs' `HloModule m:`,
`ENTRY`, `ROOT`, names with or without `%`, computation signatures or bare
`name {`, operands with or without their shape, layouts with tiles and memory
spaces, `/*index=5*/` comments, and attributes the front end does not need
(`metadata`, `backend_config`, `frontend_attributes`, `sharding`, ...), which
are kept verbatim. Every error is a `UserError` at a line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from xla_emit.diagnostics import UserError
from xla_emit.hlo.async_ops import synchronize_async_pairs
from xla_emit.hlo.attributes import REQUIRED_KEYS, RawAttribute, interpret_attributes
from xla_emit.hlo.graph import definition_order, reject_call_cycles
from xla_emit.hlo.ir import HloComputation, HloInstruction, HloModule, PadDimension, SliceRange
from xla_emit.hlo.opcodes import (
    ASYNC_PAIR_OPS,
    COMPARISON_DIRECTIONS,
    COMPARISON_TYPES,
    SEND_RECV_OPS,
    SUPPORTED_OPS,
)
from xla_emit.hlo.scanner import Scanner
from xla_emit.hlo.send_recv import synchronize_send_recv
from xla_emit.hlo.shape import (
    PRIMITIVE_TYPE_NAMES,
    ArrayShape,
    Layout,
    PrimitiveType,
    Shape,
    TupleShape,
)

_OPCODE = re.compile(r"[a-z][a-z0-9\-]*")
_STACK_FRAME_TABLE = re.compile(r"(FileNames|FunctionNames|FileLocations|StackFrames)[ \t]*\n")
_ATTR_KEY = re.compile(r"[A-Za-z_][\w.\-]*")
_TYPE_WORD = re.compile(r"[a-z][a-z0-9]*")
# Tuples nest a few levels in real programs; the parser recurses once per level.
MAX_TUPLE_NESTING = 64
# numpy arrays have at most 64 dimensions; a literal's braces nest once per dimension.
MAX_RANK = 64
_LITERAL_SCALAR = re.compile(
    r"[-+]?(?:inf|nan|true|false|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
)

# Which attribute keys each opcode interprets; any other key is kept verbatim.
_TYPED_ATTRIBUTES: dict[str, frozenset[str]] = {
    "broadcast": frozenset({"dimensions"}),
    "transpose": frozenset({"dimensions"}),
    "reverse": frozenset({"dimensions"}),
    "concatenate": frozenset({"dimensions"}),
    "reduce": frozenset({"dimensions", "to_apply"}),
    "compare": frozenset({"direction", "type"}),
    "slice": frozenset({"slice"}),
    "pad": frozenset({"padding"}),
    "iota": frozenset({"iota_dimension"}),
    "get-tuple-element": frozenset({"index"}),
    "dynamic-slice": frozenset({"dynamic_slice_sizes"}),
    "fusion": frozenset({"kind", "calls"}),
    "call": frozenset({"to_apply"}),
    "sort": frozenset({"dimensions", "to_apply"}),
    "scatter": frozenset({"to_apply"}),
    "reduce-window": frozenset({"to_apply"}),
    "select-and-scatter": frozenset({"select", "scatter"}),
    "while": frozenset({"condition", "body"}),
    "all-reduce": frozenset({"to_apply"}),
    "map": frozenset({"dimensions", "to_apply"}),
    "fusion-start": frozenset({"kind", "calls"}),
    "async-start": frozenset({"calls"}),
    "all-reduce-start": frozenset({"to_apply"}),
    "all-gather-start": frozenset({"dimensions"}),
    "all-gather": frozenset({"dimensions"}),
    "conditional": frozenset({"true_computation", "false_computation", "branch_computations"}),
}
_REQUIRED_ATTRIBUTES: dict[str, frozenset[str]] = {
    **_TYPED_ATTRIBUTES,
    "compare": frozenset({"direction"}),
    "conditional": frozenset(),
    **{opcode: frozenset(keys) for opcode, keys in REQUIRED_KEYS.items()},
}
# Attributes that name computations, in the order `called_computations` lists them.
CALL_KEYS: tuple[str, ...] = (
    "calls",
    "to_apply",
    "condition",
    "body",
    "true_computation",
    "false_computation",
    "branch_computations",
    "select",
    "scatter",
)


def parse_hlo_module(text: str, file: str = "<input>") -> HloModule:
    """Parses and verifies HLO text; raises `UserError` with a location on bad input."""
    from xla_emit.hlo.verifier import verify_module

    module = _Parser(text, file).parse_module()
    synchronize_async_pairs(module)
    synchronize_send_recv(module)
    verify_module(module)
    return module


@dataclass
class _PendingOperand:
    name: str
    offset: int
    declared_shape: Shape | None


@dataclass
class _PendingCall:
    instruction: HloInstruction
    key: str
    names: list[tuple[str, int]]


class _Parser(Scanner):
    def __init__(self, text: str, file: str) -> None:
        super().__init__(text, file)
        self.pending_calls: list[_PendingCall] = []

    # -------------------------------------------------------------- module

    def parse_module(self) -> HloModule:
        self.skip_ws()
        if not self.try_keyword("HloModule"):
            raise self.error(
                f"expected 'HloModule' at the start of the module, found {self.describe_next()}"
            )
        name = self.parse_name("module name")
        header = self.rest_of_line().strip()
        if header.startswith((",", ":")):
            header = header[1:].strip()
        self.skip_stack_frame_tables()
        computations: list[HloComputation] = []
        while not self.at_end():
            computations.append(self.parse_computation(computations))
        if not computations:
            raise self.error("the module has no computations")
        self.resolve_calls(computations)
        entries = [c for c in computations if c.is_entry]
        if len(entries) > 1:
            raise UserError("the module has more than one ENTRY computation", entries[1].location)
        return HloModule(name, computations, header)

    def skip_stack_frame_tables(self) -> None:
        """Skips the `FileNames`, `FunctionNames`, `FileLocations` and `StackFrames` tables.

        Newer XLA prints them between the header and the computations; they only
        resolve `stack_frame_id`s in metadata, which the front end keeps as text.
        """
        while True:
            self.skip_ws()
            match = _STACK_FRAME_TABLE.match(self.text, self.pos)
            if match is None:
                return
            end = self.text.find("\n\n", match.end())
            self.pos = len(self.text) if end < 0 else end

    def rest_of_line(self) -> str:
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end
        line = self.text[self.pos : end]
        self.pos = end
        return line

    def resolve_calls(self, computations: list[HloComputation]) -> None:
        by_name = {c.name: c for c in computations}
        # Stable sort: each instruction's computations in CALL_KEYS order.
        for pending in sorted(self.pending_calls, key=lambda p: CALL_KEYS.index(p.key)):
            for name, offset in pending.names:
                if name not in by_name:
                    raise self.error(f"unknown computation '{name}'", offset)
                pending.instruction.called_computations.append(by_name[name])
        reject_call_cycles(computations)

    # --------------------------------------------------------- computation

    def parse_computation(self, previous: list[HloComputation]) -> HloComputation:
        start = self.pos
        is_entry = self.try_keyword("ENTRY")
        name_offset = self.pos
        name = self.parse_name("computation name")
        if any(c.name == name for c in previous):
            raise self.error(f"computation '{name}' is defined twice", name_offset)
        if self.peek() == "(":
            self.skip_signature()
        self.expect("{", f"to open the body of computation '{name}'")
        instructions: list[HloInstruction] = []
        pending: dict[HloInstruction, list[_PendingOperand]] = {}
        root: HloInstruction | None = None
        while not self.try_consume("}"):
            if self.at_end():
                raise self.error(f"expected '}}' to close computation '{name}', found end of input")
            is_root, instruction, operands = self.parse_instruction()
            if any(i.name == instruction.name for i in instructions):
                raise UserError(
                    f"instruction '{instruction.name}' is defined twice", instruction.location
                )
            instructions.append(instruction)
            pending[instruction] = operands
            if is_root:
                if root is not None:
                    raise UserError(f"computation '{name}' has two ROOTs", instruction.location)
                root = instruction
        execution_thread = self.parse_execution_thread()
        if not instructions:
            raise self.error(f"computation '{name}' is empty", name_offset)
        self.resolve_operands(instructions, pending)
        return HloComputation(
            name,
            definition_order(instructions),
            root if root is not None else instructions[-1],
            is_entry,
            execution_thread,
            self.location(start),
        )

    def skip_signature(self) -> None:
        """Skips `(p0: shape, ...) -> shape`; the parameter instructions carry the facts."""
        self.expect("(", "to open the signature")
        if not self.try_consume(")"):
            while True:
                self.parse_name("parameter name")
                self.expect(":", "after a parameter name")
                self.parse_shape()
                if not self.try_consume(","):
                    break
            self.expect(")", "to close the signature")
        self.expect("->", "after the parameter list")
        self.parse_shape()

    def parse_execution_thread(self) -> str | None:
        saved = self.pos
        if self.try_consume(",") and self.try_keyword("execution_thread"):
            self.expect("=", "after execution_thread")
            return self.scan_raw_value()
        self.pos = saved
        return None

    def resolve_operands(
        self,
        instructions: list[HloInstruction],
        pending: dict[HloInstruction, list[_PendingOperand]],
    ) -> None:
        by_name = {i.name: i for i in instructions}
        for instruction, operands in pending.items():
            for operand in operands:
                target = by_name.get(operand.name)
                if target is None:
                    raise self.error(f"unknown operand name '{operand.name}'", operand.offset)
                if (
                    operand.declared_shape is not None
                    and not operand.declared_shape.same_dims_and_type(target.shape)
                ):
                    raise self.error(
                        f"shape mismatch: operand '{operand.name}' is written as "
                        f"{_plain(operand.declared_shape)} but is defined as "
                        f"{_plain(target.shape)}",
                        operand.offset,
                    )
                instruction.operands.append(target)

    # --------------------------------------------------------- instruction

    def parse_instruction(self) -> tuple[bool, HloInstruction, list[_PendingOperand]]:
        is_root = self.try_keyword("ROOT")
        self.skip_ws()
        name_offset = self.pos
        name = self.parse_name("instruction name")
        self.expect("=", f"after instruction name '{name}'")
        shape = self.parse_shape()
        self.skip_ws()
        opcode_offset = self.pos
        opcode = self.match(_OPCODE, "an opcode")
        if opcode not in SUPPORTED_OPS | ASYNC_PAIR_OPS | SEND_RECV_OPS:
            raise self.error(f"unsupported HLO op '{opcode}'", opcode_offset)
        instruction = HloInstruction(name, opcode, shape, location=self.location(name_offset))
        self.expect("(", f"after opcode '{opcode}'")
        operands: list[_PendingOperand] = []
        if opcode == "constant":
            instruction.literal = self.parse_literal(shape)
            self.expect(")", "to close the constant literal")
        elif opcode == "parameter":
            instruction.parameter_number = self.parse_int("parameter number")
            self.expect(")", "after the parameter number")
        else:
            operands = self.parse_operands()
        self.parse_attributes(instruction, name_offset)
        return is_root, instruction, operands

    def parse_operands(self) -> list[_PendingOperand]:
        operands: list[_PendingOperand] = []
        if self.try_consume(")"):
            return operands
        while True:
            declared: Shape | None = None
            if self.starts_shape():
                declared = self.parse_shape()
            self.skip_ws()
            offset = self.pos
            operands.append(_PendingOperand(self.parse_name("operand name"), offset, declared))
            if not self.try_consume(","):
                break
        self.expect(")", "to close the operand list")
        return operands

    def starts_shape(self) -> bool:
        self.skip_ws()
        if self.text.startswith("(", self.pos):
            return True
        word = _TYPE_WORD.match(self.text, self.pos)
        return word is not None and self.text.startswith("[", word.end())

    # --------------------------------------------------------------- shape

    def parse_shape(self, depth: int = 0) -> Shape:
        self.skip_ws()
        if self.try_consume("("):
            if depth == MAX_TUPLE_NESTING:
                raise self.error(
                    f"tuple shape nested too deeply (more than {MAX_TUPLE_NESTING} levels)",
                    self.pos - 1,
                )
            elements: list[Shape] = []
            if not self.try_consume(")"):
                elements.append(self.parse_shape(depth + 1))
                while self.try_consume(","):
                    elements.append(self.parse_shape(depth + 1))
                self.expect(")", "to close the tuple shape")
            return TupleShape(tuple(elements))
        type_offset = self.pos
        type_name = self.match(_TYPE_WORD, "a shape")
        if type_name not in PRIMITIVE_TYPE_NAMES:
            if self.text.startswith("[", self.pos):
                raise self.error(f"unsupported element type '{type_name}'", type_offset)
            raise self.error(f"expected a shape, found '{type_name}'", type_offset)
        element_type = PrimitiveType(type_name)
        self.expect("[", f"after element type '{type_name}'")
        dims: list[int] = []
        if not self.try_consume("]"):
            while True:
                self.skip_ws()
                if self.text.startswith("<=", self.pos) or self.text.startswith("?", self.pos):
                    raise self.error("dynamic dimensions are not supported")
                dim_offset = self.pos
                dim = self.parse_int("a dimension size")
                if dim < 0:
                    raise self.error("a dimension size must not be negative", dim_offset)
                dims.append(dim)
                if len(dims) > MAX_RANK:
                    raise self.error(f"shape has more than {MAX_RANK} dimensions", dim_offset)
                if not self.try_consume(","):
                    break
            self.expect("]", "to close the dimensions")
        layout = self.parse_optional_layout(len(dims))
        return ArrayShape(element_type, tuple(dims), layout)

    def parse_optional_layout(self, rank: int) -> Layout | None:
        # `{` also opens a computation body after a signature's result shape;
        # a layout brace is followed by a dimension number, `:` or `}`.
        saved = self.pos
        if not self.try_consume("{"):
            return None
        next_char = self.peek()
        if not (next_char.isdigit() or next_char in ":}"):
            self.pos = saved
            return None
        start = self.pos
        minor_to_major: list[int] = []
        if self.peek().isdigit():
            minor_to_major.append(self.parse_int("a layout dimension"))
            while self.try_consume(","):
                minor_to_major.append(self.parse_int("a layout dimension"))
        tail = ""
        if self.try_consume(":"):
            end = self.text.find("}", self.pos)
            if end < 0:
                raise self.error("unterminated layout")
            tail = self.text[self.pos : end].strip()
            self.pos = end
        self.expect("}", "to close the layout")
        if sorted(minor_to_major) != list(range(rank)) and not (not minor_to_major and tail == ""):
            raise self.error(
                f"layout {{{','.join(map(str, minor_to_major))}}} is not a permutation of "
                f"the {rank} dimensions",
                start,
            )
        if not minor_to_major and rank > 0:
            raise self.error(f"layout is not a permutation of the {rank} dimensions", start)
        return Layout(tuple(minor_to_major), tail)

    # ------------------------------------------------------------- literal

    def parse_literal(self, shape: Shape) -> np.ndarray:
        if not isinstance(shape, ArrayShape):
            raise self.error("tuple constants are not supported")
        self.skip_ws()
        start = self.pos
        if self.text.startswith("{...}", self.pos):
            raise self.error(
                "the constant's literal is elided as {...}; print the module with large constants"
            )
        value = self.parse_literal_value(shape.rank)
        try:
            array = _literal_array(value, shape)
        except ValueError as error:
            raise self.error(str(error), start) from None
        return array

    def parse_literal_value(self, depth: int) -> object:
        """Nested lists of scalar tokens, `depth` levels of braces deep."""
        if depth == 0:
            self.skip_ws()
            if self.text.startswith("{", self.pos):
                raise self.error("expected a scalar literal, found '{'")
            if self.try_consume("("):  # a complex number: (real, imaginary)
                real = self.match(_LITERAL_SCALAR, "the real part of a complex literal")
                self.expect(",", "between a complex literal's parts")
                imaginary = self.match(_LITERAL_SCALAR, "the imaginary part of a complex literal")
                self.expect(")", "to close a complex literal")
                return (real, imaginary)
            return self.match(_LITERAL_SCALAR, "a literal value")
        self.expect("{", "to open an array literal")
        items: list[object] = []
        if not self.try_consume("}"):
            items.append(self.parse_literal_value(depth - 1))
            while self.try_consume(","):
                items.append(self.parse_literal_value(depth - 1))
            self.expect("}", "to close an array literal")
        return items

    # ---------------------------------------------------------- attributes

    def parse_attributes(self, instruction: HloInstruction, name_offset: int) -> None:
        typed = _TYPED_ATTRIBUTES.get(instruction.opcode, frozenset[str]())
        seen: set[str] = set()
        raw: dict[str, RawAttribute] = {}
        while self.try_consume(","):
            self.skip_ws()
            key_offset = self.pos
            key = self.match(_ATTR_KEY, "an attribute name")
            self.expect("=", f"after attribute name '{key}'")
            if key in seen:
                raise self.error(f"attribute '{key}' is given twice", key_offset)
            seen.add(key)
            if key in typed:
                self.parse_typed_attribute(instruction, key)
            else:
                self.skip_ws()
                value_offset = self.pos
                text = self.scan_raw_value()
                raw[key] = RawAttribute(text, value_offset)
                instruction.extra_attributes.append((key, text))
        missing = sorted(_REQUIRED_ATTRIBUTES.get(instruction.opcode, frozenset[str]()) - seen)
        if missing:
            raise self.error(
                f"'{instruction.opcode}' needs the attribute '{missing[0]}'",
                name_offset,
            )
        interpret_attributes(instruction, raw, self.error)

    def parse_typed_attribute(self, instruction: HloInstruction, key: str) -> None:
        self.skip_ws()
        offset = self.pos
        if key == "dimensions":
            instruction.dimensions = self.parse_int_list("{", "}", "dimensions")
        elif key == "direction":
            direction = self.match(re.compile(r"[A-Z]+"), "a comparison direction")
            if direction not in COMPARISON_DIRECTIONS:
                raise self.error(f"unknown comparison direction '{direction}'", offset)
            instruction.comparison_direction = direction
        elif key == "type":
            kind = self.match(re.compile(r"[A-Z]+"), "a comparison type")
            if kind not in COMPARISON_TYPES:
                raise self.error(f"unknown comparison type '{kind}'", offset)
            instruction.comparison_type = kind
        elif key == "slice":
            instruction.slice_ranges = self.parse_slice_ranges()
        elif key == "padding":
            instruction.padding = self.parse_padding()
        elif key == "iota_dimension":
            instruction.iota_dimension = self.parse_int("iota dimension")
        elif key == "index":
            instruction.tuple_index = self.parse_int("tuple index")
        elif key == "dynamic_slice_sizes":
            instruction.dynamic_slice_sizes = self.parse_int_list("{", "}", "slice sizes")
        elif key == "kind":
            instruction.fusion_kind = self.match(re.compile(r"k[A-Za-z]+"), "a fusion kind")
        else:  # the CALL_KEYS
            self.parse_called_computations(instruction, key)

    def parse_slice_ranges(self) -> tuple[SliceRange, ...]:
        self.expect("{", "to open the slice")
        ranges: list[SliceRange] = []
        if not self.try_consume("}"):
            while True:
                self.expect("[", "to open a slice range")
                start = self.parse_int("slice start")
                self.expect(":", "after the slice start")
                limit = self.parse_int("slice limit")
                stride = self.parse_int("slice stride") if self.try_consume(":") else 1
                self.expect("]", "to close a slice range")
                ranges.append(SliceRange(start, limit, stride))
                if not self.try_consume(","):
                    break
            self.expect("}", "to close the slice")
        return tuple(ranges)

    def parse_padding(self) -> tuple[PadDimension, ...]:
        self.skip_ws()
        offset = self.pos
        raw = self.match(re.compile(r"[-\d_x]+"), "a padding configuration")
        dims: list[PadDimension] = []
        for part in raw.split("x"):
            numbers = part.split("_")
            if len(numbers) not in (2, 3) or not all(re.fullmatch(r"-?\d+", n) for n in numbers):
                raise self.error(f"malformed padding '{raw}'", offset)
            dims.append(PadDimension(*(int(n) for n in numbers)))
        return tuple(dims)

    def parse_called_computations(self, instruction: HloInstruction, key: str) -> None:
        names: list[tuple[str, int]] = []
        braced = self.try_consume("{")
        while True:
            self.skip_ws()
            offset = self.pos
            names.append((self.parse_name("computation name"), offset))
            if not (braced and self.try_consume(",")):
                break
        if braced:
            self.expect("}", "to close the computation list")
        self.pending_calls.append(_PendingCall(instruction, key, names))


def _plain(shape: Shape) -> str:
    from xla_emit.hlo.shape import shape_without_layout

    return str(shape_without_layout(shape))


def _scalar_value(
    token: str | tuple[str, str], element_type: PrimitiveType
) -> float | int | bool | complex:
    if element_type.is_complex:
        real, imaginary = token if isinstance(token, tuple) else (token, "0")
        return complex(float(real), float(imaginary))
    if isinstance(token, tuple):
        raise ValueError(f"a complex literal for {element_type.value}")
    if element_type is PrimitiveType.PRED:
        if token in ("true", "1"):
            return True
        if token in ("false", "0"):
            return False
        raise ValueError(f"'{token}' is not a pred literal (true or false)")
    if element_type.is_float:
        return float(token)
    if not re.fullmatch(r"[-+]?\d+", token):
        raise ValueError(f"'{token}' is not an integer literal")
    value = int(token)
    low, high = element_type.int_limits
    if not low <= value <= high:
        raise ValueError(f"{value} does not fit in {element_type.value}")
    return value


def _literal_array(value: object, shape: ArrayShape) -> np.ndarray:
    """Turns nested token lists into an array of `shape`, checking every size."""
    flat: list[float | int | bool | complex] = []

    def walk(item: object, depth: int) -> None:
        if depth == shape.rank:
            assert isinstance(item, str | tuple)
            flat.append(_scalar_value(item, shape.element_type))
            return
        assert isinstance(item, list)
        items: list[object] = item
        if len(items) != shape.dimensions[depth]:
            raise ValueError(
                f"literal has {len(items)} elements in dimension {depth} but the shape "
                f"{_plain(shape)} needs {shape.dimensions[depth]}"
            )
        for element in items:
            walk(element, depth + 1)

    walk(value, 0)
    element_type = shape.element_type
    if element_type.is_complex:
        array = np.array(flat, dtype=np.complex128).astype(element_type.dtype)
    elif element_type.is_float:
        # XLA reads literals as double and converts via float for 16-bit types.
        wide = np.array(flat, dtype=np.float64)
        if element_type in (PrimitiveType.BF16, PrimitiveType.F16):
            wide = wide.astype(np.float32)
        array = wide.astype(element_type.dtype)
    else:
        array = np.array(flat, dtype=element_type.dtype)
    return array.reshape(shape.dimensions)
