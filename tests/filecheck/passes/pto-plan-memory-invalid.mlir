// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p 'pto-plan-memory{capacity="vec=2048"}'

// Three live 1 KB buffers do not fit 2 KB.
func.func @exceeded() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  // expected-error@+3 {{vec memory exceeded: %c needs 1024 bytes, but 2048 of the 2048 bytes are held by 2 live buffers}}
  // expected-note@+2 {{live: %a (1024 bytes) at [0x0, 0x400)}}
  // expected-note@+1 {{live: %b (1024 bytes) at [0x400, 0x800)}}
  %c = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tadd ins(%a, %b : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%c : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

// Manual addresses must not overlap while both buffers are live.
func.func @manual_overlap() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tassign %a, @tile(0x0)
  %b = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  // expected-error@+1 {{%b (1024 bytes) at [0x200, 0x600) overlaps %a (1024 bytes) at [0x0, 0x400) in vec memory while both are live}}
  pto.tassign %b, @tile(0x200)
  pto.tadd ins(%a, %a : !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf32>)
  return
}

// -----

func.func @manual_beyond_capacity() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  // expected-error@+1 {{%a (1024 bytes) at [0x600, 0xa00) ends beyond the 2048-byte vec memory}}
  pto.tassign %a, @tile(0x600)
  return
}

// -----

func.func @two_addresses() {
  %a = pto.alloc_tile : !pto.tile_buf<vec, 16x16xf32>
  pto.tassign %a, @tile(0x0)
  // expected-error@+1 {{%a is bound to 2 addresses (0x0, 0x400); pto-plan-memory needs one address per buffer}}
  pto.tassign %a, @tile(0x400)
  return
}

// -----

// The default A2A3 UB (192 KB) is too small for 200 KB; the option's
// capacity is only for vec, so this mat buffer uses L1's 512 KB.
func.func @mat_default_capacity() {
  %big = pto.alloc_tile : !pto.tile_buf<mat, 200x256xf32>
  return
}
