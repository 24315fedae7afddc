// Type conversion across function boundaries: with the func conversion
// patterns, signatures, entry block arguments, returns and calls change type
// (i32 -> i64) and every bridging cast cancels, so a full conversion succeeds.
// RUN: npu-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(test-convert-to-test{i32-to-i64=true signatures=true})' | FileCheck %s

// CHECK-LABEL: func.func @callee(%arg0: i64, %arg1: f32) -> (i64, f32) {
// CHECK-NEXT:    %[[C:.*]] = "test.const"() {value = 3 : i32} : () -> i64
// CHECK-NEXT:    %[[A:.*]] = "test.add"(%arg0, %[[C]]) : (i64, i64) -> i64
// CHECK-NEXT:    return %[[A]], %arg1 : i64, f32
// CHECK-LABEL: func.func @caller(%arg0: i64) -> i64 {
// CHECK:         %[[R:.*]]:2 = call @callee(%arg0, %{{.*}}) : (i64, f32) -> (i64, f32)
// CHECK-NOT:   unrealized_conversion_cast
func.func @callee(%x: i32, %f: f32) -> (i32, f32) {
  %c = arith.constant 3 : i32
  %0 = arith.addi %x, %c : i32
  return %0, %f : i32, f32
}
func.func @caller(%x: i32) -> i32 {
  %f = "test.f32"() : () -> f32
  %r:2 = call @callee(%x, %f) : (i32, f32) -> (i32, f32)
  return %r#0 : i32
}
