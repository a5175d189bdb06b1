"""What MLIR's greedy rewrite driver does to a function besides a pass's own patterns.

XLA's loop passes run their patterns through `applyPatternsGreedily`, which
also folds every op it visits:

* constants (`arith.constant`, `ub.poison`) go to the start of the function
  and equal ones become one;
* an op without side effects whose results nobody uses is erased;
* index arithmetic on constants folds (`0 + 3` -> `3`, `x + 0` -> `x`), a
  `vector.extract`/`vector.insert` at a constant position takes it as a
  static position (`%v[%c1]` -> `%v[1]`), and a `vector.extract` of an
  element an insert chain wrote (or of a splat constant) is that element.

The passes that model XLA's call `fold_function` after their rewrites so that
they leave the same ops behind as XLA's do.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, ub, vector
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from passes.loop_utils import constant_int


def enclosing_function(op: Operation) -> func.FuncOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def _constant_key(op: Operation) -> tuple[str, Attribute] | None:
    if isinstance(op, arith.ConstantOp):
        return ("arith.constant", op.value)
    if isinstance(op, ub.PoisonOp):
        return ("ub.poison", op.result.type)
    return None


def _first_equal_constant(entry: Block, const: Operation) -> Operation | None:
    key = _constant_key(const)
    return next((op for op in entry.ops if key is not None and _constant_key(op) == key), None)


def entry_constant(function: func.FuncOp, const: Operation) -> SSAValue:
    """The result of an op equal to the constant `const` at the start of `function`.

    An equal constant already in the entry block is reused (and `const`, which
    must not be in any block yet, dropped); otherwise `const` is inserted first.
    """
    entry = function.body.block
    if (equal := _first_equal_constant(entry, const)) is not None:
        return equal.results[0]
    entry.insert_op_before(const, entry.first_op) if entry.first_op else entry.add_op(const)
    return const.results[0]


def entry_index_constant(function: func.FuncOp, value: int) -> SSAValue:
    const = arith.ConstantOp(IntegerAttr(value, IndexType()))
    return entry_constant(function, const)


def _merge_constants(function: func.FuncOp) -> bool:
    """Moves every constant to the entry block, one per value."""
    changed = False
    entry = function.body.block
    for op in list(function.walk()):
        if _constant_key(op) is None:
            continue
        if op.parent is entry and _first_equal_constant(entry, op) is op:
            continue  # already the entry block's (first) constant of this value
        op.detach()
        kept = entry_constant(function, op)
        if kept is not op.results[0]:
            op.results[0].replace_all_uses_with(kept)
            op.erase()
        changed = True
    return changed


def _fold_index_arith(op: Operation) -> SSAValue | int | None:
    """What `op` folds to: a value it equals, or a constant; None if it does not fold."""
    if not isinstance(op, (arith.AddiOp, arith.MuliOp)):
        return None
    lhs, rhs = constant_int(op.lhs), constant_int(op.rhs)
    if lhs is not None and rhs is not None:
        return lhs + rhs if isinstance(op, arith.AddiOp) else lhs * rhs
    neutral = 0 if isinstance(op, arith.AddiOp) else 1
    if rhs == neutral:
        return op.lhs
    if lhs == neutral:
        return op.rhs
    return None


def _static_positions(op: Operation) -> list[SSAValue | int] | None:
    """The positions of a `vector.extract`/`insert` with its constant ones made static."""
    if not isinstance(op, (vector.ExtractOp, vector.InsertOp)) or not op.dynamic_position:
        return None
    positions = op.get_mixed_position()
    folded = [
        constant_int(p) if isinstance(p, SSAValue) and constant_int(p) is not None else p
        for p in positions
    ]
    return None if folded == positions else folded


def _fold_extract(function: func.FuncOp, op: Operation) -> SSAValue | None:
    """A `vector.extract` at a static position from an insert chain or a splat constant."""
    if not isinstance(op, vector.ExtractOp) or op.dynamic_position:
        return None
    position = op.static_position.get_values()
    source = op.vector
    # Inserts at other positions leave this element as it was: look through them.
    while isinstance(insert := source.owner, vector.InsertOp) and not insert.dynamic_position:
        if insert.static_position.get_values() == position:
            return insert.source
        source = insert.dest
    const = source.owner
    if (
        isinstance(const, arith.ConstantOp)
        and isinstance(dense := const.value, DenseIntOrFPElementsAttr)
        and dense.is_splat()
    ):
        element = dense.get_attrs()[0]
        return entry_constant(function, arith.ConstantOp(element, op.result.type))
    return None


def _fold_op(function: func.FuncOp, op: Operation) -> bool:
    folded = _fold_index_arith(op)
    if folded is None:
        folded = _fold_extract(function, op)
    if isinstance(folded, int):
        folded = entry_index_constant(function, folded)
    if folded is not None:
        op.results[0].replace_all_uses_with(folded)
        Rewriter.erase_op(op)
        return True
    positions = _static_positions(op)
    if positions is None:
        return False
    if isinstance(op, vector.ExtractOp):
        new: Operation = vector.ExtractOp(op.vector, positions, op.result.type)
    else:
        assert isinstance(op, vector.InsertOp)
        new = vector.InsertOp(op.source, op.dest, positions, op.result.type)
    new.results[0].name_hint = op.results[0].name_hint
    Rewriter.replace_op(op, new)
    return True


def erase_dead_ops(block_owner: Operation) -> bool:
    """Erases, innermost first, every op nested in `block_owner` that is trivially dead."""
    changed = False
    for op in reversed(list(block_owner.walk())):
        if op is not block_owner and isinstance(op.parent, Block) and is_trivially_dead(op):
            Rewriter.erase_op(op)
            changed = True
    return changed


def fold_function(function: func.FuncOp) -> None:
    """Folds, merges constants and erases dead ops until nothing changes."""
    changed = True
    while changed:
        changed = False
        for op in list(function.walk()):
            if op.parent is not None:
                changed |= _fold_op(function, op)
        changed |= _merge_constants(function)
        changed |= erase_dead_ops(function)
