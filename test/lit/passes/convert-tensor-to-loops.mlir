// convert-tensor-to-loops: a generic on memrefs becomes an scf.for nest of
// loads, the body and stores; a reduction keeps its accumulator in iter_args;
// a matmul-like contraction becomes register-tiled vector code.
// RUN: npu-opt %s --split-input-file --convert-tensor-to-loops | FileCheck %s

// CHECK-LABEL: func.func @relu
// CHECK: "scf.for"
// CHECK: "memref.load"(%arg0
// CHECK: arith.maximumf
// CHECK: "memref.store"({{.*}}, %arg1
// CHECK-NOT: tensor.generic
func.func @relu(%a: memref<8xf32>, %o: memref<8xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %x, %z : f32
    "tensor.yield"(%r) : (f32) -> ()
  }) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}

// -----

// The row sum loads out[i] once, carries it through the k loop, stores once.
// CHECK-LABEL: func.func @rowsum
// CHECK: "scf.for"
// CHECK: %[[ACC:.*]] = "memref.load"(%arg1
// CHECK: "scf.for"({{.*}}, %[[ACC]])
// CHECK: arith.addf
// CHECK: "scf.yield"
// CHECK: "memref.store"({{.*}}, %arg1
func.func @rowsum(%a: memref<4x5xf32>, %o: memref<4xf32>) {
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<4x5xf32>, memref<4xf32>) -> ()
  return
}

// -----

// A matmul: masked vector loads of B and C, broadcast A, fused multiply-adds.
// CHECK-LABEL: func.func @matmul
// CHECK: "vector.create_mask"
// CHECK: "vector.maskedload"(%arg2
// CHECK: "vector.maskedload"(%arg1
// CHECK: "memref.load"(%arg0
// CHECK: "vector.broadcast"
// CHECK: "vector.fma"
// CHECK: "vector.maskedstore"(%arg2
func.func @matmul(%a: memref<9x7xf32>, %b: memref<7x40xf32>, %c: memref<9x40xf32>) {
  "tensor.generic"(%a, %b, %c) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (memref<9x7xf32>, memref<7x40xf32>, memref<9x40xf32>) -> ()
  return
}
