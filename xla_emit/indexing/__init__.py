"""Affine expressions, intervals and XLA's indexing maps: parse, print, evaluate,
compose, range analysis and range-aware simplification."""

from xla_emit.indexing.affine import (
    AffineExpr,
    AffineKind,
    BinaryExpr,
    ConstantExpr,
    DimExpr,
    IndexValue,
    SymbolExpr,
)
from xla_emit.indexing.indexing_map import (
    IndexingMap,
    IndexingMapSyntaxError,
    Variable,
    compose_indexing_maps,
    delinearize_map,
    identity_map,
    linearize_map,
    parse_indexing_map,
)
from xla_emit.indexing.interval import Interval

__all__ = [
    "AffineExpr",
    "AffineKind",
    "BinaryExpr",
    "ConstantExpr",
    "DimExpr",
    "IndexValue",
    "IndexingMap",
    "IndexingMapSyntaxError",
    "Interval",
    "SymbolExpr",
    "Variable",
    "compose_indexing_maps",
    "delinearize_map",
    "identity_map",
    "linearize_map",
    "parse_indexing_map",
]
