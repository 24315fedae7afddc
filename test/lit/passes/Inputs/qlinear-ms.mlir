// A QOperator residual step as ONNX Runtime writes it: QLinearConv, then
// com.microsoft QLinearAdd, QLinearGlobalAveragePool and QLinearSigmoid.
module {
  func.func @qop(%x: tensor<1x4x5x5xf32> {onnx.name = "x"}) -> (tensor<1x4x1x1xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %s = "onnx.Constant"() <{value = dense<0.05> : tensor<f32>}> : () -> tensor<f32>
    %s2 = "onnx.Constant"() <{value = dense<0.07> : tensor<f32>}> : () -> tensor<f32>
    %s3 = "onnx.Constant"() <{value = dense<0.004> : tensor<f32>}> : () -> tensor<f32>
    %z = "onnx.Constant"() <{value = dense<-3> : tensor<i8>}> : () -> tensor<i8>
    %z2 = "onnx.Constant"() <{value = dense<-128> : tensor<i8>}> : () -> tensor<i8>
    %w = "onnx.Constant"() <{value = dense<[[[[30]], [[-20]], [[10]], [[5]]], [[[-7]], [[44]], [[-9]], [[12]]], [[[25]], [[3]], [[-60]], [[8]]], [[[-1]], [[-2]], [[33]], [[-40]]]]> : tensor<4x4x1x1xi8>}> : () -> tensor<4x4x1x1xi8>
    %sw = "onnx.Constant"() <{value = dense<0.02> : tensor<f32>}> : () -> tensor<f32>
    %zw = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
    %xq = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xi8> loc("x_q")
    %c = "onnx.QLinearConv"(%xq, %s, %z, %w, %sw, %zw, %s2, %z) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>, tensor<4x4x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xi8> loc("conv")
    %a = "onnx.ms.QLinearAdd"(%c, %s2, %z, %xq, %s, %z, %s2, %z2) : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>, tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xi8> loc("add")
    %p = "onnx.ms.QLinearGlobalAveragePool"(%a, %s2, %z2, %s2, %z2) : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x4x1x1xi8> loc("pool")
    %g = "onnx.ms.QLinearSigmoid"(%p, %s2, %z2, %s3, %z2) : (tensor<1x4x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x4x1x1xi8> loc("sigmoid")
    %y = "onnx.DequantizeLinear"(%g, %s3, %z2) : (tensor<1x4x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x1x1xf32> loc("y_dq")
    return %y : tensor<1x4x1x1xf32>
  }
}
