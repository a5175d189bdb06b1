// RUN: xla-emit-opt %s --split-input-file -p xla-lower-to-llvm | filecheck %s

// An entry function is a kernel: noalias buffers and the block size (the thread
// id's range) as `nvvm.reqntid`; the ids are the special registers, widened to
// the index type (i64).
func.func @kernel(%in: !llvm.ptr {llvm.align = 16 : i64}, %out: !llvm.ptr) attributes {xla.entry} {
  %tid = gpu.thread_id x {xla.range = [0 : index, 63 : index]}
  %bid = gpu.block_id x {xla.range = [0 : index, 9 : index]}
  %c64 = arith.constant 64 : index
  %base = arith.muli %bid, %c64 : index
  %lin = arith.addi %base, %tid : index
  %i = arith.index_cast %lin : index to i32
  %p = llvm.getelementptr inbounds %in[%i] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
  %v = llvm.load %p invariant {alignment = 2 : i64} : !llvm.ptr -> vector<2xbf16>
  %x = vector.extract %v[1] : bf16 from vector<2xbf16>
  %t = math.tanh %x : bf16
  %zero = arith.constant 0.0 : bf16
  %neg = arith.cmpf olt, %t, %zero : bf16
  %abs = arith.negf %t : bf16
  %r = arith.select %neg, %abs, %t : bf16
  %poison = ub.poison : vector<2xbf16>
  %w = vector.insert %r, %poison [0] : bf16 into vector<2xbf16>
  %q = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i32) -> !llvm.ptr, bf16
  llvm.store %w, %q {alignment = 2 : i64} : vector<2xbf16>, !llvm.ptr
  func.return
}

// CHECK:      llvm.func @kernel(%in: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %out: !llvm.ptr {llvm.noalias})
// CHECK-SAME:   attributes {nvvm.kernel, nvvm.reqntid = array<i32: 64, 1, 1>}
// CHECK:        %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x {range = array<i32: 0, 64>} : i32
// CHECK-NEXT:   %[[TID64:.*]] = llvm.zext %[[TID]] : i32 to i64
// CHECK-NEXT:   %[[BID:.*]] = nvvm.read.ptx.sreg.ctaid.x {range = array<i32: 0, 10>} : i32
// CHECK-NEXT:   %[[BID64:.*]] = llvm.zext %[[BID]] : i32 to i64
// CHECK:        %[[BASE:.*]] = llvm.mul %[[BID64]], %{{.*}} : i64
// CHECK-NEXT:   %[[LIN:.*]] = llvm.add %[[BASE]], %[[TID64]] : i64
// CHECK-NEXT:   %[[I:.*]] = llvm.trunc %[[LIN]] : i64 to i32
// CHECK:        %[[LANE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:   %[[X:.*]] = llvm.extractelement %{{.*}}[%[[LANE]] : i64] : vector<2xbf16>
// 16-bit floats call libdevice's f32 function.
// CHECK-NEXT:   %[[XF:.*]] = llvm.fpext %[[X]] : bf16 to f32
// CHECK-NEXT:   %[[TF:.*]] = llvm.call @__nv_tanhf(%[[XF]]) : (f32) -> f32
// CHECK-NEXT:   %[[T:.*]] = llvm.fptrunc %[[TF]] : f32 to bf16
// CHECK:        llvm.fcmp "olt" %[[T]], %{{.*}} : bf16
// CHECK-NEXT:   llvm.fneg %[[T]] : bf16
// CHECK-NEXT:   llvm.select
// CHECK-NEXT:   llvm.mlir.poison : vector<2xbf16>
// CHECK-NEXT:   llvm.mlir.constant(0) : i64
// CHECK-NEXT:   llvm.insertelement
// CHECK:        llvm.return
// CHECK:      llvm.func @__nv_tanhf(f32) -> f32


// -----

// NaN-propagating max and integer min are LLVM intrinsics; rounding half to even is
// libdevice's `__nv_rintf`, as MLIR's GPU to NVVM lowering makes it.
func.func @intrinsics(%a: f32, %b: f32, %i: i32, %j: i32) -> f32 {
  %m = arith.maximumf %a, %b : f32
  %n = arith.minsi %i, %j : i32
  %r = math.roundeven %m : f32
  %nf = arith.sitofp %n : i32 to f32
  %s = arith.addf %r, %nf : f32
  func.return %s : f32
}

// CHECK:      llvm.func @intrinsics(%a: f32, %b: f32, %i: i32, %j: i32) -> f32
// CHECK-NEXT:   %m = llvm.intr.maximum(%a, %b) : (f32, f32) -> f32
// CHECK-NEXT:   %n = llvm.intr.smin(%i, %j) : (i32, i32) -> i32
// CHECK-NEXT:   %r = llvm.call @__nv_rintf(%m) : (f32) -> f32
// CHECK-NEXT:   %nf = llvm.sitofp %n : i32 to f32
// CHECK-NEXT:   %s = llvm.fadd %r, %nf : f32
// CHECK-NEXT:   llvm.return %s : f32
// CHECK:      llvm.func @__nv_rintf(f32) -> f32

// -----

// A loop becomes blocks: the header tests the counter, the body branches back
// with the carried values as block arguments.
func.func @sum(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %next = arith.addf %acc, %one : f32
    scf.yield %next : f32
  }
  func.return %r : f32
}

// CHECK:      llvm.func @sum(%n: i64) -> f32
// CHECK:        llvm.br ^[[HEADER:.*]](%{{.*}}, %{{.*}} : i64, f32)
// CHECK:      ^[[HEADER]](%[[K:.*]]: i64, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[MORE:.*]] = llvm.icmp "slt" %[[K]], %n : i64
// CHECK-NEXT:   llvm.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK:      ^[[BODY]]:
// CHECK-NEXT:   %{{.*}} = llvm.fadd %[[ACC]], %{{.*}} : f32
// CHECK:        llvm.br ^[[HEADER]]
// CHECK:      ^[[EXIT]]:
// CHECK-NEXT:   llvm.return %[[ACC]] : f32

// -----

// Warp shuffles with MLIR's mask (`-1 >> (32 - width)`) and clamp (`width - 1`);
// `xor` is PTX's `bfly`. A barrier is `nvvm.barrier`.
func.func @warp(%x: f32) -> f32 {
  %c16 = arith.constant 16 : i32
  %c32 = arith.constant 32 : i32
  %r, %valid = gpu.shuffle down %x, %c16, %c32 : f32
  %b, %valid_b = gpu.shuffle xor %r, %c16, %c32 : f32
  gpu.barrier
  func.return %b : f32
}

// CHECK:      llvm.func @warp(%[[X:.*]]: f32) -> f32 {
// CHECK-DAG:    %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-DAG:    %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG:    %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-DAG:    %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK:        %[[INACTIVE:.*]] = llvm.sub %{{.*}}, %[[C32]] : i32
// CHECK-NEXT:   %[[MASK:.*]] = llvm.lshr %[[ALL]], %[[INACTIVE]] : i32
// CHECK-NEXT:   %[[CLAMP:.*]] = llvm.sub %[[C32]], %[[ONE]] : i32
// CHECK-NEXT:   %[[R:.*]] = nvvm.shfl.sync down %[[MASK]], %[[X]], %[[C16]], %[[CLAMP]] : f32 -> f32
// CHECK:        %[[B:.*]] = nvvm.shfl.sync bfly %{{.*}}, %[[R]], %[[C16]], %{{.*}} : f32 -> f32
// CHECK-NEXT:   nvvm.barrier
// CHECK-NEXT:   llvm.return %[[B]] : f32

// -----

// A reducer of several results (argmax: value and index) returns a struct; each
// call takes it apart.
func.func private @argmax(%a: f32, %i: i32, %b: f32, %j: i32) -> (f32, i32) {
  func.return %b, %j : f32, i32
}
func.func @caller(%a: f32, %i: i32) -> i32 {
  %m:2 = func.call @argmax(%a, %i, %a, %i) : (f32, i32, f32, i32) -> (f32, i32)
  func.return %m#1 : i32
}

// CHECK:      llvm.func @argmax(%{{.*}}: f32, %{{.*}}: i32, %[[B:.*]]: f32, %[[J:.*]]: i32) -> !llvm.struct<(f32, i32)> {
// CHECK-NEXT:   %[[U:.*]] = llvm.mlir.poison : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   %[[S0:.*]] = llvm.insertvalue %[[B]], %[[U]][0] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   %[[S1:.*]] = llvm.insertvalue %[[J]], %[[S0]][1] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   llvm.return %[[S1]] : !llvm.struct<(f32, i32)>
// CHECK:      llvm.func @caller(
// CHECK-NEXT:   %[[M:.*]] = llvm.call @argmax(%{{.*}}) : (f32, i32, f32, i32) -> !llvm.struct<(f32, i32)>
// CHECK-NEXT:   %{{.*}} = llvm.extractvalue %[[M]][0] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   %[[I:.*]] = llvm.extractvalue %[[M]][1] : !llvm.struct<(f32, i32)>
// CHECK-NEXT:   llvm.return %[[I]] : i32

// -----

// Complex values are structs of their parts (MLIR's ComplexToLLVM): `create` inserts
// the parts into poison, `re`/`im` extract them, a select picks a struct, and the casts
// between a complex value and its struct in memory go away.
func.func @complex_parts(%x: f32, %y: f32, %c: i1, %p: !llvm.ptr) -> f32 {
  %z = complex.create %x, %y : complex<f32>
  %w = complex.create %y, %x : complex<f32>
  %s = arith.select %c, %z, %w : complex<f32>
  %m = builtin.unrealized_conversion_cast %s : complex<f32> to !llvm.struct<(f32, f32)>
  llvm.store %m, %p : !llvm.struct<(f32, f32)>, !llvm.ptr
  %i = complex.im %s : complex<f32>
  func.return %i : f32
}

// CHECK-LABEL: llvm.func @complex_parts
// CHECK-NEXT:    %[[P0:.*]] = llvm.mlir.poison : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[Z1:.*]] = llvm.insertvalue %x, %[[P0]][0] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[Z:.*]] = llvm.insertvalue %y, %[[Z1]][1] : !llvm.struct<(f32, f32)>
// CHECK:         %[[W:.*]] = llvm.insertvalue %x, %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    %[[S:.*]] = llvm.select %c, %[[Z]], %[[W]] : i1, !llvm.struct<(f32, f32)>
// CHECK-NEXT:    llvm.store %[[S]], %p : !llvm.struct<(f32, f32)>, !llvm.ptr
// CHECK-NEXT:    %[[I:.*]] = llvm.extractvalue %[[S]][1] : !llvm.struct<(f32, f32)>
// CHECK-NEXT:    llvm.return %[[I]] : f32
