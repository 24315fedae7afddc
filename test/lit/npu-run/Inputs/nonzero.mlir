module {
  func.func @nz(%x: tensor<4xf32> {onnx.name = "x"}) -> (tensor<1x4xi64> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %0 = "onnx.NonZero"(%x) : (tensor<4xf32>) -> tensor<1x4xi64> loc("nz_node")
    return %0 : tensor<1x4xi64>
  }
}
