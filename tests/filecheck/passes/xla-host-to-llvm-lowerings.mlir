// RUN: xla-emit-opt %s --split-input-file -p xla-lower-tensors,xla-lower-to-llvm,xla-host-widen-bf16 | filecheck %s

// What the host route needs beyond loop kernels: a scalar broadcast (a column
// reduction's accumulator), a bitcast (a sort key), a 0-d buffer (a dynamic slice's
// offset), and bf16 arithmetic in f32 rounded inline.
func.func @host(%offset: tensor<i32>, %in: tensor<4xbf16>, %out: tensor<4xbf16>) -> tensor<4xbf16> attributes {xla.entry} {
  %c0 = arith.constant 0 : index
  %o = tensor.extract %offset[] : tensor<i32>
  %bits = arith.bitcast %o : i32 to f32
  %v = vector.broadcast %bits : f32 to vector<2xf32>
  %lane = vector.extract %v[1] : f32 from vector<2xf32>
  %b = arith.truncf %lane : f32 to bf16
  %x = tensor.extract %in[%c0] : tensor<4xbf16>
  %y = arith.mulf %x, %b : bf16
  %r = tensor.insert %y into %out[%c0] : tensor<4xbf16>
  func.return %r : tensor<4xbf16>
}

// CHECK-LABEL: llvm.func @host(
// CHECK-SAME:    %[[OFFSET:[^:]*]]: !llvm.ptr
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %[[OFFSET]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<1 x i32>
// CHECK:         %[[O:.*]] = llvm.load %[[P]] {{.*}}: !llvm.ptr -> i32
// CHECK:         %[[BITS:.*]] = llvm.bitcast %[[O]] : i32 to f32
// CHECK:         llvm.mlir.poison : vector<2xf32>
// CHECK:         llvm.insertelement %[[BITS]]
// CHECK:         llvm.insertelement %[[BITS]]
// CHECK-NOT:     llvm.fptrunc
// CHECK:         llvm.fpext %{{.*}} : bf16 to f32
// CHECK:         llvm.fmul %{{.*}} : f32
// CHECK:         llvm.lshr
// CHECK:         llvm.trunc %{{.*}} : i32 to i16
// CHECK:         llvm.bitcast %{{.*}} : i16 to bf16
// CHECK-NOT:     llvm.fmul %{{.*}} : bf16
