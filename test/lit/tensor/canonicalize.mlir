// Folders of the tensor dialect: a reshape undone by its inverse is the
// original value.
// RUN: npu-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @collapse_of_expand(%arg0: tensor<6xf32>) -> tensor<6xf32>
// CHECK-NEXT: return %arg0
func.func @collapse_of_expand(%a: tensor<6xf32>) -> tensor<6xf32> {
  %e = "tensor.expand_shape"(%a) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 3>}> : (tensor<6xf32>) -> tensor<2x3xf32>
  %c = "tensor.collapse_shape"(%e) <{reassociation = [[0, 1]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  return %c : tensor<6xf32>
}

// CHECK-LABEL: func.func @expand_of_collapse(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: return %arg0
func.func @expand_of_collapse(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = "tensor.collapse_shape"(%a) <{reassociation = [[0, 1]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  %e = "tensor.expand_shape"(%c) <{reassociation = [[0, 1]], static_output_shape = array<i64: 2, 3>}> : (tensor<6xf32>) -> tensor<2x3xf32>
  return %e : tensor<2x3xf32>
}

// A different shape is a real reshape: kept.
// CHECK-LABEL: func.func @reshape
// CHECK: "tensor.collapse_shape"
// CHECK: "tensor.expand_shape"
func.func @reshape(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %c = "tensor.collapse_shape"(%a) <{reassociation = [[0, 1]]}> : (tensor<2x3xf32>) -> tensor<6xf32>
  %e = "tensor.expand_shape"(%c) <{reassociation = [[0, 1]], static_output_shape = array<i64: 3, 2>}> : (tensor<6xf32>) -> tensor<3x2xf32>
  return %e : tensor<3x2xf32>
}
