// Three DequantizeLinears of the inputs: computed at run time, or, with the
// inputs bound as constants (`npu-run --bind`), folded at compile time.
module {
  func.func @dq(%q: tensor<4x3xi8> {onnx.name = "q"}, %u: tensor<4x3xui8> {onnx.name = "u"}, %b: tensor<3xi32> {onnx.name = "b"}) -> (tensor<4x3xf32> {onnx.name = "y1"}, tensor<4x3xf32> {onnx.name = "y2"}, tensor<3xf32> {onnx.name = "y3"}) attributes {onnx.opset = 21 : i64} {
    %s = "onnx.Constant"() <{value = dense<0.0371> : tensor<f32>}> : () -> tensor<f32>
    %z = "onnx.Constant"() <{value = dense<-7> : tensor<i8>}> : () -> tensor<i8>
    %s3 = "onnx.Constant"() <{value = dense<[0.013, 0.7, 0.00391]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %z3 = "onnx.Constant"() <{value = dense<[128, 3, 250]> : tensor<3xui8>}> : () -> tensor<3xui8>
    %sb = "onnx.Constant"() <{value = dense<1.1e-5> : tensor<f32>}> : () -> tensor<f32>
    %y1 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<4x3xi8>, tensor<f32>, tensor<i8>) -> tensor<4x3xf32>
    %y2 = "onnx.DequantizeLinear"(%u, %s3, %z3) <{axis = 1 : i64}> : (tensor<4x3xui8>, tensor<3xf32>, tensor<3xui8>) -> tensor<4x3xf32>
    %y3 = "onnx.DequantizeLinear"(%b, %sb) : (tensor<3xi32>, tensor<f32>) -> tensor<3xf32>
    return %y1, %y2, %y3 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xf32>
  }
}
