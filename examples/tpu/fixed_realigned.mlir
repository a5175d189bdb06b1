// Fix 2, for any %col: load the aligned window that holds the wanted lanes,
// rotate them to lane 0 with tpu.dynamic_rotate and slice out the first 32. This
// is the output of `xla-emit-opt misaligned.mlir -p tpu-realign-accesses`; the
// window start is provably a multiple of 128, so the proof goes through.
builtin.module {
  func.func @window(%x: memref<8x1024xf32, #tpu.memory_space<vmem>>, %out: memref<8x32xf32, #tpu.memory_space<vmem>>, %col: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %r = %c0 to %c8 step %c1 {
      %lanes_per_tile = arith.constant 128 : index
      %lane_tile = arith.divsi %col, %lanes_per_tile : index
      %tile_start = arith.muli %lane_tile, %lanes_per_tile : index
      %last_window_start = arith.constant 768 : index
      %aligned = arith.minsi %tile_start, %last_window_start : index
      %shift = arith.subi %col, %aligned : index
      %shift_i32 = arith.index_cast %shift : index to i32
      %window = vector.load %x[%r, %aligned] : memref<8x1024xf32, #tpu.memory_space<vmem>>, vector<1x256xf32>
      %window_lanes = arith.constant 256 : i32
      %lane_rotate_by = arith.subi %window_lanes, %shift_i32 : i32
      %rotated = tpu.dynamic_rotate %window by %lane_rotate_by dim 1 : vector<1x256xf32>, i32 -> vector<1x256xf32>
      %v = vector.extract_strided_slice %rotated {offsets = [0, 0], sizes = [1, 32], strides = [1, 1]} : vector<1x256xf32> to vector<1x32xf32>
      vector.store %v, %out[%r, %c0] : memref<8x32xf32, #tpu.memory_space<vmem>>, vector<1x32xf32>
    }
    func.return
  }
}
