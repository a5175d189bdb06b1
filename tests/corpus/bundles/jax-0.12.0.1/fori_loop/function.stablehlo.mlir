module @jit_fori_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=1]> {stablehlo.mesh = {axes = [{name = "d", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x64xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<8x64xf32>
    cond {
      %c_3 = stablehlo.constant dense<10> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
      %3 = stablehlo.multiply %iterArg_2, %2 : tensor<8x64xf32>
      %4 = stablehlo.sine %iterArg_2 : tensor<8x64xf32>
      %cst_4 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
      %6 = stablehlo.multiply %4, %5 : tensor<8x64xf32>
      %7 = stablehlo.add %3, %6 : tensor<8x64xf32>
      %8 = stablehlo.convert %iterArg_1 : (tensor<i32>) -> tensor<f32>
      %cst_5 = stablehlo.constant dense<0.00999999977> : tensor<f32>
      %9 = stablehlo.multiply %8, %cst_5 : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
      %11 = stablehlo.add %7, %10 : tensor<8x64xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %12 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      stablehlo.return %12, %1, %11 : tensor<i32>, tensor<i32>, tensor<8x64xf32>
    }
    return %0#2 : tensor<8x64xf32>
  }
}
