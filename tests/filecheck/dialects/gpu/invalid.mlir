// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

// Malformed gpu ops in MLIR's custom syntax.

func.func @thread_id_bad_dimension() -> index {
  // expected-error@+1 {{Expected `x`, `y`, or `z`}}
  %t = gpu.thread_id  w
  func.return %t : index
}

// -----

func.func @shuffle_offset_type(%v: f32, %offset: i64, %width: i32) -> f32 {
  // expected-error@+1 {{operand is used with type i32, but has been previously used or defined with type i64}}
  %r, %valid = gpu.shuffle down %v, %offset, %width : f32
  func.return %r : f32
}

// -----

func.func @shuffle_result_type(%v: f32, %offset: i32, %width: i32) -> f64 {
  // expected-error@+1 {{attribute f32 expected from variable 'T', but got f64}}
  %r, %valid = "gpu.shuffle"(%v, %offset, %width) <{mode = #gpu<shuffle_mode down>}> : (f32, i32, i32) -> (f64, i1)
  func.return %r : f64
}
