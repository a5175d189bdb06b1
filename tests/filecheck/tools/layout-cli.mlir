// xla-emit-layout, the way a user runs it (the file itself is not MLIR input).
// RUN: xla-emit-layout 'F32[3,5]{1,0:T(2,2)}' --index 2,3 | filecheck %s --check-prefix=SEED
// RUN: xla-emit-layout 'bf16[16,256]' --tpu-default --json --index 3,200 | filecheck %s --check-prefix=JSON
// RUN: xla-emit-layout 'f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}' | filecheck %s --check-prefix=COMBINE
// RUN: not xla-emit-layout 'f32[3,5]{1,0:T(2,0)}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: xla-emit-layout 'f32[4,8]{1,0:T(2,4)(2,1)}' --svg %t.svg && filecheck %s --check-prefix=SVG < %t.svg

// SEED:      shape: f32[3,5]{1,0:T(2,2)}
// SEED-NEXT: tiled shape: [2,3,2,2]
// SEED-NEXT: elements: 15
// SEED-NEXT: padded elements: 24 (9 padding)
// SEED-NEXT: bytes: 96
// SEED-NEXT: offset of (2,3): 17

// JSON: {"shape": "bf16[16,256]{1,0:T(8,128)(2,1)}", "padded_elements": 4096, "bytes": 8192, "offset": 1425}

// COMBINE: tiled shape: [56,37,2,3]
// COMBINE: padded elements: 12432 (112 padding)

// BAD:      <shape>:1:18: error: tile sizes must be positive or '*', but got 0
// BAD-NEXT: f32[3,5]{1,0:T(2,0)}
// BAD-NEXT: {{^                 \^$}}

// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: <title>f32[4,8]{1,0:T(2,4)(2,1)}</title>
// SVG: data-offset="2" {{.*}} data-index="0,1"
// SVG: data-offset="18" {{.*}} data-index="2,1"
// SVG: </svg>
