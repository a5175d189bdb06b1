"""xla-emit-dump on XLA's pass logs: listing, extracting, replaying, and its errors."""

from __future__ import annotations

import lzma
from pathlib import Path

import pytest

from xla_emit.ir.parse import parse_mlir
from xla_emit.ir.pass_log import parse_pass_log
from xla_emit.tools.dump import main, text_census

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gpu"
GELU = CORPUS / "gelu_bf16" / "gpu" / "loop_multiply_fusion.mlir-passes.log.xz"


def test_lists_every_snapshot_with_its_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(GELU)]) == 0
    lines = capsys.readouterr().out.splitlines()
    headers = lzma.decompress(GELU.read_bytes()).decode().count("// -----// IR Dump Before")
    assert len(lines) == headers + 1
    assert lines[1].split() == ["0", "xla-simplify-arith", "@loop_multiply_fusion", "29"]
    assert any(line.split()[1] == "xla-lower-tensors" for line in lines[1:])


def test_extracts_by_index_and_by_pass_name(tmp_path: Path) -> None:
    out = tmp_path / "k.mlir"
    assert main([str(GELU), "--extract", "20", "-o", str(out)]) == 0
    by_index = out.read_text()
    assert main([str(GELU), "--extract", "xla-flatten-tensors", "-o", str(out)]) == 0
    assert out.read_text() == by_index
    assert main([str(GELU), "--extract", "21", "-o", str(out)]) == 0
    assert "tensor<512x640xbf16>" in by_index and "tensor<327680xbf16>" in out.read_text()


def test_replay_runs_our_passes_on_xla_snapshots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(GELU), "--replay"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    passes = [row[1] for row in rows]
    for name in ("xla-lower-xla-to-scf", "xla-flatten-tensors", "xla-vectorize-loads-stores"):
        assert name in passes
    # Every pass of ours computes what XLA's module computes on the same inputs.
    assert all(row[3] == "yes" for row in rows)
    flatten = rows[passes.index("xla-flatten-tensors")]
    assert flatten[2] == "yes"


def test_replay_keeps_the_named_passes_and_can_skip_the_outputs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main([str(GELU), "--replay", "--passes", "inline,xla-flatten-tensors", "--no-outputs"]) == 0
    )
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    # XLA's inliner runs cse on every function: that belongs to the inline step.
    assert rows == [["10", "inline", "yes", "-"], ["20", "xla-flatten-tensors", "yes", "-"]]


def test_census_reads_generic_and_custom_ops() -> None:
    text = '  %0 = arith.addf %a, %b : f32\n  "xla_gpu.pdl_wait"() : () -> ()\n  scf.yield\n'
    assert text_census(text) == {"arith.addf": 1, "xla_gpu.pdl_wait": 1, "scf.yield": 1}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--extract", "99"], "error: no snapshot 99: the log has 49 (0 to 48)"),
        (["--extract", "no-such-pass"], "error: no snapshot before a pass named 'no-such-pass'"),
        (
            ["--replay", "--passes", "inline,bogus"],
            "error: --passes: no pass of ours is named 'bogus'",
        ),
        (["--replay", "--passes", ","], "error: --passes: no pass named"),
    ],
)
def test_bad_snapshot_names_are_one_line_errors(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(GELU), *arguments]) == 1
    assert capsys.readouterr().err.strip() == message


def test_a_file_that_is_not_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.mlir"
    path.write_text("func.func @f() {\n  return\n}\n")
    assert main([str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"{path}:1:1: error: no '// -----// IR Dump Before ...' header: not a pass log"


def test_a_missing_or_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "none.log")]) == 1
    assert "cannot read pass log" in capsys.readouterr().err
    broken = tmp_path / "x.log.xz"
    broken.write_bytes(b"not xz")
    assert main([str(broken)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {broken}: cannot read pass log: ") and "\n" not in err


def test_snapshot_bodies_keep_log_line_numbers() -> None:
    header = "// -----// IR Dump Before CSEPass: cse ('builtin.module' operation) //----- //"
    (snapshot,) = parse_pass_log(f"{header}\nmodule {{\n}}\n")
    assert snapshot.pass_arg == "cse" and snapshot.anchor == "" and snapshot.line == 1
    assert snapshot.text.split("\n")[1] == "module {"


# A Triton log as XLA writes it (generic syntax, MLIR's pretty-form locations), cut
# down by hand to one tt kernel and the pass that leaves Triton IR.
TRITON_LOG = """\
// -----// IR Dump Before TritonCombineOps: triton-combine ('builtin.module' operation) //----- //
#loc = "fusion"
"builtin.module"() ({
  "tt.func"() <{function_type = (!tt.ptr<f32>) -> (), sym_name = "fusion"}> ({
  ^bb0(%arg0: !tt.ptr<f32> "fusion"):
    %0 = "tt.get_program_id"() <{axis = 0 : i32}> : () -> i32 "fusion"
    %1 = "tt.make_range"() <{end = 16 : i32, start = 0 : i32}> : () -> tensor<16xi32> [unknown]
    %2 = "tt.splat"(%arg0) : (!tt.ptr<f32>) -> tensor<16x!tt.ptr<f32>> "fusion"
    %3 = "tt.addptr"(%2, %1) : (tensor<16x!tt.ptr<f32>>, tensor<16xi32>) -> tensor<16x!tt.ptr<f32>> "fusion"
    %4 = "tt.load"(%3) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> "fusion"
    "tt.store"(%3, %4) : (tensor<16x!tt.ptr<f32>>, tensor<16xf32>) -> () "fusion"
    "tt.return"() : () -> () "fusion"
  }) : () -> () "fusion"
}) : () -> () "fusion"


// -----// IR Dump Before ConvertTritonToTritonGPU: convert-triton-to-tritongpu{num-warps=4} ('builtin.module' operation) //----- //
"builtin.module"() ({
}) : () -> () [unknown]


// -----// IR Dump Before TritonGPUCoalesce: tritongpu-coalesce ('builtin.module' operation) //----- //
"builtin.module"() ({
}) : () -> () [unknown]
"""  # noqa: E501 (XLA's lines)


def test_lists_and_extracts_a_triton_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "k.triton-to-llvm.txt"
    log.write_text(TRITON_LOG)
    assert main([str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines[1:3]] == [
        "triton-combine",
        "convert-triton-to-tritongpu",
    ]
    assert "TritonGPU IR from here on" in lines[3] and lines[4].split()[1] == "tritongpu-coalesce"
    out = tmp_path / "k.mlir"
    assert main([str(log), "--extract", "0", "-o", str(out)]) == 0
    text = out.read_text()
    # The locations are gone, the line numbers of the log kept in error messages.
    assert '> "fusion"' not in text and "[unknown]" not in text and "#loc" not in text
    assert '"tt.load"(%3) <{operandSegmentSizes = array<i32: 1, 0, 0>}>' in text
    module, _ = parse_mlir(text, "k.mlir")
    assert "%4 = tt.load %3 : tensor<16x!tt.ptr<f32>>" in str(module)
