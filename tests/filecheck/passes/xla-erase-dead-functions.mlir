// RUN: xla-emit-opt %s --split-input-file -p xla-erase-dead-functions | filecheck %s

// Private functions no public function reaches are erased, declarations included.
func.func @entry(%x: f32) -> f32 {
  func.return %x : f32
}
func.func private @unused(%x: f32) -> f32 {
  func.return %x : f32
}
func.func private @declared(f32) -> f32
// CHECK-LABEL: func.func @entry
// CHECK-NOT:   @unused
// CHECK-NOT:   @declared

// -----

// Reachability is transitive and follows pure_call and func.call.
func.func @entry(%x: f32) -> f32 {
  %y = xla_gpu.pure_call @first(%x) : (f32) -> f32
  func.return %y : f32
}
func.func private @first(%x: f32) -> f32 {
  %y = func.call @second(%x) : (f32) -> f32
  func.return %y : f32
}
func.func private @second(%x: f32) -> f32 {
  func.return %x : f32
}
// CHECK-LABEL: func.func @entry
// CHECK:       func.func private @first
// CHECK:       func.func private @second

// -----

// A function only named as a combiner is alive.
func.func @entry(%a: f32) -> f32 {
  %r = xla_gpu.shuffle_reduce(%a) to 16 combiner=@max : f32
  func.return %r : f32
}
func.func private @max(%a: f32, %b: f32) -> f32 {
  %m = arith.maximumf %a, %b : f32
  func.return %m : f32
}
// CHECK-LABEL: func.func @entry
// CHECK:       func.func private @max

// -----

// A dead cycle is erased as a whole; what only dead code calls is dead too.
func.func @entry() {
  func.return
}
func.func private @ping() {
  func.call @pong() : () -> ()
  func.return
}
func.func private @pong() {
  func.call @ping() : () -> ()
  func.call @leaf() : () -> ()
  func.return
}
func.func private @leaf() {
  func.return
}
// CHECK-LABEL: func.func @entry
// CHECK-NOT:   func.func
// CHECK:       // {{-----}}

// -----

// Public functions are roots even when nothing calls them.
func.func @api_one() {
  func.return
}
func.func public @api_two() {
  func.call @helper() : () -> ()
  func.return
}
func.func private @helper() {
  func.return
}
// CHECK:       func.func @api_one
// CHECK:       func.func public @api_two
// CHECK:       func.func private @helper
