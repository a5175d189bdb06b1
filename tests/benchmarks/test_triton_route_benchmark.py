"""`benchmarks/triton_route.py` compares like with like: on a small softmax scaled from the
corpus's, the tile program and the loop fallback it times compute the same outputs, the
scaled output tile gives one program per row, and a fallback stopped by its step budget is
reported as stopped (its time is then only a lower bound)."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

import triton_route

from xla_emit.hlo import evaluate_module, parse_hlo_module

_ROWS, _COLUMNS = 4, 32


@pytest.fixture(scope="module")
def launch() -> tuple[object, object, list[np.ndarray]]:
    text = triton_route.scaled_softmax_text(_ROWS, _COLUMNS)
    module = parse_hlo_module(text, "softmax_small.hlo")
    values = np.random.default_rng(1).standard_normal((_ROWS, _COLUMNS), dtype=np.float32)
    [(fusion, operands)] = triton_route.fusion_operands(module, [values])
    return module, fusion, operands


def test_scaled_softmax_is_the_evaluators_softmax_of_the_new_shape() -> None:
    text = triton_route.scaled_softmax_text(_ROWS, _COLUMNS)
    module = parse_hlo_module(text, "softmax_small.hlo")
    values = np.random.default_rng(2).standard_normal((_ROWS, _COLUMNS), dtype=np.float32)
    [result] = evaluate_module(module, [values])
    exp = np.exp(values.astype(np.float64) - values.max(axis=1, keepdims=True))
    np.testing.assert_allclose(result, exp / exp.sum(axis=1, keepdims=True), rtol=1e-6)


def test_fallback_and_tile_program_agree(launch: tuple[object, object, list[np.ndarray]]) -> None:
    module, fusion, operands = launch
    timing = triton_route.time_fusion("small", module, fusion, operands, 10**6, 1)
    assert timing.kind == "__triton"
    assert timing.programs == _ROWS  # the output tile [1, 32] scaled with the shape
    assert timing.fallback_done
    assert timing.agree is True


def test_fallback_stopped_by_its_step_budget(
    launch: tuple[object, object, list[np.ndarray]],
) -> None:
    module, fusion, operands = launch
    timing = triton_route.time_fusion("small", module, fusion, operands, 10, 1)
    assert not timing.fallback_done
    assert timing.agree is None


def test_cpu_time_counts_the_calling_thread_alone() -> None:
    # Another thread of the process spinning (as OpenBLAS's pool does after a matmul) while
    # the caller sleeps: the process's CPU time counts it, the caller's does not.
    clock = triton_route.timing_clock(cpu_time=True)
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    spinner = threading.Thread(target=spin)
    started, process_started = clock(), time.process_time()
    deadline = time.monotonic() + 10
    spinner.start()
    try:
        while time.process_time() - process_started < 0.05 and time.monotonic() < deadline:
            time.sleep(0.005)
        spent = clock() - started
    finally:
        stop.set()
        spinner.join()
    assert time.process_time() - process_started >= 0.05
    assert spent < 0.02


def test_runs_go_on_until_they_took_the_least_time_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A clock that advances 10 ms at each reading: every run takes 10 ms.
    ticks = iter(range(10**6))
    monkeypatch.setattr(triton_route, "clock", lambda: 0.01 * next(ticks))
    runs: list[int] = []
    assert triton_route.best_seconds(lambda: runs.append(1), 3) == pytest.approx(0.01)
    assert len(runs) == 3
    runs.clear()
    triton_route.best_seconds(lambda: runs.append(1), 3, min_seconds=0.2)
    assert len(runs) == 20
    runs.clear()
    triton_route.best_seconds(lambda: runs.append(1), 3, min_seconds=10**9)
    assert len(runs) == triton_route.MAX_RUNS
