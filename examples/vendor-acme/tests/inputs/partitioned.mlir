func.func @g(%x: tensor<4x8xf32>, %w: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> loc("mm")
  %1 = "onnx.Relu"(%0) : (tensor<4x2xf32>) -> tensor<4x2xf32> loc("relu")
  %2 = "onnx.Softmax"(%1) <{axis = 1 : i64}> : (tensor<4x2xf32>) -> tensor<4x2xf32> loc("sm")
  return %2 : tensor<4x2xf32>
}
