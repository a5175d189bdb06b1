// RUN: not xla-emit-opt %s -p 'tpu-verify-alignment{mosaic-report=true}' 2>&1 | filecheck %s

// A kernel with the locations JAX writes for Pallas (aliases after the module, a
// range, names and a call site): Mosaic's report and our error name the Python line.

func.func @kernel(%arg0: memref<4x256xf32, #tpu.memory_space<vmem>> loc("x_ref"), %arg1: index loc("i")) -> vector<1x32xf32> {
  %0 = tpu.assume_multiple %arg1, 128 : index loc(#loc3)
  %c1 = arith.constant 1 : index loc(#loc3)
  %1 = arith.addi %0, %c1 : index loc(#loc3)
  %2 = vector.load %arg0[%c1, %1] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32> loc(#loc5)
  return %2 : vector<1x32xf32> loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc1 = loc("/src/kernels/rows.py":14:22 to :41)
#loc2 = loc("/src/kernels/rows.py":30:4)
#loc3 = loc("kernel"(#loc1))
#loc4 = loc(callsite(#loc3 at #loc2))
#loc5 = loc("jit(rows)/get"(#loc4))

// CHECK:      INTERNAL: Mosaic failed to compile TPU kernel: cannot statically prove that index in dimension 1 is a multiple of 128
// CHECK-EMPTY:
// CHECK-NEXT: at location: loc("jit(rows)/get"(callsite("kernel"("/src/kernels/rows.py":14:22 to :41) at "/src/kernels/rows.py":30:4)))
// CHECK:      /src/kernels/rows.py:14:22: error: [tpu-verify-alignment] 'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128
// CHECK-NEXT: {{.*}}opt-pallas-locations.mlir:10:3: note: in the MLIR input
// CHECK-NEXT:   %2 = vector.load
// CHECK-NEXT:   ^
// CHECK-NEXT: /src/kernels/rows.py:14:22: note: the index is provably misaligned
