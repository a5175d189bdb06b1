"""XLA's side of the differential tester; runs in the jax venv, one process for many programs.

Reads one JSON request a line on stdin: {"id", "hlo", "inputs": [array records]}.
Writes one JSON reply a line on stdout: {"id", "outputs": [records], "gpu_hlo": text}
or {"id", "error": text} when XLA rejects the program. Each program is compiled twice
from its HLO text: by XLA:CPU, whose outputs are the reference, and deviceless for an
H100, whose optimized module (fusions and all) is what our compiled path runs.
"""

from __future__ import annotations

import os
import re
import sys

from xla_flags import with_tester_flags

os.environ["CUDA_VISIBLE_DEVICES"] = "-1"
os.environ["XLA_FLAGS"] = with_tester_flags(os.environ.get("XLA_FLAGS", ""))
os.environ["JAX_SKIP_CUDA_CONSTRAINTS_CHECK"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import json

import jax
import jaxlib._hlo as hlo
import numpy as np
from arrays import decode, encode
from jax._src.interpreters import mlir
from jax._src.lib import _jax
from jax._src.lib import xla_client as xc
from jax._src.lib.mlir import ir
from jax.experimental import topologies

_HERE = os.path.dirname(os.path.abspath(__file__))
_TARGET = os.environ.get("DIFFTEST_H100_CONFIG", "/work/shared/reference/h100_target_config.txtpb")
_METADATA = re.compile(r", metadata=\{[^{}]*\}")
_FRONTEND = re.compile(r", frontend_attributes=\{[^{}]*\}")


def _stablehlo(text: str) -> bytes:
    module = hlo.hlo_module_from_text(text)
    return _jax.mlir.hlo_to_stablehlo(module.as_serialized_hlo_module_proto())


class Xla:
    def __init__(self) -> None:
        self.cpu = jax.devices("cpu")[0]
        with open(_TARGET) as file:
            topology = topologies.get_topology_desc(
                platform="cuda", target_config=file.read(), topology="1x1x1"
            )
        self.gpu_devices = topology.devices
        self.gpu = self.gpu_devices[0].client

    def outputs(self, code: bytes, inputs: list[np.ndarray]) -> list[np.ndarray]:
        executable = self.cpu.client.compile_and_load(
            code, xc.DeviceList((self.cpu,)), xc.CompileOptions()
        )
        buffers = [jax.device_put(x, self.cpu) for x in inputs]
        results = executable.execute_sharded(buffers)
        return [np.asarray(r[0]) for r in results.disassemble_into_single_device_arrays()]

    def gpu_hlo(self, code: bytes) -> str:
        with mlir.make_ir_context():
            module = ir.Module.parse(code)
            executable = self.gpu.compile(
                module, xc.DeviceList(tuple(self.gpu_devices)), xc.CompileOptions()
            )
        options = hlo.HloPrintOptions()
        options.print_large_constants = True  # not `{...}`: the text must parse back
        options.print_metadata = False
        text = executable.hlo_modules()[0].to_string(options)
        return _FRONTEND.sub("", _METADATA.sub("", text))


def main() -> None:
    jax.config.update("jax_enable_x64", True)  # s64/u64/f64/c128 inputs stay what they are
    xla = Xla()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        reply: dict[str, object] = {"id": request["id"]}
        try:
            code = _stablehlo(request["hlo"])
            inputs = [decode(r) for r in request["inputs"]]
            outputs = xla.outputs(code, inputs)
            shapes = request.get("shapes") or [x.shape for x in outputs]
            reply["outputs"] = [encode(x.reshape(s)) for x, s in zip(outputs, shapes, strict=True)]
            if request.get("gpu", True):
                reply["gpu_hlo"] = xla.gpu_hlo(code)
        except Exception as error:  # noqa: BLE001 (XLA rejects the program: its words)
            reply["error"] = f"{type(error).__name__}: {error}".splitlines()[0][:500]
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    sys.path.insert(0, _HERE)
    main()
