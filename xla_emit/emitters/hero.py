"""Fusion analysis: roots, heroes and the emitter kind of a fused computation.

XLA picks the code generator of a fusion from its *hero*: the op found by
walking up from a root through "intermediate" ops (elementwise ops and
layout-preserving reshapes) that decides how the whole fusion is generated.
The order is XLA's (`GetEmitterFusionKind`): a reduction hero first (with
any other roots of its input's size as side outputs), then a transpose that
needs shared memory; a fusion with several roots is then an
input-slices fusion (every root a unit-stride slice of one input shape) or a
loop fusion; a scatter root picks the scatter emitter, a concatenate hero of at
most four operands the concatenate emitter; what is left is a loop fusion,
emitted in place when its roots are dynamic-update-slices of parameters whose
buffers the outputs can reuse. The loop emitter can emit anything elementally
and is therefore also the fallback for shapes the special emitters do not handle.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from xla_emit.dialects.xla_gpu import WARP_SIZE
from xla_emit.hlo.ir import HloComputation, HloInstruction
from xla_emit.hlo.opcodes import ELEMENTWISE_OPS
from xla_emit.hlo.shape import flatten_shape

# XLA's thresholds for the shared-memory transpose (`ir_emission_utils.h`).
MIN_DIMENSION_TO_TRANSPOSE_TILED = 16
MIN_DIMENSION_TO_TRANSPOSE_TILED_2 = 8
MIN_TOTAL_DIMENSIONS_TO_TRANSPOSE_TILED = 64 * 128


class EmitterKind(enum.Enum):
    LOOP = "loop"
    TRANSPOSE = "transpose"
    REDUCTION = "reduction"
    CONCATENATE = "concatenate"
    SCATTER = "scatter"
    IN_PLACE_DUS = "in-place dynamic-update-slice"
    INPUT_SLICES = "input slices"


# XLA's concatenate emitter takes at most this many operands (`UseConcatenateFusion`).
MAX_CONCATENATE_OPERANDS = 4
# Hero ops the walk up from a root stops at.
_HERO_OPCODES = ("reduce", "transpose", "concatenate")


def fusion_roots(computation: HloComputation) -> list[HloInstruction]:
    """The instructions whose values the fusion writes: the root, or a tuple root's operands."""
    root = computation.root
    if root.opcode == "tuple":
        return list(root.operands)
    return [root]


def _is_intermediate(instruction: HloInstruction) -> bool:
    """Ops an epilogue may contain between a hero and a root (one computed operand).

    Users do not count, as in XLA's `IsIntermediate`: an `erf(reduce)` feeding two roots
    (`sign` and `abs` of it) leaves both roots with the reduce as their hero (XLA's H100
    module writes both through one epilogue of the reduction)."""
    if instruction.opcode in ("bitcast", "reshape", "copy"):
        return True
    non_constant = [op for op in instruction.operands if not _is_constant_like(op)]
    return instruction.opcode in ELEMENTWISE_OPS and len(non_constant) <= 1


def _is_constant_like(instruction: HloInstruction) -> bool:
    if instruction.opcode in ("constant", "iota"):
        return True
    return instruction.opcode == "broadcast" and _is_constant_like(instruction.operands[0])


def find_hero(root: HloInstruction, computation: HloComputation) -> HloInstruction:
    """The reduce, transpose or concatenate above `root` through intermediate ops, else the
    root itself.

    Like XLA, a second, more lenient search lets the path to a transpose pass
    elementwise ops with several computed operands (the shared-memory
    transpose does not mind what else the epilogue reads).
    """
    hero = _walk_to_hero(root)
    if hero is not root:
        return hero
    users = computation.users()
    transposes = _transposes_below_elementwise(root, users)
    return transposes[0] if len(transposes) == 1 else root


def _walk_to_hero(root: HloInstruction) -> HloInstruction:
    current = root
    while current.opcode not in _HERO_OPCODES:
        if not _is_intermediate(current):
            return root
        producers = [op for op in current.operands if not _is_constant_like(op)]
        if len(producers) != 1:
            return root
        current = producers[0]
    return current


def epilogue_path(hero: HloInstruction, root: HloInstruction) -> list[HloInstruction]:
    """The ops from the hero's user up to `root` along which the hero's value flows."""
    came_from: dict[HloInstruction, HloInstruction | None] = {root: None}
    pending = [root]
    while pending and hero not in came_from:
        current = pending.pop()
        for operand in current.operands:
            if operand not in came_from:
                came_from[operand] = current
                pending.append(operand)
    assert hero in came_from, f"'{hero.name}' is not above '{root.name}'"
    path: list[HloInstruction] = []
    user = came_from[hero]
    while user is not None:
        path.append(user)
        user = came_from[user]
    return path


def _transposes_below_elementwise(
    root: HloInstruction, users: dict[HloInstruction, list[HloInstruction]]
) -> list[HloInstruction]:
    """The transposes reached from `root` through single-user elementwise ops."""
    found: list[HloInstruction] = []
    stack = [root]
    seen: set[HloInstruction] = set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        if current.opcode == "transpose":
            found.append(current)
            continue
        single_user = current is root or len(users[current]) == 1
        if single_user and current.opcode in ELEMENTWISE_OPS:
            stack.extend(current.operands)
    return found


@dataclass(frozen=True)
class ReductionGroups:
    """A reduction's input viewed as 3 contiguous components, minor-most last.

    Row reductions are `[reduced_major, kept, reduced]` (the minor dims are reduced, and
    the major ones too in XLA's "batched" row reduction, else `reduced_major` is 1);
    column reductions are `[kept_major, reduced, kept_minor]`.
    """

    is_row: bool
    components: tuple[int, int, int]


def reduction_groups(reduce: HloInstruction) -> ReductionGroups | None:
    """Classify a reduce whose reduced (or kept) dims are contiguous; None otherwise."""
    operand = reduce.operands[0].array_shape
    reduced = set(reduce.dimensions or ())
    # Runs of (is_reduced, size) in major-to-minor order, ignoring size-1 dims.
    runs: list[tuple[bool, int]] = []
    for dim in reversed(operand.minor_to_major):
        size = operand.dimensions[dim]
        if size == 1:
            continue
        is_reduced = dim in reduced
        if runs and runs[-1][0] == is_reduced:
            runs[-1] = (is_reduced, runs[-1][1] * size)
        else:
            runs.append((is_reduced, size))
    kinds = [kind for kind, _ in runs]
    sizes = [size for _, size in runs]
    if not runs or kinds == [True]:
        return ReductionGroups(True, (1, 1, sizes[0] if runs else 1))
    if kinds == [False]:
        return None
    if kinds == [False, True]:
        return ReductionGroups(True, (1, sizes[0], sizes[1]))
    if kinds == [True, False]:
        return ReductionGroups(False, (1, sizes[0], sizes[1]))
    if kinds == [False, True, False]:
        return ReductionGroups(False, (sizes[0], sizes[1], sizes[2]))
    if kinds == [True, False, True]:
        return ReductionGroups(True, (sizes[0], sizes[1], sizes[2]))
    return None


def reduction_emitter_is_faster(groups: ReductionGroups) -> bool:
    """XLA's rule (IsUnnestedReductionFasterThanElemental) for when the reduction emitter
    beats computing each output element in a loop: rows need a warp's worth of reduced
    elements (or a size dividing a warp), columns enough rows for their width."""
    _, reduced, minor = groups.components
    if groups.is_row:
        return minor >= WARP_SIZE or WARP_SIZE % minor == 0
    prefer_loop = (
        reduced < WARP_SIZE
        or (reduced < 2 * WARP_SIZE and minor < WARP_SIZE)
        or (reduced < 4 * WARP_SIZE and minor < 8)
        or (reduced < 8 * WARP_SIZE and minor < 3)
    )
    return not prefer_loop


def _is_supported_reduction_hero(reduce: HloInstruction) -> bool:
    operands = reduce.operands[: len(reduce.operands) // 2]
    if not all(op.array_shape.has_default_layout for op in operands):
        return False
    groups = reduction_groups(reduce)
    return groups is not None and reduction_emitter_is_faster(groups)


def is_tiled_transpose(transpose: HloInstruction) -> bool:
    """Whether a transpose moves the minor-most dim far enough to need shared-memory tiles."""
    permutation = transpose.dimensions or ()
    out = transpose.array_shape.dimensions
    if len(permutation) < 2 or permutation[-1] == len(permutation) - 1:
        return False
    input_minor = transpose.operands[0].array_shape.dimensions[-1]
    output_minor = out[-1]
    if (
        input_minor >= MIN_DIMENSION_TO_TRANSPOSE_TILED
        and output_minor >= MIN_DIMENSION_TO_TRANSPOSE_TILED
    ):
        return True
    return (
        input_minor >= MIN_DIMENSION_TO_TRANSPOSE_TILED_2
        and output_minor >= MIN_DIMENSION_TO_TRANSPOSE_TILED_2
        and input_minor * output_minor >= MIN_TOTAL_DIMENSIONS_TO_TRANSPOSE_TILED
    )


@dataclass(frozen=True)
class FusionAnalysis:
    """What the emitters need to know about a fused computation."""

    computation: HloComputation
    roots: tuple[HloInstruction, ...]
    heroes: tuple[HloInstruction, ...]
    kind: EmitterKind

    @property
    def hero(self) -> HloInstruction:
        """The hero the emitter is chosen by: the first reduce of a reduction group."""
        if self.kind is EmitterKind.REDUCTION:
            return self.reduction_group[0]
        return self.heroes[0]

    @property
    def reduction_group(self) -> tuple[HloInstruction, ...]:
        """The reduces a reduction fusion tiles together, in the order of their roots (XLA's
        reduction group: one thread loop carrying every hero's accumulators)."""
        if self.kind is not EmitterKind.REDUCTION:
            return ()
        return tuple(dict.fromkeys(reduction_heroes(list(self.roots), self.heroes)))

    @property
    def side_outputs(self) -> tuple[int, ...]:
        """The output positions (tuples flattened: a variadic reduce's root holds several) a
        reduction fusion computes per input element (XLA's side outputs): every root but
        the reductions'."""
        if self.kind is not EmitterKind.REDUCTION:
            return ()
        group = self.reduction_group
        return tuple(
            i for i, root in enumerate(self.output_roots) if self.hero_of(root) not in group
        )

    @property
    def reduction_roots(self) -> tuple[HloInstruction, ...]:
        """The roots a reduction group writes from lane 0 (a reduce, or an epilogue of one)."""
        group = self.reduction_group
        return tuple(root for root in self.roots if self.hero_of(root) in group)

    @property
    def reduction_epilogue_roots(self) -> tuple[HloInstruction, ...]:
        """The roots a reduction with side outputs or several heroes writes through one
        epilogue (empty: every reduction root is its reduce, or the fusion has one root)."""
        roots = self.reduction_roots
        if len(self.roots) == 1 or all(root is self.hero_of(root) for root in roots):
            return ()
        return roots

    @property
    def output_roots(self) -> tuple[HloInstruction, ...]:
        """The root writing each output position (tuples flattened)."""
        return tuple(root for root in self.roots for _ in flatten_shape(root.shape))

    def hero_of(self, root: HloInstruction) -> HloInstruction:
        return self.heroes[self.roots.index(root)]


def analyze_fusion(computation: HloComputation) -> FusionAnalysis:
    """Roots, heroes and emitter kind of a fused computation (XLA's fusion analysis)."""
    roots = fusion_roots(computation)
    heroes = tuple(find_hero(root, computation) for root in roots)
    kind = _emitter_kind(computation, roots, heroes)
    return FusionAnalysis(computation, tuple(roots), heroes, kind)


def _emitter_kind(
    computation: HloComputation, roots: list[HloInstruction], heroes: tuple[HloInstruction, ...]
) -> EmitterKind:
    leaves = [leaf for root in roots for leaf in flatten_shape(root.shape)]
    # Empty arrays need no tiling; the loop emitter handles them (and empty reductions).
    hero_inputs = [leaf for op in heroes[0].operands for leaf in flatten_shape(op.shape)]
    if any(leaf.num_elements == 0 for leaf in leaves + hero_inputs):
        return EmitterKind.LOOP
    # A reduction tiles its input, whatever its outputs' layouts: it writes each kept element
    # at its logical index (`f32[3,5]{0,1}` from `f32[3,5,2]` reduced over dim 2, as XLA does).
    if len(roots) == 1 and heroes[0].opcode == "reduce" and _is_supported_reduction_hero(heroes[0]):
        return EmitterKind.REDUCTION
    if len(roots) > 1 and has_reduction_side_outputs(roots, heroes):
        return EmitterKind.REDUCTION
    # The other tiled emitters index their outputs in the default layout.
    if not all(leaf.has_default_layout for leaf in leaves):
        return EmitterKind.LOOP
    if len(roots) == 1 and heroes[0].opcode == "transpose" and is_tiled_transpose(heroes[0]):
        return EmitterKind.TRANSPOSE
    if len(roots) > 1:
        return EmitterKind.INPUT_SLICES if is_input_slices_fusion(roots) else EmitterKind.LOOP
    if roots[0].opcode == "scatter":
        return EmitterKind.SCATTER
    if is_concatenate_hero(roots[0], heroes[0]):
        return EmitterKind.CONCATENATE
    if in_place_dus_parameters(computation) is not None:
        return EmitterKind.IN_PLACE_DUS
    return EmitterKind.LOOP


def reduction_heroes(
    roots: list[HloInstruction], heroes: tuple[HloInstruction, ...]
) -> list[HloInstruction]:
    """The heroes the reduction emitter tiles (XLA's `IsRealReductionHero`), one per root
    they reach (through its epilogue, if any). A reduce the loop would compute faster is no
    hero of the fusion: its users compute it element by element (`popcnt(reduce(x))`
    beside an argmin of the same sums is a side output)."""
    return [
        hero for hero in heroes if hero.opcode == "reduce" and _is_supported_reduction_hero(hero)
    ]


def has_reduction_side_outputs(
    roots: list[HloInstruction], heroes: tuple[HloInstruction, ...]
) -> bool:
    """Every root is a supported reduce (or an epilogue of one) of one reduction group, or has
    as many elements as the reduces' input.

    XLA's reduction emitter computes such "side outputs" per input element in the
    reduction's own loop (`GetEmitterFusionKind` accepts them by element count).
    A reduce is a root itself (a variadic one too: XLA fuses an argmin with an
    elementwise op of its input, `((u8[], s32[]), u8[2])`) or under an epilogue of its own
    (`convert(reduce)` beside a `reduce-precision` of the input). Several reduces of one
    input shape and reduced dims form one group, tiled together (`max(p)` beside
    `convert(xor(convert(p)))`).
    """
    reduces = reduction_heroes(roots, heroes)
    if not reduces or not all(_same_reduction(reduce, reduces[0]) for reduce in reduces):
        return False
    if len(reduces) > 1 and not _one_epilogue_shape(roots, heroes, reduces):
        return False
    input_elements = reduces[0].operands[0].array_shape.num_elements
    sides = [root for root, hero in zip(roots, heroes, strict=True) if hero not in reduces]
    return all(
        len(flatten_shape(root.shape)) == 1 and root.array_shape.num_elements == input_elements
        for root in sides
    )


def _same_reduction(reduce: HloInstruction, first: HloInstruction) -> bool:
    """Whether `reduce` tiles as `first` does: the same input dims, the same reduced dims."""
    dims = reduce.operands[0].array_shape.dimensions
    return dims == first.operands[0].array_shape.dimensions and set(reduce.dimensions or ()) == set(
        first.dimensions or ()
    )


def _one_epilogue_shape(
    roots: list[HloInstruction], heroes: tuple[HloInstruction, ...], reduces: list[HloInstruction]
) -> bool:
    """Whether every root of several reduces has its reduce's dims (one epilogue writes them
    all at the reduced element's index)."""
    kept = flatten_shape(reduces[0].shape)[0].dimensions
    return all(
        leaf.dimensions == kept
        for root, hero in zip(roots, heroes, strict=True)
        if hero in reduces
        for leaf in flatten_shape(root.shape)
    )


def is_input_slices_fusion(roots: list[HloInstruction]) -> bool:
    """Every root a unit-stride slice, all of them slicing inputs of one shape."""
    if not all(root.opcode == "slice" for root in roots):
        return False
    if any(r.stride != 1 for root in roots for r in root.slice_ranges or ()):
        return False
    input_dims = {root.operands[0].array_shape.dimensions for root in roots}
    return len(input_dims) == 1


def is_concatenate_hero(root: HloInstruction, hero: HloInstruction) -> bool:
    """A concatenate of few operands whose epilogue keeps its shape (index for index)."""
    if hero.opcode != "concatenate" or len(hero.operands) > MAX_CONCATENATE_OPERANDS:
        return False
    return (
        hero.array_shape.dimensions == root.array_shape.dimensions
        and hero.array_shape.has_default_layout
    )


def in_place_dus_parameters(computation: HloComputation) -> list[HloInstruction] | None:
    """The parameter each root updates in place, if the fusion can be emitted in place.

    XLA writes a dynamic-update-slice fusion in place when every root is a
    dynamic-update-slice whose operand is a fusion parameter that nothing else
    reads (so its buffer can become the output's), all updates have one shape,
    and no two roots update the same parameter.
    """
    roots = fusion_roots(computation)
    if not roots or not all(root.opcode == "dynamic-update-slice" for root in roots):
        return None
    update_dims = {root.operands[1].array_shape.dimensions for root in roots}
    parameters = [root.operands[0] for root in roots]
    if len(update_dims) != 1 or len(set(parameters)) != len(parameters):
        return None
    users = computation.users()
    for root, parameter in zip(roots, parameters, strict=True):
        if parameter.opcode != "parameter" or parameter.shape != root.shape:
            return None
        if users[parameter] != [root] or root.operands.count(parameter) != 1:
            return None
    return parameters
