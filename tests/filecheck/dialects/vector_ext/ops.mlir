// RUN: xla-emit-opt %s --split-input-file | xla-emit-opt --split-input-file | filecheck %s
// RUN: xla-emit-opt %s --split-input-file --print-op-generic | xla-emit-opt --split-input-file | filecheck %s

// vector.extract_strided_slice and vector.insert_strided_slice in MLIR's
// syntax survive printing and re-parsing, in the custom and the generic form.

// CHECK-LABEL: func.func @extract_block
// CHECK-NEXT: %{{.*}} = vector.extract_strided_slice %{{.*}} {offsets = [0, 3], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf32>
func.func @extract_block(%v: vector<8x256xf32>) -> vector<8x32xf32> {
  %s = vector.extract_strided_slice %v {offsets = [0, 3], sizes = [8, 32], strides = [1, 1]} : vector<8x256xf32> to vector<8x32xf32>
  return %s : vector<8x32xf32>
}

// -----

// Fewer offsets than dims: the trailing dims are taken whole.
// CHECK-LABEL: func.func @extract_leading_dim
// CHECK-NEXT: %{{.*}} = vector.extract_strided_slice %{{.*}} {offsets = [2], sizes = [4], strides = [1]} : vector<8x16x4xbf16> to vector<4x16x4xbf16>
func.func @extract_leading_dim(%v: vector<8x16x4xbf16>) -> vector<4x16x4xbf16> {
  %s = vector.extract_strided_slice %v {offsets = [2], sizes = [4], strides = [1]} : vector<8x16x4xbf16> to vector<4x16x4xbf16>
  return %s : vector<4x16x4xbf16>
}

// -----

// CHECK-LABEL: func.func @insert_block
// CHECK-NEXT: %{{.*}} = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [0, 96], strides = [1, 1]} : vector<8x32xf32> into vector<8x128xf32>
func.func @insert_block(%v: vector<8x32xf32>, %into: vector<8x128xf32>) -> vector<8x128xf32> {
  %r = vector.insert_strided_slice %v, %into {offsets = [0, 96], strides = [1, 1]} : vector<8x32xf32> into vector<8x128xf32>
  return %r : vector<8x128xf32>
}

// -----

// A lower-rank source goes into the trailing dims.
// CHECK-LABEL: func.func @insert_row
// CHECK-NEXT: %{{.*}} = vector.insert_strided_slice %{{.*}}, %{{.*}} {offsets = [3, 0], strides = [1]} : vector<128xi32> into vector<8x128xi32>
func.func @insert_row(%v: vector<128xi32>, %into: vector<8x128xi32>) -> vector<8x128xi32> {
  %r = vector.insert_strided_slice %v, %into {offsets = [3, 0], strides = [1]} : vector<128xi32> into vector<8x128xi32>
  return %r : vector<8x128xi32>
}
