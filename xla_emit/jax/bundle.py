"""A bundle: one folder holding what XLA does with a JAX function, and how to read it.

`xla-emit-jax` (`xla_emit.jax.compile_function`) writes it; `xla-emit-run`,
`xla-emit-opt` and `xla-emit-dump` take its folder wherever they take a file.
The layout:

    BUNDLE/
      bundle.json               what was compiled: function, argument specs, output
                                specs, seed, target, compiler options, versions
      function.hlo              the function as jax lowers it, before XLA's passes
      function.stablehlo.mlir   the same, in StableHLO
      gpu.hlo                   XLA:GPU's optimized module for the target (metadata removed)
      target.txtpb              the GpuTargetConfigProto it was compiled for
      inputs.npz                seeded inputs arg0, arg1, ... (bf16 as uint16 bits)
      outputs.npz               XLA:CPU's outputs out0, out1, ... on those inputs
      xla/                      XLA's own dump (`--xla_dump_to`), names without the
                                `module_NNNN.` prefix; files over 16 KiB as FILE.xz

What `xla/` holds, by suffix: `*.mlir-passes.log` (a native emitter fusion's
kernel IR before every MLIR pass; the first snapshot is the emitter's output),
per Triton fusion `*.hlo`, `*.ttir.txt`, `*.xtile-to-triton.txt`,
`*.triton-to-llvm.txt` (pass logs), `*.ir-no-opt.ll`, `*.ir-with-opt.ll` and
`*.ptx` (LLVM IR and PTX per LLVM module), `*-buffer-assignment.txt`,
`*.thunk_sequence.txt` (each kernel's launch grid, threads and shared memory).

Reading needs neither jax nor xDSL.
"""

from __future__ import annotations

import json
import lzma
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xla_emit.diagnostics import UserError

MANIFEST = "bundle.json"
FORMAT = "xla-emit-bundle/1"
SOURCE_HLO = "function.hlo"
SOURCE_STABLEHLO = "function.stablehlo.mlir"
GPU_HLO = "gpu.hlo"
TARGET = "target.txtpb"
INPUTS = "inputs.npz"
OUTPUTS = "outputs.npz"
XLA_DUMP = "xla"
# Dump files larger than this are kept xz-compressed (pass logs shrink 20-100 fold).
COMPRESS_ABOVE = 16 * 1024

# The per-kernel files of XLA's dump, by suffix (longest first, so that
# `before_validation.ttir.txt` is not taken for `ttir.txt`).
KERNEL_SUFFIXES = (
    "before_validation.ttir.txt",
    "xtile-to-triton.txt",
    "triton-to-llvm.txt",
    "canonicalize-cse.txt",
    "mlir-passes.log",
    "ttir.txt",
    "hlo",
)
PASS_LOG = "mlir-passes.log"

_THUNK = re.compile(
    r"^\d+: (?P<kind>\w+)\s+\[[^\]]*\]\s+(?P<name>\S+) grid: \[(?P<grid>[\d, ]+)\] "
    r"threads: \[(?P<threads>[\d, ]+)\]\s+shared_memory: (?P<shared>\d+) bytes"
)


@dataclass(frozen=True)
class Thunk:
    """One kernel launch of XLA's thunk sequence."""

    kind: str
    kernel: str
    grid: tuple[int, ...]
    threads: tuple[int, ...]
    shared_memory: int


def kernel_name(fusion: str) -> str:
    """The name XLA gives a fusion's kernel: its HLO name with `.` and `-` as `_`."""
    return re.sub(r"[^A-Za-z0-9_]", "_", fusion)


@dataclass(frozen=True)
class Bundle:
    """A bundle folder, read lazily."""

    path: Path
    manifest: dict[str, Any]

    def file(self, name: str) -> Path:
        return self.path / name

    def text(self, name: str) -> str:
        """The text of a bundle file (`xla/...` names without `.xz`)."""
        return read_text(self.path / name)

    @property
    def module_name(self) -> str:
        return str(self.manifest.get("module", ""))

    def dump_files(self) -> list[str]:
        """The names of XLA's dump files, as XLA wrote them (no `.xz`), sorted."""
        folder = self.path / XLA_DUMP
        if not folder.is_dir():
            return []
        return sorted(p.name.removesuffix(".xz") for p in folder.iterdir() if p.is_file())

    def kernel_files(self, fusion: str) -> dict[str, str]:
        """A fusion's per-kernel dump files, by suffix: {'mlir-passes.log': 'xla/...'}."""
        wanted = {fusion, kernel_name(fusion)}
        found: dict[str, str] = {}
        for name in self.dump_files():
            split = split_kernel_file(name, self.module_name)
            if split is not None and split[0] in wanted:
                found[split[1]] = f"{XLA_DUMP}/{name}"
        return found

    def pass_log(self, fusion: str) -> Path | None:
        """The fusion's `*.mlir-passes.log` (plain or `.xz`), if XLA emitted it natively."""
        name = self.kernel_files(fusion).get(PASS_LOG)
        return None if name is None else existing(self.path / name)

    def dump_file(self, suffix: str) -> str | None:
        """The first module-level dump file ending in `suffix` (`thunk_sequence.txt`)."""
        for name in self.dump_files():
            if name.endswith(suffix):
                return f"{XLA_DUMP}/{name}"
        return None

    def thunks(self) -> list[Thunk]:
        """XLA's kernel launches in order, from its thunk sequence (empty if none was dumped)."""
        name = self.dump_file(".thunk_sequence.txt")
        if name is None:
            return []
        thunks: list[Thunk] = []
        for line in self.text(name).splitlines():
            match = _THUNK.match(line.strip())
            if match is not None:
                thunks.append(
                    Thunk(
                        match["kind"],
                        match["name"],
                        _numbers(match["grid"]),
                        _numbers(match["threads"]),
                        int(match["shared"]),
                    )
                )
        return thunks


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(","))


def split_kernel_file(name: str, module: str) -> tuple[str, str] | None:
    """(kernel, suffix) of a per-kernel dump file `MODULE.KERNEL.SUFFIX`, else None."""
    prefix = f"{module}."
    if not module or not name.startswith(prefix):
        return None
    rest = name[len(prefix) :]
    for suffix in KERNEL_SUFFIXES:
        if rest.endswith(f".{suffix}"):
            return rest[: -len(suffix) - 1], suffix
    return None


def existing(path: Path) -> Path | None:
    """`path`, or `path.xz` where only the compressed file exists."""
    if path.is_file():
        return path
    compressed = path.with_name(path.name + ".xz")
    return compressed if compressed.is_file() else None


def read_text(path: Path) -> str:
    """The text of `path` or of `path.xz` (`UserError` when neither can be read)."""
    found = existing(path)
    if found is None:
        raise UserError(f"cannot read '{path}': no such file in the bundle")
    try:
        data = found.read_bytes()
        if found.suffix == ".xz":
            data = lzma.decompress(data)
        return data.decode("utf-8")
    except (OSError, lzma.LZMAError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read '{found}': {error}") from None


def is_bundle(path: str | Path) -> bool:
    """Whether `path` is a bundle folder (one holding `bundle.json`)."""
    folder = Path(path)
    return folder.is_dir() and (folder / MANIFEST).is_file()


def open_bundle(path: str | Path) -> Bundle:
    """The bundle in folder `path` (`UserError` if it is none)."""
    folder = Path(path)
    if not is_bundle(folder):
        raise UserError(f"'{path}' is not a bundle: no {MANIFEST} in it (see xla-emit-jax)")
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"cannot read '{folder / MANIFEST}': {error}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise UserError(f"'{folder / MANIFEST}' is not an {FORMAT} manifest")
    return Bundle(folder, manifest)


def write_dump_file(target: Path, data: bytes) -> Path:
    """Keep one of XLA's dump files in the bundle, xz-compressed when it is large."""
    if len(data) > COMPRESS_ABOVE:
        target = target.with_name(target.name + ".xz")
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    target.write_bytes(data)
    return target
