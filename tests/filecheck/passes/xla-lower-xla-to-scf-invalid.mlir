// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p 'xla-lower-xla-to-scf{warp-size=16}'
// RUN: not xla-emit-opt %s --split-input-file -p 'xla-lower-xla-to-scf{warp-size=24}' 2>&1 | filecheck %s --check-prefix=WARP

// WARP: error: [xla-lower-xla-to-scf] warp-size must be a power of 2, but got 24

// With 16-lane warps a shuffle at distance 16 would leave the warp (XLA
// rejects it the same way).
func.func private @sum(%a: f32, %b: f32) -> f32
func.func @too_far(%x: f32) -> f32 {
  // expected-error@+1 {{max_distance 16 must be a power of 2 below the warp size 16}}
  %r = xla_gpu.shuffle_reduce(%x) to 16 combiner=@sum : f32
  func.return %r : f32
}

// -----

// An index has no bit width to shuffle.
func.func private @sum(%a: index, %b: index) -> index
func.func @index_value(%x: index) -> index {
  // expected-error@+1 {{cannot shuffle a value of type index: only integers, floats and complex numbers of floats can be shuffled}}
  %r = xla_gpu.shuffle_reduce(%x) to 8 combiner=@sum : index
  func.return %r : index
}

// -----

// complex.re/im take complex numbers of floats only.
func.func private @sum(%a: complex<i32>, %b: complex<i32>) -> complex<i32>
func.func @integer_complex(%x: complex<i32>) -> complex<i32> {
  // expected-error@+1 {{cannot shuffle a value of type complex<i32>: only integers, floats and complex numbers of floats can be shuffled}}
  %r = xla_gpu.shuffle_reduce(%x) to 8 combiner=@sum : complex<i32>
  func.return %r : complex<i32>
}
