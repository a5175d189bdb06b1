// RUN: not xla-emit-opt %s -p 'tpu-verify-alignment{mosaic-report=true}' 2>&1 | filecheck %s

// With mosaic-report, Mosaic's own report comes first, then our located error and notes.

// CHECK:      INTERNAL: Mosaic failed to compile TPU kernel: cannot statically prove that index in dimension 1 is a multiple of 128
// CHECK-EMPTY:
// CHECK-NEXT: at location: loc({{.*}})
// CHECK-EMPTY:
// CHECK-NEXT: The MLIR operation involved:
// CHECK-NEXT:   %3 = "vector.load"(%arg0, %arg1, %2) : (memref<4x256xf32, #tpu.memory_space<vmem>>, index, index) -> vector<1x32xf32>
// CHECK-NEXT: {{.*}}tpu-verify-alignment-report.mlir:17:3: error: [tpu-verify-alignment] 'vector.load' op cannot statically prove that index in dimension 1 is a multiple of 128
// CHECK:      note: the index is provably misaligned: it is always 1 past a multiple of 128 (index ≡ 1 mod 128)
func.func @kernel(%x: memref<4x256xf32, #tpu.memory_space<vmem>>, %row: index, %i: index) -> vector<1x32xf32> {
  %c = tpu.assume_multiple %i, 128 : index
  %c1 = arith.constant 1 : index
  %col = arith.addi %c, %c1 : index
  %v = vector.load %x[%row, %col] : memref<4x256xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
  return %v : vector<1x32xf32>
}
