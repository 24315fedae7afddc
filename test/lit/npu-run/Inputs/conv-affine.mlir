module {
  func.func @conv_affine(%x: tensor<1x3x8x8xf32> {onnx.name = "x"}) -> (tensor<1x4x8x8xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %w = "onnx.Constant"() <{value = dense<[[[[0.1, -0.2, 0.3], [0.05, 0.5, -0.1], [0.2, 0.0, -0.3]], [[0.1, 0.1, 0.1], [-0.4, 0.2, 0.0], [0.3, -0.2, 0.1]], [[0.0, 0.2, -0.1], [0.1, -0.1, 0.2], [0.4, 0.1, 0.0]]], [[[0.3, 0.1, -0.2], [0.0, 0.2, 0.1], [-0.1, 0.3, 0.2]], [[0.2, -0.3, 0.1], [0.1, 0.0, 0.2], [0.1, 0.1, -0.2]], [[-0.2, 0.1, 0.0], [0.3, 0.2, 0.1], [0.0, -0.1, 0.3]]], [[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[-0.1, -0.2, -0.3], [-0.4, -0.5, -0.6], [-0.7, -0.8, -0.9]], [[0.0, 0.1, 0.0], [0.1, 0.0, 0.1], [0.0, 0.1, 0.0]]], [[[0.2, 0.0, 0.2], [0.0, 0.2, 0.0], [0.2, 0.0, 0.2]], [[0.1, 0.3, 0.1], [0.3, 0.1, 0.3], [0.1, 0.3, 0.1]], [[-0.3, 0.0, 0.3], [-0.3, 0.0, 0.3], [-0.3, 0.0, 0.3]]]]> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
    %b = "onnx.Constant"() <{value = dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %c = "onnx.Conv"(%x, %w, %b) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> loc("conv")
    %s = "onnx.Constant"() <{value = dense<[[[1.5]], [[-0.5]], [[2.0]], [[0.25]]]> : tensor<4x1x1xf32>}> : () -> tensor<4x1x1xf32>
    %m = "onnx.Mul"(%c, %s) : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32> loc("scale")
    %a = "onnx.Constant"() <{value = dense<[[[[0.3]], [[0.1]], [[-0.2]], [[0.05]]]]> : tensor<1x4x1x1xf32>}> : () -> tensor<1x4x1x1xf32>
    %y = "onnx.Add"(%a, %m) : (tensor<1x4x1x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("shift")
    %r = "onnx.Relu"(%y) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc("relu")
    return %r : tensor<1x4x8x8xf32>
  }
}
