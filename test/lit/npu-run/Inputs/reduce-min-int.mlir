module {
  func.func @r(%x: tensor<1x3xi64> {onnx.name = "x"}, %u: tensor<1x3xui64> {onnx.name = "u"}) -> (tensor<1xi64> {onnx.name = "y"}, tensor<1xui64> {onnx.name = "z"}) attributes {onnx.opset = 18 : i64} {
    %axes = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
    %0 = "onnx.ReduceMin"(%x, %axes) <{keepdims = 0 : si64}> : (tensor<1x3xi64>, tensor<1xi64>) -> tensor<1xi64>
    %1 = "onnx.ReduceMin"(%u, %axes) <{keepdims = 0 : si64}> : (tensor<1x3xui64>, tensor<1xi64>) -> tensor<1xui64>
    return %0, %1 : tensor<1xi64>, tensor<1xui64>
  }
}
