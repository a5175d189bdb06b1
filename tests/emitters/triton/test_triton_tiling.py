from __future__ import annotations

import itertools

import numpy as np
import pytest

from xla_emit.diagnostics import UserError
from xla_emit.emitters.triton.tiling import (
    TiledComputation,
    TiledInstruction,
    next_power_of_two,
    tile_computation,
)
from xla_emit.hlo.parser import parse_hlo_module

# The layernorm XLA:GPU made a `__triton` fusion of (jax 0.10.2, transformer_block.hlo),
# with its block_level_fusion_config's output tile [1, 8].
_LAYERNORM = """HloModule m

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

%fused (param_0.34: f32[16,1,64]) -> f32[16,64] {
  %param_0.34 = f32[16,1,64]{2,1,0} parameter(0)
  %bitcast.1.8 = f32[16,64]{1,0} bitcast(%param_0.34)
  %constant_41 = f32[] constant(0)
  %reduce_sum.43 = f32[16]{0} reduce(%bitcast.1.8, %constant_41), dimensions={1}, to_apply=%add
  %constant_42 = f32[] constant(0.015625)
  %broadcast.35 = f32[16]{0} broadcast(%constant_42), dimensions={}
  %multiply.19 = f32[16]{0} multiply(%reduce_sum.43, %broadcast.35)
  %sub.19 = f32[16,64]{1,0} broadcast(%multiply.19), dimensions={0}
  ROOT %sub.18 = f32[16,64]{1,0} subtract(%bitcast.1.8, %sub.19)
}

ENTRY %main (x: f32[16,1,64]) -> f32[16,64] {
  %x = f32[16,1,64]{2,1,0} parameter(0)
  ROOT %f = f32[16,64]{1,0} fusion(%x), kind=kCustom, calls=%fused
}
"""

_SOFTMAX_3D = """HloModule m

%max (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] maximum(%a, %b)
}

%fused (p: f32[2,16,12]) -> f32[2,16,12] {
  %iota.8 = s32[16,12]{1,0} iota(), iota_dimension=0
  %iota.9 = s32[16,12]{1,0} iota(), iota_dimension=1
  %ge = pred[16,12]{1,0} compare(%iota.8, %iota.9), direction=GE
  %mask = pred[2,16,12]{2,1,0} broadcast(%ge), dimensions={1,2}
  %p = f32[2,16,12]{2,1,0} parameter(0)
  %c = f32[] constant(-1e+09)
  %cb = f32[2,16,12]{2,1,0} broadcast(%c), dimensions={}
  %sel = f32[2,16,12]{2,1,0} select(%mask, %p, %cb)
  %ninf = f32[] constant(-inf)
  %m = f32[2,16]{1,0} reduce(%sel, %ninf), dimensions={2}, to_apply=%max
  %mb = f32[2,16,12]{2,1,0} broadcast(%m), dimensions={0,1}
  ROOT %d = f32[2,16,12]{2,1,0} subtract(%sel, %mb)
}

ENTRY %main (x: f32[2,16,12]) -> f32[2,16,12] {
  %x = f32[2,16,12]{2,1,0} parameter(0)
  ROOT %f = f32[2,16,12]{2,1,0} fusion(%x), kind=kCustom, calls=%fused
}
"""


def _tiled(text: str, tile: tuple[int, ...]) -> TiledComputation:
    module = parse_hlo_module(text, "m.hlo")
    return tile_computation(module.entry.root.called_computations[0], [tile])


def _tiles_of(tiled: TiledComputation, name: str) -> list[TiledInstruction]:
    return [t for t in tiled.instructions if t.instruction.name == name]


def test_next_power_of_two() -> None:
    assert [next_power_of_two(n) for n in (1, 2, 3, 12, 16, 17, 64)] == [1, 2, 4, 16, 16, 32, 64]


def test_layernorm_tiles_worked_by_hand() -> None:
    tiled = _tiled(_LAYERNORM, (1, 8))
    # 16 rows of 64 in tiles of 8: 16 * 8 programs; pid 13 is row 1, columns 40..47.
    assert tiled.num_programs == 128
    (root,) = tiled.roots
    assert root.sizes == (1, 8)
    assert root.offsets_at(13) == (1, 40)
    # The bitcast is read twice: whole rows by the reduce, tiles by the subtract.
    bitcasts = {t.sizes: t.offsets_at(13) for t in _tiles_of(tiled, "bitcast.1.8")}
    assert bitcasts == {(1, 64): (1, 0), (1, 8): (1, 40)}
    parameters = {t.sizes: t.offsets_at(13) for t in _tiles_of(tiled, "param_0.34")}
    assert parameters == {(1, 1, 64): (1, 0, 0), (1, 1, 8): (1, 0, 40)}
    (reduce,) = _tiles_of(tiled, "reduce_sum.43")
    assert reduce.sizes == (1,) and reduce.offsets_at(13) == (1,)
    assert reduce.operands[0].padded_sizes == (1, 64)
    (scalar,) = _tiles_of(tiled, "broadcast.35")
    assert scalar.operands[0].sizes == ()
    # Operands come before their users.
    order = {id(t): i for i, t in enumerate(tiled.instructions)}
    assert all(order[id(o)] < order[id(t)] for t in tiled.instructions for o in t.operands)


def test_softmax_3d_pads_the_reduced_dimension() -> None:
    tiled = _tiled(_SOFTMAX_3D, (1, 1, 12))
    assert tiled.num_programs == 32
    (root,) = tiled.roots
    assert root.padded_sizes == (1, 1, 16)
    assert root.offsets_at(21) == (1, 5, 0)
    (compare,) = _tiles_of(tiled, "ge")
    assert compare.sizes == (1, 12) and compare.offsets_at(21) == (5, 0)
    (reduce,) = _tiles_of(tiled, "m")
    assert reduce.operands[0].sizes == (1, 1, 12)
    assert reduce.offsets_at(21) == (1, 5)


def _reshape_module(source: tuple[int, ...], target: tuple[int, ...]) -> str:
    def shape(dims: tuple[int, ...]) -> str:
        layout = ",".join(str(d) for d in reversed(range(len(dims))))
        return f"f32[{','.join(map(str, dims))}]{{{layout}}}"

    return f"""HloModule m

%fused (p: {shape(source)}) -> {shape(target)} {{
  %p = {shape(source)} parameter(0)
  ROOT %r = {shape(target)} reshape(%p)
}}

ENTRY %main (x: {shape(source)}) -> {shape(target)} {{
  %x = {shape(source)} parameter(0)
  ROOT %f = {shape(target)} fusion(%x), kind=kCustom, calls=%fused
}}
"""


def _elements(dims: tuple[int, ...], sizes: tuple[int, ...], offsets: tuple[int, ...]) -> set:
    ranges = [range(o, min(o + s, d)) for d, s, o in zip(dims, sizes, offsets, strict=True)]
    return set(itertools.product(*ranges))


@pytest.mark.parametrize(
    ("source", "target", "tile"),
    [
        ((4, 8), (32,), (16,)),
        ((4, 8), (32,), (4,)),
        ((32,), (4, 8), (1, 8)),
        ((32,), (4, 8), (2, 8)),
        ((2, 3, 8), (6, 8), (3, 8)),
        ((16, 1, 64), (16, 64), (1, 8)),
        ((8, 4, 2), (2, 4, 8), (1, 2, 8)),
    ],
)
def test_reshape_tiles_hold_the_same_elements(source, target, tile) -> None:
    """Brute force: each program's operand tile holds exactly the elements its output tile
    reads (row-major linear positions match)."""
    tiled = _tiled(_reshape_module(source, target), tile)
    (root,) = tiled.roots
    (operand,) = root.operands
    for pid in range(tiled.num_programs):
        wanted = {
            np.ravel_multi_index(i, target)
            for i in _elements(target, root.sizes, root.offsets_at(pid))
        }
        held = {
            np.ravel_multi_index(i, source)
            for i in _elements(source, operand.sizes, operand.offsets_at(pid))
        }
        assert held == wanted, pid


@pytest.mark.parametrize(
    ("source", "target", "tile"),
    [
        ((32,), (4, 8), (2, 4)),
        ((4, 8), (32,), (12,)),
        ((6, 4), (4, 6), (1, 6)),
        ((2, 3, 8), (6, 8), (2, 8)),
    ],
)
def test_reshapes_that_are_no_tile_are_located_errors(source, target, tile) -> None:
    with pytest.raises(UserError, match="is no tile of the operand") as caught:
        _tiled(_reshape_module(source, target), tile)
    assert caught.value.location is not None and caught.value.location.line == 5


def test_a_bad_output_tile_is_an_error() -> None:
    with pytest.raises(UserError, match=r"output tile \[1, 8\] does not fit the shape \[32\]"):
        _tiled(_reshape_module((4, 8), (32,)), (1, 8))


def test_an_op_without_tiling_is_a_located_error() -> None:
    text = _reshape_module((4, 8), (4, 8)).replace("reshape(%p)", "reverse(%p), dimensions={0}")
    with pytest.raises(UserError, match="'reverse' is not supported in Triton fusions") as caught:
        _tiled(text, (1, 8))
    assert caught.value.location is not None and caught.value.location.line == 5
