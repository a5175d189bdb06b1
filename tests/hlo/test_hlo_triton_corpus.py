"""The Triton corpus (tests/corpus/triton): XLA:GPU's default route, from jax 0.10.2 and 0.12.

For every program of both versions: the HLO parser reads `gpu.hlo` and prints
it back unchanged, with the backend configs that name each fusion's route; the
numpy evaluator run on `gpu.hlo` reproduces XLA:CPU's outputs; every Triton
fusion has its dumps, whose pass-log headers are well formed, whose first
snapshot is the emitter's `xtile.entry_func` for that fusion, and whose program-id
range is the number of output tiles the backend config asks for.

Tolerances against XLA:CPU (which compiles the same function into its own graph):
integers and booleans bit for bit; bf16 bit for bit unless XLA:CPU rounds it
elsewhere (`BF16_ROUNDED_ELSEWHERE`); f32 within `F32_ULPS` ulp of XLA:CPU's value
or `F32_SCALE_EPS` of the largest output (XLA:CPU and the evaluator add the terms of
dots and reductions in different orders, and XLA's exp/log/rsqrt are a few ulp off
correctly rounded).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from xla_emit.hlo import evaluate_module, parse_hlo_module, print_module
from xla_emit.hlo.ir import HloInstruction, HloModule
from xla_emit.hlo.npz import read_inputs
from xla_emit.ir.pass_log import Snapshot, read_log_text, read_pass_log

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "triton"
VERSIONS = ("jax-0.10.2", "jax-0.12")
PROGRAMS = (
    "attention_bf16",
    "cross_entropy_grad",
    "kv_cache_decode",
    "layernorm_backward_bf16",
    "layernorm_backward_f32",
    "layernorm_bf16",
    "layernorm_f32",
    "mlp_step_bf16",
    "softmax_bf16",
    "softmax_f32",
    "split_k_bf16",
    "top_p_sample",
)
CASES = [(version, program) for version in VERSIONS for program in PROGRAMS]
IDS = [f"{version}-{program}" for version, program in CASES]
# The fusion kinds XLA:GPU emits with its Triton emitter (one kernel each).
TRITON_KINDS = ("__triton", "__triton_gemm", "__triton_nested_gemm_fusion")
# What XLA keeps per Triton fusion (tools/triton_corpus.py, SUFFIXES).
PASS_LOGS = (".xtile-to-triton.txt", ".canonicalize-cse.txt", ".triton-to-llvm.txt")
IR_FILES = (".before_validation.ttir.txt", ".ttir.txt", ".hlo")

F32_ULPS = 8
F32_SCALE_EPS = 8 * float(np.finfo(np.float32).eps)
# XLA:CPU computes bf16 elementwise ops in f32 (its modules of these programs hold no bf16
# multiply) where XLA:GPU's fusions, which the evaluator follows, compute them in bf16:
# so these bf16 outputs round at other points, and are held to this many bf16 eps of the
# largest output (measured: at most 2.4) instead of bit for bit.
BF16_SCALE_EPS = 4
BF16_ROUNDED_ELSEWHERE = frozenset(
    [("attention_bf16", 0)]
    + [("layernorm_backward_bf16", number) for number in range(3)]
    + [("mlp_step_bf16", number) for number in range(1, 5)]
)
# (program, output) -> relative to the largest output, with the reason.
F32_LOOSER: dict[tuple[str, int], float] = {
    # An f32 loss of bf16 arithmetic: XLA:CPU keeps some bf16 products in f32.
    ("mlp_step_bf16", 0): 1e-3,
}


def load(version: str, program: str) -> HloModule:
    path = CORPUS / version / program / "gpu.hlo"
    return parse_hlo_module(path.read_text(), str(path))


def fusion_config(instruction: HloInstruction) -> dict[str, object]:
    raw = dict(instruction.extra_attributes).get("backend_config")
    if raw is None:
        return {}
    config = json.loads(raw).get("fusion_backend_config", {})
    assert isinstance(config, dict)
    return config


def triton_fusions(module: HloModule) -> dict[str, HloInstruction]:
    """The entry's fusions XLA:GPU sends to its Triton emitter, by name."""
    return {
        instruction.name: instruction
        for instruction in module.entry.instructions
        if instruction.opcode == "fusion" and fusion_config(instruction).get("kind") in TRITON_KINDS
    }


# Route names as the README's table spells them, in its order.
ROUTES = {
    "__triton": "triton",
    "__triton_gemm": "triton gemm",
    "__triton_nested_gemm_fusion": "nested gemm",
    "cublas": "cuBLAS",
    "kLoop": "loop",
    "kInput": "input",
    "sort": "sort",
}


def route(instruction: HloInstruction) -> str | None:
    """Which of XLA:GPU's code generators runs an entry instruction, if it is a kernel."""
    if instruction.opcode == "custom-call" and (instruction.custom_call_target or "").startswith(
        "__cublas"
    ):
        return "cublas"
    if instruction.opcode != "fusion":
        return None
    kind = fusion_config(instruction).get("kind")
    if isinstance(kind, str):
        return kind
    if instruction.called_computations[0].root.opcode == "sort":
        return "sort"
    return instruction.fusion_kind


def route_census(module: HloModule) -> str:
    """`2 triton, 3 loop, ...`: how many of the entry's kernels take each route."""
    routes = [route(instruction) for instruction in module.entry.instructions]
    counts = {name: routes.count(key) for key, name in ROUTES.items()}
    assert len([r for r in routes if r is not None]) == sum(counts.values()), routes
    return ", ".join(f"{count} {name}" for name, count in counts.items() if count)


def test_readme_route_table_is_the_corpus() -> None:
    """The README's table of routes says what each gpu.hlo holds."""
    rows = re.findall(
        r"^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|$",
        (CORPUS / "README.md").read_text(),
        re.MULTILINE,
    )
    table = {name: (old.strip(), new.strip()) for name, old, new in rows}
    computed = {
        program: tuple(route_census(load(version, program)) for version in VERSIONS)
        for program in PROGRAMS
    }
    assert table == computed


def test_corpus_is_complete() -> None:
    for version in VERSIONS:
        present = sorted(p.name for p in (CORPUS / version).iterdir() if p.is_dir())
        assert present == sorted(PROGRAMS), version


@pytest.mark.parametrize(("version", "program"), CASES, ids=IDS)
def test_gpu_hlo_parses_and_prints_back(version: str, program: str) -> None:
    printed = print_module(load(version, program))
    assert print_module(parse_hlo_module(printed, "printed")) == printed
    assert "backend_config=" in printed and "metadata=" not in printed


def _matches(name: str, number: int, ours: np.ndarray, xla: np.ndarray) -> None:
    what = f"{name} out{number}"
    if ours.dtype == ml_dtypes.bfloat16:
        xla = xla.view(ml_dtypes.bfloat16)
        if (name, number) not in BF16_ROUNDED_ELSEWHERE:
            np.testing.assert_array_equal(ours.view(np.uint16), xla.view(np.uint16), err_msg=what)
            return
        scale = float(np.abs(xla.astype(np.float64)).max(initial=0.0))
        bound = BF16_SCALE_EPS * float(ml_dtypes.finfo(ml_dtypes.bfloat16).eps) * scale
        error = np.abs(ours.astype(np.float64) - xla.astype(np.float64))
        assert (error <= bound).all(), f"{what}: max error {error.max():.3g} > {bound:.3g}"
        return
    if ours.dtype.kind != "f":
        np.testing.assert_array_equal(ours, xla, err_msg=what)
        return
    assert ours.dtype == xla.dtype, what
    assert np.array_equal(np.isnan(ours), np.isnan(xla)), f"{what}: NaN positions"
    scale = float(np.abs(xla).max(initial=0.0))
    relative = F32_LOOSER.get((name, number), F32_SCALE_EPS)
    tolerance = F32_ULPS * np.spacing(np.abs(xla)) + relative * scale
    error = np.abs(ours.astype(np.float64) - xla)
    assert not (error > tolerance).any(), f"{what}: max error {error.max():.3g}"


@pytest.mark.parametrize(("version", "program"), CASES, ids=IDS)
def test_evaluator_reproduces_xla_cpu(version: str, program: str) -> None:
    module = load(version, program)
    folder = CORPUS / version / program
    arguments = read_inputs(str(folder / "inputs.npz"), module.entry)
    outputs = evaluate_module(module, arguments)
    with np.load(folder / "outputs.npz") as expected:
        assert len(outputs) == len(expected.files)
        for number, output in enumerate(outputs):
            _matches(program, number, output, expected[f"out{number}"])


def test_every_program_has_a_triton_fusion() -> None:
    for version, program in CASES:
        assert triton_fusions(load(version, program)), f"{version}/{program}"


@pytest.mark.parametrize(("version", "program"), CASES, ids=IDS)
def test_every_triton_fusion_has_its_dumps(version: str, program: str) -> None:
    fusions = triton_fusions(load(version, program))
    folder = CORPUS / version / program / "triton"
    kept = {p.name for p in folder.iterdir()} if folder.exists() else set()
    wanted = {f"{name}{suffix}.xz" for name in fusions for suffix in PASS_LOGS + IR_FILES}
    assert kept == wanted


def _pass_log(version: str, program: str, name: str, suffix: str) -> list[Snapshot]:
    path = CORPUS / version / program / "triton" / f"{name}{suffix}.xz"
    snapshots = read_pass_log(path)
    # Every header line is one the reader takes as a snapshot's start.
    headers = [line for line in read_log_text(path).splitlines() if line.startswith("// -----//")]
    assert len(headers) == len(snapshots), path
    assert all(s.body.strip() for s in snapshots), path
    return snapshots


def _program_ids(snapshot: Snapshot, symbol: str) -> int | None:
    """How many program ids the emitted entry function admits: its program-id argument's
    `xla.range`, or the domain of the indexing maps applied to that argument (jax 0.10.2's
    gemm fusions); None where the log says neither (jax 0.10.2's normalization fusions)."""
    body = snapshot.body
    entry = re.search(
        rf'"xtile\.entry_func"\(\) <\{{(?P<attrs>.*?)sym_name = "{re.escape(symbol)}"\}}> '
        r"\(\{\n *\^bb0\((?P<arguments>.*)\):",
        body,
    )
    assert entry, f"no xtile.entry_func @{symbol}"
    ranged = re.search(r"xla\.range = \[0 : index, (\d+) : index\]", entry["attrs"])
    if ranged:
        return int(ranged.group(1)) + 1
    pid = re.findall(r"(%arg\d+): index", entry["arguments"])[-1]
    maps = set(re.findall(rf'"xla\.apply_indexing"\({pid}\) <\{{indexing_map_attr = #(\w+)', body))
    domains = set()
    for name in maps:
        domain = re.search(rf"^#{name} = .*domain: \w+ in \[0, (\d+)\]", body, re.MULTILINE)
        assert domain, f"@{symbol}: #{name} has no domain"
        domains.add(int(domain.group(1)))
    assert len(domains) <= 1, f"@{symbol}: program-id domains {domains}"
    return domains.pop() + 1 if domains else None


def _launch(instruction: HloInstruction) -> tuple[int, int]:
    """Program ids and threads per program the backend config asks for: one program per
    output tile, 32 threads per warp."""
    config = fusion_config(instruction)["block_level_fusion_config"]
    assert isinstance(config, dict)
    (tile,) = config["output_tiles"]
    sizes = [int(size) for size in tile["sizes"]]
    dimensions = instruction.array_shape.dimensions
    tiles = math.prod(-(-extent // size) for extent, size in zip(dimensions, sizes, strict=True))
    return tiles, 32 * int(config["num_warps"])


_THUNK = re.compile(
    r"^\d+: \w+ \[.*?\] (?P<kernel>\S+) grid: \[(?P<grid>[\d, ]+)\] "
    r"threads: \[(?P<threads>[\d, ]+)\]"
)


def thunk_launches(version: str, program: str) -> dict[str, tuple[list[int], list[int]]]:
    """Each kernel's grid and block from XLA's thunk sequence, by kernel name."""
    text = (CORPUS / version / program / "thunk_sequence.txt").read_text()
    launches = {}
    for line in text.splitlines():
        match = _THUNK.match(line)
        if match is None:
            continue  # a copy, a library call: no launch
        grid, threads = ([int(n) for n in match[key].split(", ")] for key in ("grid", "threads"))
        launches[match["kernel"]] = (grid, threads)
    return launches


@pytest.mark.parametrize(("version", "program"), CASES, ids=IDS)
def test_triton_launches_follow_the_backend_config(version: str, program: str) -> None:
    launches = thunk_launches(version, program)
    for name, fusion in triton_fusions(load(version, program)).items():
        tiles, threads = _launch(fusion)
        assert launches[name.replace(".", "_")] == ([tiles, 1, 1], [threads, 1, 1]), name


@pytest.mark.parametrize(("version", "program"), CASES, ids=IDS)
def test_triton_pass_logs_are_well_formed(version: str, program: str) -> None:
    launches = thunk_launches(version, program)
    for name in triton_fusions(load(version, program)):
        symbol = name.replace(".", "_")
        lowering = _pass_log(version, program, name, ".xtile-to-triton.txt")
        assert [s.pass_arg for s in lowering][-1] == "convert-unsupported-types"
        program_ids = _program_ids(lowering[0], symbol)
        assert program_ids in (None, launches[symbol][0][0]), name
        cleanup = _pass_log(version, program, name, ".canonicalize-cse.txt")
        assert [s.pass_arg for s in cleanup] == ["canonicalize", "cse"]
        ttir = read_log_text(CORPUS / version / program / "triton" / f"{name}.ttir.txt.xz")
        assert f"xtile.entry_func @{symbol}(" in ttir
        # Kept up to TTIR proper: `tt.func` on pointers, the program id read from the grid.
        pipeline = _pass_log(version, program, name, ".triton-to-llvm.txt")
        assert pipeline[-1].pass_arg == "convert-triton-to-tritongpu"
        assert f'sym_name = "{symbol}"' in pipeline[-1].body
        assert '"tt.func"()' in pipeline[-1].body and '"tt.get_program_id"()' in pipeline[-1].body
