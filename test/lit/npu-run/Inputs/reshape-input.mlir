module {
  func.func @r(%x: tensor<2x6xf32> {onnx.name = "x"}, %s: tensor<2xi64> {onnx.name = "shape"}) -> (tensor<?x?xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %0 = "onnx.Reshape"(%x, %s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    %1 = "onnx.Relu"(%0) : (tensor<?x?xf32>) -> tensor<?x?xf32>
    return %1 : tensor<?x?xf32>
  }
}
