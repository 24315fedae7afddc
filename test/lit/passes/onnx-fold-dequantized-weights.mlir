// onnx-fold-dequantized-weights: a DequantizeLinear of constants becomes the
// f32 constant (q - zp) * scale, per tensor or per axis, int8, uint8 or
// int32; one of a computed value, a blocked one, or one to f16 stays. The
// folded values equal the CPU lowering's evaluation of the same op bit for
// bit (the second RUN line runs both and compares).
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-fold-dequantized-weights)' | FileCheck %s
// RUN: npu-translate --export-onnx %S/Inputs/dequantize-weights.mlir -o %t.onnx
// RUN: npu-run %t.onnx --target cpu --seed 5 --output-dir %t.computed
// RUN: npu-run %t.onnx --target cpu --seed 5 --bind q,u,b --compare %t.computed --atol 0 --rtol 0 2>&1 | FileCheck %s --check-prefix=SAME
// SAME: y1: ok (max abs 0.000e0
// SAME: y2: ok (max abs 0.000e0
// SAME: y3: ok (max abs 0.000e0

// CHECK-LABEL: func.func @per_tensor
// CHECK-NEXT: "onnx.Constant"() <{value = dense<[-1.000000e+00, 5.000000e-01, 6.200000e+01, -6.400000e+01]> : tensor<4xf32>}>
// CHECK-NEXT: return
func.func @per_tensor() -> tensor<4xf32> {
  %q = "onnx.Constant"() <{value = dense<[1, 4, 127, -125]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %s = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %z = "onnx.Constant"() <{value = dense<3> : tensor<i8>}> : () -> tensor<i8>
  %d = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Per output channel (axis 0), uint8 with zero points 128 and 0.
// CHECK-LABEL: func.func @per_axis_uint8
// CHECK-NEXT: "onnx.Constant"() <{value = dense<{{\[\[}}-1.280000e+01, 1.270000e+01], [0.000000e+00, 5.100000e+02]]> : tensor<2x2xf32>}>
// CHECK-NEXT: return
func.func @per_axis_uint8() -> tensor<2x2xf32> {
  %q = "onnx.Constant"() <{value = dense<[[0, 255], [0, 255]]> : tensor<2x2xui8>}> : () -> tensor<2x2xui8>
  %s = "onnx.Constant"() <{value = dense<[0.1, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %z = "onnx.Constant"() <{value = dense<[128, 0]> : tensor<2xui8>}> : () -> tensor<2xui8>
  %d = "onnx.DequantizeLinear"(%q, %s, %z) <{axis = 0 : i64}> : (tensor<2x2xui8>, tensor<2xf32>, tensor<2xui8>) -> tensor<2x2xf32>
  return %d : tensor<2x2xf32>
}

// -----

// An int32 bias without a zero point.
// CHECK-LABEL: func.func @bias
// CHECK-NEXT: "onnx.Constant"() <{value = dense<[-2.500000e-01, 1.000000e+03]> : tensor<2xf32>}>
func.func @bias() -> tensor<2xf32> {
  %q = "onnx.Constant"() <{value = dense<[-1, 4000]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %s = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %d = "onnx.DequantizeLinear"(%q, %s) : (tensor<2xi32>, tensor<f32>) -> tensor<2xf32>
  return %d : tensor<2xf32>
}

// -----

// A computed input, a blocked quantization and an f16 result stay.
// CHECK-LABEL: func.func @stays
// CHECK: "onnx.DequantizeLinear"(%arg0
// CHECK: "onnx.DequantizeLinear"({{.*}}block_size = 2
// CHECK: "onnx.DequantizeLinear"({{.*}} -> tensor<4xf16>
func.func @stays(%x: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf16>) {
  %q = "onnx.Constant"() <{value = dense<[1, 2, 3, 4]> : tensor<4xi8>}> : () -> tensor<4xi8>
  %s = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %s2 = "onnx.Constant"() <{value = dense<[0.5, 0.25]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %h = "onnx.Constant"() <{value = dense<0.5> : tensor<f16>}> : () -> tensor<f16>
  %a = "onnx.DequantizeLinear"(%x, %s) : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  %b = "onnx.DequantizeLinear"(%q, %s2) <{axis = 0 : i64, block_size = 2 : i64}> : (tensor<4xi8>, tensor<2xf32>) -> tensor<4xf32>
  %c = "onnx.DequantizeLinear"(%q, %h) : (tensor<4xi8>, tensor<f16>) -> tensor<4xf16>
  return %a, %b, %c : tensor<4xf32>, tensor<4xf32>, tensor<4xf16>
}
