// fold-constant-copies: a tensor.generic whose body only yields an element of
// a constant (a transpose, a broadcast) becomes the constant it computes, so
// weights reach the kernels in their layout at compile time; a copy of a
// value that is not a constant, or a body that computes, stays.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, fold-constant-copies)' | FileCheck %s

// CHECK-LABEL: func.func @transpose
// CHECK-NEXT: arith.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: return
func.func @transpose() -> tensor<3x2xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %t = "onnx.Transpose"(%c) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// -----

// The last two dims swapped, as an LSTM's weights are: [1, 2, 3] -> [1, 3, 2].
// CHECK-LABEL: func.func @transpose_last_two
// CHECK-NEXT: arith.constant dense<{{\[\[\[}}1, 4], [2, 5], [3, 6]]]> : tensor<1x3x2xi32>
// CHECK-NEXT: return
func.func @transpose_last_two() -> tensor<1x3x2xi32> {
  %c = "onnx.Constant"() <{value = dense<[[[1, 2, 3], [4, 5, 6]]]> : tensor<1x2x3xi32>}> : () -> tensor<1x2x3xi32>
  %t = "onnx.Transpose"(%c) {perm = array<i64: 0, 2, 1>} : (tensor<1x2x3xi32>) -> tensor<1x3x2xi32>
  return %t : tensor<1x3x2xi32>
}

// -----

// A broadcast stays: the constant would be as large as its output (a bias
// broadcast to a layer's output is the init of its accumulator).
// CHECK-LABEL: func.func @splat
// CHECK: "tensor.generic"
// CHECK-LABEL: func.func @broadcast
// CHECK: "tensor.generic"
func.func @splat() -> tensor<4x3xf32> {
  %c = "onnx.Constant"() <{value = dense<2.5> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
  %s = "onnx.Constant"() <{value = dense<[4, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %e = "onnx.Expand"(%c, %s) : (tensor<1x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return %e : tensor<4x3xf32>
}
func.func @broadcast() -> tensor<3x2xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  %s = "onnx.Constant"() <{value = dense<[3, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %e = "onnx.Expand"(%c, %s) : (tensor<1x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %e : tensor<3x2xf32>
}

// -----

// A slice of a constant is the constant's part.
// CHECK-LABEL: func.func @slice
// CHECK-NEXT: arith.constant dense<{{\[\[}}2.000000e+00, 3.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: return
func.func @slice() -> tensor<2x2xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %st = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %en = "onnx.Constant"() <{value = dense<[3]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %ax = "onnx.Constant"() <{value = dense<[1]> : tensor<1xi64>}> : () -> tensor<1xi64>
  %r = "onnx.Slice"(%c, %st, %en, %ax) : (tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @not_constant
// CHECK: "tensor.generic"(%arg0
func.func @not_constant(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = "onnx.Transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @not_a_copy
// CHECK: "tensor.generic"
// CHECK: arith.negf
func.func @not_a_copy() -> tensor<2x3xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %n = "onnx.Neg"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %n : tensor<2x3xf32>
}

// -----

// A copy into part of a destination (Concat with a constant) keeps the
// destination's other elements: not folded, not even for a splat.
// CHECK-LABEL: func.func @into_a_slice
// CHECK: "tensor.generic"(%arg0
// CHECK: "tensor.generic"(%{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1 + 2)>]
func.func @into_a_slice(%a: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %c = "onnx.Constant"() <{value = dense<0.0> : tensor<2x1xf32>}> : () -> tensor<2x1xf32>
  %r = "onnx.Concat"(%a, %c) {axis = 1 : si64} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// Through a reshape: the constant's elements in the reshape's shape, then
// transposed; the reshape and the old constant go.
// CHECK-LABEL: func.func @through_reshape
// CHECK-NEXT: arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: return
func.func @through_reshape() -> tensor<2x3xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %s = "onnx.Constant"() <{value = dense<[3, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%c, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}
