// RUN: xla-emit-opt %examples/gelu.hlo | xdsl-opt | filecheck %s --check-prefix=EMITTED
// RUN: xla-emit-opt %examples/gelu.hlo | xdsl-opt -p xla-gpu-pipeline | filecheck %s

// Plain xdsl-opt parses an emitted kernel (MLIR's `gpu.thread_id x` syntax,
// our `xla_gpu` ops) and runs our named pipeline, through the xdsl.universe plugin.

// EMITTED: gpu.thread_id x {xla.range = [0 : index, 127 : index]}
// EMITTED: xla_gpu.loop

// CHECK: func.func @fusion(%arg0: tensor<12582912xbf16>, %arg1: tensor<12582912xbf16>)
// CHECK-NOT: xla_gpu.loop
// CHECK: vector.transfer_read %arg0[%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<12582912xbf16>, vector<4xbf16>
// CHECK-COUNT-4: math.tanh
// CHECK: vector.transfer_write
