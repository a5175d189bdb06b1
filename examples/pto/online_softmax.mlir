// Row softmax of a 16x64 f32 matrix read as four 16x16 column blocks, at
// level 1, in two passes over global memory (online softmax):
//   pass 1 carries the running row max m and the running row sum s of
//          exp(x - m) through the loop; a block with a larger max rescales
//          the sum: s' = s * exp(m - m') + rowsum(exp(x_block - m'));
//   pass 2 writes y = exp(x - m) / s block by block.
// The first block initializes m and s, so the loop starts at column 16.
//
//   xla-emit-opt examples/pto/online_softmax.mlir -p pto-level2-pipeline
//   python -m xla_emit.tools.run_pto examples/pto/online_softmax.mlir --inputs in.npz
// (in.npz: arg0 the 16x64 input, arg1 a 16x64 output buffer)
module attributes {pto.target_arch = "a2a3"} {
  func.func @online_softmax(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %in = pto.make_tensor_view %src, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %out = pto.make_tensor_view %dst, shape = [%c16, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    %first = pto.partition_view %in, offsets = [%c0, %c0], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
    %x0 = pto.tload %first : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
    %m0 = pto.trowmax %x0 : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
    %m0b = pto.trowexpand %m0 : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
    %d0 = pto.tsub %x0, %m0b : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
    %e0 = pto.texp %d0 : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    %s0 = pto.trowsum %e0 : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
    %m, %s = scf.for %j = %c16 to %c64 step %c16 iter_args(%mi = %m0, %si = %s0) -> (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) {
      %block = pto.partition_view %in, offsets = [%c0, %j], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
      %x = pto.tload %block : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
      %bm = pto.trowmax %x : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
      %mn = pto.tmax %mi, %bm : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
      %dm = pto.tsub %mi, %mn : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
      %scale = pto.texp %dm : !pto.tile<16x1xf32> -> !pto.tile<16x1xf32>
      %rescaled = pto.tmul %si, %scale : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
      %mb = pto.trowexpand %mn : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
      %d = pto.tsub %x, %mb : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
      %e = pto.texp %d : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
      %bs = pto.trowsum %e : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
      %sn = pto.tadd %rescaled, %bs : (!pto.tile<16x1xf32>, !pto.tile<16x1xf32>) -> !pto.tile<16x1xf32>
      scf.yield %mn, %sn : !pto.tile<16x1xf32>, !pto.tile<16x1xf32>
    }
    %mb = pto.trowexpand %m : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
    %sb = pto.trowexpand %s : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
    scf.for %j = %c0 to %c64 step %c16 {
      %block = pto.partition_view %in, offsets = [%c0, %j], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
      %target = pto.partition_view %out, offsets = [%c0, %j], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
      %x = pto.tload %block : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
      %d = pto.tsub %x, %mb : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
      %e = pto.texp %d : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
      %y = pto.tdiv %e, %sb : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
      pto.tstore %y, %target : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
    }
    return
  }
}
