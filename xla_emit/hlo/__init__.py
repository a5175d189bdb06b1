"""HLO front end: text parser, IR, printer, numpy reference evaluator, indexing analysis."""

from xla_emit.hlo.evaluator import evaluate_computation, evaluate_instruction, evaluate_module
from xla_emit.hlo.ir import (
    HloComputation,
    HloInstruction,
    HloModule,
    PadDimension,
    SliceRange,
)
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.hlo.printer import print_module
from xla_emit.hlo.shape import ArrayShape, Layout, PrimitiveType, Shape, TupleShape

__all__ = [
    "ArrayShape",
    "HloComputation",
    "HloInstruction",
    "HloModule",
    "Layout",
    "PadDimension",
    "PrimitiveType",
    "Shape",
    "SliceRange",
    "TupleShape",
    "evaluate_computation",
    "evaluate_instruction",
    "evaluate_module",
    "parse_hlo_module",
    "print_module",
]
