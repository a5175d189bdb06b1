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
      %1:2 = func.call @closed_call(%iterArg_1, %iterArg_2) : (tensor<i32>, tensor<8x64xf32>) -> (tensor<i32>, tensor<8x64xf32>)
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<i32>, tensor<8x64xf32>
    }
    return %0#2 : tensor<8x64xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<8x64xf32>) -> (tensor<i32>, tensor<8x64xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<8x64xf32>
    %3 = stablehlo.sine %arg1 : tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<8x64xf32>
    %6 = stablehlo.add %2, %5 : tensor<8x64xf32>
    %7 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %8 = stablehlo.multiply %7, %cst_1 : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %10 = stablehlo.add %6, %9 : tensor<8x64xf32>
    return %0, %10 : tensor<i32>, tensor<8x64xf32>
  }
}
