// RUN: npu-opt %s --split-input-file --hoist-loop-allocs | FileCheck %s

// A buffer allocated and freed in each iteration of sequential loops moves
// out of them all, allocated before the outer loop and freed after it.
// CHECK-LABEL: func.func @nested
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[B:.*]] = "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK-NEXT: "scf.for"
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: call @use(%[[B]])
// CHECK-NEXT: "scf.yield"
// CHECK: "scf.yield"
// CHECK: "memref.dealloc"(%[[B]])
// CHECK-NEXT: return
func.func private @use(memref<8xf32>)
func.func @nested(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    "scf.for"(%c0, %n, %c1) ({
    ^bb0(%j: index):
      %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
      call @use(%b) : (memref<8xf32>) -> ()
      "memref.dealloc"(%b) : (memref<8xf32>) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

// An scf.while's body is sequential too: an RNN's steps.
// CHECK-LABEL: func.func @steps
// CHECK: %[[B:.*]] = "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK-NEXT: "scf.while"
// CHECK: "memref.dealloc"(%[[B]])
// CHECK-NEXT: return
func.func private @use(memref<8xf32>)
func.func @steps(%n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = "scf.while"(%c0) ({
  ^bb0(%s: i64):
    %go = arith.cmpi slt, %s, %n : i64
    "scf.condition"(%go, %s) : (i1, i64) -> ()
  }, {
  ^bb0(%s: i64):
    %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
    call @use(%b) : (memref<8xf32>) -> ()
    "memref.dealloc"(%b) : (memref<8xf32>) -> ()
    %t = arith.addi %s, %c1 : i64
    "scf.yield"(%t) : (i64) -> ()
  }) : (i64) -> i64
  return
}

// -----

// What stays: a buffer of a parallel loop (its iterations run at once on
// threads), one of a dynamic size, and one not freed in its own block.
// CHECK-LABEL: func.func @kept
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK: }) {npu.parallel}
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "memref.alloc"(%{{.*}}) {{.*}} -> memref<?xf32>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "memref.alloc"() {{.*}} -> memref<4xf32>
func.func private @use(memref<8xf32>)
func.func private @usev(memref<?xf32>)
func.func private @use4(memref<4xf32>)
func.func @kept(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
    call @use(%b) : (memref<8xf32>) -> ()
    "memref.dealloc"(%b) : (memref<8xf32>) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %v = "memref.alloc"(%i) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
    call @usev(%v) : (memref<?xf32>) -> ()
    "memref.dealloc"(%v) : (memref<?xf32>) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %f = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
    call @use4(%f) : (memref<4xf32>) -> ()
    "scf.if"(%c) ({
      "memref.dealloc"(%f) : (memref<4xf32>) -> ()
      "scf.yield"() : () -> ()
    }, {
      "scf.yield"() : () -> ()
    }) : (i1) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}
