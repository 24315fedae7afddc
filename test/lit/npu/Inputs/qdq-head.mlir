// A quantized classifier head as ONNX Runtime's quantizer writes it: Conv,
// GlobalAveragePool, Flatten and Gemm, each between DequantizeLinear and
// QuantizeLinear, activations with zero points.
module {
  func.func @qhead(%x: tensor<1x4x5x5xf32> {onnx.name = "x"}) -> (tensor<1x3xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %sx = "onnx.Constant"() <{value = dense<0.05> : tensor<f32>}> : () -> tensor<f32>
    %zx = "onnx.Constant"() <{value = dense<3> : tensor<i8>}> : () -> tensor<i8>
    %sc = "onnx.Constant"() <{value = dense<0.03> : tensor<f32>}> : () -> tensor<f32>
    %zc = "onnx.Constant"() <{value = dense<-128> : tensor<i8>}> : () -> tensor<i8>
    %sg = "onnx.Constant"() <{value = dense<0.011> : tensor<f32>}> : () -> tensor<f32>
    %zg = "onnx.Constant"() <{value = dense<-120> : tensor<i8>}> : () -> tensor<i8>
    %sy = "onnx.Constant"() <{value = dense<0.02> : tensor<f32>}> : () -> tensor<f32>
    %zy = "onnx.Constant"() <{value = dense<7> : tensor<i8>}> : () -> tensor<i8>
    %w = "onnx.Constant"() <{value = dense<[[[[30]], [[-20]], [[10]], [[5]]], [[[-7]], [[44]], [[-9]], [[12]]], [[[25]], [[3]], [[-60]], [[8]]], [[[-1]], [[-2]], [[33]], [[-40]]], [[[11]], [[12]], [[13]], [[14]]], [[[-50]], [[60]], [[-70]], [[80]]], [[[1]], [[0]], [[-1]], [[0]]], [[[99]], [[-99]], [[45]], [[-45]]]]> : tensor<8x4x1x1xi8>}> : () -> tensor<8x4x1x1xi8>
    %sw = "onnx.Constant"() <{value = dense<0.02> : tensor<f32>}> : () -> tensor<f32>
    %z0 = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
    %g = "onnx.Constant"() <{value = dense<[[10, -20, 30], [40, -50, 60], [-70, 80, -90], [100, -110, 120], [1, 2, 3], [-4, -5, -6], [7, 8, 9], [-10, 11, -12]]> : tensor<8x3xi8>}> : () -> tensor<8x3xi8>
    %sgw = "onnx.Constant"() <{value = dense<0.01> : tensor<f32>}> : () -> tensor<f32>
    %xq = "onnx.QuantizeLinear"(%x, %sx, %zx) : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xi8> loc("x_q")
    %xd = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xf32> loc("x_dq")
    %wd = "onnx.DequantizeLinear"(%w, %sw, %z0) : (tensor<8x4x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<8x4x1x1xf32> loc("w_dq")
    %c = "onnx.Conv"(%xd, %wd) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x5x5xf32> loc("conv")
    %cq = "onnx.QuantizeLinear"(%c, %sc, %zc) : (tensor<1x8x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<1x8x5x5xi8> loc("conv_q")
    %cd = "onnx.DequantizeLinear"(%cq, %sc, %zc) : (tensor<1x8x5x5xi8>, tensor<f32>, tensor<i8>) -> tensor<1x8x5x5xf32> loc("conv_dq")
    %p = "onnx.GlobalAveragePool"(%cd) : (tensor<1x8x5x5xf32>) -> tensor<1x8x1x1xf32> loc("gap")
    %pq = "onnx.QuantizeLinear"(%p, %sg, %zg) : (tensor<1x8x1x1xf32>, tensor<f32>, tensor<i8>) -> tensor<1x8x1x1xi8> loc("gap_q")
    %pd = "onnx.DequantizeLinear"(%pq, %sg, %zg) : (tensor<1x8x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<1x8x1x1xf32> loc("gap_dq")
    %f = "onnx.Flatten"(%pd) : (tensor<1x8x1x1xf32>) -> tensor<1x8xf32> loc("flatten")
    %fq = "onnx.QuantizeLinear"(%f, %sg, %zg) : (tensor<1x8xf32>, tensor<f32>, tensor<i8>) -> tensor<1x8xi8> loc("flatten_q")
    %fd = "onnx.DequantizeLinear"(%fq, %sg, %zg) : (tensor<1x8xi8>, tensor<f32>, tensor<i8>) -> tensor<1x8xf32> loc("flatten_dq")
    %gd = "onnx.DequantizeLinear"(%g, %sgw, %z0) : (tensor<8x3xi8>, tensor<f32>, tensor<i8>) -> tensor<8x3xf32> loc("g_dq")
    %m = "onnx.MatMul"(%fd, %gd) : (tensor<1x8xf32>, tensor<8x3xf32>) -> tensor<1x3xf32> loc("fc")
    %mq = "onnx.QuantizeLinear"(%m, %sy, %zy) : (tensor<1x3xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3xi8> loc("fc_q")
    %y = "onnx.DequantizeLinear"(%mq, %sy, %zy) : (tensor<1x3xi8>, tensor<f32>, tensor<i8>) -> tensor<1x3xf32> loc("y_dq")
    return %y : tensor<1x3xf32>
  }
}
