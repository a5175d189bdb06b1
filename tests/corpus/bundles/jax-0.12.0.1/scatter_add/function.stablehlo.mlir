module @jit_scatter_add attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=1]> {stablehlo.mesh = {axes = [{name = "d", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<48x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg1: tensor<48xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<48xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<48xi32>, tensor<48xi32>) -> tensor<48xi1>
    %c_0 = stablehlo.constant dense<16> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<48xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<48xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<48xi1>, tensor<48xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<48xi32>) -> tensor<48x1xi32>
    %7 = "stablehlo.scatter"(%0, %6, %arg0) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %8 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<16x8xf32>, tensor<48x1xi32>, tensor<48x8xf32>) -> tensor<16x8xf32>
    return %7 : tensor<16x8xf32>
  }
}
