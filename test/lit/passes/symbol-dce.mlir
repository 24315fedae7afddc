// symbol-dce: private symbols that nothing public reaches are removed,
// including private functions that only call each other.
// RUN: npu-opt %s --symbol-dce | FileCheck %s

// CHECK-LABEL: func.func @public
// CHECK:       func.func private @used
// CHECK-NOT:   @dead
// CHECK-NOT:   @cycle_a
// CHECK-NOT:   @cycle_b
// CHECK:       func.func private @decl_used
func.func @public() {
  call @used() : () -> ()
  return
}
func.func private @used() {
  call @decl_used() : () -> ()
  return
}
func.func private @dead() {
  return
}
func.func private @cycle_a() {
  call @cycle_b() : () -> ()
  return
}
func.func private @cycle_b() {
  call @cycle_a() : () -> ()
  return
}
func.func private @decl_used()
func.func private @decl_dead()
