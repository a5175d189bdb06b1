// RUN: xla-emit-opt %s --split-input-file -p xla-lower-tensors,xla-merge-pointers | filecheck %s

// Two arguments of one slice (0) become one pointer, in the callee and at the call;
// the pointers left are noalias (distinct slices) and lose their slice index.
func.func private @sum3(%a: tensor<43xf32> {xla.slice_index = 0},
                        %b: tensor<43xf32> {xla.slice_index = 1, xla.invariant},
                        %c: tensor<43xf32> {xla.slice_index = 0},
                        %i: index) -> f32 {
  %x = tensor.extract %a[%i] : tensor<43xf32>
  %y = tensor.extract %b[%i] : tensor<43xf32>
  %z = tensor.extract %c[%i] : tensor<43xf32>
  %s = arith.addf %x, %y : f32
  %t = arith.addf %s, %z : f32
  func.return %t : f32
}
func.func @caller(%a: tensor<43xf32> {xla.slice_index = 0},
                  %b: tensor<43xf32> {xla.slice_index = 1, xla.invariant},
                  %c: tensor<43xf32> {xla.slice_index = 0},
                  %i: index) -> f32 {
  %r = func.call @sum3(%a, %b, %c, %i) : (tensor<43xf32>, tensor<43xf32>, tensor<43xf32>, index) -> f32
  func.return %r : f32
}

// CHECK:      func.func private @sum3(%[[A:.*]]: !llvm.ptr {llvm.noalias}, %[[B:.*]]: !llvm.ptr {llvm.noalias, xla.invariant}, %[[I:.*]]: index) -> f32 {
// CHECK:        llvm.getelementptr inbounds %[[A]]
// CHECK:        llvm.getelementptr inbounds %[[B]]
// CHECK:        llvm.getelementptr inbounds %[[A]]
// CHECK:      func.func @caller(%[[CA:.*]]: !llvm.ptr {llvm.noalias}, %[[CB:.*]]: !llvm.ptr {llvm.noalias, xla.invariant}, %[[CI:.*]]: index) -> f32 {
// CHECK-NEXT:   %{{.*}} = func.call @sum3(%[[CA]], %[[CB]], %[[CI]]) : (!llvm.ptr, !llvm.ptr, index) -> f32
// CHECK-NOT:  xla.slice_index
