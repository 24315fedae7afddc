module {
  func.func @b(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<4xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %0 = "onnx.Bernoulli"(%x) : (tensor<4xf32>) -> tensor<4xf32> loc("b_node")
    return %0 : tensor<4xf32>
  }
}
