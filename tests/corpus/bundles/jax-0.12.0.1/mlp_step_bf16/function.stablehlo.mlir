module @jit_mlp_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=1]> {stablehlo.mesh = {axes = [{name = "d", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<64x128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<128xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg2: tensor<128x16xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<16xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg4: tensor<32x64xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg5: tensor<32x16xbf16> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<64x128xbf16> {jax.result_info = "result[1]"}, tensor<128xbf16> {jax.result_info = "result[2]"}, tensor<128x16xbf16> {jax.result_info = "result[3]"}, tensor<16xbf16> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xbf16>, tensor<64x128xbf16>) -> tensor<32x128xbf16>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<128xbf16>) -> tensor<1x128xbf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x128xbf16>) -> tensor<32x128xbf16>
    %3 = stablehlo.add %0, %2 : tensor<32x128xbf16>
    %4 = call @relu(%3) : (tensor<32x128xbf16>) -> tensor<32x128xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<32x128xbf16>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<32x128xbf16>, tensor<32x128xbf16>) -> tensor<32x128xi1>
    %7 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x128xbf16>, tensor<128x16xbf16>) -> tensor<32x16xbf16>
    %8 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<16xbf16>) -> tensor<1x16xbf16>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x16xbf16>) -> tensor<32x16xbf16>
    %10 = stablehlo.add %7, %9 : tensor<32x16xbf16>
    %11 = stablehlo.subtract %10, %arg5 : tensor<32x16xbf16>
    %12 = stablehlo.multiply %11, %11 : tensor<32x16xbf16>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<bf16>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<32x16xbf16>
    %14 = stablehlo.multiply %13, %11 : tensor<32x16xbf16>
    %15 = stablehlo.convert %12 : (tensor<32x16xbf16>) -> tensor<32x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %17 = stablehlo.divide %16, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %18 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f32>) -> tensor<32x16xf32>
    %20 = stablehlo.convert %19 : (tensor<32x16xf32>) -> tensor<32x16xbf16>
    %21 = stablehlo.multiply %20, %14 : tensor<32x16xbf16>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %22 = stablehlo.reduce(%21 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<32x16xbf16>, tensor<bf16>) -> tensor<16xbf16>
    %23 = stablehlo.reshape %22 : (tensor<16xbf16>) -> tensor<1x16xbf16>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %24 = stablehlo.reduce(%23 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x16xbf16>, tensor<bf16>) -> tensor<16xbf16>
    %25 = stablehlo.dot_general %21, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x16xbf16>, tensor<32x128xbf16>) -> tensor<16x128xbf16>
    %26 = stablehlo.transpose %25, dims = [1, 0] : (tensor<16x128xbf16>) -> tensor<128x16xbf16>
    %27 = stablehlo.dot_general %21, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x16xbf16>, tensor<128x16xbf16>) -> tensor<32x128xbf16>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %28 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<bf16>) -> tensor<32x128xbf16>
    %29 = stablehlo.select %6, %27, %28 : tensor<32x128xi1>, tensor<32x128xbf16>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %30 = stablehlo.reduce(%29 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<32x128xbf16>, tensor<bf16>) -> tensor<128xbf16>
    %31 = stablehlo.reshape %30 : (tensor<128xbf16>) -> tensor<1x128xbf16>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %32 = stablehlo.reduce(%31 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x128xbf16>, tensor<bf16>) -> tensor<128xbf16>
    %33 = stablehlo.dot_general %29, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x128xbf16>, tensor<32x64xbf16>) -> tensor<128x64xbf16>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<128x64xbf16>) -> tensor<64x128xbf16>
    %cst_10 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
    %35 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<bf16>) -> tensor<64x128xbf16>
    %36 = stablehlo.multiply %35, %34 : tensor<64x128xbf16>
    %37 = stablehlo.subtract %arg0, %36 : tensor<64x128xbf16>
    %cst_11 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
    %38 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<bf16>) -> tensor<128xbf16>
    %39 = stablehlo.multiply %38, %32 : tensor<128xbf16>
    %40 = stablehlo.subtract %arg1, %39 : tensor<128xbf16>
    %cst_12 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
    %41 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<bf16>) -> tensor<128x16xbf16>
    %42 = stablehlo.multiply %41, %26 : tensor<128x16xbf16>
    %43 = stablehlo.subtract %arg2, %42 : tensor<128x16xbf16>
    %cst_13 = stablehlo.constant dense<1.000980e-01> : tensor<bf16>
    %44 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<bf16>) -> tensor<16xbf16>
    %45 = stablehlo.multiply %44, %24 : tensor<16xbf16>
    %46 = stablehlo.subtract %arg3, %45 : tensor<16xbf16>
    return %17, %37, %40, %43, %46 : tensor<f32>, tensor<64x128xbf16>, tensor<128xbf16>, tensor<128x16xbf16>, tensor<16xbf16>
  }
  func.func private @relu(%arg0: tensor<32x128xbf16>) -> tensor<32x128xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<32x128xbf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<32x128xbf16>
    return %1 : tensor<32x128xbf16>
  }
}
