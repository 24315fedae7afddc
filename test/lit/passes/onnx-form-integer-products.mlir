// onnx-form-integer-products: a DequantizeLinear -> Conv/Gemm/MatMul ->
// QuantizeLinear group with constant int8 weights (zero points 0) becomes
// QLinearConv / com.microsoft QGemm / QLinearMatMul, its DequantizeLinears
// gone; groups the integer kernel does not take stay (a depthwise Conv,
// weights with a zero point, a bias whose scale is not x_scale * w_scale,
// Gemm with alpha 2, a product read twice). The numbers: npu-run/int8-vnni.mlir.
// REQUIRES: vnni
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-form-integer-products)' | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK-NOT: onnx.DequantizeLinear
// CHECK: %[[Y:.*]] = "onnx.QLinearConv"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{pads = array<i64: 1, 1, 1, 1>}> : {{.*}}tensor<2xi32>) -> tensor<1x2x5x5xi8>
// CHECK-NOT: onnx.Conv"
// CHECK-NEXT: return %[[Y]]
func.func @conv(%x: tensor<1x4x5x5xi8>) -> tensor<1x2x5x5xi8> {
  %sx = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %zx = "onnx.Constant"() <{value = dense<3> : tensor<i8>}> : () -> tensor<i8>
  %w = "onnx.Constant"() <{value = dense<2> : tensor<2x4x3x3xi8>}> : () -> tensor<2x4x3x3xi8>
  %sw = "onnx.Constant"() <{value = dense<[0.25, 0.125]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %zw = "onnx.Constant"() <{value = dense<0> : tensor<2xi8>}> : () -> tensor<2xi8>
  %b = "onnx.Constant"() <{value = dense<[7, -9]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %sb = "onnx.Constant"() <{value = dense<[0.125, 0.0625]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %sy = "onnx.Constant"() <{value = dense<2.0> : tensor<f32>}> : () -> tensor<f32>
  %dx = "onnx.DequantizeLinear"(%x, %sx, %zx) : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xf32>
  %dw = "onnx.DequantizeLinear"(%w, %sw, %zw) <{axis = 0 : i64}> : (tensor<2x4x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x4x3x3xf32>
  %db = "onnx.DequantizeLinear"(%b, %sb) <{axis = 0 : i64}> : (tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  %c = "onnx.Conv"(%dx, %dw, %db) <{pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x5x5xf32>, tensor<2x4x3x3xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %y = "onnx.QuantizeLinear"(%c, %sy, %zx) : (tensor<1x2x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x5x5xi8>
  return %y : tensor<1x2x5x5xi8>
}

// -----

// The bias's scale is not x_scale * w_scale (0.5 * 0.25 = 0.125, given 0.25): float.
// CHECK-LABEL: func.func @bias_scale
// CHECK: "onnx.Conv"
func.func @bias_scale(%x: tensor<1x4x5x5xi8>) -> tensor<1x2x5x5xi8> {
  %sx = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %w = "onnx.Constant"() <{value = dense<2> : tensor<2x4x1x1xi8>}> : () -> tensor<2x4x1x1xi8>
  %sw = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %b = "onnx.Constant"() <{value = dense<[7, -9]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %sb = "onnx.Constant"() <{value = dense<0.25> : tensor<f32>}> : () -> tensor<f32>
  %dx = "onnx.DequantizeLinear"(%x, %sx) : (tensor<1x4x5x5xi8>, tensor<f32>) -> tensor<1x4x5x5xf32>
  %dw = "onnx.DequantizeLinear"(%w, %sw) : (tensor<2x4x1x1xi8>, tensor<f32>) -> tensor<2x4x1x1xf32>
  %db = "onnx.DequantizeLinear"(%b, %sb) : (tensor<2xi32>, tensor<f32>) -> tensor<2xf32>
  %c = "onnx.Conv"(%dx, %dw, %db) : (tensor<1x4x5x5xf32>, tensor<2x4x1x1xf32>, tensor<2xf32>) -> tensor<1x2x5x5xf32>
  %y = "onnx.QuantizeLinear"(%c, %sx) : (tensor<1x2x5x5xf32>, tensor<f32>) -> tensor<1x2x5x5xi8>
  return %y : tensor<1x2x5x5xi8>
}

// -----

// Depthwise (group 4) and weights with a zero point: float.
// CHECK-LABEL: func.func @refused
// CHECK: "onnx.Conv"
// CHECK: "onnx.Conv"
// CHECK-NOT: QLinearConv
func.func @refused(%x: tensor<1x4x5x5xi8>) -> (tensor<1x4x5x5xi8>, tensor<1x4x5x5xi8>) {
  %sx = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %w = "onnx.Constant"() <{value = dense<2> : tensor<4x1x1x1xi8>}> : () -> tensor<4x1x1x1xi8>
  %w2 = "onnx.Constant"() <{value = dense<2> : tensor<4x4x1x1xi8>}> : () -> tensor<4x4x1x1xi8>
  %z2 = "onnx.Constant"() <{value = dense<1> : tensor<i8>}> : () -> tensor<i8>
  %dx = "onnx.DequantizeLinear"(%x, %sx) : (tensor<1x4x5x5xi8>, tensor<f32>) -> tensor<1x4x5x5xf32>
  %dw = "onnx.DequantizeLinear"(%w, %sx) : (tensor<4x1x1x1xi8>, tensor<f32>) -> tensor<4x1x1x1xf32>
  %dw2 = "onnx.DequantizeLinear"(%w2, %sx, %z2) : (tensor<4x4x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<4x4x1x1xf32>
  %c = "onnx.Conv"(%dx, %dw) <{group = 4 : i64}> : (tensor<1x4x5x5xf32>, tensor<4x1x1x1xf32>) -> tensor<1x4x5x5xf32>
  %c2 = "onnx.Conv"(%dx, %dw2) : (tensor<1x4x5x5xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x5x5xf32>
  %y = "onnx.QuantizeLinear"(%c, %sx) : (tensor<1x4x5x5xf32>, tensor<f32>) -> tensor<1x4x5x5xi8>
  %y2 = "onnx.QuantizeLinear"(%c2, %sx) : (tensor<1x4x5x5xf32>, tensor<f32>) -> tensor<1x4x5x5xi8>
  return %y, %y2 : tensor<1x4x5x5xi8>, tensor<1x4x5x5xi8>
}

// -----

// Gemm with transB and MatMul: QGemm and QLinearMatMul; Gemm with alpha 2 and
// a MatMul whose product is also returned stay.
// CHECK-LABEL: func.func @products
// CHECK-DAG: "onnx.Gemm"({{.*}}) <{alpha = 2.000000e+00 : f32
// CHECK-DAG: %[[M:.*]] = "onnx.MatMul"
// CHECK-DAG: %[[G:.*]] = "onnx.ms.QGemm"(%arg0, {{.*}}) <{alpha = 1.000000e+00 : f32, transB = 1 : i64}>
// CHECK-DAG: %[[Q:.*]] = "onnx.QLinearMatMul"(%arg0,
// CHECK: return %[[G]], %[[Q]], %{{.*}}, %{{.*}}, %[[M]]
func.func @products(%x: tensor<2x8xi8>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xf32>) {
  %s = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %z = "onnx.Constant"() <{value = dense<-1> : tensor<i8>}> : () -> tensor<i8>
  %z0 = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
  %wt = "onnx.Constant"() <{value = dense<3> : tensor<3x8xi8>}> : () -> tensor<3x8xi8>
  %w = "onnx.Constant"() <{value = dense<3> : tensor<8x3xi8>}> : () -> tensor<8x3xi8>
  %dx = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<2x8xi8>, tensor<f32>, tensor<i8>) -> tensor<2x8xf32>
  %dwt = "onnx.DequantizeLinear"(%wt, %s, %z0) : (tensor<3x8xi8>, tensor<f32>, tensor<i8>) -> tensor<3x8xf32>
  %dw = "onnx.DequantizeLinear"(%w, %s, %z0) : (tensor<8x3xi8>, tensor<f32>, tensor<i8>) -> tensor<8x3xf32>
  %g = "onnx.Gemm"(%dx, %dwt) <{transB = 1 : i64}> : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
  %m = "onnx.MatMul"(%dx, %dw) : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
  %g2 = "onnx.Gemm"(%dx, %dwt) <{transB = 1 : i64, alpha = 2.0 : f32}> : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
  %m2 = "onnx.MatMul"(%dx, %dw) : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
  %y1 = "onnx.QuantizeLinear"(%g, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %y2 = "onnx.QuantizeLinear"(%m, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %y3 = "onnx.QuantizeLinear"(%g2, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %y4 = "onnx.QuantizeLinear"(%m2, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y1, %y2, %y3, %y4, %m2 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xf32>
}
