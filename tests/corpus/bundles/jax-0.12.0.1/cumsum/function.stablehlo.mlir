module @jit_cumsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=1]> {stablehlo.mesh = {axes = [{name = "d", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<8x256xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) -> (tensor<8x256xf32> {jax.result_info = "result"}) {
    %0 = call @cumsum(%arg0) : (tensor<8x256xf32>) -> tensor<8x256xf32>
    return %0 : tensor<8x256xf32>
  }
  func.func private @cumsum(%arg0: tensor<8x256xf32>) -> tensor<8x256xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<8x256xf32>) -> tensor<8x256xf32>
    return %0 : tensor<8x256xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<8x256xf32>) -> tensor<8x256xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %1:2 = chlo.scan(%arg0) inits (%0) dimension=1  attributes {is_associative = true, is_reverse = false} {
    ^bb0(%input: tensor<8xf32>, %carry: tensor<8xf32>):
      %2 = stablehlo.add %input, %carry : tensor<8xf32>
      stablehlo.return %2, %2 : tensor<8xf32>, tensor<8xf32>
    } : (tensor<8x256xf32>, tensor<8xf32>) -> (tensor<8x256xf32>, tensor<8xf32>)
    return %1#0 : tensor<8x256xf32>
  }
}
