// --mlir-print-op-generic prints MLIR's generic form exactly (compared with
// what upstream mlir-opt prints for the same input).
// RUN: npu-opt %s --mlir-print-op-generic | FileCheck %s

// CHECK:      "builtin.module"() ({
// CHECK-NEXT:   "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
// CHECK-NEXT:   ^bb0(%arg0: i32):
// CHECK-NEXT:     %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
// CHECK-NEXT:     %1 = "arith.addi"(%arg0, %0) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// CHECK-NEXT:     "func.return"(%1) : (i32) -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) : () -> ()
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 1 : i32
  %0 = arith.addi %a, %c : i32
  return %0 : i32
}
