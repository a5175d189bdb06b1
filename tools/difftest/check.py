"""One program through both sides: XLA (a worker process in the jax venv) and ours.

`XlaWorker` keeps one long-lived `xla_worker.py` process and talks to it over a pipe.
`check_program` runs XLA's GPU-optimized module through our compiled path (the module
runtime, in this process) and through the reference evaluator, and compares both with
XLA:CPU's outputs under the rule `--check` itself uses for each output (bit for bit,
the reordered-sum bound, or the ulp/scale tolerance of approximated ops).
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from arrays import decode, encode, flush_denormals
from dot_rewrite import has_sixteen_bit_dot, rewritten_dot_outputs

from xla_emit.diagnostics import UserError
from xla_emit.hlo.evaluator import evaluate_module, flushing_subnormals
from xla_emit.hlo.ir import HloModule
from xla_emit.hlo.parser import parse_hlo_module
from xla_emit.hlo.shape import flatten_shape
from xla_emit.runtime.commands import run_hlo_module
from xla_emit.runtime.compare import Comparison, compare
from xla_emit.runtime.expectations import OutputKind, output_expectations
from xla_emit.runtime.kernels import KernelCache
from xla_emit.runtime.reporting import InterpreterOptions

JAX_PYTHON = os.environ.get("DIFFTEST_JAX_PYTHON", "/work/venvs/jax-0.10.2/bin/python")
_WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xla_worker.py")
# Seconds XLA may take for one program (two compiles and a run) and ours may run it.
XLA_TIMEOUT = 120
OURS_TIMEOUT = 60


class XlaWorker:
    """The jax process: started once, restarted only when it dies or stalls."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.requests = 0
        # Replies to submitted programs, received early so that `ask` could go first.
        self.early: list[dict[str, object]] = []
        self.outstanding = 0

    def _start(self) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            ["nice", "-n", "10", JAX_PYTHON, _WORKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert process.stdout is not None
        json.loads(process.stdout.readline())  # {"ready": true}
        return process

    def submit(
        self,
        hlo: str,
        inputs: list[np.ndarray],
        shapes: list[tuple[int, ...]] | None = None,
        gpu: bool = True,
    ) -> None:
        """Hand XLA a program; `receive` gets its answer (ours can run meanwhile)."""
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        self.requests += 1
        request = {"id": self.requests, "hlo": hlo, "inputs": [encode(x) for x in inputs],
                   "gpu": gpu, "shapes": shapes}  # fmt: skip
        assert self.process.stdin is not None
        self.outstanding += 1
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            self.close()

    def receive(self) -> dict[str, object]:
        """The reply to the oldest submitted program not yet received."""
        if self.early:
            return self.early.pop(0)
        return self._read()

    def _read(self) -> dict[str, object]:
        self.outstanding = max(0, self.outstanding - 1)
        if self.process is None or self.process.stdout is None:
            return {"error": "XLA crashed"}
        ready, _, _ = select.select([self.process.stdout], [], [], XLA_TIMEOUT)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            self.close()
            return {"error": "XLA crashed or took too long"}
        return json.loads(line)

    def ask(
        self,
        hlo: str,
        inputs: list[np.ndarray],
        shapes: list[tuple[int, ...]] | None = None,
        gpu: bool = True,
    ) -> dict[str, object]:
        """XLA's reply to one program now, ahead of those submitted and not yet received."""
        while self.outstanding:
            self.early.append(self._read())
        self.submit(hlo, inputs, shapes, gpu)
        return self._read()

    def close(self) -> None:
        self.outstanding = 0
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@dataclass
class Verdict:
    """What became of one program. `kind`: agree, xla-rejects, unsupported (a located error
    of ours), crash (a traceback of ours), timeout, differs (compiled path), evaluator-differs."""

    kind: str
    message: str = ""
    gpu_hlo: str = ""
    xla_outputs: list[np.ndarray] = field(default_factory=list[np.ndarray])

    def signature(self) -> str:
        """What a smaller program must still show to count as the same failure."""
        if self.kind in ("crash", "unsupported"):
            return f"{self.kind}: {self.message.split(':')[0]}"
        return self.kind


class _Timeout(Exception):
    pass


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def expire(_signal: int, _frame: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _first_difference(
    expected: list[np.ndarray], actual: list[np.ndarray], rules: list[Callable[..., Comparison]]
) -> str | None:
    if len(expected) != len(actual):
        return f"{len(actual)} outputs, XLA has {len(expected)}"
    for number, (want, got, rule) in enumerate(zip(expected, actual, rules, strict=True)):
        if want.shape != got.shape or want.dtype != got.dtype:
            return f"out{number}: {got.dtype}{list(got.shape)}, XLA {want.dtype}{list(want.shape)}"
        result = rule(want, got)
        if not result.matches:
            return f"out{number}: {result.describe()}"
    return None


def _crash(error: BaseException) -> str:
    frame = traceback.extract_tb(error.__traceback__)[-1]
    where = f"{os.path.relpath(frame.filename)}:{frame.lineno}"
    first_line = str(error).splitlines()[0][:200] if str(error) else ""
    return f"{type(error).__name__}: {first_line} at {where}"


def run_ours(
    gpu_hlo: str, inputs: list[np.ndarray], cache: KernelCache | None = None
) -> tuple[str, list[np.ndarray] | str]:
    """('ok', outputs), or ('unsupported' | 'crash' | 'timeout', message) — compiled path."""
    del cache  # each run compiles afresh: a kernel cache shared across programs grows unbounded
    try:
        with _deadline(OURS_TIMEOUT):
            module = parse_hlo_module(gpu_hlo, "program.hlo")
            return "ok", run_hlo_module(module, inputs, InterpreterOptions())
    except UserError as error:
        return _located(error.message.splitlines()[0])
    except _Timeout:
        return "timeout", f"more than {OURS_TIMEOUT} s"
    except Exception as error:  # noqa: BLE001 (any traceback of ours is a finding)
        return "crash", _crash(error)


# Located errors that report a bug of ours rather than a program we do not support.
_INTERNAL = ("left invalid IR", "internal error", "Internal error")


def _located(message: str) -> tuple[str, str]:
    return ("crash" if any(m in message for m in _INTERNAL) else "unsupported"), message


def run_evaluator(gpu_hlo: str, inputs: list[np.ndarray]) -> tuple[str, list[np.ndarray] | str]:
    try:
        with _deadline(OURS_TIMEOUT):
            module = parse_hlo_module(gpu_hlo, "program.hlo")
            return "ok", evaluate_module(module, inputs)
    except UserError as error:
        return _located(error.message.splitlines()[0])
    except _Timeout:
        return "timeout", f"more than {OURS_TIMEOUT} s"
    except Exception as error:  # noqa: BLE001 (any traceback of ours is a finding)
        return "crash", _crash(error)


def check_program(
    worker: XlaWorker, hlo: str, inputs: list[np.ndarray], shapes: list[tuple[int, ...]]
) -> Verdict:
    """The verdict on program `hlo` whose outputs have `shapes` (XLA's untupled outputs
    come back without their shapes)."""
    return judge(worker, hlo, inputs, shapes, worker.ask(hlo, inputs, shapes))


def judge(
    worker: XlaWorker,
    hlo: str,
    inputs: list[np.ndarray],
    shapes: list[tuple[int, ...]],
    reply: dict[str, object],
) -> Verdict:
    """The verdict on a program given XLA's reply. Where outputs differ, both sides run
    again with subnormal inputs flushed, and our outputs flushed: XLA:CPU flushes subnormal
    results (f32 and f64) and is no oracle for subnormal inputs (it flushes some inside its
    approximations: atan2 of two subnormals is NaN, log(-5 + 5e-324j) has imaginary part
    -pi), where a GPU keeps them."""
    if "error" in reply:
        return Verdict("xla-rejects", str(reply["error"]))
    gpu_hlo = str(reply["gpu_hlo"])
    expected = [decode(r) for r in reply["outputs"]]  # type: ignore[union-attr]
    program_has_dot = _has_sixteen_bit_dot(hlo)
    verdict = compare_with_xla(gpu_hlo, inputs, expected, program_has_dot=program_has_dot)
    flushed = [flush_denormals(x) for x in inputs]
    if verdict.kind not in ("differs", "evaluator-differs"):
        return verdict
    again = worker.ask(hlo, flushed, shapes) if not _same_bits(flushed, inputs) else reply
    if "error" in again:
        return verdict
    expected = [flush_denormals(decode(r)) for r in again["outputs"]]  # type: ignore[union-attr]
    retry = compare_with_xla(
        str(again["gpu_hlo"]),
        flushed,
        expected,
        flush_outputs=True,
        program_has_dot=program_has_dot,
    )
    if retry.kind == "agree":
        return Verdict("agree-flushed", verdict.message, verdict.gpu_hlo, verdict.xla_outputs)
    if flushed_inside(str(again["gpu_hlo"]), flushed, expected, program_has_dot):
        message = f"{verdict.message} (XLA:CPU flushes a subnormal the program computes)"
        return Verdict("agree-flushed", message, verdict.gpu_hlo, verdict.xla_outputs)
    return verdict


def flushed_inside(
    gpu_hlo: str, inputs: list[np.ndarray], expected: list[np.ndarray], program_has_dot: bool
) -> bool:
    """Whether XLA:CPU's `expected` outputs (flushed) are the program's with every op's
    subnormal results flushed (XLA:CPU runs with flush-to-zero, a GPU does not), while ours
    are the program's without: the evaluator flushing inside gives XLA:CPU's outputs, the
    evaluator as IEEE computes gives ours (both flushed at the end), and the two evaluations
    differ, so a subnormal computed inside made the difference (seed 806084: bf16
    `log(expm1(power(-3.4e38, -1)))`, a subnormal power, log -inf on XLA:CPU, NaN here)."""
    kind, ours = run_ours(gpu_hlo, inputs)
    _, ieee = run_evaluator(gpu_hlo, inputs)
    with flushing_subnormals():
        _, ftz = run_evaluator(gpu_hlo, inputs)
    if kind != "ok" or isinstance(ours, str) or isinstance(ieee, str) or isinstance(ftz, str):
        return False
    ours, ieee, ftz = ([flush_denormals(x) for x in xs] for xs in (ours, ieee, ftz))
    if _same_bits(ieee, ftz):
        return False  # no subnormal inside changed an output: not this rule's case
    module = parse_hlo_module(gpu_hlo, "program.hlo")
    rules = _rules(module, inputs, program_has_dot=program_has_dot)
    ours_is_ieee = _first_difference(ieee, ours, rules) is None
    return ours_is_ieee and _first_difference(expected, ftz, rules) is None


def _has_sixteen_bit_dot(hlo: str) -> bool:
    """Whether program `hlo` as written has an f16/bf16 dot (False where it does not parse:
    XLA's module is what the verdict reads)."""
    try:
        return has_sixteen_bit_dot(parse_hlo_module(hlo, "program.hlo"))
    except UserError:
        return False


def _same_bits(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return all(x.tobytes() == y.tobytes() for x, y in zip(a, b, strict=True))


def _rules(
    module: HloModule, inputs: list[np.ndarray], *, program_has_dot: bool = False
) -> list[Callable[..., Comparison]]:
    """`--check`'s rule per output, with three allowances for XLA:CPU's compiler:
    - bit for bit becomes the ulp tolerance where a float multiply (or dot) feeds an add
      or subtract: XLA:CPU contracts them into one fused multiply-add (x*x - x in f64 came
      out 2.8e-17 off the two roundings), as is its right; and where a float reduce is:
      XLA:CPU sums f16/bf16 in an order of its own, ours follows the GPU's;
    - an approximate output is compared in the narrowest float type of the module: a c64
      product converted to c128 is 1 ulp of c64 off, which is 2**29 ulp of c128;
    - a small 16-bit dot that XLA:GPU wrote as a multiply and a reduce (`dot_rewrite.py`)
      is held to the bound of its rounded products."""
    expectations = output_expectations(module, inputs)
    # XLA:CPU sums a 16-bit float reduce in an order of its own (ours follows the GPU's).
    contractible = _contractible(module) or _has_float_reduce(module)
    narrowest = _narrowest_float(module)
    rewritten = rewritten_dot_outputs(module, inputs, program_has_dot=program_has_dot)
    rules: list[Callable[..., Comparison]] = []
    for number, e in enumerate(expectations):
        if number in rewritten:
            rules.append(rewritten[number])
        elif e.kind is OutputKind.EXACT:
            rules.append(compare if contractible else e.compare)
        elif e.kind is OutputKind.APPROXIMATE and narrowest is not None:
            rules.append(_in_type(narrowest))
        else:
            rules.append(e.compare)
    return rules


def _has_float_reduce(module: HloModule) -> bool:
    return any(
        instruction.opcode in ("reduce", "reduce-window")
        and any(s.element_type.is_float for s in flatten_shape(instruction.shape))
        for computation in module.computations
        for instruction in computation.instructions
    )


def _narrowest_float(module: HloModule) -> np.dtype | None:
    """The narrowest float component type any instruction of the module has, if any."""
    widths = {
        s.element_type.component_type.dtype if s.element_type.is_complex else s.element_type.dtype
        for computation in module.computations
        for instruction in computation.instructions
        for s in flatten_shape(instruction.shape)
        if s.element_type.is_float or s.element_type.is_complex
    }
    return min(widths, key=lambda d: d.itemsize) if widths else None


def _in_type(narrow: np.dtype) -> Callable[[np.ndarray, np.ndarray], Comparison]:
    def rule(expected: np.ndarray, actual: np.ndarray) -> Comparison:
        kind = expected.dtype.kind
        if kind not in "fc" or expected.dtype.itemsize <= narrow.itemsize * (
            2 if kind == "c" else 1
        ):
            return compare(expected, actual)
        if kind == "c" and narrow.itemsize < 4:
            # No complex type has 16-bit parts: compare the parts in the narrow type (an f16
            # product reduce converted to c128 is 1 f16 ulp off, 8192 ulp of c64: 805389).
            return _parts_in_type(narrow, expected, actual)
        target = np.complex64 if kind == "c" else narrow
        with np.errstate(over="ignore"):
            return compare(expected.astype(target), actual.astype(target))

    return rule


def _parts_in_type(narrow: np.dtype, expected: np.ndarray, actual: np.ndarray) -> Comparison:
    """The real parts, then the imaginary parts, compared in the float type `narrow`."""
    with np.errstate(over="ignore"):
        real = compare(expected.real.astype(narrow), actual.real.astype(narrow))
        if not real.matches:
            return real
        return compare(expected.imag.astype(narrow), actual.imag.astype(narrow))


def _contractible(module: HloModule) -> bool:
    """A float multiply (or dot) and an add or subtract in one program: XLA:CPU may fuse
    them even through a select between them (a dot of one term, selected, then added)."""
    opcodes = {
        instruction.opcode
        for computation in module.computations
        for instruction in computation.instructions
        if any(
            s.element_type.is_float or s.element_type.is_complex
            for s in flatten_shape(instruction.shape)
        )
    }
    products = {"multiply", "dot", "custom-call"}  # a custom call: a cuBLAS gemm
    return bool(opcodes & products) and bool(opcodes & {"add", "subtract"})


def compare_with_xla(
    gpu_hlo: str,
    inputs: list[np.ndarray],
    expected: list[np.ndarray],
    flush_outputs: bool = False,
    program_has_dot: bool = False,
) -> Verdict:
    """Ours, then the evaluator, against XLA's `expected` outputs (with `flush_outputs`,
    ours are flushed as XLA:CPU flushes subnormal results; `program_has_dot`: the program
    as written has a 16-bit dot, see `dot_rewrite.py`)."""
    try:
        module = parse_hlo_module(gpu_hlo, "program.hlo")
    except UserError as error:
        return Verdict(*_located(error.message.splitlines()[0]), gpu_hlo, expected)
    for side, run in (("", run_ours), ("evaluator-", run_evaluator)):
        kind, outputs = run(gpu_hlo, inputs)
        if isinstance(outputs, str):
            return Verdict(side + kind, outputs, gpu_hlo, expected)
        if flush_outputs:
            outputs = [flush_denormals(x) for x in outputs]
        try:
            rules = _rules(module, inputs, program_has_dot=program_has_dot)
        except Exception as error:  # noqa: BLE001 (any traceback of ours is a finding)
            return Verdict("crash", "expectations: " + _crash(error), gpu_hlo, expected)
        difference = _first_difference(expected, outputs, rules)
        if difference is not None:
            return Verdict(side + "differs", difference, gpu_hlo, expected)
    return Verdict("agree", "", gpu_hlo, expected)


def stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)
