// GELU after loop unrolling (seed 002, sixth listing), complete: the loop over
// the vector elements is gone; four copies of the body at constant positions.
#map = #xla_gpu.indexing_map<"(th_x, bl_x, vector_index) -> (th_x * 4 + bl_x * 512 + vector_index),"
 "domain: th_x in [0, 127], bl_x in [0, 24575], vector_index in [0, 3]">

func.func @main(%input: tensor<12582912xbf16>, %arg1: tensor<12582912xbf16>) -> tensor<12582912xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cst = arith.constant 0.000000e+00 : bf16
  %cst_1 = arith.constant 5.000000e-01 : bf16
  %cst_2 = arith.constant 1.000000e+00 : bf16
  %cst_3 = arith.constant 7.968750e-01 : bf16
  %cst_4 = arith.constant 4.467770e-02 : bf16
  %thread_id_x = gpu.thread_id  x {xla.range = [0 : index, 127 : index]}
  %block_id_x = gpu.block_id  x {xla.range = [0 : index, 24575 : index]}
  %cst_0 = arith.constant dense<0.000000e+00> : vector<4xbf16>
  %dim = xla_gpu.apply_indexing #map(%thread_id_x, %block_id_x, %c0)
  %2 = vector.transfer_read %input[%dim], %cst {in_bounds = [true]} : tensor<12582912xbf16>, vector<4xbf16>
  %3 = vector.extract %2[%c0] : bf16 from vector<4xbf16>
  %4 = arith.mulf %3, %3 : bf16
  %5 = arith.mulf %4, %3 : bf16
  %6 = arith.mulf %5, %cst_4 : bf16
  %7 = arith.addf %3, %6 : bf16
  %8 = arith.mulf %7, %cst_3 : bf16
  %9 = math.tanh %8 : bf16
  %10 = arith.addf %9, %cst_2 : bf16
  %11 = arith.mulf %10, %cst_1 : bf16
  %12 = arith.mulf %3, %11 : bf16
  %13 = vector.insert %12, %cst_0 [%c0] : bf16 into vector<4xbf16>
  %14 = vector.extract %2[%c1] : bf16 from vector<4xbf16>
  %15 = arith.mulf %14, %14 : bf16
  %16 = arith.mulf %15, %14 : bf16
  %17 = arith.mulf %16, %cst_4 : bf16
  %18 = arith.addf %14, %17 : bf16
  %19 = arith.mulf %18, %cst_3 : bf16
  %20 = math.tanh %19 : bf16
  %21 = arith.addf %20, %cst_2 : bf16
  %22 = arith.mulf %21, %cst_1 : bf16
  %23 = arith.mulf %14, %22 : bf16
  %24 = vector.insert %23, %13 [%c1] : bf16 into vector<4xbf16>
  %25 = vector.extract %2[%c2] : bf16 from vector<4xbf16>
  %26 = arith.mulf %25, %25 : bf16
  %27 = arith.mulf %26, %25 : bf16
  %28 = arith.mulf %27, %cst_4 : bf16
  %29 = arith.addf %25, %28 : bf16
  %30 = arith.mulf %29, %cst_3 : bf16
  %31 = math.tanh %30 : bf16
  %32 = arith.addf %31, %cst_2 : bf16
  %33 = arith.mulf %32, %cst_1 : bf16
  %34 = arith.mulf %25, %33 : bf16
  %35 = vector.insert %34, %24 [%c2] : bf16 into vector<4xbf16>
  %36 = vector.extract %2[%c3] : bf16 from vector<4xbf16>
  %37 = arith.mulf %36, %36 : bf16
  %38 = arith.mulf %37, %36 : bf16
  %39 = arith.mulf %38, %cst_4 : bf16
  %40 = arith.addf %36, %39 : bf16
  %41 = arith.mulf %40, %cst_3 : bf16
  %42 = math.tanh %41 : bf16
  %43 = arith.addf %42, %cst_2 : bf16
  %44 = arith.mulf %43, %cst_1 : bf16
  %45 = arith.mulf %36, %44 : bf16
  %46 = vector.insert %45, %35 [%c3] : bf16 into vector<4xbf16>
  %47 = vector.transfer_write %46, %arg1[%dim] {in_bounds = [true]} : vector<4xbf16>, tensor<12582912xbf16>
  return %47 : tensor<12582912xbf16>
}
