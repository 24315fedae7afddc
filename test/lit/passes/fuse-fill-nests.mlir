// RUN: npu-opt %s --split-input-file --fuse-fill-nests | FileCheck %s

// A padded buffer's four border fills (top and bottom rows as vector stores,
// left and right columns as scalar ones), each a nest over the channels,
// become one nest over the channels; inside it the two column loops, of one
// range, become one loop storing a row's left (column 0) and right (column
// 17) border together. It stays parallel: all four were, and every store
// writes the buffer at the channel loop's index.
// CHECK-LABEL: func.func @borders
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C17:.*]] = arith.constant 17 : index
// CHECK: "scf.for"(%[[C0]], %{{.*}}, %{{.*}}) ({
// CHECK-NEXT: ^bb0(%[[CH:.*]]: index):
// CHECK: "vector.store"(%{{.*}}, %arg0, %[[C0]], %[[CH]], %[[C0]], %[[C0]])
// CHECK: "vector.store"(%{{.*}}, %arg0, %[[C0]], %[[CH]], %[[C17]], %[[C0]])
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[R:.*]]: index):
// CHECK-NEXT: "memref.store"(%{{.*}}, %arg0, %[[C0]], %[[CH]], %[[R]], %[[C0]])
// CHECK-NEXT: "memref.store"(%{{.*}}, %arg0, %[[C0]], %[[CH]], %[[R]], %[[C17]])
// CHECK-NEXT: "scf.yield"
// CHECK: }) {npu.parallel}
// CHECK-NOT: "scf.for"
// CHECK: return
func.func @borders(%buf: memref<1x4x18x18xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c17 = arith.constant 17 : index
  %c18 = arith.constant 18 : index
  %zero = arith.constant 0.0 : f32
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%c: index):
    %v = "vector.broadcast"(%zero) : (f32) -> vector<18xf32>
    "vector.store"(%v, %buf, %c0, %c, %c0, %c0) : (vector<18xf32>, memref<1x4x18x18xf32>, index, index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%c: index):
    %v = "vector.broadcast"(%zero) : (f32) -> vector<18xf32>
    "vector.store"(%v, %buf, %c0, %c, %c17, %c0) : (vector<18xf32>, memref<1x4x18x18xf32>, index, index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%c: index):
    "scf.for"(%c0, %c18, %c1) ({
    ^bb0(%r: index):
      "memref.store"(%zero, %buf, %c0, %c, %r, %c0) : (f32, memref<1x4x18x18xf32>, index, index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%c: index):
    "scf.for"(%c0, %c18, %c1) ({
    ^bb0(%r: index):
      "memref.store"(%zero, %buf, %c0, %c, %r, %c17) : (f32, memref<1x4x18x18xf32>, index, index, index, index) -> ()
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  return
}

// -----

// What stays apart: fills of two different values (their order matters where
// they meet), a nest that reads, loops over different ranges, a vector
// fill of another value, a step of 2 against one of 1; two parallel fills
// whose stores are not at the loop's index in one place (fused, iteration i
// of one and j of the other could write the same element at once). A nest
// that was not parallel makes the fused one sequential.
// CHECK-LABEL: func.func @apart
// CHECK-COUNT-8: "scf.for"
// CHECK-NOT: "scf.for"
// CHECK-NOT: npu.parallel
// CHECK: return
func.func @apart(%buf: memref<8x8xf32>, %out: memref<8xf32>, %v: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%zero, %buf, %i, %c0) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %i, %c0) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    %x = "memref.load"(%buf, %i, %c7) : (memref<8x8xf32>, index, index) -> f32
    "memref.store"(%x, %out, %i) : (f32, memref<8xf32>, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %i, %c7) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c1) ({
  ^bb0(%i: index):
    %z = "vector.broadcast"(%zero) : (f32) -> vector<16xf32>
    "vector.store"(%z, %v, %i, %c0) : (vector<16xf32>, memref<8x16xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c4, %c2) ({
  ^bb0(%i: index):
    "memref.store"(%zero, %buf, %i, %c4) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %i, %c2) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %c2, %i) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %i, %c1) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  "scf.for"(%c0, %c8, %c1) ({
  ^bb0(%i: index):
    "memref.store"(%one, %buf, %i, %c4) : (f32, memref<8x8xf32>, index, index) -> ()
    "scf.yield"() : () -> ()
  }) {npu.parallel} : (index, index, index) -> ()
  return
}
