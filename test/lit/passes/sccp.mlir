// sccp: constants propagate through folders across the function; values
// proven constant are replaced and what becomes dead is removed.
// RUN: npu-opt %s --sccp --allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: func.func @propagate
// CHECK-NEXT:    %[[C:.*]] = arith.constant 10 : i32
// CHECK-NEXT:    "test.use"(%[[C]])
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    "test.use"(%[[T]])
// CHECK-NEXT:    return
func.func @propagate() {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %c2, %c3 : i32
  %1 = arith.muli %0, %c2 : i32
  "test.use"(%1) : (i32) -> ()
  %2 = arith.cmpi sgt, %1, %c3 : i32
  "test.use"(%2) : (i1) -> ()
  return
}

// Unknown values stay; a select on a known condition between a constant and
// an unknown value becomes the constant.
// CHECK-LABEL: func.func @partial
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0
// CHECK-NEXT:    %[[C:.*]] = arith.constant 9 : i32
// CHECK-NEXT:    return %[[A]], %[[C]]
func.func @partial(%x: i32) -> (i32, i32) {
  %t = arith.constant true
  %0 = arith.addi %x, %x : i32
  %c9 = arith.constant 9 : i32
  %1 = arith.select %t, %c9, %0 : i32
  return %0, %1 : i32, i32
}
