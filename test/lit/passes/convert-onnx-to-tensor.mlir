// convert-onnx-to-tensor: onnx ops become tensor.generic loop nests (maps say
// how operands are read), reshapes and constants; integers become signless;
// what cannot be lowered is an error at the node's location.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor))' | FileCheck %s

// Broadcasting Add: the [3] operand is read through (d0, d1) -> (d1).
// CHECK-LABEL: func.func @add
// CHECK: "tensor.empty"() : () -> tensor<2x3xf32>
// CHECK: "tensor.generic"(%arg0, %arg1, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]
// CHECK: arith.addf
// CHECK-NOT: onnx.
func.func @add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// MatMul: a zero-filled accumulator, then the named tensor.matmul.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[E:.*]] = "tensor.empty"() : () -> tensor<4x6xf32>
// CHECK: %[[F:.*]] = "tensor.fill"(%[[Z]], %[[E]])
// CHECK: "tensor.matmul"(%arg0, %arg1, %[[F]]) : (tensor<4x5xf32>, tensor<5x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
func.func @matmul(%a: tensor<4x5xf32>, %b: tensor<5x6xf32>) -> tensor<4x6xf32> {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// Unsigned integers: signless types, unsigned ops.
// CHECK-LABEL: func.func @udiv(%arg0: tensor<4xi8>, %arg1: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.divui
func.func @udiv(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "onnx.Div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Reshape is a collapse then an expand: free views after bufferization.
// CHECK-LABEL: func.func @reshape
// CHECK: "tensor.collapse_shape"(%arg0) <{reassociation = {{\[\[}}0 : i64, 1 : i64]]}> : (tensor<2x6xf32>) -> tensor<12xf32>
// CHECK: "tensor.expand_shape"
// CHECK-SAME: -> tensor<3x4xf32>
func.func @reshape(%a: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %s = "onnx.Constant"() <{value = dense<[3, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%a, %s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Conv with one group: im2col columns then a contraction.
// CHECK-LABEL: func.func @conv
// CHECK: "tensor.generic"{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK: "tensor.collapse_shape"
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
func.func @conv(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>}> : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @unsupported(%x: tensor<4xf32>) -> tensor<1x4xi64> {
  // expected-error @+1 {{'onnx.NonZero' has no CPU lowering yet}}
  %0 = "onnx.NonZero"(%x) : (tensor<4xf32>) -> tensor<1x4xi64>
  return %0 : tensor<1x4xi64>
}

// -----

// Shapes a model declares although they clash: refused, naming the operand.
func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{cannot lower 'onnx.Add' to the CPU: operand 1 of shape [4, 5] does not broadcast to the result's shape [2, 3]}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @expand_no_broadcast(%x: tensor<3xf32>, %s: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{cannot lower 'onnx.Expand' to the CPU: operand 0 of shape [3] does not broadcast to the result's shape [2, 4]}}
  %0 = "onnx.Expand"(%x, %s) : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<4x4xf32> {
  // expected-error @+1 {{cannot lower 'onnx.Reshape' to the CPU: the input's 6 elements (shape [2, 3]) cannot take the shape [4, 4] (16 elements)}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{cannot lower 'onnx.Relu' to the CPU: needs static shapes, got tensor<?xf32>}}
  %0 = "onnx.Relu"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @axes_not_constant(%x: tensor<4x5xf32>, %axes: tensor<1xi64>) -> tensor<1x5xf32> {
  // expected-error @+1 {{cannot lower 'onnx.ReduceSum' to the CPU: input #1 must be a constant}}
  %0 = "onnx.ReduceSum"(%x, %axes) : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// Casts to and from 8-bit floats go through the bits (no LLVM type exists):
// round to nearest even on the format's grid, then saturate.
// CHECK-LABEL: func.func @cast_f8
// CHECK: "tensor.generic"
// CHECK: math.absf
// CHECK: math.roundeven
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.bitcast %{{.*}} : i8 to f8E4M3FN
// CHECK: "tensor.generic"
// CHECK: arith.bitcast %{{.*}} : f8E4M3FN to i8
// CHECK: arith.extui
// CHECK: arith.sitofp
func.func @cast_f8(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Cast"(%x) <{to = 17 : i64}> : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  %1 = "onnx.Cast"(%0) <{to = 1 : i64}> : (tensor<4xf8E4M3FN>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Attention with grouped-query heads: 6 query heads share 2 key/value heads
// (head h reads K/V head h floordiv 3); the cache is concatenated in front.
// CHECK-LABEL: func.func @gqa
// CHECK: "tensor.concat"(%arg3, %arg1) <{dim = 2 : i64}>
// CHECK: affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 3, d3, d4)>
// CHECK: math.exp
// CHECK: affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 floordiv 3, d4, d3)>
func.func @gqa(%q: tensor<1x6x4x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x8xf32>, %pk: tensor<1x2x3x8xf32>, %pv: tensor<1x2x3x8xf32>) -> tensor<1x6x4x8xf32> {
  %none = "onnx.NoValue"() : () -> none
  %0:3 = "onnx.Attention"(%q, %k, %v, %none, %pk, %pv) : (tensor<1x6x4x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, none, tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) -> (tensor<1x6x4x8xf32>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>)
  return %0#0 : tensor<1x6x4x8xf32>
}

// -----

// An LSTM's sequence is one loop, not unrolled: the input projection of all
// seven steps before it, then an scf.while carrying the step number, H, C and
// the direction's [seq, batch, H] output, each step writing its row.
// CHECK-LABEL: func.func @lstm_sequence_as_loop
// CHECK: affine_map<(d0, d1, d2) -> (0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: "scf.while"
// CHECK: "scf.condition"({{.*}}) : (i1, i64, tensor<1x8xf32>, tensor<1x8xf32>, tensor<7x1x8xf32>) -> ()
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: "tensor.insert_row"({{.*}}) <{dim = 0 : i64}> : (tensor<1x8xf32>, tensor<7x1x8xf32>, index) -> tensor<7x1x8xf32>
// CHECK: "scf.yield"
// CHECK-NOT: "scf.while"
// CHECK: return
func.func @lstm_sequence_as_loop(%x: tensor<7x1x4xf32>, %w: tensor<1x32x4xf32>, %r: tensor<1x32x8xf32>) -> tensor<7x1x1x8xf32> {
  %n = "onnx.NoValue"() : () -> none
  %y, %h, %c = "onnx.LSTM"(%x, %w, %r, %n, %n, %n, %n, %n) {hidden_size = 8 : si64} : (tensor<7x1x4xf32>, tensor<1x32x4xf32>, tensor<1x32x8xf32>, none, none, none, none, none) -> (tensor<7x1x1x8xf32>, none, none)
  return %y : tensor<7x1x1x8xf32>
}

// -----

func.func @conv_bad_pads(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+1 {{cannot lower 'onnx.Conv' to the CPU: pads must have two entries per spatial dim}}
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}
