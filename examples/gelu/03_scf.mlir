// GELU after lowering xla_gpu.loop to scf (seed 002, third listing), complete:
// a loop over the vector index with the domain check inside.
#map = #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> (bl_x floordiv 4096),"
 "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">
#map1 = #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> ((bl_x floordiv 8) mod 512),"
 "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">
#map2 = #xla_gpu.indexing_map<"(th_x, bl_x)[vector_index] -> ((bl_x mod 8) * 512 + th_x * 4 + vector_index),"
 "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">

func.func @main(%input: tensor<6x512x4096xbf16>, %output: tensor<6x512x4096xbf16>) -> tensor<6x512x4096xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c127 = arith.constant 127 : index
  %c24575 = arith.constant 24575 : index
  %cst = arith.constant 4.467770e-02 : bf16
  %cst_0 = arith.constant 7.968750e-01 : bf16
  %cst_1 = arith.constant 1.000000e+00 : bf16
  %cst_2 = arith.constant 5.000000e-01 : bf16
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}

  %xla_loop = scf.for %vector_index = %c0 to %c4 step %c1 iter_args(%iter = %output) -> (tensor<6x512x4096xbf16>) {
    %10 = arith.cmpi sge, %thread_id_x, %c0 : index
    %11 = arith.cmpi sle, %thread_id_x, %c127 : index
    %12 = arith.andi %10, %11 : i1
    %13 = arith.cmpi sge, %block_id_x, %c0 : index
    %14 = arith.cmpi sle, %block_id_x, %c24575 : index
    %15 = arith.andi %13, %14 : i1
    %inbounds = arith.andi %12, %15 : i1
    %9 = scf.if %inbounds -> (tensor<6x512x4096xbf16>) {
      %dim0 = xla_gpu.apply_indexing #map(%thread_id_x, %block_id_x)[%vector_index]
      %dim1 = xla_gpu.apply_indexing #map1(%thread_id_x, %block_id_x)[%vector_index]
      %dim2 = xla_gpu.apply_indexing #map2(%thread_id_x, %block_id_x)[%vector_index]
      %extracted = tensor.extract %input[%dim0, %dim1, %dim2] : tensor<6x512x4096xbf16>
      %0 = arith.mulf %extracted, %extracted : bf16
      %1 = arith.mulf %0, %extracted : bf16
      %2 = arith.mulf %1, %cst : bf16
      %3 = arith.addf %extracted, %2 : bf16
      %4 = arith.mulf %3, %cst_0 : bf16
      %5 = math.tanh %4 : bf16
      %6 = arith.addf %5, %cst_1 : bf16
      %7 = arith.mulf %6, %cst_2 : bf16
      %29 = arith.mulf %extracted, %7 : bf16
      %inserted = tensor.insert %29 into %iter[%dim0, %dim1, %dim2] : tensor<6x512x4096xbf16>
      scf.yield %inserted : tensor<6x512x4096xbf16>
    } else {
      scf.yield %iter : tensor<6x512x4096xbf16>
    }
    scf.yield %9 : tensor<6x512x4096xbf16>
  }
  return %xla_loop : tensor<6x512x4096xbf16>
}
