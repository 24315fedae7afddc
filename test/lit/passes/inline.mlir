// inline: single-block callees are inlined; recursion is left alone.
// RUN: npu-opt %s --inline | FileCheck %s
// RUN: npu-opt %s --inline --symbol-dce --canonicalize | FileCheck %s --check-prefix=CLEAN

// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %arg0, %[[C]] : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %[[M]], %arg1 : i32
// CHECK-NEXT:    %[[R:.*]] = call @fact(%[[A]])
// CHECK-NEXT:    return %[[R]]
func.func @caller(%a: i32, %b: i32) -> i32 {
  %0 = call @axpy(%a, %b) : (i32, i32) -> i32
  %1 = call @fact(%0) : (i32) -> i32
  return %1 : i32
}
func.func private @axpy(%x: i32, %y: i32) -> i32 {
  %0 = call @double(%x) : (i32) -> i32
  %1 = arith.addi %0, %y : i32
  return %1 : i32
}
func.func private @double(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %0 = arith.muli %x, %c2 : i32
  return %0 : i32
}
// CHECK-LABEL: func.func private @fact
// CHECK:         call @fact
func.func private @fact(%x: i32) -> i32 {
  %0 = call @fact(%x) : (i32) -> i32
  return %0 : i32
}

// CLEAN-NOT: @axpy
// CLEAN-NOT: @double
// CLEAN: func.func private @fact
