"""Writes the model zoo: each program's H100 HLO, its inputs, and XLA:CPU's outputs.

    python tools/make_zoo.py [--out DIR] [--only NAME ...]

jax 0.10.2 writes to `tests/corpus/zoo/`, any other version to
`tests/corpus/zoo/jax-<major.minor>/` (the same programs as another XLA compiles them).

Needs jax with the CUDA plugin (`jax-cuda12-plugin`), but no GPU: the HLO
comes from a deviceless compile for an H100 (`jax.experimental.topologies`
with the target config in `xla_emit/jax/targets/h100.txtpb`), the reference
outputs from running the same jitted function on XLA:CPU. Per program it
writes `<name>.hlo` (the optimized module with metadata and stack-frame
tables removed), `<name>.inputs.npz` and `<name>.outputs.npz` (bf16 as uint16
bit patterns, fixed timestamps; see make_corpus.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
os.environ.setdefault("JAX_SKIP_CUDA_CONSTRAINTS_CHECK", "1")

import jax
import ml_dtypes
import numpy as np
from jax.experimental import topologies
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_corpus import _METADATA, _STACK_TABLES, write_npz
from zoo_programs import PROGRAMS, ZooProgram

ZOO_DIR = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "zoo"
TARGET_CONFIG = Path(__file__).resolve().parents[1] / "xla_emit" / "jax" / "targets" / "h100.txtpb"


def make_arguments(program: ZooProgram, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays: list[np.ndarray] = []
    for arg in program.args:
        if arg.dtype == "int32":
            arrays.append(rng.integers(int(arg.low), int(arg.high) + 1, arg.shape).astype(np.int32))
            continue
        values = rng.uniform(arg.low, arg.high, arg.shape).astype(np.float32)
        arrays.append(values.astype(ml_dtypes.bfloat16) if arg.dtype == "bfloat16" else values)
    return arrays


def h100_hlo(program: ZooProgram, arguments: Sequence[np.ndarray]) -> str:
    topology = topologies.get_topology_desc(
        platform="cuda", target_config=TARGET_CONFIG.read_text(), topology="1x1x1"
    )
    mesh = topologies.make_mesh(topology, (1,), ("d",))
    specs = [
        jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=NamedSharding(mesh, P())) for a in arguments
    ]
    function = jax.jit(program.function)  # type: ignore[arg-type]
    compiled = function.trace(*specs).lower(lowering_platforms=("cuda",)).compile()
    text = _STACK_TABLES.sub("", compiled.as_text())
    text = _METADATA.sub("", text)
    text = "\n".join(line.rstrip() for line in text.splitlines())
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"


def write_program(program: ZooProgram, out_dir: Path) -> None:
    arguments = make_arguments(program, zlib.crc32(program.name.encode()))
    text = h100_hlo(program, arguments)
    with jax.default_device(jax.devices("cpu")[0]):
        results = jax.jit(program.function)(*arguments)  # type: ignore[arg-type]
    leaves = results if isinstance(results, tuple) else (results,)
    (out_dir / f"{program.name}.hlo").write_text(text)
    inputs = out_dir / f"{program.name}.inputs.npz"
    write_npz(inputs, "arg", arguments)
    # Another jax version's folder leaves out inputs equal to the main zoo's (the same seed).
    shared = ZOO_DIR / inputs.name
    if (
        out_dir.resolve() != ZOO_DIR
        and shared.exists()
        and shared.read_bytes() == inputs.read_bytes()
    ):
        inputs.unlink()
    write_npz(out_dir / f"{program.name}.outputs.npz", "out", [np.asarray(r) for r in leaves])


def default_out_dir(version: str) -> Path:
    if version == "0.10.2":
        return ZOO_DIR
    return ZOO_DIR / ("jax-" + ".".join(version.split(".")[:2]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_out = default_out_dir(jax.__version__)
    parser.add_argument("--out", default=str(default_out))
    parser.add_argument("--only", nargs="*", help="program names to (re)generate")
    args = parser.parse_args(argv)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for program in PROGRAMS:
        if args.only and program.name not in args.only:
            continue
        write_program(program, out_dir)
        print(f"wrote {program.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
