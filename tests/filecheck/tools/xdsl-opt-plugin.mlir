// RUN: xdsl-opt %s -p xla-erase-dead-functions | filecheck %s

// Plain xdsl-opt sees our dialects and passes through the xdsl.universe entry point.

// CHECK-LABEL: func.func @main
// CHECK: xla.apply_indexing
// CHECK-NOT: func.func private @unused
func.func @main(%a: index) -> index {
  %r = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 * 4), domain: d0 in [0, 3]">(%a)
  func.return %r : index
}
func.func private @unused() {
  func.return
}
