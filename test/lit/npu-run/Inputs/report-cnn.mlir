module {
  func.func @report_cnn(%x: tensor<1x8x16x16xf32> {onnx.name = "x"}) -> (tensor<1x8x1x1xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %w1 = "onnx.Constant"() <{value = dense<0.0625> : tensor<8x8x3x3xf32>}> : () -> tensor<8x8x3x3xf32>
    %w2 = "onnx.Constant"() <{value = dense<-0.03125> : tensor<8x8x3x3xf32>}> : () -> tensor<8x8x3x3xf32>
    %w3 = "onnx.Constant"() <{value = dense<0.125> : tensor<8x8x1x1xf32>}> : () -> tensor<8x8x1x1xf32>
    %0 = "onnx.Conv"(%x, %w1) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32> loc("conv1")
    %1 = "onnx.Relu"(%0) : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32> loc("relu1")
    %2 = "onnx.Conv"(%1, %w2) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32> loc("conv2")
    %3 = "onnx.Softmax"(%2) <{axis = 1 : i64}> : (tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32> loc("softmax")
    %4 = "onnx.Conv"(%3, %w3) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x8x16x16xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x16x16xf32> loc("conv3")
    %5 = "onnx.Add"(%4, %1) : (tensor<1x8x16x16xf32>, tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32> loc("residual")
    %6 = "onnx.GlobalAveragePool"(%5) : (tensor<1x8x16x16xf32>) -> tensor<1x8x1x1xf32> loc("gap")
    return %6 : tensor<1x8x1x1xf32>
  }
}
