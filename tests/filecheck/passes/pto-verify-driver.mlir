// RUN: xla-emit-opt %s -p 'pto-verify-driver{level=level3}' | filecheck %s
// RUN: not xla-emit-opt %s -p pto-verify-driver 2>&1 | filecheck %s --check-prefix=LEVEL2
// RUN: not xla-emit-opt %s -p 'pto-verify-driver{level=level3 insert-sync=true}' 2>&1 | filecheck %s --check-prefix=SYNC

// A tile bound by hand: PTOAS compiles it at --pto-level=level3 only, and
// without automatic synchronization.
func.func @bound_by_hand() {
  %a = arith.constant 0 : i64
  %t = pto.alloc_tile addr = %a : !pto.tile_buf<vec, 16x16xf16>
  %u = pto.tassign %t, %a : !pto.tile_buf<vec, 16x16xf16> -> !pto.tile_buf<vec, 16x16xf16>
  return
}
// CHECK: pto.tassign %t, %a
// LEVEL2: pto-verify-driver.mlir:10:3: error: [pto-verify-driver] 'pto.tassign' op pto.tassign is only supported when --pto-level=level3
// SYNC: pto-verify-driver.mlir:10:3: error: [pto-verify-driver] 'pto.tassign' op pto.tassign requires --enable-insert-sync to be disabled
