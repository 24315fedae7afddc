// DequantizeLinear → Softmax → QuantizeLinear with per-tensor constant scales
// and zero points, 8-bit in and out of one type, becomes com.microsoft's
// QLinearSoftmax (axis kept, opset 13); anything else stays as it is.
// RUN: npu-opt %s --pass-pipeline='builtin.module(onnx-form-qlinear-ops)' | FileCheck %s

// CHECK-LABEL: func.func @uint8
// CHECK: %[[F:.*]] = "onnx.ms.QLinearSoftmax"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{axis = -1 : i64, opset = 13 : i64}> : (tensor<2x5xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
// CHECK-NOT: onnx.Softmax
// CHECK-NOT: onnx.QuantizeLinear
// CHECK-NOT: onnx.DequantizeLinear
// CHECK: return %[[F]]
func.func @uint8(%x: tensor<2x5xui8>) -> tensor<2x5xui8> {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %z = "onnx.Constant"() <{value = dense<3> : tensor<ui8>}> : () -> tensor<ui8>
  %ys = "onnx.Constant"() <{value = dense<0.00392156886> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<0> : tensor<ui8>}> : () -> tensor<ui8>
  %d = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<2x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x5xf32>
  %m = "onnx.Softmax"(%d) <{axis = -1 : i64}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %q = "onnx.QuantizeLinear"(%m, %ys, %yz) : (tensor<2x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  return %q : tensor<2x5xui8>
}

// Absent zero points become absent inputs; the DequantizeLinear stays for its other user.
// CHECK-LABEL: func.func @int8_no_zero_points
// CHECK: %[[D:.*]] = "onnx.DequantizeLinear"
// CHECK: %[[N:.*]] = "onnx.NoValue"
// CHECK: "onnx.ms.QLinearSoftmax"(%arg0, %{{.*}}, %[[N]], %{{.*}}, %{{.*}}) <{axis = 0 : i64, opset = 13 : i64}>
// CHECK: return %{{.*}}, %[[D]]
func.func @int8_no_zero_points(%x: tensor<2x5xi8>) -> (tensor<2x5xi8>, tensor<2x5xf32>) {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %ys = "onnx.Constant"() <{value = dense<0.00392156886> : tensor<f32>}> : () -> tensor<f32>
  %yz = "onnx.Constant"() <{value = dense<-128> : tensor<i8>}> : () -> tensor<i8>
  %d = "onnx.DequantizeLinear"(%x, %s) : (tensor<2x5xi8>, tensor<f32>) -> tensor<2x5xf32>
  %m = "onnx.Softmax"(%d) <{axis = 0 : i64}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %q = "onnx.QuantizeLinear"(%m, %ys, %yz) : (tensor<2x5xf32>, tensor<f32>, tensor<i8>) -> tensor<2x5xi8>
  return %q, %d : tensor<2x5xi8>, tensor<2x5xf32>
}

// Not formed: the Softmax has another user; the scale is per axis; int8 in, uint8 out.
// CHECK-LABEL: func.func @not_formed
// CHECK-NOT: QLinearSoftmax
// CHECK: return
func.func @not_formed(%x: tensor<2x5xui8>, %y: tensor<2x5xi8>) -> (tensor<2x5xui8>, tensor<2x5xf32>, tensor<2x5xui8>, tensor<2x5xui8>) {
  %s = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
  %s2 = "onnx.Constant"() <{value = dense<[0.1, 0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %z = "onnx.Constant"() <{value = dense<3> : tensor<ui8>}> : () -> tensor<ui8>
  %d = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<2x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x5xf32>
  %m = "onnx.Softmax"(%d) <{axis = -1 : i64}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %q = "onnx.QuantizeLinear"(%m, %s, %z) : (tensor<2x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  %d2 = "onnx.DequantizeLinear"(%x, %s2) <{axis = 0 : i64}> : (tensor<2x5xui8>, tensor<2xf32>) -> tensor<2x5xf32>
  %m2 = "onnx.Softmax"(%d2) <{axis = -1 : i64}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %q2 = "onnx.QuantizeLinear"(%m2, %s, %z) : (tensor<2x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  %d3 = "onnx.DequantizeLinear"(%y, %s) : (tensor<2x5xi8>, tensor<f32>) -> tensor<2x5xf32>
  %m3 = "onnx.Softmax"(%d3) <{axis = -1 : i64}> : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %q3 = "onnx.QuantizeLinear"(%m3, %s, %z) : (tensor<2x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x5xui8>
  return %q, %m, %q2, %q3 : tensor<2x5xui8>, tensor<2x5xf32>, tensor<2x5xui8>, tensor<2x5xui8>
}
