// arith canonicalization patterns (folders are in passes/canonicalize.mlir).
// RUN: npu-opt %s --canonicalize | FileCheck %s
// Disabling a pattern by name leaves its IR alone.
// RUN: npu-opt %s --pass-pipeline='builtin.module(canonicalize{disable-patterns=arith-subi-addi})' | FileCheck %s --check-prefix=DISABLED

// CHECK-LABEL: func.func @reassociate
// CHECK-NEXT:    %[[C:.*]] = arith.constant 12 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[A]]
func.func @reassociate(%x: i32) -> i32 {
  %c5 = arith.constant 5 : i32
  %c7 = arith.constant 7 : i32
  %0 = arith.addi %x, %c5 : i32
  %1 = arith.addi %0, %c7 : i32
  return %1 : i32
}

// CHECK-LABEL: func.func @cancel
// CHECK-NEXT:    return %arg0, %arg1 : i32, i32
// DISABLED-LABEL: func.func @cancel
// DISABLED-COUNT-2: arith.subi
func.func @cancel(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.addi %x, %y : i32
  %1 = arith.subi %0, %y : i32
  %2 = arith.subi %0, %x : i32
  return %1, %2 : i32, i32
}

// CHECK-LABEL: func.func @casts
// CHECK-NEXT:    %[[E:.*]] = arith.extsi %arg0 : i8 to i64
// CHECK-NEXT:    return %[[E]], %arg0 : i64, i8
func.func @casts(%x: i8) -> (i64, i8) {
  %0 = arith.extsi %x : i8 to i32
  %1 = arith.extsi %0 : i32 to i64
  %2 = arith.extsi %x : i8 to i16
  %3 = arith.trunci %2 : i16 to i8
  return %1, %3 : i64, i8
}

// CHECK-LABEL: func.func @not_cmp
// CHECK-NEXT:    %[[C:.*]] = arith.cmpi sge, %arg0, %arg1 : i32
// CHECK-NEXT:    return %[[C]]
func.func @not_cmp(%a: i32, %b: i32) -> i1 {
  %t = arith.constant true
  %0 = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %0, %t : i1
  return %1 : i1
}
