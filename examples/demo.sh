#!/bin/sh
# The main job on the seed's GELU example (run by `make demo` with .venv/bin on PATH).
set -e
cd "$(dirname "$0")/.."
echo "== The seed's emitted GELU kernel, parsed, verified and printed =="
xla-emit-opt tests/filecheck/dialects/seed_gelu.mlir
