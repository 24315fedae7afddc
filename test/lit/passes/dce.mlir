// dce: unused side-effect-free ops (transitively) and unreachable blocks go.
// RUN: npu-opt %s --dce --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    "test.keep"
// CHECK-NEXT:    return
func.func @chain(%x: i32) {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %0 : i32
  %2 = arith.subi %1, %0 : i32
  "test.keep"() : () -> ()
  return
}

// CHECK-LABEL: func.func @unreachable
// CHECK:         "test.br"()[^bb1]
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    return
// CHECK-NOT:   ^bb2
func.func @unreachable() {
  "test.br"()[^bb1] : () -> ()
^bb1:
  return
^bb2:
  %0 = "test.x"() : () -> i32
  "test.use"(%0) : (i32) -> ()
  "test.br"()[^bb1] : () -> ()
}
