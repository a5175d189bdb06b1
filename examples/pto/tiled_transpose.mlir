// Transpose a 64x32 f32 matrix in global memory one 16x16 tile at a time,
// scaling it on the way: out[j, i] = s * in[i, j]. Level 1; the loops walk
// the tile grid, every tile goes GM -> UB -> ttrans -> GM.
//
//   xla-emit-opt examples/pto/tiled_transpose.mlir -p pto-level2-pipeline
//   python -m xla_emit.tools.run_pto examples/pto/tiled_transpose.mlir --inputs in.npz
module attributes {pto.target_arch = "a2a3"} {
  func.func @tiled_transpose(%src: !pto.ptr<f32>, %dst: !pto.ptr<f32>, %s: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %in = pto.make_tensor_view %src, shape = [%c64, %c32], strides = [%c32, %c1] : !pto.tensor_view<?x?xf32>
    %out = pto.make_tensor_view %dst, shape = [%c32, %c64], strides = [%c64, %c1] : !pto.tensor_view<?x?xf32>
    scf.for %i = %c0 to %c64 step %c16 {
      scf.for %j = %c0 to %c32 step %c16 {
        %a = pto.partition_view %in, offsets = [%i, %j], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
        %b = pto.partition_view %out, offsets = [%j, %i], sizes = [%c16, %c16] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x16xf32>
        %x = pto.tload %a : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
        %y = pto.tmuls %x, %s : (!pto.tile<16x16xf32>, f32) -> !pto.tile<16x16xf32>
        %t = pto.ttrans %y : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
        pto.tstore %t, %b : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
      }
    }
    return
  }
}
