"""What XLA:GPU's Triton fusions ask for, read from their `backend_config`.

A fusion XLA hands to Triton is `kind=kCustom` with a `fusion_backend_config`
whose `kind` names the route: `__triton` (a normalization fusion: softmax,
layernorm, their gradients), `__triton_gemm` (a dot, with a
`triton_gemm_config`: block_m/n/k, split_k, num_stages, num_warps) or
`__triton_nested_gemm_fusion` (a dot whose operands are nested fusions, each
tiled by a `block_level_fusion_config`). A normalization fusion's
`block_level_fusion_config` gives the tile of each output (`output_tiles`) and
the warps per program. XLA prints integers of these protos as JSON strings
("64"); both spellings are read. This module only reads the facts; the Triton
emitter tiles with them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from xla_emit.diagnostics import UserError
from xla_emit.hlo.ir import HloInstruction

TRITON = "__triton"
TRITON_GEMM = "__triton_gemm"
TRITON_NESTED_GEMM = "__triton_nested_gemm_fusion"
CUBLAS_GEMM = "__cublas"  # a gemm fusion the autotuner gave back to cuBLAS
TRITON_KINDS = frozenset({TRITON, TRITON_GEMM, TRITON_NESTED_GEMM})


@dataclass(frozen=True)
class BlockLevelConfig:
    """A `block_level_fusion_config`: one tile per output, the warps of each program."""

    output_tiles: tuple[tuple[int, ...], ...]
    num_warps: int
    num_stages: int = 1
    num_ctas: int = 1


@dataclass(frozen=True)
class TritonGemmConfig:
    """A `triton_gemm_config`: the block sizes of a gemm and how it is pipelined."""

    block_m: int
    block_n: int
    block_k: int
    split_k: int
    num_stages: int
    num_warps: int
    num_ctas: int = 1


def _fail(instruction: HloInstruction, message: str) -> UserError:
    return UserError(f"fusion '{instruction.name}': {message}", instruction.location)


def backend_config_json(instruction: HloInstruction) -> dict[str, object] | None:
    """The instruction's backend_config as a JSON object (None: it has none)."""
    raw = dict(instruction.extra_attributes).get("backend_config")
    if raw is None:
        return None
    try:
        if raw.startswith('"'):  # the older, quoted spelling
            raw = json.loads(raw)
        config = json.loads(raw)
    except (json.JSONDecodeError, TypeError) as error:
        raise _fail(instruction, f"backend_config is not JSON ({error})") from None
    if not isinstance(config, dict):
        raise _fail(instruction, "backend_config is not a JSON object")
    return config  # type: ignore[return-value]


def _fusion_backend_config(instruction: HloInstruction) -> dict[str, object] | None:
    config = backend_config_json(instruction)
    inner = None if config is None else config.get("fusion_backend_config")
    return inner if isinstance(inner, dict) else None  # type: ignore[return-value]


def fusion_backend_kind(instruction: HloInstruction) -> str | None:
    """The `kind` of a fusion's `fusion_backend_config` (`__triton`, ...), if it has one."""
    if instruction.opcode != "fusion":
        return None
    inner = _fusion_backend_config(instruction)
    kind = None if inner is None else inner.get("kind")
    return kind if isinstance(kind, str) else None


def _integer(instruction: HloInstruction, owner: str, key: str, value: object) -> int:
    """A proto integer, printed by XLA as a number or as a decimal string."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise _fail(instruction, f"{owner}.{key} must be an integer, but got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise _fail(instruction, f"{owner}.{key} must be an integer, but got {value!r}") from None
    if number < 1:
        raise _fail(instruction, f"{owner}.{key} must be positive, but got {number}")
    return number


def _field(
    instruction: HloInstruction, config: dict[str, object], owner: str, key: str, default: int
) -> int:
    value = config.get(key)
    return default if value is None else _integer(instruction, owner, key, value)


def block_level_config(instruction: HloInstruction) -> BlockLevelConfig:
    """The fusion's `block_level_fusion_config` (a located error if it has none)."""
    owner = "block_level_fusion_config"
    inner = _fusion_backend_config(instruction)
    config = None if inner is None else inner.get(owner)
    if not isinstance(config, dict):
        raise _fail(instruction, f"backend_config has no {owner}")
    tiles = config.get("output_tiles")  # type: ignore[union-attr]
    if not isinstance(tiles, list) or not tiles:
        raise _fail(instruction, f"{owner} has no output_tiles")
    output_tiles: list[tuple[int, ...]] = []
    for tile in tiles:  # type: ignore[union-attr]
        sizes = tile.get("sizes", []) if isinstance(tile, dict) else None  # type: ignore[union-attr]
        if not isinstance(sizes, list):
            raise _fail(instruction, f"{owner}.output_tiles holds {tile!r}, not {{sizes: [...]}}")
        output_tiles.append(
            tuple(_integer(instruction, owner, "output_tiles", s) for s in sizes)  # type: ignore[union-attr]
        )
    values: dict[str, object] = config  # type: ignore[assignment]
    return BlockLevelConfig(
        tuple(output_tiles),
        _field(instruction, values, owner, "num_warps", 4),
        _field(instruction, values, owner, "num_stages", 1),
        _field(instruction, values, owner, "num_ctas", 1),
    )


def triton_gemm_config(instruction: HloInstruction) -> TritonGemmConfig | None:
    """The fusion's `triton_gemm_config`, or None where it has none (XLA's heuristic applies)."""
    owner = "triton_gemm_config"
    inner = _fusion_backend_config(instruction)
    config = None if inner is None else inner.get(owner)
    if config is None:
        return None
    if not isinstance(config, dict):
        raise _fail(instruction, f"{owner} is not a JSON object")
    values: dict[str, object] = config  # type: ignore[assignment]
    missing = [k for k in ("block_m", "block_n", "block_k") if k not in values]
    if missing:
        raise _fail(instruction, f"{owner} has no {', '.join(missing)}")
    return TritonGemmConfig(
        *(
            _field(instruction, values, owner, key, 1)
            for key in ("block_m", "block_n", "block_k", "split_k", "num_stages", "num_warps")
        ),
        _field(instruction, values, owner, "num_ctas", 1),
    )


def triton_launch_config(fusion: HloInstruction) -> BlockLevelConfig:
    """How a Triton fusion is tiled and launched: its `block_level_fusion_config`, or, for a
    `__triton_gemm` fusion with a `triton_gemm_config` instead (as older XLA writes them),
    the output tiles of that config: `block_m` x `block_n`, 1 along batch dims (a split-K
    dot's split dim among them: XLA has made it a batch dim already)."""
    inner = _fusion_backend_config(fusion)
    if inner is None or "block_level_fusion_config" in inner:
        return block_level_config(fusion)
    gemm = triton_gemm_config(fusion)
    if gemm is None:
        return block_level_config(fusion)  # the located error: no config
    rank = len(fusion.array_shape.dimensions)
    if rank < 2:
        raise _fail(fusion, "a triton_gemm_config tiles outputs of rank 2 or more")
    tile = (1,) * (rank - 2) + (gemm.block_m, gemm.block_n)
    return BlockLevelConfig((tile,), gemm.num_warps, gemm.num_stages, gemm.num_ctas)


def dot_tile_sizes(instruction: HloInstruction) -> tuple[int, ...] | None:
    """The contracting-dimension tile of a dot in a Triton gemm fusion (the dot's own
    `backend_config={"sizes":["16"]}`), if it has one."""
    config = backend_config_json(instruction)
    sizes = None if config is None else config.get("sizes")
    if not isinstance(sizes, list):
        return None
    return tuple(_integer(instruction, "dot backend_config", "sizes", s) for s in sizes)  # type: ignore[union-attr]
