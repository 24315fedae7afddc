// bufferize on control flow: an scf.if's tensor results get buffers before
// it, each branch copies what it yields there; an scf.while keeps each carried
// tensor in one buffer (its slot) for the whole loop, the initial value copied
// in (a tensor.empty used as it is), the yielded value copied back (through a
// temporary when it is another slot's: a swap reads both values intact);
// tensor.insert_row writes its row through a subview of the slot. Buffers
// allocated in a region are freed in it.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(bufferize))' | FileCheck %s

// The result's buffer is the output argument itself.
// CHECK-LABEL: func.func @if
// CHECK-SAME: %[[R:arg2]]: memref<3xf32>
// CHECK-NEXT: "scf.if"(%arg0) ({
// CHECK: "memref.copy"(%arg1, %[[R]])
// CHECK: "scf.yield"() : () -> ()
// CHECK: }, {
// CHECK: %[[T:.*]] = "memref.alloc"
// CHECK: "tensor.generic"(%arg1, %[[T]])
// CHECK: "memref.copy"(%[[T]], %[[R]])
// CHECK: "memref.dealloc"(%[[T]])
// CHECK: "scf.yield"() : () -> ()
// CHECK: }) : (i1) -> ()
// CHECK-NEXT: return
func.func @if(%c: i1, %x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "scf.if"(%c) ({
    "scf.yield"(%x) : (tensor<3xf32>) -> ()
  }, {
    %e = "tensor.empty"() : () -> tensor<3xf32>
    %n = "tensor.generic"(%x, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      "tensor.yield"(%m) : (f32) -> ()
    }) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "scf.yield"(%n) : (tensor<3xf32>) -> ()
  }) : (i1) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Two carried values swapped each iteration, and a scan output.
// CHECK-LABEL: func.func @swap
// CHECK: "memref.copy"(%arg0, %[[A:.*]]) :
// CHECK: "memref.copy"(%arg1, %[[B:.*]]) :
// CHECK: "scf.while"(%{{.*}}) ({
// CHECK: ^bb0(%{{.*}}: i64):
// CHECK: "scf.condition"(%{{.*}}, %{{.*}}) : (i1, i64) -> ()
// CHECK: }, {
// CHECK: ^bb0(%{{.*}}: i64):
// CHECK: %[[V:.*]] = "memref.subview"(%[[ROWS:.*]], %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808, 0>, static_sizes = array<i64: 1, 2>, static_strides = array<i64: 1, 1>}> : (memref<4x2xf32>, index) -> memref<2xf32, strided<[1], offset: ?>>
// CHECK: "tensor.generic"(%[[B]], %[[V]])
// CHECK: %[[TA:.*]] = "memref.alloc"
// CHECK: "memref.copy"(%[[B]], %[[TA]])
// CHECK: %[[TB:.*]] = "memref.alloc"
// CHECK: "memref.copy"(%[[A]], %[[TB]])
// CHECK: "memref.copy"(%[[TA]], %[[A]])
// CHECK: "memref.dealloc"(%[[TA]])
// CHECK: "memref.copy"(%[[TB]], %[[B]])
// CHECK: "memref.dealloc"(%[[TB]])
// CHECK: "scf.yield"(%{{.*}}) : (i64) -> ()
// CHECK: }) : (i64) -> i64
// CHECK: "memref.dealloc"(%[[B]])
func.func @swap(%a0: tensor<2xf32>, %b0: tensor<2xf32>, %n: i64) -> (tensor<2xf32>, tensor<4x2xf32>) {
  %z = arith.constant 0 : i64
  %rows = "tensor.empty"() : () -> tensor<4x2xf32>
  %r:4 = "scf.while"(%z, %a0, %b0, %rows) ({
  ^bb0(%i: i64, %a: tensor<2xf32>, %b: tensor<2xf32>, %s: tensor<4x2xf32>):
    %go = arith.cmpi slt, %i, %n : i64
    "scf.condition"(%go, %i, %a, %b, %s) : (i1, i64, tensor<2xf32>, tensor<2xf32>, tensor<4x2xf32>) -> ()
  }, {
  ^bb0(%i: i64, %a: tensor<2xf32>, %b: tensor<2xf32>, %s: tensor<4x2xf32>):
    %k = arith.index_cast %i : i64 to index
    %s2 = "tensor.insert_row"(%b, %s, %k) <{dim = 0 : i64}> : (tensor<2xf32>, tensor<4x2xf32>, index) -> tensor<4x2xf32>
    %one = arith.constant 1 : i64
    %j = arith.addi %i, %one : i64
    "scf.yield"(%j, %b, %a, %s2) : (i64, tensor<2xf32>, tensor<2xf32>, tensor<4x2xf32>) -> ()
  }) : (i64, tensor<2xf32>, tensor<2xf32>, tensor<4x2xf32>) -> (i64, tensor<2xf32>, tensor<2xf32>, tensor<4x2xf32>)
  return %r#1, %r#3 : tensor<2xf32>, tensor<4x2xf32>
}

// -----

// A branch's buffer read only from inside a later body (a gather's
// tensor.extract) lives until that read: it is freed after the reading
// generic, not after the generic that wrote it.
// CHECK-LABEL: func.func @captured_read_in_branch
// CHECK: "scf.if"(%arg0) ({
// CHECK: %[[T:.*]] = "memref.alloc"
// CHECK: "tensor.generic"(%arg1, %[[T]])
// CHECK-NOT: "memref.dealloc"(%[[T]])
// CHECK: "tensor.generic"(%{{.*}}) <{
// CHECK: "tensor.extract"(%[[T]], %{{.*}})
// CHECK: "memref.dealloc"(%[[T]])
// CHECK: "scf.yield"() : () -> ()
func.func @captured_read_in_branch(%c: i1, %x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "scf.if"(%c) ({
    %e = "tensor.empty"() : () -> tensor<4xf32>
    %n = "tensor.generic"(%x, %e) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      "tensor.yield"(%m) : (f32) -> ()
    }) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %e2 = "tensor.empty"() : () -> tensor<2xf32>
    %g = "tensor.generic"(%e2) <{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 0, 1>}> ({
    ^bb0(%o: f32):
      %i = "tensor.index"() <{dim = 0 : i64}> : () -> index
      %v = "tensor.extract"(%n, %i) : (tensor<4xf32>, index) -> f32
      "tensor.yield"(%v) : (f32) -> ()
    }) : (tensor<2xf32>) -> tensor<2xf32>
    "scf.yield"(%g) : (tensor<2xf32>) -> ()
  }, {
    %e3 = "tensor.empty"() : () -> tensor<2xf32>
    "scf.yield"(%e3) : (tensor<2xf32>) -> ()
  }) : (i1) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
