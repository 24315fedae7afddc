// Dialect conversion: arith.addi/arith.constant become test ops; with the type
// converter, i32 values become i64 with casts bridging unconverted users; a
// full conversion fails on any op left illegal and names each one.
// RUN: npu-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-convert-to-test)' | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-convert-to-test{full=false i32-to-i64=true})' | FileCheck %s --check-prefix=WIDEN
// A full conversion cannot leave the casts in place: the unconverted function
// signature keeps i32, so it fails and reports the unresolved materializations
// (conversion/signature.mlir converts the signature too, and succeeds).
// RUN: npu-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-convert-to-test{i32-to-i64=true})' --verify-diagnostics

// CHECK-LABEL: func.func @ok
// CHECK-NEXT:    %[[C:.*]] = "test.const"() {value = 3 : i32} : () -> i32
// CHECK-NEXT:    %[[A:.*]] = "test.add"(%arg0, %[[C]]) : (i32, i32) -> i32
// CHECK-NEXT:    return %[[A]]
// WIDEN-LABEL: func.func @ok
// WIDEN-NEXT:    %[[C:.*]] = "test.const"() {value = 3 : i32} : () -> i64
// WIDEN-NEXT:    %[[X:.*]] = "builtin.unrealized_conversion_cast"(%arg0) : (i32) -> i64
// WIDEN-NEXT:    %[[A:.*]] = "test.add"(%[[X]], %[[C]]) : (i64, i64) -> i64
// WIDEN-NEXT:    %[[R:.*]] = "builtin.unrealized_conversion_cast"(%[[A]]) : (i64) -> i32
// WIDEN-NEXT:    return %[[R]]
func.func @ok(%x: i32) -> i32 {
  %c = arith.constant 3 : i32
  // expected-error @+2 {{failed to legalize unresolved materialization from 'i32' to 'i64' that remained live after conversion}}
  // expected-error @+1 {{failed to legalize unresolved materialization from 'i64' to 'i32' that remained live after conversion}}
  %0 = arith.addi %x, %c : i32
  return %0 : i32
}

