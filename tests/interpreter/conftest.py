"""The `run_kernel` fixture of the interpreter tests."""

import pytest
from interpreter_harness import RunKernel, run_mlir


@pytest.fixture
def run_kernel() -> RunKernel:
    return run_mlir
