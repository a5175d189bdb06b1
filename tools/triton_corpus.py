"""The corpus of XLA:GPU's Triton route: what `python tools/make_corpus.py --triton` writes.

Every program is compiled for an H100 (a deviceless compile with the CUDA plugin
and `tools/h100_target_config.txtpb`) with XLA's default options, so softmax,
layernorm and their gradients become `__triton` fusions and most dots
`__triton_gemm` fusions. For each program, in `tests/corpus/triton/jax-VERSION/NAME/`:

- `gpu.hlo`: the optimized module with its backend configs (the fusion backend
  config names the route, the tiling and the launch parameters), source
  locations stripped;
- `thunk_sequence.txt`: XLA's thunk sequence, each kernel with its launch grid and
  threads;
- `triton/FUSION.SUFFIX.xz`: for each Triton fusion, XLA's pass logs up to TTIR
  (`SUFFIXES`), LZMA-compressed;
- `inputs.npz` (`arg0, ...`) and `outputs.npz` (`out0, ...`): XLA:CPU's results,
  LZMA-compressed members, bf16 as uint16 bit patterns.

Arrays larger than `PERIODIC_ABOVE` elements repeat a block of `ROW_PERIOD` rows
(of their last dimension): the outputs then repeat too and compress to a few
kilobytes, while the period (a prime) divides no dimension, so a row or column
mapped to the wrong place still reads a different value unless it is off by a
multiple of the period.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import jax
import numpy as np
from gpu_corpus import draw, h100_arguments, write_xz
from make_corpus import Program, strip_hlo, write_npz
from triton_programs import PROGRAMS

__all__ = ["PROGRAMS", "default_folder", "writer"]

PERIODIC_ABOVE = 1 << 13
ROW_PERIOD = 7
# The files XLA writes per Triton fusion that the corpus keeps, longest suffix first:
# the fusion's HLO, the pass log from the emitter's output (its first snapshot) to
# Triton's `tt` ops on tiles, the log of the canonicalize and CSE passes after it,
# TTIR before and after Triton's verifier, and the Triton pipeline's log up to TTIR.
SUFFIXES = (
    ".xtile-to-triton.txt",
    ".canonicalize-cse.txt",
    ".before_validation.ttir.txt",
    ".triton-to-llvm.txt",
    ".ttir.txt",
    ".hlo",
)
# `module_0001.jit_softmax.triton_softmax.2.ttir.txt`, `jit_softmax.fusion.9.xtile-to-triton.txt`;
# the Triton pipeline's log names the kernel (`jit_softmax.triton_softmax_2.triton-to-llvm.txt`).
_DUMP_NAME = re.compile(r"^(?:module_\d+\.)?jit_[^.]+\.(?P<fusion>.+)$")
_HEADER = "// -----// IR Dump Before "
# The first pass past TTIR: its input is the last snapshot kept of `triton-to-llvm`,
# `tt.func` with `tt.load`/`tt.store` on pointers; TritonGPU and LLVM follow (megabytes).
_PAST_TTIR = ": convert-triton-to-tritongpu"


def default_folder(corpus: Path) -> Path:
    return corpus / "triton" / f"jax-{version_folder()}"


def version_folder() -> str:
    """`0.10.2` or `0.12`: jax's version, without the post-release digit of 0.12.0.1."""
    major, minor, *rest = jax.__version__.split(".")
    return f"{major}.{minor}" if int(minor) >= 12 else ".".join([major, minor, *rest])


def make_inputs(program: Program, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays: list[np.ndarray] = []
    for spec in program.inputs:
        size = int(np.prod(spec.shape, dtype=np.int64))
        row = spec.shape[-1] if spec.shape else 1
        period = ROW_PERIOD * row
        if size > PERIODIC_ABOVE and size > period:
            values = np.resize(draw(spec, rng, period), size)
        else:
            values = draw(spec, rng, size)
        arrays.append(values.reshape(spec.shape))
    return arrays


def jitted(program: Program) -> Callable[..., object]:
    """The program under `jax.jit`, every argument a parameter even where unused (a gradient
    may not depend on one), so that `inputs.npz` lines up with the module's parameters."""
    return jax.jit(program.function, keep_unused=True)


def compile_for_h100(program: Program, arguments: list[np.ndarray], dump_dir: Path) -> str:
    """XLA:GPU's optimized module, dumping everything XLA dumps into `dump_dir`."""
    compiled = (
        jitted(program)
        .trace(*h100_arguments(arguments))
        .lower(lowering_platforms=("cuda",))
        .compile(
            {
                "xla_dump_to": str(dump_dir),
                "xla_dump_hlo_as_text": True,
                "xla_dump_emitter_re": ".*",
            }
        )
    )
    return compiled.as_text()


def run_on_cpu(program: Program, arguments: list[np.ndarray]) -> list[np.ndarray]:
    cpu_device = jax.devices("cpu")[0]
    on_cpu = [jax.device_put(a, cpu_device) for a in arguments]
    results = jitted(program)(*on_cpu)
    leaves = jax.tree_util.tree_leaves(results)
    return [np.asarray(r) for r in leaves]


def keep_triton_dumps(dump_dir: Path, out_dir: Path) -> None:
    """Each Triton fusion's files, named by the fusion as gpu.hlo names it."""
    found: list[tuple[str, str, Path]] = []
    for path in sorted(dump_dir.iterdir()):
        suffix = next((s for s in SUFFIXES if path.name.endswith(s)), None)
        match = _DUMP_NAME.match(path.name[: -len(suffix)]) if suffix else None
        if suffix and match:
            found.append((match["fusion"], suffix, path))
    fusions = {fusion.replace(".", "_"): fusion for fusion, _, _ in found}
    for fusion, suffix, path in found:
        text = path.read_text()
        if suffix == ".hlo":
            text = strip_hlo(text)
        if suffix == ".triton-to-llvm.txt":
            fusion, text = fusions[fusion], up_to_ttir(text)
        write_xz(out_dir / f"{fusion}{suffix}.xz", text)


def up_to_ttir(log: str) -> str:
    """A Triton pipeline log cut after the snapshot `convert-triton-to-tritongpu` receives."""
    lines = log.split("\n")
    headers = [number for number, line in enumerate(lines) if line.startswith(_HEADER)]
    past = [n for n in headers if _PAST_TTIR in lines[n]]
    if not past:
        raise SystemExit(f"no snapshot before{_PAST_TTIR} in a Triton pipeline log")
    later = [n for n in headers if n > past[0]]
    return "\n".join(lines[: later[0]] if later else lines).rstrip("\n") + "\n"


def write_program(program: Program, out_dir: Path, seed: int, dumps: Path | None) -> None:
    folder = out_dir / program.name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    arguments = make_inputs(program, seed)
    with tempfile.TemporaryDirectory() as scratch:
        dump_dir = dumps / program.name if dumps else Path(scratch)
        if dump_dir.exists():
            shutil.rmtree(dump_dir)
        text = compile_for_h100(program, arguments, dump_dir)
        keep_triton_dumps(dump_dir, folder / "triton")
        (thunks,) = dump_dir.glob("*.thunk_sequence.txt")
        shutil.copyfile(thunks, folder / "thunk_sequence.txt")
    (folder / "gpu.hlo").write_text(strip_hlo(text))
    write_npz(folder / "inputs.npz", "arg", arguments, zipfile.ZIP_LZMA)
    write_npz(folder / "outputs.npz", "out", run_on_cpu(program, arguments), zipfile.ZIP_LZMA)


def writer(dumps: Path | None) -> Callable[[Program, Path, int], None]:
    def write(program: Program, out_dir: Path, seed: int) -> None:
        write_program(program, out_dir, seed, dumps)

    return write
