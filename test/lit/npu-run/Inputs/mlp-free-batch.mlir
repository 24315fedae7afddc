module {
  func.func @mlp(%x: tensor<?x8xf32> {onnx.name = "x"}) -> (tensor<?x4xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %w = "onnx.Constant"() <{value = dense<0.25> : tensor<8x4xf32>}> : () -> tensor<8x4xf32>
    %0 = "onnx.MatMul"(%x, %w) : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
    %1 = "onnx.Relu"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %1 : tensor<?x4xf32>
  }
}
