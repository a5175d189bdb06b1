// Column softmax of a 16x16 f32 tile at level 1 (SSA tile values):
//   y[:, j] = exp(x[:, j] - max(x[:, j])) / sum_i exp(x[i, j] - max(x[:, j]))
// The columns are turned into rows with ttrans, softmaxed row by row
// (row max, broadcast, subtract, exp, row sum, broadcast, divide) and
// transposed back.
//
//   xla-emit-opt examples/pto/softmax_columns.mlir -p pto-verify-target,pto-to-dps,pto-materialize-tmp-tiles,pto-plan-memory
module attributes {pto.target_arch = "a2a3"} {
  func.func @softmax_columns(%in: !pto.partition_tensor_view<16x16xf32>, %out: !pto.partition_tensor_view<16x16xf32>) {
    %x = pto.tload %in : !pto.partition_tensor_view<16x16xf32> -> !pto.tile<16x16xf32>
    %xt = pto.ttrans %x : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    %max = pto.trowmax %xt : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
    %maxb = pto.trowexpand %max : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
    %shifted = pto.tsub %xt, %maxb : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
    %e = pto.texp %shifted : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    %sum = pto.trowsum %e : !pto.tile<16x16xf32> -> !pto.tile<16x1xf32>
    %sumb = pto.trowexpand %sum : !pto.tile<16x1xf32> -> !pto.tile<16x16xf32>
    %yt = pto.tdiv %e, %sumb : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>
    %y = pto.ttrans %yt : !pto.tile<16x16xf32> -> !pto.tile<16x16xf32>
    pto.tstore %y, %out : (!pto.tile<16x16xf32>, !pto.partition_tensor_view<16x16xf32>) -> ()
    return
  }
}
