// The tensor dialect's ops parse, verify and print back (generic form).
// RUN: npu-opt %s | FileCheck %s
// RUN: npu-opt %s | npu-opt | FileCheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %idx: tensor<2xi64>) -> (tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>) {
  // CHECK: "tensor.empty"() : () -> tensor<2x3xf32>
  %e = "tensor.empty"() : () -> tensor<2x3xf32>
  // CHECK: "tensor.generic"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 2, 1>}>
  // CHECK: "tensor.index"() <{dim = 1 : i64}> : () -> index
  // CHECK: "tensor.extract"
  // CHECK: "tensor.yield"
  %r = "tensor.generic"(%a, %b, %e) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], operandSegmentSizes = array<i32: 2, 1>}> ({
  ^bb0(%x: f32, %y: f32, %o: f32):
    %j = "tensor.index"() <{dim = 1 : i64}> : () -> index
    %z = "tensor.extract"(%b, %j) : (tensor<3xf32>, index) -> f32
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %s, %z : f32
    "tensor.yield"(%t) : (f32) -> ()
  }) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "tensor.collapse_shape"(%{{.*}}) <{reassociation = {{\[\[}}0 : i64, 1 : i64]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  %c = "tensor.collapse_shape"(%r) <{reassociation = [[0, 1]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  // CHECK: "tensor.expand_shape"(%{{.*}}) <{reassociation = {{\[\[}}0 : i64, 1 : i64]], static_output_shape = array<i64: 3, 2>}> : (tensor<6xf32>) -> tensor<3x2xf32>
  %x = "tensor.expand_shape"(%c) <{reassociation = [[0, 1]], static_output_shape = array<i64: 3, 2>}> : (tensor<6xf32>) -> tensor<3x2xf32>
  return %r, %c, %x : tensor<2x3xf32>, tensor<6xf32>, tensor<3x2xf32>
}

// A reduction with a kept size-1 dim, and loop_ranges for a loop no operand indexes.
// CHECK-LABEL: func.func @reduction
func.func @reduction(%a: tensor<4x5xf32>, %init: tensor<4x1xf32>) -> tensor<4x1xf32> {
  // CHECK: iterator_types = ["parallel", "reduction", "reduction"], loop_ranges = array<i64: 4, 5, 2>
  %r = "tensor.generic"(%a, %init) <{indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, 0)>], iterator_types = ["parallel", "reduction", "reduction"], loop_ranges = array<i64: 4, 5, 2>, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    "tensor.yield"(%s) : (f32) -> ()
  }) : (tensor<4x5xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// On memrefs the generic writes in place and has no results.
// CHECK-LABEL: func.func @on_buffers
func.func @on_buffers(%a: memref<8xf32>, %o: memref<8xf32>) {
  // CHECK: "tensor.generic"(%{{.*}}, %{{.*}}) <{{.*}}> ({
  // CHECK: }) : (memref<8xf32>, memref<8xf32>) -> ()
  "tensor.generic"(%a, %o) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    "tensor.yield"(%x) : (f32) -> ()
  }) : (memref<8xf32>, memref<8xf32>) -> ()
  return
}

// A row written at a run-time offset (a loop's scan output).
// CHECK-LABEL: func.func @insert_row
func.func @insert_row(%r: tensor<3xf32>, %d: tensor<5x3xf32>, %i: index) -> tensor<5x3xf32> {
  // CHECK: "tensor.insert_row"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 0 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, index) -> tensor<5x3xf32>
  %0 = "tensor.insert_row"(%r, %d, %i) <{dim = 0 : i64}> : (tensor<3xf32>, tensor<5x3xf32>, index) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// A scalar reshaped to ones and back: a rank-0 side has no groups.
// CHECK-LABEL: func.func @scalar_reshape
func.func @scalar_reshape(%s: tensor<f32>) -> tensor<f32> {
  // CHECK: "tensor.expand_shape"(%arg0) <{reassociation = [], static_output_shape = array<i64: 1, 1>}> : (tensor<f32>) -> tensor<1x1xf32>
  %e = "tensor.expand_shape"(%s) <{reassociation = [], static_output_shape = array<i64: 1, 1>}> : (tensor<f32>) -> tensor<1x1xf32>
  // CHECK: "tensor.collapse_shape"(%{{.*}}) <{reassociation = []}> : (tensor<1x1xf32>) -> tensor<f32>
  %c = "tensor.collapse_shape"(%e) <{reassociation = []}> : (tensor<1x1xf32>) -> tensor<f32>
  return %c : tensor<f32>
}
