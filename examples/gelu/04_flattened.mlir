// GELU after flattening tensors (seed 002, fourth listing), complete: 1-d
// tensors and one linear index per access.
#map = #xla_gpu.indexing_map<"(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index),"
 "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">

func.func @main(%input: tensor<12582912xbf16>, %output: tensor<12582912xbf16>) -> tensor<12582912xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 5.000000e-01 : bf16
  %cst_0 = arith.constant 1.000000e+00 : bf16
  %cst_1 = arith.constant 7.968750e-01 : bf16
  %cst_2 = arith.constant 4.467770e-02 : bf16
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
  %xla_loop = scf.for %vector_index = %c0 to %c4 step %c1 iter_args(%iter = %output) -> (tensor<12582912xbf16>) {
    %dim = xla_gpu.apply_indexing #map(%thread_id_x, %block_id_x, %vector_index)
    %extracted = tensor.extract %input[%dim] : tensor<12582912xbf16>
    %2 = arith.mulf %extracted, %extracted : bf16
    %3 = arith.mulf %2, %extracted : bf16
    %4 = arith.mulf %3, %cst_2 : bf16
    %5 = arith.addf %extracted, %4 : bf16
    %6 = arith.mulf %5, %cst_1 : bf16
    %7 = math.tanh %6 : bf16
    %8 = arith.addf %7, %cst_0 : bf16
    %9 = arith.mulf %8, %cst : bf16
    %10 = arith.mulf %extracted, %9 : bf16
    %inserted = tensor.insert %10 into %iter[%dim] : tensor<12582912xbf16>
    scf.yield %inserted : tensor<12582912xbf16>
  }
  return %xla_loop : tensor<12582912xbf16>
}
