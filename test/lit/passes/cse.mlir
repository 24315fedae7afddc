// cse: identical side-effect-free ops merge when one dominates the other.
// RUN: npu-opt %s --cse --allow-unregistered-dialect | FileCheck %s
// RUN: npu-opt %s --cse --allow-unregistered-dialect --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: CSE
// STATS-NEXT: (S) 6 num-cse'd - Number of operations CSE'd

// CHECK-LABEL: func.func @simple
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %[[C]] : i32
// CHECK-NEXT:    return %[[A]], %[[A]] : i32, i32
func.func @simple(%x: i32) -> (i32, i32) {
  %c1 = arith.constant 1 : i32
  %c1b = arith.constant 1 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %x, %c1b : i32
  return %0, %1 : i32, i32
}

// Commutative operands in either order are the same expression.
// CHECK-LABEL: func.func @commutative
// CHECK-NEXT:    %[[A:.*]] = arith.muli %arg0, %arg1 : i32
// CHECK-NEXT:    return %[[A]], %[[A]]
func.func @commutative(%x: i32, %y: i32) -> (i32, i32) {
  %0 = arith.muli %x, %y : i32
  %1 = arith.muli %y, %x : i32
  return %0, %1 : i32, i32
}

// Different attributes or types are different expressions.
// CHECK-LABEL: func.func @distinct
// CHECK-COUNT-2: arith.cmpi
// CHECK-COUNT-2: arith.addi
func.func @distinct(%x: i32, %y: i32) -> (i1, i1, i32, i32) {
  %0 = arith.cmpi slt, %x, %y : i32
  %1 = arith.cmpi sgt, %x, %y : i32
  %2 = arith.addi %x, %y : i32
  %3 = arith.addi %x, %y overflow<nsw> : i32
  return %0, %1, %2, %3 : i1, i1, i32, i32
}

// Ops with unknown side effects are never merged.
// CHECK-LABEL: func.func @effects
// CHECK-COUNT-2: "test.read"
func.func @effects() -> (i32, i32) {
  %0 = "test.read"() : () -> i32
  %1 = "test.read"() : () -> i32
  return %0, %1 : i32, i32
}

// A nested region sees its parent's expressions; siblings do not see each other's.
// CHECK-LABEL: func.func @regions
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0
// CHECK-NEXT:    "test.region"() ({
// CHECK-NEXT:      "test.use"(%[[A]])
// CHECK-NEXT:      %[[M:.*]] = arith.muli %arg0, %arg0
// CHECK-NEXT:      "test.use"(%[[M]])
// CHECK:         }, {
// CHECK-NEXT:      %[[M2:.*]] = arith.muli %arg0, %arg0
// CHECK-NEXT:      "test.use"(%[[M2]])
func.func @regions(%x: i32) {
  %0 = arith.addi %x, %x : i32
  "test.region"() ({
    %1 = arith.addi %x, %x : i32
    "test.use"(%1) : (i32) -> ()
    %2 = arith.muli %x, %x : i32
    "test.use"(%2) : (i32) -> ()
    "test.end"() : () -> ()
  }, {
    %3 = arith.muli %x, %x : i32
    "test.use"(%3) : (i32) -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  "test.use"(%0) : (i32) -> ()
  return
}

// In a CFG, a block reuses expressions of its dominators only.
// CHECK-LABEL: func.func @cfg
// CHECK:         %[[E:.*]] = arith.addi %arg0, %arg0
// CHECK:       ^bb1:
// CHECK-NEXT:    %[[L:.*]] = arith.muli %arg0, %arg0
// CHECK-NEXT:    "test.use"(%[[E]], %[[L]])
// CHECK:       ^bb2:
// CHECK-NEXT:    %[[R:.*]] = arith.muli %arg0, %arg0
// CHECK-NEXT:    "test.use"(%[[E]], %[[R]])
func.func @cfg(%x: i32) {
  %0 = arith.addi %x, %x : i32
  "test.use"(%0) : (i32) -> ()
  "test.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  %1 = arith.addi %x, %x : i32
  %2 = arith.muli %x, %x : i32
  "test.use"(%1, %2) : (i32, i32) -> ()
  "test.br"()[^bb3] : () -> ()
^bb2:
  %3 = arith.addi %x, %x : i32
  %4 = arith.muli %x, %x : i32
  "test.use"(%3, %4) : (i32, i32) -> ()
  "test.br"()[^bb3] : () -> ()
^bb3:
  return
}
