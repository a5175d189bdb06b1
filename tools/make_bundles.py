"""Records the bundles the tests read: the quick start's MLP and the model zoo, per jax.

    JAX_PYTHON tools/make_bundles.py [--out tests/corpus/bundles] [--only NAME ...]

Each program is compiled with `xla_emit.jax.compile_function` (a deviceless
compile for an H100, XLA's default options) into
`OUT/jax-<version>/<name>/`. The zoo's inputs are `tools/make_zoo.py`'s (drawn
in each argument's range, so token ids stay ids); the MLP's are seeded.
Only the dump files the tests read are kept (`KEPT`), larger ones xz-compressed,
so that a bundle is 20-260 KB; the manifest says so.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
os.environ.setdefault("JAX_SKIP_CUDA_CONSTRAINTS_CHECK", "1")

import jax

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_zoo import make_arguments
from zoo_programs import PROGRAMS

from xla_emit.jax import compile_function, load_function

TOOLS = Path(__file__).resolve().parent

# What the tests read of XLA's dump; the rest (LLVM IR, PTX, Triton's pipeline below
# the MLIR this project models, XLA's intermediate HLO) stays out of the repository.
KEPT = (
    ".mlir-passes.log",
    ".thunk_sequence.txt",
    "-buffer-assignment.txt",
    ".ttir.txt",
    ".xtile-to-triton.txt",
    ".hlo",
)
LEFT_OUT = ("before_validation.ttir.txt",)
COMPRESS_ABOVE = 2048
MLP = "examples/jax/mlp.py:mlp"
MLP_SPECS = ("f32[8,64]", "f32[64,128]", "f32[128,32]")


def prune(folder: Path) -> None:
    """Keep what the tests read, xz-compressed above 2 KiB; say so in the manifest."""
    for path in sorted((folder / "xla").iterdir()):
        name = path.name.removesuffix(".xz")
        if not name.endswith(KEPT) or name.endswith(LEFT_OUT):
            path.unlink()
        elif path.suffix != ".xz" and path.stat().st_size > COMPRESS_ABOVE:
            compressed = lzma.compress(path.read_bytes(), preset=9 | lzma.PRESET_EXTREME)
            path.with_name(path.name + ".xz").write_bytes(compressed)
            path.unlink()
    manifest_path = folder / "bundle.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["recorded_for_tests"] = {"xla_files_kept": list(KEPT)}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(TOOLS.parent / "tests" / "corpus" / "bundles"))
    parser.add_argument("--only", nargs="*", help="program names to (re)record")
    args = parser.parse_args(argv)
    root = Path(args.out) / f"jax-{jax.__version__}"
    wanted = set(args.only or [])
    if not wanted or "mlp" in wanted:
        os.chdir(TOOLS.parent)  # the manifest names the example by its repository path
        compile_function(load_function(MLP), MLP_SPECS, root / "mlp", name=MLP)
        prune(root / "mlp")
        print(f"wrote {root / 'mlp'}")
    for program in PROGRAMS:
        if wanted and program.name not in wanted:
            continue
        arguments = make_arguments(program, zlib.crc32(program.name.encode()))
        folder = root / program.name
        compile_function(
            program.function, arguments, folder, name=f"tools/zoo_programs.py:{program.name}"
        )
        prune(folder)
        print(f"wrote {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
