// RUN: not xla-emit-opt %s -p pto-plan-memory 2>&1 | filecheck %s
// RUN: xla-emit-opt %s -p 'pto-plan-memory{target-arch=a5}' | filecheck %s --check-prefix=A5

// 200 KB exceeds A2A3's 192 KB UB but fits A5's 256 KB; the option overrides
// the module's target.
module attributes {pto.target_arch = "a2a3"} {
  func.func @big() {
    %big = pto.alloc_tile : !pto.tile_buf<vec, 200x256xf32>
    pto.texp ins(%big : !pto.tile_buf<vec, 200x256xf32>) outs(%big : !pto.tile_buf<vec, 200x256xf32>)
    return
  }
}
// CHECK: error: [pto-plan-memory] 'pto.alloc_tile' op vec memory exceeded: %big needs 204800 bytes, but 0 of the 196608 bytes are held by 0 live buffers
// A5: pto.tassign %big, @tile(0x0)
