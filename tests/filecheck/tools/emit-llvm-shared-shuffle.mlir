// RUN: xla-emit-opt %s -p xla-lower-tensors,xla-lower-to-llvm,canonicalize,cse --emit=llvm | filecheck %s

// A transpose-like kernel: shared memory, a barrier and a warp shuffle as LLVM IR.
// Spelled as XLA spells them (its `*.ir-no-opt.ll` of the corpus reductions and
// transposes): the tile is a private `addrspace(3)` global reached through an
// `addrspacecast`, the barrier is `llvm.nvvm.barrier0`, the shuffle
// `llvm.nvvm.shfl.sync.down.f32` with mask `-1 >> (32 - 32)` and clamp `32 - 1`.

// CHECK:      @shared_0 = private addrspace(3) global [64 x float] undef
// CHECK:      define ptx_kernel void @tile(ptr noalias align 16 dereferenceable(256) %[[IN:v[0-9]+]], ptr noalias align 16 dereferenceable(256) %[[OUT:v[0-9]+]]) "nvvm.reqntid"="64,1,1" {
// CHECK:        %[[TILE:v[0-9]+]] = addrspacecast ptr addrspace(3) @shared_0 to ptr
// CHECK:        %[[A:v[0-9]+]] = getelementptr inbounds [64 x float], ptr %[[TILE]], i32 0, i32 %{{v[0-9]+}}
// CHECK-NEXT:   store float %{{v[0-9]+}}, ptr %[[A]]{{$}}
// CHECK-NEXT:   call void @llvm.nvvm.barrier0()
// CHECK-NEXT:   %[[W:v[0-9]+]] = load float, ptr %[[A]]{{$}}
// CHECK-NEXT:   %[[INACTIVE:v[0-9]+]] = sub i32 32, 32
// CHECK-NEXT:   %[[MASK:v[0-9]+]] = lshr i32 -1, %[[INACTIVE]]
// CHECK-NEXT:   %[[CLAMP:v[0-9]+]] = sub i32 32, 1
// CHECK-NEXT:   call float @llvm.nvvm.shfl.sync.down.f32(i32 %[[MASK]], float %[[W]], i32 16, i32 %[[CLAMP]])
// CHECK:      declare void @llvm.nvvm.barrier0()
// CHECK:      declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)

func.func @tile(%in: tensor<64xf32>, %out: tensor<64xf32>) -> tensor<64xf32> attributes {xla.entry} {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %shmem = xla_gpu.allocate_shared : tensor<64xf32>
  %v = tensor.extract %in[%tid] : tensor<64xf32>
  %written = tensor.insert %v into %shmem[%tid] : tensor<64xf32>
  %synced = xla_gpu.sync_threads %written : tensor<64xf32>
  %w = tensor.extract %synced[%tid] : tensor<64xf32>
  %s, %valid = gpu.shuffle down %w, %c16, %c32 : f32
  %r = tensor.insert %s into %out[%tid] : tensor<64xf32>
  func.return %r : tensor<64xf32>
}
