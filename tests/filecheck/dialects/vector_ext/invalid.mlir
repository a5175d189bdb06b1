// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics

func.func @extract_lengths_differ(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected offsets, sizes and strides of the same length, but got 2, 2 and 1}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1]} : vector<8x256xf32> to vector<8x32xf32>
  return
}

// -----

func.func @extract_too_many_offsets(%v: vector<256xf32>) {
  // expected-error@+1 {{Expected at most 1 offsets (the source rank), but got 2}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [1, 1], strides = [1, 1]} : vector<256xf32> to vector<1x1xf32>
  return
}

// -----

func.func @extract_stride_two(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected strides[1] to be 1, but got 2}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1, 2]} : vector<8x256xf32> to vector<8x32xf32>
  return
}

// -----

func.func @extract_offset_out_of_range(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected offsets[0] in [0, 8), but got 8}}
  %s = vector.extract_strided_slice %v {offsets = [8, 0], sizes = [1, 32], strides = [1, 1]} : vector<8x256xf32> to vector<1x32xf32>
  return
}

// -----

func.func @extract_size_zero(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected sizes[1] in [1, 256], but got 0}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 0], strides = [1, 1]} : vector<8x256xf32> to vector<8x0xf32>
  return
}

// -----

func.func @extract_past_the_end(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected offsets[1] + sizes[1] <= 256, but got 240 + 32. The slice must stay inside the source vector}}
  %s = vector.extract_strided_slice %v {offsets = [0, 240], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf32>
  return
}

// -----

func.func @extract_wrong_result_shape(%v: vector<8x256xf32>) {
  // expected-error@+1 {{Expected a result of shape [8, 32], but got [8, 64]}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x64xf32>
  return
}

// -----

func.func @extract_wrong_element_type(%v: vector<8x256xf32>) {
  // expected-error@+1 {{attribute f32 expected from variable 'ELEMENT', but got f16}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf16>
  return
}

// -----

func.func @extract_missing_sizes(%v: vector<8x256xf32>) {
  // expected-error@+1 {{expected 'sizes' as a list of integers}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf32>
  return
}

// -----

func.func @insert_source_rank_too_large(%v: vector<2x8x32xf32>, %into: vector<8x256xf32>) {
  // expected-error@+1 {{Expected a source rank of at most 2 (the destination rank), but got 3}}
  %r = vector.insert_strided_slice %v, %into {offsets = [0, 0], strides = [1, 1, 1]} : vector<2x8x32xf32> into vector<8x256xf32>
  return
}

// -----

func.func @insert_offsets_per_destination_dim(%v: vector<32xf32>, %into: vector<8x256xf32>) {
  // expected-error@+1 {{Expected 2 offsets (the destination rank), but got 1}}
  %r = vector.insert_strided_slice %v, %into {offsets = [0], strides = [1]} : vector<32xf32> into vector<8x256xf32>
  return
}

// -----

func.func @insert_strides_per_source_dim(%v: vector<32xf32>, %into: vector<8x256xf32>) {
  // expected-error@+1 {{Expected 1 strides (the source rank), but got 2}}
  %r = vector.insert_strided_slice %v, %into {offsets = [0, 0], strides = [1, 1]} : vector<32xf32> into vector<8x256xf32>
  return
}

// -----

func.func @insert_past_the_end(%v: vector<8x32xf32>, %into: vector<8x256xf32>) {
  // expected-error@+1 {{Expected offsets[1] in [0, 224], but got 225. The source must fit inside the destination vector}}
  %r = vector.insert_strided_slice %v, %into {offsets = [0, 225], strides = [1, 1]} : vector<8x32xf32> into vector<8x256xf32>
  return
}

// -----

func.func @insert_stride_two(%v: vector<8x32xf32>, %into: vector<8x256xf32>) {
  // expected-error@+1 {{Expected strides[0] to be 1, but got 2}}
  %r = vector.insert_strided_slice %v, %into {offsets = [0, 0], strides = [2, 1]} : vector<8x32xf32> into vector<8x256xf32>
  return
}

// -----

func.func @extract_unknown_attribute(%v: vector<8x256xf32>) {
  // expected-error@+1 {{unexpected attributes foo}}
  %s = vector.extract_strided_slice %v {offsets = [0, 0], sizes = [8, 32], strides = [1, 1], foo = 1} : vector<8x256xf32> to vector<8x32xf32>
  return
}
