// RUN: npu-opt %s --split-input-file --plan-arena | FileCheck %s

// Three buffers of a model's function: %a (1 KB) lives through the whole
// function, %b (2 KB) while the first nest runs, %c (2 KB) after %b is freed.
// Largest first at the lowest free offset: %b at 0, %c in %b's bytes (its
// life starts after %b's ends), %a after them at 2048; the arena is 3072
// bytes, taken on entry and given back before the return.
// CHECK-LABEL: func.func private @npu_arena_push(i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @model
// CHECK: %[[N:.*]] = arith.constant 3072 : i64
// CHECK-NEXT: %[[ARENA:.*]] = call @npu_arena_push(%[[N]]) : (i64) -> memref<?xi8>
// CHECK: %[[OA:.*]] = arith.constant 2048 : index
// CHECK-NEXT: %[[A:.*]] = "memref.view"(%[[ARENA]], %[[OA]]) : (memref<?xi8>, index) -> memref<256xf32>
// CHECK: %[[OB:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[B:.*]] = "memref.view"(%[[ARENA]], %[[OB]]) : (memref<?xi8>, index) -> memref<8x64xf32>
// CHECK-NEXT: call @nest(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = "memref.view"(%[[ARENA]], %[[OB2:.*]]) : (memref<?xi8>, index) -> memref<2048xi8>
// CHECK-NEXT: call @bytes(%[[A]], %[[C]])
// CHECK-NOT: memref.dealloc
// CHECK: call @npu_arena_pop() : () -> ()
// CHECK-NEXT: return
func.func private @nest(memref<256xf32>, memref<8x64xf32>)
func.func private @bytes(memref<256xf32>, memref<2048xi8>)
func.func @model() {
  %a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>, alignment = 64 : i64}> : () -> memref<256xf32>
  %b = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>, alignment = 64 : i64}> : () -> memref<8x64xf32>
  call @nest(%a, %b) : (memref<256xf32>, memref<8x64xf32>) -> ()
  "memref.dealloc"(%b) : (memref<8x64xf32>) -> ()
  %c = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>, alignment = 64 : i64}> : () -> memref<2048xi8>
  call @bytes(%a, %c) : (memref<256xf32>, memref<2048xi8>) -> ()
  "memref.dealloc"(%c) : (memref<2048xi8>) -> ()
  "memref.dealloc"(%a) : (memref<256xf32>) -> ()
  return
}

// -----

// What cannot be planned keeps its allocation: a dynamic shape, a buffer
// never freed (it escapes), one inside a loop, and every buffer of a private
// function (an outlined nest's, a subgraph's). A function with nothing to
// plan takes no arena, and no hook is declared.
// CHECK-NOT: npu_arena
// CHECK-LABEL: func.func @unplanned
// CHECK-NOT: npu_arena
// CHECK: "memref.alloc"(%{{.*}}) {{.*}} -> memref<?xf32>
// CHECK: "memref.alloc"() {{.*}} -> memref<4xf32>
// CHECK: "scf.for"
// CHECK: "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK-NOT: npu_arena
// CHECK-LABEL: func.func private @helper
// CHECK: "memref.alloc"() {{.*}} -> memref<16xf32>
// CHECK-NOT: npu_arena
func.func private @use(memref<?xf32>)
func.func private @keep(memref<4xf32>)
func.func private @use8(memref<8xf32>)
func.func @unplanned(%n: index) {
  %d = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
  call @use(%d) : (memref<?xf32>) -> ()
  "memref.dealloc"(%d) : (memref<?xf32>) -> ()
  %e = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
  call @keep(%e) : (memref<4xf32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.for"(%c0, %n, %c1) ({
  ^bb0(%i: index):
    %l = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<8xf32>
    call @use8(%l) : (memref<8xf32>) -> ()
    "memref.dealloc"(%l) : (memref<8xf32>) -> ()
    "scf.yield"() : () -> ()
  }) : (index, index, index) -> ()
  return
}
func.func private @helper() {
  %h = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16xf32>
  "memref.dealloc"(%h) : (memref<16xf32>) -> ()
  return
}
