// A PRelu with one slope per channel, then an LRN across 3 channels (beta
// 0.75, as AlexNet's and GoogLeNet's), then a PRelu with one slope.
module {
  func.func @main(%x: tensor<1x8x6x6xf32> {onnx.name = "x"}) -> (tensor<1x8x6x6xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %s = "onnx.Constant"() <{value = dense<[[[0.1]], [[0.2]], [[0.3]], [[0.4]], [[-0.5]], [[0.6]], [[0.7]], [[1.5]]]> : tensor<8x1x1xf32>}> : () -> tensor<8x1x1xf32>
    %p = "onnx.PRelu"(%x, %s) : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32> loc("prelu")
    %l = "onnx.LRN"(%p) <{size = 3 : i64, alpha = 0.5 : f32, beta = 0.75 : f32, bias = 2.0 : f32}> : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("lrn")
    %t = "onnx.Constant"() <{value = dense<0.25> : tensor<1xf32>}> : () -> tensor<1xf32>
    %y = "onnx.PRelu"(%l, %t) : (tensor<1x8x6x6xf32>, tensor<1xf32>) -> tensor<1x8x6x6xf32> loc("prelu2")
    return %y : tensor<1x8x6x6xf32>
  }
}
