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

// -----

// The kernel keeps its parameters (they are the launch's): an in-place update's
// output, of the input's slice, stays a parameter, unused; reads and writes go
// through the input's pointer (as in XLA's dynamic-update-slice kernel).
func.func @update(%in: tensor<8xf32> {xla.slice_index = 0}, %v: tensor<f32> {xla.slice_index = 1},
                  %out: tensor<8xf32> {xla.slice_index = 0}) -> tensor<8xf32> attributes {xla.entry} {
  %c0 = arith.constant 0 : index
  %x = tensor.extract %v[] : tensor<f32>
  %r = tensor.insert %x into %out[%c0] : tensor<8xf32>
  func.return %r : tensor<8xf32>
}

// CHECK:      func.func @update(%[[IN:.*]]: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64, llvm.dereferenceable = 32 : i64}, %[[V:.*]]: !llvm.ptr {llvm.noalias, {{.*}}}, %[[OUT:.*]]: !llvm.ptr {llvm.noalias, {{.*}}}) attributes {xla.entry} {
// CHECK-NOT:    %[[OUT]]
// CHECK:        llvm.getelementptr inbounds %[[IN]][0, %{{.*}}]
// CHECK-NEXT:   llvm.store
