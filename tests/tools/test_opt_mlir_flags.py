"""mlir-opt's flags in `xla-emit-opt`, with mlir-opt's meaning.

Each flag's output is compared whole with an independent run: the IR printed
after a pass is what a run that stops after that pass prints, `--pass-pipeline`
runs what the same passes given with `-p` run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.tools.opt import main
from xla_emit.tools.pass_pipeline import PipelineStep, flatten_pass_pipeline, read_pass_pipeline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# cse merges %d into %b, canonicalize then has nothing to do.
KERNEL = """\
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  func.return %e : i32
}
"""


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    path = tmp_path / "k.mlir"
    path.write_text(KERNEL)
    return path


def opt(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def header(what: str) -> str:
    return f"// -----// IR Dump {what} //----- //\n"


def test_print_ir_after_one_pass_is_that_passs_output(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    _, after_cse, _ = opt(capsys, str(kernel), "-p", "cse")
    status, _, err = opt(capsys, str(kernel), "-p", "cse,canonicalize", "--mlir-print-ir-after=cse")
    assert status == 0
    assert err == header("After cse") + after_cse


def test_print_ir_before_one_pass_is_its_input(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    _, after_cse, _ = opt(capsys, str(kernel), "-p", "cse")
    _, _, err = opt(
        capsys,
        str(kernel),
        "-p",
        "cse,canonicalize",
        "--mlir-print-ir-before=canonicalize",
        "--mlir-print-ir-before=cse",
    )
    _, as_parsed, _ = opt(capsys, str(kernel))
    assert err == header("Before cse") + as_parsed + header("Before canonicalize") + after_cse


def test_print_ir_before_all_and_after_all_interleave(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    for before_all in ("--print-ir-before-all", "--mlir-print-ir-before-all"):
        _, _, err = opt(
            capsys, str(kernel), "-p", "cse,canonicalize", before_all, "--mlir-print-ir-after-all"
        )
        headers = [line for line in err.splitlines() if line.startswith("// -----//")]
        assert headers == [
            header(h).rstrip("\n")
            for h in ("Before cse", "After cse", "Before canonicalize", "After canonicalize")
        ]


def test_print_ir_after_change_skips_a_pass_that_changed_nothing(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    _, after_cse, _ = opt(capsys, str(kernel), "-p", "cse")
    _, _, err = opt(
        capsys, str(kernel), "-p", "cse,cse", "--print-ir-after-all", "--mlir-print-ir-after-change"
    )
    assert err == header("After cse") + after_cse
    # Alone, as in mlir-opt, it prints nothing: it only filters what is printed after a pass.
    _, _, err = opt(capsys, str(kernel), "-p", "cse", "--mlir-print-ir-after-change")
    assert err == ""


MISALIGNED = """\
func.func @kernel(%x: memref<8x512xf32, #tpu.memory_space<vmem>>, %i: index) -> vector<8x128xf32> {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%c0, %i] : memref<8x512xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  %w = vector.load %x[%c0, %i] : memref<8x512xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
  return %v : vector<8x128xf32>
}
"""


def test_print_ir_after_failure_prints_only_the_failed_pass(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(MISALIGNED)
    _, after_cse, _ = opt(capsys, str(path), "-p", "cse")
    status, out, err = opt(
        capsys, str(path), "-p", "cse,tpu-verify-alignment", "--mlir-print-ir-after-failure"
    )
    assert status == 1 and out == ""
    dump, _, error = err.partition("\n" + str(path))
    # The failing pass changed nothing: the IR after it is the IR after cse.
    assert dump + "\n" == header("After tpu-verify-alignment Failed") + after_cse
    assert error.startswith(":3:3: error: [tpu-verify-alignment]")


def test_pass_pipeline_runs_what_p_runs(capsys: pytest.CaptureFixture[str], kernel: Path) -> None:
    _, with_p, _ = opt(capsys, str(kernel), "-p", "cse,canonicalize")
    status, nested, _ = opt(
        capsys, str(kernel), "--pass-pipeline=builtin.module(func.func(cse),canonicalize)"
    )
    assert status == 0
    assert nested == with_p
    # As in mlir-opt, -p takes the anchored form too.
    _, anchored_p, _ = opt(capsys, str(kernel), "-p", "builtin.module(cse,canonicalize)")
    assert anchored_p == with_p


@pytest.mark.parametrize(
    ("pipeline", "flat"),
    [
        ("builtin.module(cse)", "cse"),
        ("builtin.module(cse, func.func(canonicalize, cse))", "cse,canonicalize,cse"),
        (
            "builtin.module(xla-gpu-optimize-loops{max-unroll-factor=8},any(cse))",
            "xla-gpu-optimize-loops{max-unroll-factor=8},cse",
        ),
        ('builtin.module(gpu.module(a{s="x)y"}))', 'a{s="x)y"}'),
        ("builtin.module()", ""),
    ],
)
def test_pass_pipeline_flattens_nested_lists(pipeline: str, flat: str) -> None:
    assert flatten_pass_pipeline(pipeline) == flat


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("cse", "must be anchored on an operation, as in 'builtin.module(cse)'"),
        ("builtin.module(cse", "expected ',' or ')'"),
        ("builtin.module(cse))", "unexpected text after the pipeline"),
        ("cse(canonicalize)", "'cse' is not an operation name"),
        ("builtin.module(a{x=1)", "unterminated '{'"),
    ],
)
def test_malformed_pass_pipelines_are_named(pipeline: str, message: str) -> None:
    with pytest.raises(UserError) as caught:
        flatten_pass_pipeline(pipeline)
    assert message in caught.value.message


def test_pass_pipeline_errors_are_usage_errors(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([str(kernel), "--pass-pipeline=cse"])
    assert caught.value.code == 2
    assert "must be anchored on an operation" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([str(kernel), "-p", "cse", "--pass-pipeline=builtin.module(cse)"])
    assert "not both" in capsys.readouterr().err


def test_an_unknown_pass_to_print_around_is_an_error(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    status, _, err = opt(capsys, str(kernel), "-p", "cse", "--mlir-print-ir-after=no-such-pass")
    assert status == 1
    assert err == (
        "error: --mlir-print-ir-before/after: no pass named 'no-such-pass' (see --list-passes)\n"
    )


def test_mlir_spellings_of_generic_printing_and_timing(
    capsys: pytest.CaptureFixture[str], kernel: Path
) -> None:
    _, generic, _ = opt(capsys, str(kernel), "--print-op-generic")
    _, mlir_generic, _ = opt(capsys, str(kernel), "--mlir-print-op-generic")
    assert mlir_generic == generic
    assert '"arith.addi"' in generic
    _, _, timing = opt(capsys, str(kernel), "-p", "cse", "--mlir-timing")
    assert "Execution time report" in timing
    assert " cse\n" in timing


def test_debuginfo_prints_every_location_and_the_aliases_after_the_module(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "d.mlir"
    path.write_text(
        "func.func @f(%a: i32) -> i32 {\n"
        "  %b = arith.addi %a, %a : i32 loc(#loc1)\n"
        "  func.return %b : i32\n"
        "}\n"
        '#loc1 = loc("k.py":3:8 to :20)\n'
    )
    file = str(path)
    _, out, _ = opt(capsys, file, "--mlir-print-debuginfo")
    assert out == (
        f'#loc2 = loc("{file}":1:14)\n'
        "builtin.module {\n"
        f'  func.func @f(%a: i32 loc("{file}":1:14)) -> i32 {{\n'
        "    %b = arith.addi %a, %a : i32 loc(#loc3)\n"
        "    func.return %b : i32 loc(#loc4)\n"
        "  } loc(#loc1)\n"
        "} loc(#loc)\n"
        f'#loc = loc("{file}":0:0)\n'
        f'#loc1 = loc("{file}":1:1)\n'
        '#loc3 = loc("k.py":3:8 to :20)\n'
        f'#loc4 = loc("{file}":3:3)\n'
    )
    # Without the flag nothing changes: no location is printed.
    _, plain, _ = opt(capsys, file)
    assert "loc(" not in plain and "#loc" not in plain
    # The printed text parses back to the same text.
    again = tmp_path / "again.mlir"
    again.write_text(out)
    _, reprinted, _ = opt(capsys, str(again), "--mlir-print-debuginfo")
    assert reprinted == out


def test_fusion_emits_one_kernel_of_an_hlo_module(capsys: pytest.CaptureFixture[str]) -> None:
    softmax = str(EXAMPLES / "softmax.hlo")
    status, one, _ = opt(capsys, softmax, "--fusion", "e")
    assert status == 0
    _, every, _ = opt(capsys, softmax)
    functions = [line for line in one.splitlines() if line.startswith("  func.func")]
    assert [f.split("(")[0] for f in functions] == [
        "  func.func @e",
        "  func.func private @fused_exp_e",
    ]
    # The kernel is the one the whole module holds, function for function.
    body = one.split("builtin.module {\n", 1)[1].rsplit("}\n", 1)[0]
    assert body in every


def test_an_unknown_fusion_names_the_ones_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = opt(capsys, str(EXAMPLES / "softmax.hlo"), "--fusion", "nope")
    assert status == 1
    assert err == (
        "error: module 'softmax' has no fusion named 'nope' "
        "(its fusions: row_max, e, inverse, softmax)\n"
    )


# A loop of 8 trips with a body under XLA's size budget: the size rule unrolls it fully,
# a cap of 2 holds the factor down to 2.
LOOP = EXAMPLES / "gelu" / "05_vectorized.mlir"


def test_pass_options_take_mlirs_dashed_spelling_and_the_underscore_alias(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, dashed, _ = opt(capsys, str(LOOP), "-p", "xla-gpu-optimize-loops{max-unroll-factor=2}")
    _, underscored, _ = opt(capsys, str(LOOP), "-p", "xla-gpu-optimize-loops{max_unroll_factor=2}")
    _, uncapped, _ = opt(capsys, str(LOOP), "-p", "xla-gpu-optimize-loops")
    assert dashed == underscored
    assert dashed != uncapped  # the option took effect


def test_pass_options_print_with_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    _, listed, _ = opt(capsys, "--list-passes")
    _, one, _ = opt(capsys, "--help-pass", "xla-gpu-optimize-loops")
    assert "--max-unroll-factor=<int> (default: 0)" in one
    assert "- max-unroll-factor (int, default 0)" in one
    options = [line.split("=")[0] for line in listed.splitlines() if line.strip().startswith("--")]
    assert options and all("_" not in option for option in options)


def test_an_unknown_option_is_named_with_dashes(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = opt(capsys, str(LOOP), "-p", "xla-gpu-optimize-loops{max-unrol=2}")
    assert status == 1
    assert (
        '["max-unrol"] not found in expected arguments ["max-unroll-factor", "greedy-cleanup"]'
        in err
    )


def test_an_option_error_raised_by_a_pass_names_the_dashed_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = opt(capsys, str(LOOP), "-p", "xla-gpu-optimize-loops{max-unroll-factor=-1}")
    assert status == 1
    assert (
        err.strip() == "error: [xla-gpu-optimize-loops] max-unroll-factor must be >= 0, but got -1"
    )


# Two functions with one duplicate each; @f calls @g.
TWO_FUNCTIONS = """\
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %b = arith.addi %a, %c : i32
  %d = arith.addi %a, %c : i32
  %e = arith.addi %b, %d : i32
  %r = func.call @g(%e) : (i32) -> i32
  func.return %r : i32
}
func.func private @g(%a: i32) -> i32 {
  %c = arith.constant 2 : i32
  %b = arith.muli %a, %c : i32
  %d = arith.muli %a, %c : i32
  %e = arith.muli %b, %d : i32
  func.return %e : i32
}
"""


@pytest.fixture
def two_functions(tmp_path: Path) -> Path:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_FUNCTIONS)
    return path


def _function_text(module_text: str, name: str) -> str:
    """One function of a printed module, unindented, as mlir-opt prints a function alone."""
    lines = module_text.splitlines()[1:-1]
    start = next(i for i, line in enumerate(lines) if "func.func" in line and f"@{name}(" in line)
    end = next(i for i in range(start, len(lines)) if lines[i] == "  }")
    return "\n".join(line[2:] for line in lines[start : end + 1]) + "\n"


def test_a_pass_nested_under_func_func_runs_on_each_function_on_its_own(
    capsys: pytest.CaptureFixture[str], two_functions: Path
) -> None:
    _, whole, _ = opt(capsys, str(two_functions), "-p", "cse")
    status, out, err = opt(
        capsys,
        str(two_functions),
        "--pass-pipeline=builtin.module(func.func(cse))",
        "--mlir-print-ir-after=cse",
    )
    assert status == 0
    assert out == whole  # cse changes nothing across functions
    # mlir-opt prints a function pass's IR once per function, that function alone.
    assert err == (
        header("After cse ('func.func' operation: @f)")
        + _function_text(whole, "f")
        + header("After cse ('func.func' operation: @g)")
        + _function_text(whole, "g")
    )


def test_a_module_level_pipeline_prints_the_module_once(
    capsys: pytest.CaptureFixture[str], two_functions: Path
) -> None:
    _, whole, _ = opt(capsys, str(two_functions), "-p", "cse")
    _, _, err = opt(
        capsys,
        str(two_functions),
        "--pass-pipeline=builtin.module(cse)",
        "--mlir-print-ir-after=cse",
    )
    assert err == header("After cse") + whole


def test_a_whole_module_pass_cannot_be_nested_under_func_func(
    capsys: pytest.CaptureFixture[str], two_functions: Path
) -> None:
    status, out, err = opt(
        capsys,
        str(two_functions),
        "--pass-pipeline=builtin.module(func.func(cse,xla-erase-dead-functions))",
    )
    assert status == 1 and out == ""
    assert err == (
        "error: 'xla-erase-dead-functions' runs on the whole module: it cannot be nested under "
        "'func.func' (give it outside the func.func(...) list)\n"
    )


def test_pipeline_steps_keep_each_passs_anchor() -> None:
    steps = read_pass_pipeline(
        "builtin.module(cse,func.func(canonicalize,any(cse)),func.func(dce),inline)"
    )
    assert steps == [
        PipelineStep("builtin.module", "cse"),
        PipelineStep("func.func", "canonicalize,cse,dce"),
        PipelineStep("builtin.module", "inline"),
    ]
