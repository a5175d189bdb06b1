module @jit_transformer_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  sdy.mesh @mesh = <["d"=1]> {stablehlo.mesh = {axes = [{name = "d", size = 1 : i64}]}}
  func.func public @main(%arg0: tensor<16xi32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg1: tensor<100x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg2: tensor<64x192xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg3: tensor<64x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg4: tensor<64x128xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg5: tensor<128x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}, %arg6: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}, %arg7: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) -> (tensor<16x64xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %c_0 = stablehlo.constant dense<100> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %3 = stablehlo.add %arg0, %2 : tensor<16xi32>
    %4 = stablehlo.select %1, %3, %arg0 : tensor<16xi1>, tensor<16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %6 = "stablehlo.gather"(%arg1, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<100x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_1 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %12 = stablehlo.subtract %6, %11 : tensor<16x64xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<16x64xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_3 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %17 = stablehlo.divide %15, %16 : tensor<16x1xf32>
    %18 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %19 = stablehlo.subtract %6, %18 : tensor<16x64xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %21 = stablehlo.add %17, %20 : tensor<16x1xf32>
    %22 = stablehlo.rsqrt %21 : tensor<16x1xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %24 = stablehlo.multiply %19, %23 : tensor<16x64xf32>
    %25 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %27 = stablehlo.multiply %24, %26 : tensor<16x64xf32>
    %28 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %30 = stablehlo.add %27, %29 : tensor<16x64xf32>
    %31 = stablehlo.dot_general %30, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x192xf32>) -> tensor<16x192xf32>
    %32 = stablehlo.slice %31 [0:16, 0:64] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %33 = stablehlo.slice %31 [0:16, 64:128] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %34 = stablehlo.slice %31 [0:16, 128:192] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %35 = stablehlo.reshape %32 : (tensor<16x64xf32>) -> tensor<16x2x32xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0, 2] : (tensor<16x2x32xf32>) -> tensor<2x16x32xf32>
    %37 = stablehlo.reshape %33 : (tensor<16x64xf32>) -> tensor<16x2x32xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0, 2] : (tensor<16x2x32xf32>) -> tensor<2x16x32xf32>
    %39 = stablehlo.reshape %34 : (tensor<16x64xf32>) -> tensor<16x2x32xf32>
    %40 = stablehlo.transpose %39, dims = [1, 0, 2] : (tensor<16x2x32xf32>) -> tensor<2x16x32xf32>
    %41 = stablehlo.transpose %38, dims = [0, 2, 1] : (tensor<2x16x32xf32>) -> tensor<2x32x16xf32>
    %42 = stablehlo.dot_general %36, %41, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x32xf32>, tensor<2x32x16xf32>) -> tensor<2x16x16xf32>
    %cst_5 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %43 = stablehlo.sqrt %cst_5 : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [] : (tensor<f32>) -> tensor<2x16x16xf32>
    %45 = stablehlo.divide %42, %44 : tensor<2x16x16xf32>
    %c_6 = stablehlo.constant dense<true> : tensor<i1>
    %46 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %47 = call @tril(%46) : (tensor<16x16xi1>) -> tensor<16x16xi1>
    %cst_7 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %48 = call @_where(%47, %45, %cst_7) : (tensor<16x16xi1>, tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16x16xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_8) applies stablehlo.maximum across dimensions = [2] : (tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    %cst_9 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x16xf32>
    %51 = stablehlo.maximum %50, %49 : tensor<2x16xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x16xf32>
    %54 = stablehlo.subtract %48, %53 : tensor<2x16x16xf32>
    %55 = stablehlo.exponential %54 : tensor<2x16x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x16x16xf32>, tensor<f32>) -> tensor<2x16xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<2x16xf32>) -> tensor<2x16x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<2x16x1xf32>) -> tensor<2x16x16xf32>
    %59 = stablehlo.divide %55, %58 : tensor<2x16x16xf32>
    %60 = stablehlo.dot_general %59, %40, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x16x16xf32>, tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0, 2] : (tensor<2x16x32xf32>) -> tensor<16x2x32xf32>
    %62 = stablehlo.reshape %61 : (tensor<16x2x32xf32>) -> tensor<16x64xf32>
    %63 = stablehlo.dot_general %62, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %64 = stablehlo.add %6, %63 : tensor<16x64xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_12 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %68 = stablehlo.divide %66, %67 : tensor<16x1xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %70 = stablehlo.subtract %64, %69 : tensor<16x64xf32>
    %71 = stablehlo.multiply %70, %70 : tensor<16x64xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_13) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_14 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %75 = stablehlo.divide %73, %74 : tensor<16x1xf32>
    %76 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %77 = stablehlo.subtract %64, %76 : tensor<16x64xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %79 = stablehlo.add %75, %78 : tensor<16x1xf32>
    %80 = stablehlo.rsqrt %79 : tensor<16x1xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %82 = stablehlo.multiply %77, %81 : tensor<16x64xf32>
    %83 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %85 = stablehlo.multiply %82, %84 : tensor<16x64xf32>
    %86 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %88 = stablehlo.add %85, %87 : tensor<16x64xf32>
    %89 = stablehlo.dot_general %88, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x128xf32>) -> tensor<16x128xf32>
    %90 = stablehlo.multiply %89, %89 : tensor<16x128xf32>
    %91 = stablehlo.multiply %90, %89 : tensor<16x128xf32>
    %cst_16 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %93 = stablehlo.multiply %92, %91 : tensor<16x128xf32>
    %94 = stablehlo.add %89, %93 : tensor<16x128xf32>
    %cst_17 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %96 = stablehlo.multiply %95, %94 : tensor<16x128xf32>
    %97 = stablehlo.tanh %96 : tensor<16x128xf32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %99 = stablehlo.add %98, %97 : tensor<16x128xf32>
    %cst_19 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<16x128xf32>
    %101 = stablehlo.multiply %100, %99 : tensor<16x128xf32>
    %102 = stablehlo.multiply %89, %101 : tensor<16x128xf32>
    %103 = stablehlo.dot_general %102, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x128xf32>, tensor<128x64xf32>) -> tensor<16x64xf32>
    %104 = stablehlo.add %64, %103 : tensor<16x64xf32>
    return %104 : tensor<16x64xf32>
  }
  func.func private @tril(%arg0: tensor<16x16xi1>) -> tensor<16x16xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %2 = stablehlo.add %0, %1 : tensor<16x16xi32>
    %3 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<16x16xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<16x16xi1>, tensor<16x16xi1>
    return %6 : tensor<16x16xi1>
  }
  func.func private @_where(%arg0: tensor<16x16xi1>, %arg1: tensor<2x16x16xf32>, %arg2: tensor<f32>) -> tensor<2x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<2x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x16x16xi1>, tensor<2x16x16xf32>
    return %3 : tensor<2x16x16xf32>
  }
}
