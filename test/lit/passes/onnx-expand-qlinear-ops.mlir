// onnx-expand-qlinear-ops: ONNX Runtime's com.microsoft QLinear operators
// become DequantizeLinear -> float op -> QuantizeLinear; QGemm's int32 bias is
// dequantized in the product's scale (per B column), its result float when
// it has no output scale; a channels-last pool stays.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-expand-qlinear-ops, onnx-shape-inference)' | FileCheck %s
// The expanded model runs: on the CPU (float between the Q/DQ pairs) and on
// npu16 (the Conv, the Add, the pool and the sigmoid, a table, in int8),
// within two output steps.
// RUN: npu-translate --export-onnx %S/Inputs/qlinear-ms.mlir -o %t.onnx
// RUN: npu-run %t.onnx --target cpu --seed 2 --output-dir %t.cpu
// RUN: npu-run %t.onnx --target npu -v --seed 2 --check-reference --compare %t.cpu --atol 0.2 --rtol 0 2>&1 | FileCheck %s --check-prefix=RUN-NPU
// RUN-NPU: npu16: 11 ops
// RUN-NPU: add+add/quantize
// RUN-NPU: sigmoid+sigmoid/quantize
// RUN-NPU: y: ok
// RUN-NPU: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit

// CHECK-LABEL: func.func @add
// CHECK: %[[A:.*]] = "onnx.DequantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<1x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4xf32>
// CHECK: %[[B:.*]] = "onnx.DequantizeLinear"(%arg1, %{{.*}}, %{{.*}}) : (tensor<1x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4xf32>
// CHECK: %[[S:.*]] = "onnx.Add"(%[[A]], %[[B]])
// CHECK: "onnx.QuantizeLinear"(%[[S]], %{{.*}}, %{{.*}}) : (tensor<1x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4xi8>
// CHECK-NOT: onnx.ms.QLinearAdd
func.func @add(%a: tensor<1x4xi8>, %b: tensor<1x4xi8>) -> tensor<1x4xi8> {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %z = "onnx.Constant"() <{value = dense<3> : tensor<i8>}> : () -> tensor<i8>
  %y = "onnx.ms.QLinearAdd"(%a, %s, %z, %b, %s, %z, %s, %z) : (tensor<1x4xi8>, tensor<f32>, tensor<i8>, tensor<1x4xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x4xi8>
  return %y : tensor<1x4xi8>
}

// -----

// The output is typed by shape inference after the expansion (the op itself has none).
// CHECK-LABEL: func.func @concat_and_pool
// CHECK: "onnx.Concat"({{.*}}) <{axis = 1 : i64}> : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK: "onnx.QuantizeLinear"({{.*}}) -> tensor<1x3x3x3xui8>
// CHECK: "onnx.GlobalAveragePool"({{.*}}) : (tensor<1x3x3x3xf32>) -> tensor<1x3x1x1xf32>
// CHECK: "onnx.QuantizeLinear"({{.*}}) -> tensor<1x3x1x1xui8>
// CHECK: "onnx.ms.QLinearGlobalAveragePool"({{.*}}) <{channels_last = 1 : i64}>
func.func @concat_and_pool(%a: tensor<1x2x3x3xui8>, %b: tensor<1x1x3x3xui8>, %c: tensor<1x3x3x3xui8>) -> (tensor<*xui8>, tensor<*xui8>) {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %z = "onnx.Constant"() <{value = dense<128> : tensor<ui8>}> : () -> tensor<ui8>
  %cat = "onnx.ms.QLinearConcat"(%s, %z, %a, %s, %z, %b, %s, %z) <{axis = 1 : i64}> : (tensor<f32>, tensor<ui8>, tensor<1x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<1x1x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  %p = "onnx.ms.QLinearGlobalAveragePool"(%cat, %s, %z, %s, %z) : (tensor<*xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  %q = "onnx.ms.QLinearGlobalAveragePool"(%c, %s, %z, %s, %z) <{channels_last = 1 : i64}> : (tensor<1x3x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<*xui8>
  return %p, %q : tensor<*xui8>, tensor<*xui8>
}

// -----

// QGemm with B transposed and quantized per output column: B's scales along
// axis 0, the bias's (A scale x B scales) along its one axis; without an
// output scale the result is the float Gemm's.
// CHECK-LABEL: func.func @qgemm
// CHECK: "onnx.DequantizeLinear"(%{{.*}}) <{axis = 0 : i64}> : (tensor<2x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xf32>
// CHECK: "onnx.Constant"() <{value = dense<[5.000000e-02, 1.000000e-01]> : tensor<2xf32>}>
// CHECK: "onnx.DequantizeLinear"(%{{.*}}) <{axis = -1 : i64}> : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[G:.*]] = "onnx.Gemm"({{.*}}) <{alpha = 1.000000e+00 : f32, transA = 0 : i64, transB = 1 : i64}> : (tensor<4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK: return %[[G]]
func.func @qgemm(%a: tensor<4x3xi8>) -> tensor<*xf32> {
  %sa = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %za = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %w = "onnx.Constant"() <{value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>}> : () -> tensor<2x3xi8>
  %sw = "onnx.Constant"() <{value = dense<[0.1, 0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zw = "onnx.Constant"() <{value = dense<[0, 0]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %c = "onnx.Constant"() <{value = dense<[10, -10]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %y = "onnx.ms.QGemm"(%a, %sa, %za, %w, %sw, %zw, %c) <{alpha = 1.0 : f32, transA = 0 : i64, transB = 1 : i64}> : (tensor<4x3xi8>, tensor<f32>, tensor<i8>, tensor<2x3xi8>, tensor<2xf32>, tensor<2xi8>, tensor<2xi32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}
