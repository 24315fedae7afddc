// canonicalize: folders, constant uniquing and hoisting, dead-op removal,
// constants of commutative ops moved right.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))' --allow-unregistered-dialect | FileCheck %s
// RUN: npu-opt %s --canonicalize --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @fold_chain
// CHECK-NEXT:    %[[C:.*]] = arith.constant 42 : i32
// CHECK-NEXT:    return %[[C]] : i32
func.func @fold_chain() -> i32 {
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %0 = arith.muli %c6, %c7 : i32
  %1 = arith.addi %0, %c6 : i32
  %2 = arith.subi %1, %c6 : i32
  return %2 : i32
}

// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.*]]: i32, %[[F:.*]]: f32)
// CHECK-NEXT:    return %[[X]], %[[F]] : i32, f32
func.func @identities(%x: i32, %f: f32) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %m0 = arith.constant -0.0 : f32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.muli %0, %c1 : i32
  %2 = arith.ori %1, %1 : i32
  %3 = arith.addf %f, %m0 : f32
  return %2, %3 : i32, f32
}

// Constants are uniqued and hoisted to the function entry; the constant of a
// commutative op goes to the right-hand side.
// CHECK-LABEL: func.func @uniquing
// CHECK-NEXT:    %[[C:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    %[[B:.*]] = "test.op"(%[[A]])
// CHECK-NEXT:    %[[D:.*]] = arith.muli %[[B]], %[[C]] : i32
// CHECK-NEXT:    return %[[D]]
func.func @uniquing(%x: i32) -> i32 {
  %c = arith.constant 5 : i32
  %0 = arith.addi %c, %x : i32
  %1 = "test.op"(%0) : (i32) -> i32
  %c2 = arith.constant 5 : i32
  %2 = arith.muli %c2, %1 : i32
  return %2 : i32
}

// Dead pure ops go; ops with unknown effects (unregistered) stay.
// CHECK-LABEL: func.func @dead
// CHECK-NEXT:    "test.effect"()
// CHECK-NEXT:    return
func.func @dead(%x: i32) {
  %0 = arith.addi %x, %x : i32
  %1 = arith.muli %0, %0 : i32
  %2 = "test.effect"() : () -> i32
  return
}

// Comparisons and select fold; division by zero does not.
// CHECK-LABEL: func.func @cmp_select
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[C7:.*]] = arith.constant 7 : i32
// CHECK:         %[[D:.*]] = arith.divsi %[[C7]], %[[Z]] : i32
// CHECK-NEXT:    return %arg1, %[[D]] : i32, i32
func.func @cmp_select(%a: i32, %b: i32) -> (i32, i32) {
  %c7 = arith.constant 7 : i32
  %c0 = arith.constant 0 : i32
  %lt = arith.cmpi slt, %c7, %c0 : i32
  %s = arith.select %lt, %a, %b : i32
  %d = arith.divsi %c7, %c0 : i32
  return %s, %d : i32, i32
}

// Folding inside nested regions hoists constants to the isolated ancestor's entry.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      "test.use"(%[[C]]) : (i32) -> ()
func.func @nested() {
  "test.region"() ({
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %0 = arith.addi %c1, %c2 : i32
    "test.use"(%0) : (i32) -> ()
  }) : () -> ()
  return
}

// A Transpose of a constant whose declared result is not the permuted shape
// (its `perm` misspelled, so every dim reverses) is left as it is: the
// rewrite would change the value's type (found by tools/tests/opt_robustness.rs).
// CHECK-LABEL: func.func @transpose_declared_otherwise
// CHECK: "onnx.Transpose"
func.func @transpose_declared_otherwise() -> tensor<1x3x2xi32> {
  %c = "onnx.Constant"() <{value = dense<[[[1, 2, 3], [4, 5, 6]]]> : tensor<1x2x3xi32>}> : () -> tensor<1x2x3xi32>
  %t = "onnx.Transpose"(%c) {p0rm = array<i64: 0, 2, 1>} : (tensor<1x2x3xi32>) -> tensor<1x3x2xi32>
  return %t : tensor<1x3x2xi32>
}
