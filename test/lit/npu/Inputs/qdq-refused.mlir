// Quantized convolutions the NPU refuses, each for one reason: asymmetric
// weights, uint8 activations the model gives, a zero scale, a per-axis output quantization.
module {
  func.func @refused(%x: tensor<1x2x4x4xf32> {onnx.name = "x"}, %xu: tensor<1x2x4x4xui8> {onnx.name = "xu"}) -> (tensor<1x2x4x4xf32> {onnx.name = "y1"}, tensor<1x2x4x4xf32> {onnx.name = "y2"}, tensor<1x2x4x4xf32> {onnx.name = "y3"}, tensor<1x2x4x4xf32> {onnx.name = "y4"}) attributes {onnx.opset = 17 : i64} {
    %sx = "onnx.Constant"() <{value = dense<0.05> : tensor<f32>}> : () -> tensor<f32>
    %s0 = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %sc = "onnx.Constant"() <{value = dense<0.1> : tensor<f32>}> : () -> tensor<f32>
    %sc2 = "onnx.Constant"() <{value = dense<[0.1, 0.2]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %sw = "onnx.Constant"() <{value = dense<0.01> : tensor<f32>}> : () -> tensor<f32>
    %z8 = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
    %z82 = "onnx.Constant"() <{value = dense<[0, 0]> : tensor<2xi8>}> : () -> tensor<2xi8>
    %z5 = "onnx.Constant"() <{value = dense<5> : tensor<i8>}> : () -> tensor<i8>
    %zu = "onnx.Constant"() <{value = dense<128> : tensor<ui8>}> : () -> tensor<ui8>
    %w = "onnx.Constant"() <{value = dense<[[[[20]], [[-30]]], [[[40]], [[50]]]]> : tensor<2x2x1x1xi8>}> : () -> tensor<2x2x1x1xi8>
    %wd = "onnx.DequantizeLinear"(%w, %sw, %z8) : (tensor<2x2x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2x1x1xf32> loc("w_dq")
    %xq = "onnx.QuantizeLinear"(%x, %sx, %z8) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8> loc("x_q")
    // Asymmetric weights (zero point 5) in a grouped convolution of two channels a group
    // (ungrouped products run them as symmetric parts, depthwise ones on the vector unit).
    %xd1 = "onnx.DequantizeLinear"(%xq, %sx, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("x_dq1")
    %xtw = "onnx.Concat"(%xd1, %xd1) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> loc("x_twice")
    %xtq = "onnx.QuantizeLinear"(%xtw, %sx, %z8) : (tensor<1x4x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x4x4xi8> loc("x_twice_q")
    %xtd = "onnx.DequantizeLinear"(%xtq, %sx, %z8) : (tensor<1x4x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x4x4x4xf32> loc("x_twice_dq")
    %wg = "onnx.Constant"() <{value = dense<[[[[20]], [[-30]]], [[[40]], [[50]]]]> : tensor<2x2x1x1xi8>}> : () -> tensor<2x2x1x1xi8>
    %wa = "onnx.DequantizeLinear"(%wg, %sw, %z5) : (tensor<2x2x1x1xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2x1x1xf32> loc("wa_dq")
    %c1 = "onnx.Conv"(%xtd, %wa) <{kernel_shape = array<i64: 1, 1>, group = 2 : i64}> : (tensor<1x4x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv_asym_w")
    %q1 = "onnx.QuantizeLinear"(%c1, %sc, %z8) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8> loc("q1")
    %y1 = "onnx.DequantizeLinear"(%q1, %sc, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("y1_dq")
    // uint8 activations from the model's input (between a QuantizeLinear and
    // its DequantizeLinears they would become int8).
    %xd2 = "onnx.DequantizeLinear"(%xu, %sx, %zu) : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32> loc("x_dq2")
    %c2 = "onnx.Conv"(%xd2, %wd) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv_u8")
    %q2 = "onnx.QuantizeLinear"(%c2, %sc, %z8) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8> loc("q2")
    %y2 = "onnx.DequantizeLinear"(%q2, %sc, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("y2_dq")
    // A zero scale.
    %xd3 = "onnx.DequantizeLinear"(%xq, %s0, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("x_dq3")
    %c3 = "onnx.Conv"(%xd3, %wd) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv_zero_scale")
    %q3 = "onnx.QuantizeLinear"(%c3, %sc, %z8) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8> loc("q3")
    %y3 = "onnx.DequantizeLinear"(%q3, %sc, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("y3_dq")
    // The result quantized per channel.
    %xd4 = "onnx.DequantizeLinear"(%xq, %sx, %z8) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32> loc("x_dq4")
    %c4 = "onnx.Conv"(%xd4, %wd) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> loc("conv_per_axis_out")
    %q4 = "onnx.QuantizeLinear"(%c4, %sc2, %z82) <{axis = 1 : i64}> : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xi8>) -> tensor<1x2x4x4xi8> loc("q4")
    %y4 = "onnx.DequantizeLinear"(%q4, %sc2, %z82) <{axis = 1 : i64}> : (tensor<1x2x4x4xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<1x2x4x4xf32> loc("y4_dq")
    return %y1, %y2, %y3, %y4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
  }
}
