#!/bin/sh
# The main job on the seed's GELU example (run by `make demo` with .venv/bin on PATH):
# HLO text -> emitted xla_gpu MLIR -> the lowering pipeline -> interpreted at full size,
# checked bit for bit against the numpy HLO evaluator.
set -e
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== 1. examples/gelu.hlo emitted by the loop emitter (the seed's first listing) =="
xla-emit-opt examples/gelu.hlo

echo
echo "== 2. after xla-gpu-pipeline (the seed's last listing: one vector<4xbf16> read, 4 unrolled copies, one write) =="
xla-emit-opt examples/gelu.hlo -p xla-gpu-pipeline

echo
echo "== 3. bf16[6,512,4096] interpreted after the pipeline, and by the numpy HLO evaluator =="
xla-emit-run examples/gelu.hlo --random-inputs 0 -o "$out/compiled.npz" --time
xla-emit-run examples/gelu.hlo --random-inputs 0 -o "$out/reference.npz" --reference
python -m xla_emit.tools.compare_npz "$out/compiled.npz" "$out/reference.npz"

echo
echo "== 4. every pipeline stage of the seed's transpose checked against the evaluator =="
xla-emit-run examples/transpose.hlo --random-inputs 0 --check
