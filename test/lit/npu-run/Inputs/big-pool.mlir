module {
  func.func @big_pool(%x: tensor<1x4x8x8xf32> {onnx.name = "x"}, %big: tensor<1x4x240x240xf32> {onnx.name = "big"}) -> (tensor<1x4x8x8xf32> {onnx.name = "y"}, tensor<1x4x1x1xf32> {onnx.name = "z"}) attributes {onnx.opset = 17 : i64} {
    %w = "onnx.Constant"() <{value = dense<0.125> : tensor<4x4x3x3xf32>}> : () -> tensor<4x4x3x3xf32>
    %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> loc("conv")
    %1 = "onnx.Relu"(%0) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("relu")
    %2 = "onnx.GlobalAveragePool"(%big) : (tensor<1x4x240x240xf32>) -> tensor<1x4x1x1xf32> loc("gap")
    %3 = "onnx.Softmax"(%2) <{axis = 1 : i64}> : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32> loc("softmax")
    return %1, %3 : tensor<1x4x8x8xf32>, tensor<1x4x1x1xf32>
  }
}
