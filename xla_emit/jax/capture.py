"""Compile a JAX function for a GPU that is not there and keep everything XLA makes.

A deviceless compile (`jax.experimental.topologies` with the target's
GpuTargetConfigProto and the CUDA plugin) with `--xla_dump_to` gives the
optimized module and XLA's per-kernel artefacts; the same jitted function runs
on XLA:CPU for the reference outputs. Needs jax, jaxlib and jax-cuda12-plugin
(the `jax` extra), no GPU and no CUDA. See `bundle` for what is written where.
"""

# jax is an optional extra, absent where the type check runs: its modules stay unresolved.
# pyright: reportMissingImports=false

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import platform
import re
import shutil
import sys
import tempfile
import traceback
import zipfile
from collections.abc import Callable, Generator, Mapping, Sequence
from pathlib import Path
from types import ModuleType, TracebackType
from typing import Any

import numpy as np

from xla_emit.diagnostics import SourceLocation, UserError
from xla_emit.hlo.npz import write_npz
from xla_emit.jax import bundle as layout
from xla_emit.jax.inputs import seeded_inputs
from xla_emit.jax.specs import ArgSpec, parse_spec, spec_of_array
from xla_emit.jax.targets import DEFAULT_TARGET, Target, load_target
from xla_emit.progress import Progress

# XLA:GPU's dump of every kernel: the MLIR pass logs besides the HLO, LLVM IR and PTX.
DUMP_OPTIONS: dict[str, str | bool] = {"xla_dump_hlo_as_text": True, "xla_dump_emitter_re": ".*"}
# The stages `compile_function` shows progress of.
STAGES = ("trace and lower", "compile", "capture XLA's dump", "run on XLA:CPU")
_METADATA = re.compile(r", metadata=\{[^{}]*\}")
_STACK_TABLES = re.compile(
    r"\n(FileNames|FunctionNames|FileLocations|StackFrames)\n.*?(?=\n\n)", re.DOTALL
)
_DUMP_PREFIX = re.compile(r"^module_\d+\.")
# How jaxlib's C++ logs a config it cannot read (on the process's stderr, not as the exception).
_PROTO_ERROR = re.compile(r"Error parsing text-format \S*GpuTargetConfigProto: (\d+):(\d+): (.*)")

Function = Callable[..., Any]
SpecLike = ArgSpec | str | np.ndarray | Any


def import_jax() -> ModuleType:
    """jax, set up for deviceless compiles (`UserError` when it is not installed)."""
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
    os.environ.setdefault("JAX_SKIP_CUDA_CONSTRAINTS_CHECK", "1")
    try:
        import jax
    except ImportError as error:
        raise UserError(
            f"xla-emit-jax needs jax ({error}): pip install -e '.[jax]' "
            "(jax, jaxlib and jax-cuda12-plugin)"
        ) from None
    return jax


def load_function(reference: str) -> Function:
    """The function `FILE.py:NAME` (or `package.module:NAME`) names."""
    where, _, name = reference.rpartition(":")
    if not where or not name:
        raise UserError(f"'{reference}' does not name a function: write FILE.py:NAME")
    module = _load_module(where, reference)
    function = module
    for part in name.split("."):
        function = getattr(function, part, None)
        if function is None:
            raise UserError(f"'{where}' has no function '{name}'")
    if not callable(function):
        raise UserError(f"'{reference}' is not a function")
    return function


def _load_module(where: str, reference: str) -> ModuleType:
    import_jax()
    path = Path(where)
    try:
        if where.endswith(".py"):
            if not path.is_file():
                raise UserError(f"cannot read '{where}': no such file")
            spec = importlib.util.spec_from_file_location(path.stem, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules.setdefault(path.stem, module)
            spec.loader.exec_module(module)
            return module
        return importlib.import_module(where)
    except UserError:
        raise
    except Exception as error:  # noqa: BLE001 - the user's module: any error is theirs
        location = _user_frame(error.__traceback__, [where])
        raise UserError(f"cannot load '{reference}': {_one_line(error)}", location) from None


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}".rstrip(": ")


def _user_frame(tb: TracebackType | None, files: Sequence[str]) -> SourceLocation | None:
    """Where in the user's `files` the innermost frame of `tb` is, if anywhere."""
    wanted = {Path(f).resolve() for f in files if f}
    found: SourceLocation | None = None
    for frame in traceback.extract_tb(tb):
        if Path(frame.filename).resolve() in wanted and frame.lineno is not None:
            column = (frame.colno or 0) + 1
            found = SourceLocation(_relative(frame.filename), frame.lineno, column)
    return found


def _relative(path: str) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return path


def arg_specs(specs: Sequence[SpecLike]) -> list[ArgSpec]:
    """Specs from strings (`f32[8,128]`), `ArgSpec`s, arrays or anything with shape and dtype."""
    result: list[ArgSpec] = []
    for spec in specs:
        if isinstance(spec, ArgSpec):
            result.append(spec)
        elif isinstance(spec, str):
            result.append(parse_spec(spec))
        elif hasattr(spec, "shape") and hasattr(spec, "dtype"):
            result.append(spec_of_array(np.empty(tuple(spec.shape), np.dtype(spec.dtype))))
        else:
            raise UserError(f"argument spec {spec!r} is neither a string like f32[8] nor an array")
    return result


def compiler_option(text: str) -> tuple[str, str | bool | int]:
    """`KEY=VALUE` as XLA takes it: true/false as bools, integers as ints."""
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise UserError(f"compiler option '{text}' is not KEY=VALUE")
    if value.lower() in ("true", "false"):
        return key, value.lower() == "true"
    if re.fullmatch(r"-?\d+", value):
        return key, int(value)
    return key, value


def strip_hlo(text: str) -> str:
    """HLO text without source locations (they name the user's paths)."""
    text = _STACK_TABLES.sub("", text)
    text = _METADATA.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def compile_function(
    function: Function,
    specs: Sequence[SpecLike],
    out: str | Path,
    *,
    target: str = DEFAULT_TARGET,
    options: Mapping[str, str | bool | int] | None = None,
    seed: int = 0,
    name: str | None = None,
    progress: bool = False,
) -> layout.Bundle:
    """Compile `function` for `target` and write the bundle folder `out` (see `bundle`).

    An argument given as a numpy array is an input as it is; the others are seeded
    (`inputs`). `progress`: a step of progress on stderr per stage.
    """
    jax = import_jax()
    arguments = arg_specs(specs)
    chosen = load_target(target)
    label = (
        name or f"{getattr(function, '__module__', '?')}:{getattr(function, '__qualname__', '?')}"
    )
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot write '{out}': {error.strerror}") from None
    inputs = [
        np.asarray(given) if isinstance(given, np.ndarray) else seeded
        for given, seeded in zip(specs, seeded_inputs(arguments, seed), strict=True)
    ]
    steps = Progress("xla-emit-jax", len(STAGES), progress)
    try:
        with tempfile.TemporaryDirectory() as dump:
            steps.step(STAGES[0])
            lowered = _lower(jax, function, arguments, chosen, label)
            steps.step(f"{STAGES[1]} for {chosen.description}")
            compiled = _compile(
                lowered, {**(options or {}), **DUMP_OPTIONS, "xla_dump_to": dump}, label
            )
            gpu_hlo = strip_hlo(compiled.as_text())
            steps.step(STAGES[2])
            _keep_dump(Path(dump), folder / layout.XLA_DUMP)
        steps.step(STAGES[3])
        outputs = _run_on_cpu(jax, function, inputs, label)
    finally:
        steps.close()
    module = re.match(r"HloModule (\S+?),?\s", gpu_hlo)
    (folder / layout.SOURCE_HLO).write_text(strip_hlo(lowered.as_text(dialect="hlo")))
    (folder / layout.SOURCE_STABLEHLO).write_text(_strip_locations(lowered.as_text()))
    (folder / layout.GPU_HLO).write_text(gpu_hlo)
    (folder / layout.TARGET).write_text(chosen.text)
    arrays = {f"arg{i}": a for i, a in enumerate(inputs)}
    write_npz(str(folder / layout.INPUTS), arrays, zipfile.ZIP_LZMA)
    arrays = {f"out{i}": o for i, o in enumerate(outputs)}
    write_npz(str(folder / layout.OUTPUTS), arrays, zipfile.ZIP_LZMA)
    manifest = {
        "format": layout.FORMAT,
        "function": label,
        "module": module[1] if module else "",
        "arguments": [str(spec) for spec in arguments],
        "outputs": [str(spec_of_array(o)) for o in outputs],
        "seed": seed,
        "target": {"name": chosen.name, "description": chosen.description},
        "compiler_options": dict(options or {}),
        "versions": {
            "jax": jax.__version__,
            "jaxlib": _version("jaxlib"),
            "python": platform.python_version(),
        },
    }
    (folder / layout.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return layout.open_bundle(folder)


@contextlib.contextmanager
def _native_stderr() -> Generator[io.StringIO]:
    """What native code writes to file descriptor 2 meanwhile, kept instead of shown.

    jaxlib logs (`no CUDA drivers`, a config's parse error) from C++, past Python's
    `sys.stderr`; the parse error becomes part of the one-line error instead.
    """
    logged = io.StringIO()
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield logged
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            logged.write(sink.read().decode(errors="replace"))


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return ""


def _lower(jax: ModuleType, function: Function, specs: list[ArgSpec], target: Target, label: str):
    from jax.experimental import topologies
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    topology: Any = None
    failure: Exception | None = None
    with _native_stderr() as logged:
        try:
            topology = topologies.get_topology_desc(
                platform="cuda", target_config=target.text, topology="1x1x1"
            )
        except Exception as error:  # noqa: BLE001 - jaxlib reports a bad proto in many ways
            failure = error
    if failure is not None:
        parse_error = _PROTO_ERROR.search(logged.getvalue())
        if parse_error is not None:
            line, column, reason = parse_error.groups()
            where = SourceLocation(target.path or target.name, int(line), int(column))
            raise UserError(f"not a GpuTargetConfigProto: {reason.strip()}", where)
        raise UserError(
            f"cannot compile for target '{target.name}': {_one_line(failure)} "
            "(a GpuTargetConfigProto in text form, and jax-cuda12-plugin installed?)"
        )
    mesh = topologies.make_mesh(topology, (1,), ("d",))
    sharding = NamedSharding(mesh, P())
    structs = [jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=sharding) for s in specs]
    files = [getattr(getattr(function, "__code__", None), "co_filename", "")]
    try:
        traced = jax.jit(function).trace(*structs)
        return traced.lower(lowering_platforms=("cuda",))
    except Exception as error:  # noqa: BLE001 - any error of the user's function
        where = _user_frame(error.__traceback__, files)
        shapes = " ".join(str(s) for s in specs)
        message = f"cannot trace '{label}' with {shapes}: {_one_line(error)}"
        raise UserError(message, where) from None


def _compile(lowered: Any, options: Mapping[str, Any], label: str) -> Any:
    try:
        return lowered.compile(dict(options))
    except Exception as error:  # noqa: BLE001 - XLA's errors come as several types
        raise UserError(f"XLA cannot compile '{label}': {_one_line(error)}") from None


def _run_on_cpu(
    jax: ModuleType, function: Function, inputs: list[np.ndarray], label: str
) -> list[np.ndarray]:
    cpu = jax.devices("cpu")[0]
    try:
        on_cpu = [jax.device_put(a, cpu) for a in inputs]
        with jax.default_device(cpu):
            results = jax.jit(function)(*on_cpu)
    except Exception as error:  # noqa: BLE001 - any error of the user's function
        raise UserError(f"XLA:CPU cannot run '{label}': {_one_line(error)}") from None
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(results)]


def _keep_dump(dump: Path, target: Path) -> None:
    """XLA's dump files, renamed without `module_NNNN.`, large ones compressed."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    for path in sorted(dump.iterdir()):
        if path.is_file():
            data = path.read_bytes()
            if data.startswith(b"HloModule"):  # its metadata names the user's files
                data = strip_hlo(data.decode()).encode()
            layout.write_dump_file(target / _DUMP_PREFIX.sub("", path.name), data)


def _strip_locations(text: str) -> str:
    """StableHLO without `loc(...)` and the `#loc` table (they name the user's paths)."""
    text = re.sub(r"^#loc.*\n", "", text, flags=re.MULTILINE)
    return re.sub(r" loc\(#loc\d*\)", "", text)
