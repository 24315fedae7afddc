// Loop-level dialects (scf, memref, math, vector) parse, verify and print in
// the generic form that upstream mlir-opt accepts, and survive its round trip.
// RUN: npu-opt %s | FileCheck %s
// RUN: npu-opt %s --mlir-print-op-generic | mlir-opt --mlir-print-op-generic | npu-opt | FileCheck %s

// CHECK-LABEL: func.func @loops
func.func @loops(%m: memref<4x8xf32>, %v: memref<8xf32>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  %buf = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  // CHECK: "scf.for"
  // CHECK: "memref.load"
  // CHECK: math.exp
  // CHECK: "scf.yield"
  %sum = "scf.for"(%c0, %c4, %c1, %zero) ({
  ^bb0(%i: index, %acc: f32):
    %x = "memref.load"(%m, %i, %c0) : (memref<4x8xf32>, index, index) -> f32
    %e = "math.exp"(%x) : (f32) -> f32
    "memref.store"(%e, %buf, %i) : (f32, memref<4xf32>, index) -> ()
    %s = arith.addf %acc, %e : f32
    "scf.yield"(%s) : (f32) -> ()
  }) : (index, index, index, f32) -> f32
  // CHECK: "scf.if"
  %r = "scf.if"(%c) ({
    "scf.yield"(%sum) : (f32) -> ()
  }, {
    "scf.yield"(%zero) : (f32) -> ()
  }) : (i1) -> f32
  // CHECK: "vector.create_mask"
  // CHECK: "vector.maskedload"
  // CHECK: "vector.fma"
  // CHECK: "vector.shuffle"(%{{.*}}, %{{.*}}) <{mask = array<i64: 0, 2, 4, 6, 8, 10, 12, 14>}>
  // CHECK: "vector.maskedstore"
  // CHECK: "vector.reduction"
  %n = arith.constant 5 : index
  %mask = "vector.create_mask"(%n) : (index) -> vector<8xi1>
  %pass = arith.constant dense<0.0> : vector<8xf32>
  %a = "vector.maskedload"(%v, %c0, %mask, %pass) : (memref<8xf32>, index, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
  %b = "vector.broadcast"(%r) : (f32) -> vector<8xf32>
  %f = "vector.fma"(%a, %b, %a) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  %even = "vector.shuffle"(%a, %f) <{mask = array<i64: 0, 2, 4, 6, 8, 10, 12, 14>}> : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  "vector.maskedstore"(%v, %c0, %mask, %f) : (memref<8xf32>, index, vector<8xi1>, vector<8xf32>) -> ()
  %t = "vector.reduction"(%even) <{kind = #vector.kind<add>}> : (vector<8xf32>) -> f32
  // CHECK: "memref.dealloc"
  "memref.dealloc"(%buf) : (memref<4xf32>) -> ()
  return %t : f32
}

// A while loop: the before region decides, the after region steps.
// CHECK-LABEL: func.func @count
func.func @count(%n: i64) -> i64 {
  %z = arith.constant 0 : i64
  // CHECK: "scf.while"
  // CHECK: "scf.condition"
  // CHECK: "scf.yield"
  %r = "scf.while"(%z) ({
  ^bb0(%i: i64):
    %c = "arith.cmpi"(%i, %n) <{predicate = 2 : i64}> : (i64, i64) -> i1
    "scf.condition"(%c, %i) : (i1, i64) -> ()
  }, {
  ^bb0(%i: i64):
    %one = arith.constant 1 : i64
    %j = arith.addi %i, %one : i64
    "scf.yield"(%j) : (i64) -> ()
  }) : (i64) -> i64
  return %r : i64
}

// A 2-D scf.parallel (bounds, steps: one segment each) ended by an scf.reduce
// of nothing, as the CPU path's parallel nests read upstream.
// CHECK-LABEL: func.func @parallel
// CHECK: "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}>
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: index):
// CHECK: "memref.store"
// CHECK: "scf.reduce"() : () -> ()
func.func @parallel(%m: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  "scf.parallel"(%c0, %c0, %c4, %c8, %c1, %c1) <{operandSegmentSizes = array<i32: 2, 2, 2, 0>}> ({
  ^bb0(%i: index, %j: index):
    "memref.store"(%one, %m, %i, %j) : (f32, memref<4x8xf32>, index, index) -> ()
    "scf.reduce"() : () -> ()
  }) : (index, index, index, index, index, index) -> ()
  return
}
