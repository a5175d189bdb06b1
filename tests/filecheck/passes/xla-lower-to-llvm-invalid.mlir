// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p xla-lower-to-llvm

// An op the lowering does not know is an error at that op.
func.func @ceil_div(%i: i32) -> i32 attributes {xla.entry} {
  // expected-error@+1 {{xla-lower-to-llvm: cannot lower 'arith.ceildivsi'}}
  %r = arith.ceildivsi %i, %i : i32
  func.return %r : i32
}

// -----

// PTX shuffles 32 bits: a wider value must be split first (xla-lower-xla-to-scf does).
func.func @wide_shuffle(%x: f64) -> f64 attributes {xla.entry} {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  // expected-error@+1 {{xla-lower-to-llvm: a shuffle moves one i32 or f32}}
  %r, %valid = gpu.shuffle down %x, %c1, %c32 : f64
  func.return %r : f64
}

// -----

// `nvvm.shfl.sync` is lowered without its predicate: a use of `valid` is an error.
func.func @valid_used(%x: f32) -> i1 attributes {xla.entry} {
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  // expected-error@+1 {{xla-lower-to-llvm: a shuffle's 'valid' result is not lowered}}
  %r, %valid = gpu.shuffle down %x, %c1, %c32 : f32
  func.return %valid : i1
}
