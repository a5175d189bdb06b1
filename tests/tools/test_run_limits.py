"""xla-emit-run's budgets: memory checked before allocating, steps counted while running.

Every error is one located line with the budget in it; sizes are worked out
by hand (3.64 TiB = 10^12 f32 elements = 4e12 / 2^40 bytes).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

from xla_emit.limits import format_bytes, parse_byte_size
from xla_emit.runtime.reporting import progress_bar
from xla_emit.tools.opt import main as opt_main
from xla_emit.tools.run import main

HUGE_PARAMETER = """HloModule m
ENTRY main {
  ROOT p = f32[1000000,1000000] parameter(0)
}
"""
SMALL_MODULE = """HloModule m
ENTRY main {
  p0 = f32[4] parameter(0)
  ROOT n = f32[4] negate(p0)
}
"""
HUGE_TENSOR_KERNEL = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<1000000x1000000xf32>
  return %a : tensor<4xf32>
}
"""
HUGE_GRID_KERNEL = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %b = gpu.block_id  x {xla.range = [0 : index, 999999999999 : index]}
  return %a : tensor<4xf32>
}
"""
DYNAMIC_ARGUMENT_KERNEL = """func.func @main(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
"""
DYNAMIC_BODY_KERNEL = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %c = tensor.cast %a : tensor<4xf32> to tensor<?xf32>
  return %a : tensor<4xf32>
}
"""
ENDLESS_GPU_LOOP = """func.func @main(%a: tensor<4xf32>, %out: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000000 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    scf.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""
ENDLESS_TPU_LOOP = """func.func @main(%m: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {
    dimension_semantics = [], iteration_bounds = array<i64>, scalar_prefetch = 0 : i64,
    scratch_operands = 0 : i64, window_params = []} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000000000000 : index
  scf.for %i = %c0 to %n step %c1 {
  }
  return
}
"""
ENDLESS_PTO_LOOP = """module attributes {pto.target_arch = "a2a3"} {
  func.func @f(%in: !pto.partition_tensor_view<16x16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant 1000000000000 : index
    scf.for %i = %c0 to %n step %c1 {
    }
    return
  }
}
"""
HUGE_PTO_PARAMETER = """module attributes {pto.target_arch = "a2a3"} {
  func.func @f(%in: !pto.partition_tensor_view<1000000x1000000xf32>) {
    return
  }
}
"""


def run(tmp_path: Path, name: str, text: str, *flags: str) -> int:
    path = tmp_path / name
    path.write_text(text)
    return main([str(path), *flags])


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err.splitlines()[0]


@pytest.mark.parametrize(
    ("text", "size"),
    [("4G", 4 << 30), ("512M", 512 << 20), ("1000000", 1000000), ("1.5GiB", 3 << 29)],
)
def test_byte_sizes(text: str, size: int) -> None:
    assert parse_byte_size(text) == size


@pytest.mark.parametrize("text", ["", "4X", "-1G", "0", "G"])
def test_bad_byte_sizes(text: str) -> None:
    with pytest.raises(ValueError):
        parse_byte_size(text)


def test_bytes_print_in_binary_units() -> None:
    assert format_bytes(4 * 10**12) == "3.64 TiB"
    assert format_bytes(8 << 30) == "8 GiB"
    assert format_bytes(12) == "12 B"


@pytest.mark.parametrize("mode", [[], ["--reference"]])
def test_huge_hlo_parameter_is_refused_before_allocation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    assert run(tmp_path, "huge.hlo", HUGE_PARAMETER, *mode) == 1
    assert error_line(capsys) == (
        f"{tmp_path}/huge.hlo:3:8: error: 'p' (parameter f32[1000000,1000000]) needs 3.64 TiB, "
        "over the memory budget of 8 GiB (--max-memory)"
    )


def test_max_memory_flag_sets_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The input and the result: 16 bytes each, held together.
    assert run(tmp_path, "small.hlo", SMALL_MODULE, "--max-memory", "32") == 0
    assert run(tmp_path, "small.hlo", SMALL_MODULE, "--max-memory", "15") == 1
    assert error_line(capsys) == (
        f"{tmp_path}/small.hlo:3:3: error: 'p0' (parameter f32[4]) needs 16 B, "
        "over the memory budget of 15 B (--max-memory)"
    )


# Three 1 KiB arrays, each under a 2 KiB budget, held at once: the input and both results
# (the tuple only views them).
THREE_KIB_MODULE = """HloModule m
ENTRY main {
  p0 = f32[256] parameter(0)
  a = f32[256] negate(p0)
  b = f32[256] exponential(a)
  ROOT t = (f32[256], f32[256]) tuple(a, b)
}
"""
# A fusion whose computation makes three 1 KiB arrays while it runs (the evaluator
# materializes each), besides the 1 KiB input and output: 5 KiB.
FUSED_MODULE = """HloModule m
%fused (x: f32[256]) -> f32[256] {
  %x = f32[256] parameter(0)
  %e = f32[256] exponential(%x)
  %n = f32[256] negate(%e)
  ROOT %m = f32[256] multiply(%e, %n)
}

ENTRY main {
  p0 = f32[256] parameter(0)
  ROOT f = f32[256] fusion(p0), kind=kLoop, calls=%fused
}
"""


@pytest.mark.parametrize("mode", [[], ["--reference"], ["--check"]])
def test_arrays_that_fit_one_by_one_but_not_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: list[str]
) -> None:
    assert run(tmp_path, "three.hlo", THREE_KIB_MODULE, "--max-memory", "2K", *mode) == 1
    assert error_line(capsys) == (
        f"{tmp_path}/three.hlo:3:3: error: a run holds 3 KiB at once, over the memory budget "
        "of 2 KiB (--max-memory): 'p0' (parameter f32[256]) 1 KiB, 'a' (negate f32[256]) "
        "1 KiB, 'b' (exponential f32[256]) 1 KiB"
    )
    # --check runs the kernels with write tracking, two int32 per element of an output, which
    # the kernel's run holds besides: negate's 1 KiB input, 1 KiB output and 2 KiB tracking.
    enough = "4K" if mode == ["--check"] else "3K"
    assert run(tmp_path, "three.hlo", THREE_KIB_MODULE, "--max-memory", enough, *mode) == 0


def test_what_a_fusion_holds_while_it_runs_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, "fused.hlo", FUSED_MODULE, "--max-memory", "4K") == 1
    assert error_line(capsys) == (
        f"{tmp_path}/fused.hlo:11:8: error: a run holds 5 KiB at once, over the memory budget "
        "of 4 KiB (--max-memory): what 'f' (fusion) holds while it runs 3 KiB, "
        "'p0' (parameter f32[256]) 1 KiB, 'f' (fusion f32[256]) 1 KiB"
    )
    assert run(tmp_path, "fused.hlo", FUSED_MODULE, "--max-memory", "5K") == 0


def test_beyond_three_contributors_the_rest_is_summed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = THREE_KIB_MODULE.replace(
        "ROOT t = (f32[256], f32[256]) tuple(a, b)",
        "c = f32[128] slice(b), slice={[0:128]}\n  ROOT t = (f32[256], f32[128]) tuple(a, c)",
    )
    assert run(tmp_path, "four.hlo", text, "--max-memory", "3K") == 1
    assert error_line(capsys).endswith(
        "error: a run holds 3.5 KiB at once, over the memory budget of 3 KiB (--max-memory): "
        "'p0' (parameter f32[256]) 1 KiB, 'a' (negate f32[256]) 1 KiB, "
        "'b' (exponential f32[256]) 1 KiB and 1 more (512 B)"
    )


def test_bad_max_memory_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        run(tmp_path, "small.hlo", SMALL_MODULE, "--max-memory", "4X")
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "xla-emit-run: error: argument --max-memory: invalid memory_size value: '4X'"
    )


def test_huge_kernel_tensor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "k.mlir", HUGE_TENSOR_KERNEL, "--max-memory", "4G") == 1
    assert error_line(capsys) == (
        f"{tmp_path}/k.mlir:2:3: error: 'tensor.empty' op result 0 "
        "(tensor<1000000x1000000xf32>) needs 3.64 TiB, over the memory budget of 4 GiB "
        "(--max-memory)"
    )


def test_huge_launch_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "k.mlir", HUGE_GRID_KERNEL) == 1
    # 10^12 lanes of one 8-byte index each.
    assert error_line(capsys) == (
        f"{tmp_path}/k.mlir:1:1: error: the launch grid of @main (1000000000000 lanes) needs "
        "7.28 TiB, over the memory budget of 8 GiB (--max-memory)"
    )


def test_huge_pto_parameter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(tmp_path, "k.mlir", HUGE_PTO_PARAMETER) == 1
    # numpy draws 8-byte values before converting them to f32.
    assert error_line(capsys) == (
        f"{tmp_path}/k.mlir:2:3: error: parameter 0 "
        "(!pto.partition_tensor_view<1000000x1000000xf32>) needs 7.28 TiB, "
        "over the memory budget of 8 GiB (--max-memory)"
    )


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        (
            DYNAMIC_ARGUMENT_KERNEL,
            1,
            1,
            "'func.func' op argument 0 has type tensor<?xf32>: dynamic shapes are not supported",
        ),
        (
            DYNAMIC_BODY_KERNEL,
            2,
            3,
            "'tensor.cast' op result 0 has type tensor<?xf32>: dynamic shapes are not supported",
        ),
    ],
    ids=["argument", "body"],
)
def test_dynamic_shapes_are_located_errors(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    line: int,
    column: int,
    message: str,
) -> None:
    assert run(tmp_path, "k.mlir", text) == 1
    assert error_line(capsys) == f"{tmp_path}/k.mlir:{line}:{column}: error: {message}"


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [(ENDLESS_GPU_LOOP, 5, 3), (ENDLESS_TPU_LOOP, 7, 3), (ENDLESS_PTO_LOOP, 6, 5)],
    ids=["gpu", "tpu", "pto"],
)
def test_endless_loop_stops_at_the_step_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, column: int
) -> None:
    assert run(tmp_path, "k.mlir", text, "--max-steps", "2000") == 1
    assert error_line(capsys) == (
        f"{tmp_path}/k.mlir:{line}:{column}: error: 'scf.for' op ran past the step budget of "
        "2000 interpreted ops (--max-steps)"
    )


def doubling_chain(levels: int) -> str:
    """`v = add(v, transpose(v))` `levels` times in one fusion: each level reads the previous
    one twice, so evaluating every read anew doubles the work per level."""
    lines = ["HloModule doubling", "", "fused {", "  v0 = f32[8,8] parameter(0)"]
    for level in range(1, levels + 1):
        lines.append(f"  t{level} = f32[8,8] transpose(v{level - 1}), dimensions={{1,0}}")
        lines.append(f"  v{level} = f32[8,8] add(v{level - 1}, t{level})")
    lines[-1] = "  ROOT" + lines[-1][1:]
    lines += ["}", "", "ENTRY main {", "  p = f32[8,8] parameter(0)"]
    lines += ["  ROOT f = f32[8,8] fusion(p), kind=kLoop, calls=fused", "}", ""]
    return "\n".join(lines)


def test_doubling_chain_of_24_levels_runs_in_seconds(tmp_path: Path) -> None:
    path = tmp_path / "chain.hlo"
    path.write_text(doubling_chain(24))
    started = time.perf_counter()
    assert main([str(path), "-o", str(tmp_path / "run.npz")]) == 0
    # Evaluated anew per read this takes 2^24 calls (tens of minutes); once per distinct
    # arguments it takes 2 per level.
    assert time.perf_counter() - started < 60
    assert main([str(path), "--reference", "-o", str(tmp_path / "ref.npz")]) == 0
    interpreted, reference = np.load(tmp_path / "run.npz"), np.load(tmp_path / "ref.npz")
    np.testing.assert_array_equal(interpreted["out0"], reference["out0"])


def test_doubling_chain_compiles_to_one_function_per_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "chain.hlo"
    path.write_text(doubling_chain(24))
    assert opt_main([str(path)]) == 0
    # The kernel and one callee per level, each calling the level below twice: the IR
    # grows linearly with the levels, not with the 2^24 paths through them.
    out = capsys.readouterr().out
    assert out.count("func.func") == 25
    assert out.count("pure_call @") == 2 * 23 + 1


def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    assert progress_bar("kernel") is None


def test_forced_progress_bar_waits_for_slow_runs(capsys: pytest.CaptureFixture[str]) -> None:
    show = progress_bar("kernel", forced=True)
    assert show is not None
    show(1, 4)
    show(4, 4)
    # The run ended before the delay: nothing is drawn.
    assert capsys.readouterr().err == ""


def test_forced_progress_bar_draws_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    show = progress_bar("kernel", forced=True, delay=0.0)
    assert show is not None
    show(1, 4)
    show(4, 4)
    captured = capsys.readouterr()
    assert captured.out == ""
    # tqdm (when installed) may skip drawing 25%; both bars end at 100%.
    assert captured.err.startswith("\rkernel")
    assert "100%" in captured.err


def test_progress_flag_keeps_stdout_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, "small.hlo", SMALL_MODULE, "--progress") == 0
    assert capsys.readouterr().out == "out0: float32[4]\n"


def test_progress_bar_without_tqdm(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)  # `import tqdm` raises ImportError
    show = progress_bar("kernel", forced=True, delay=0.0)
    assert show is not None
    show(1, 4)
    show(4, 4)
    # 30 * 1 // 4 = 7 of 30 marks at 25%.
    assert capsys.readouterr().err == (
        f"\rkernel [{'#' * 7}{'.' * 23}] 25%\rkernel [{'#' * 30}] 100%\n"
    )
