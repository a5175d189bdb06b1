// RUN: xla-emit-opt %s --split-input-file -p xla-lower-tensors | filecheck %s

// A kernel: the tensor arguments become pointers (XLA's least buffer alignment,
// their bytes), the returned tensor is the output buffer written in place.
// The read-only buffer's loads are invariant, the written one's are not. As XLA
// writes them: the index cast unsigned to i32, the address a GEP into the buffer as
// an array, a vector access aligned to one element, a scalar one not annotated.
func.func @kernel(%in: tensor<1024xf32>, %out: tensor<1024xf32>, %i: index) -> tensor<1024xf32> attributes {xla.entry} {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %in[%i], %pad {in_bounds = [true]} : tensor<1024xf32>, vector<4xf32>
  %w = vector.transfer_write %v, %out[%i] {in_bounds = [true]} : vector<4xf32>, tensor<1024xf32>
  %x = tensor.extract %in[%i] : tensor<1024xf32>
  %y = tensor.extract %w[%i] : tensor<1024xf32>
  %s = arith.addf %x, %y : f32
  %r = tensor.insert %s into %w[%i] : tensor<1024xf32>
  func.return %r : tensor<1024xf32>
}

// CHECK:      func.func @kernel(%in: !llvm.ptr {llvm.align = 16 : i64, llvm.dereferenceable = 4096 : i64},
// CHECK-SAME:   %out: !llvm.ptr {llvm.align = 16 : i64, llvm.dereferenceable = 4096 : i64}, %i: index)
// CHECK-NOT:  tensor
// CHECK-NEXT:   %[[I0:.*]] = arith.index_castui %i : index to i32
// CHECK-NEXT:   %[[P0:.*]] = llvm.getelementptr inbounds %in[0, %[[I0]]] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<1024 x f32>
// CHECK-NEXT:   %v = llvm.load %[[P0]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK:        %[[P1:.*]] = llvm.getelementptr inbounds %out[0, {{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<1024 x f32>
// CHECK-NEXT:   llvm.store %v, %[[P1]] {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
// CHECK:        llvm.load {{.*}} invariant : !llvm.ptr -> f32
// CHECK:        %[[P3:.*]] = llvm.getelementptr inbounds %out[0, {{.*}}]
// CHECK-NEXT:   %y = llvm.load %[[P3]] : !llvm.ptr -> f32
// CHECK:        llvm.store %s, {{.*}} : f32, !llvm.ptr
// CHECK-NEXT:   func.return{{$}}

// -----

// A tensor carried by a loop is the pointer it was given: the loop stops carrying it.
func.func @loop(%out: tensor<8xi32>) -> tensor<8xi32> attributes {xla.entry} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%t = %out) -> (tensor<8xi32>) {
    %u = tensor.insert %z into %t[%k] : tensor<8xi32>
    scf.yield %u : tensor<8xi32>
  }
  func.return %r : tensor<8xi32>
}

// CHECK:      func.func @loop(%out: !llvm.ptr {llvm.align = 16 : i64, llvm.dereferenceable = 32 : i64})
// CHECK:        scf.for %k = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:          llvm.getelementptr inbounds %out[0, {{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x i32>
// CHECK-NEXT:     llvm.store %z, {{.*}} : i32, !llvm.ptr
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return{{$}}

// -----

// Shared memory is a private global in address space 3 (as XLA's lowering writes
// it), reached through a cast to a generic pointer; `sync_threads` is a barrier and
// its results are the pointers it was given. Loads of shared memory are not invariant.
func.func @transpose_tile(%in: tensor<64xf32>, %out: tensor<64xf32>, %i: index, %j: index) -> tensor<64xf32> attributes {xla.entry} {
  %shmem = xla_gpu.allocate_shared : tensor<66xf32>
  %v = tensor.extract %in[%i] : tensor<64xf32>
  %written = tensor.insert %v into %shmem[%j] : tensor<66xf32>
  %synced = xla_gpu.sync_threads %written : tensor<66xf32>
  %w = tensor.extract %synced[%i] : tensor<66xf32>
  %r = tensor.insert %w into %out[%j] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}

// CHECK:      llvm.mlir.global private @shared_0() {addr_space = 3 : i32} : !llvm.array<66 x f32>
// CHECK:      func.func @transpose_tile(
// CHECK:        %[[SHARED:.*]] = llvm.mlir.addressof @shared_0 : !llvm.ptr<3>
// CHECK-NEXT:   %[[TILE:.*]] = llvm.addrspacecast %[[SHARED]] : !llvm.ptr<3> to !llvm.ptr
// CHECK:        %[[P:.*]] = llvm.getelementptr inbounds %[[TILE]][0, %{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<66 x f32>
// CHECK-NEXT:   llvm.store %{{.*}}, %[[P]] : f32, !llvm.ptr
// CHECK-NEXT:   gpu.barrier
// CHECK:        llvm.getelementptr inbounds %[[TILE]]
// CHECK-NEXT:   llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK-NOT:    xla_gpu.

// -----

// A 0-d buffer (a dynamic slice's offset) is a one-element array.
func.func @scalar_offset(%offset: tensor<i32>) -> i32 {
  %v = tensor.extract %offset[] : tensor<i32>
  func.return %v : i32
}

// CHECK:      func.func @scalar_offset(%[[OFFSET:.*]]: !llvm.ptr) -> i32 {
// CHECK-NEXT:   %[[P:.*]] = llvm.getelementptr inbounds %[[OFFSET]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<1 x i32>
// CHECK-NEXT:   %[[V:.*]] = llvm.load %[[P]] invariant : !llvm.ptr -> i32
// CHECK-NEXT:   func.return %[[V]] : i32

// -----

// An `scf.if` that wrote a buffer returns nothing: the buffer is the pointer it
// was given. Its `else`, which then does nothing, goes (XLA's module has none).
func.func @guarded(%out: tensor<8xf32>, %c: i1, %i: index, %v: f32) -> tensor<8xf32> attributes {xla.entry} {
  %r = scf.if %c -> (tensor<8xf32>) {
    %w = tensor.insert %v into %out[%i] : tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  } else {
    scf.yield %out : tensor<8xf32>
  }
  func.return %r : tensor<8xf32>
}

// CHECK:      func.func @guarded(%out: !llvm.ptr
// CHECK-NEXT:   scf.if %c {
// CHECK-NEXT:     %[[I:.*]] = arith.index_castui %i : index to i32
// CHECK-NEXT:     %[[P:.*]] = llvm.getelementptr inbounds %out[0, %[[I]]]
// CHECK-NEXT:     llvm.store %v, %[[P]] : f32, !llvm.ptr
// CHECK-NEXT:   }
// CHECK-NEXT:   func.return{{$}}

// -----

// A scatter-add's atomic update is one `llvm.atomicrmw fadd ... monotonic` at the
// element (as in XLA's scatter kernel); the buffer it updates is not invariant.
func.func @scatter_add(%acc: tensor<128xf32>, %i: index, %v: f32) -> tensor<128xf32> attributes {xla.entry} {
  %r = xla.atomic_rmw %acc[%i] : tensor<128xf32> {
  ^bb0(%current: f32):
    %sum = arith.addf %current, %v : f32
    xla.yield %sum : f32
  }
  func.return %r : tensor<128xf32>
}

// CHECK:      func.func @scatter_add(%acc: !llvm.ptr
// CHECK-NEXT:   %[[I:.*]] = arith.index_castui %i : index to i32
// CHECK-NEXT:   %[[P:.*]] = llvm.getelementptr inbounds %acc[0, %[[I]]] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<128 x f32>
// CHECK-NEXT:   %{{.*}} = llvm.atomicrmw fadd %[[P]], %v monotonic : !llvm.ptr, f32
// CHECK-NEXT:   func.return{{$}}

// -----

// A complex element lies in memory as a struct of its parts (interleaved floats): it is
// loaded and stored as the struct, cast to and from the complex value.
func.func @complex_copy(%in: tensor<8xcomplex<f32>>, %out: tensor<8xcomplex<f32>>, %i: index) -> tensor<8xcomplex<f32>> attributes {xla.entry} {
  %z = tensor.extract %in[%i] : tensor<8xcomplex<f32>>
  %r = tensor.insert %z into %out[%i] : tensor<8xcomplex<f32>>
  func.return %r : tensor<8xcomplex<f32>>
}

// CHECK-LABEL: func.func @complex_copy
// CHECK-SAME:    %in: !llvm.ptr {llvm.align = 16 : i64, llvm.dereferenceable = 64 : i64}
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %in[0, %{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x !llvm.struct<(f32, f32)>>
// CHECK-NEXT:    %[[S:.*]] = llvm.load %[[P]] invariant : !llvm.ptr -> !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[Z:.*]] = builtin.unrealized_conversion_cast %[[S]] : !llvm.struct<(f32, f32)> to complex<f32>
// CHECK:         %[[Q:.*]] = llvm.getelementptr inbounds %out[0, %{{.*}}] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<8 x !llvm.struct<(f32, f32)>>
// CHECK-NEXT:    %[[T:.*]] = builtin.unrealized_conversion_cast %[[Z]] : complex<f32> to !llvm.struct<(f32, f32)>
// CHECK-NEXT:    llvm.store %[[T]], %[[Q]] : !llvm.struct<(f32, f32)>, !llvm.ptr
