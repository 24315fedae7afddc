// Generated (numpy seed 5): QLinearConv and QLinearMatMul with int8 symmetric quantization (zero points 0).
module {
  func.func @qlinear(%x: tensor<1x4x5x5xf32> {onnx.name = "x"}, %a: tensor<4x16xf32> {onnx.name = "a"}) -> (tensor<1x8x3x3xf32> {onnx.name = "y"}, tensor<4x5xf32> {onnx.name = "z"}) attributes {onnx.opset = 17 : i64} {
    %sx = "onnx.Constant"() <{value = dense<0.03999999910593033> : tensor<f32>}> : () -> tensor<f32>
    %z8 = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
    %w = "onnx.Constant"() <{value = dense<[[[[44, 78, -122], [79, -8, 4], [33, -55, 122]], [[-114, -57, -30], [18, -23, -94], [-116, -127, -115]], [[-90, 127, -79], [39, 64, -68], [-56, -17, -60]], [[121, -82, 101], [76, 88, -98], [-27, 33, -2]]], [[[42, 45, 42], [-112, 117, 14], [103, -58, -35]], [[97, -80, -111], [-32, 46, -96], [94, -41, -70]], [[11, 101, 98], [95, -49, -123], [71, 53, 69]], [[-127, -118, 1], [-42, -16, 110], [-76, 7, -45]]], [[[-52, 78, -88], [-47, -97, -89], [-56, 51, 20]], [[-13, -84, 76], [76, -67, -112], [-46, -90, 76]], [[5, 2, -53], [2, 119, -67], [68, -124, -47]], [[110, 95, -106], [87, 88, -12], [-34, 122, 115]]], [[[45, -26, -74], [111, -59, 14], [45, -66, -47]], [[62, -77, 44], [113, 47, 37], [-9, 119, -71]], [[-37, 36, 39], [-100, -86, 49], [87, 35, 111]], [[-31, -43, 76], [-117, -78, -78], [-28, -87, 76]]], [[[88, -30, -120], [54, -100, 29], [-84, 112, 45]], [[125, 30, 57], [-32, 79, -99], [-89, -36, 54]], [[-4, 89, 113], [-25, -19, 14], [37, -5, 26]], [[117, 60, -47], [-19, -25, -89], [-127, 74, -20]]], [[[-38, 34, 16], [111, 29, 108], [20, -44, -45]], [[125, 22, -80], [84, 82, -125], [-87, 49, -24]], [[-41, -109, -79], [91, 85, 84], [18, -92, -45]], [[7, 126, -62], [12, -2, 1], [14, 52, -100]]], [[[123, 93, 68], [-56, -15, -13], [-49, -113, 62]], [[-127, 67, -78], [36, -40, -67], [109, -6, 99]], [[-79, -5, -39], [-12, -124, 43], [-40, 91, -73]], [[-41, -116, 75], [9, -26, 106], [24, 118, 61]]], [[[22, 0, -76], [49, 74, 50], [-22, -126, 60]], [[-118, 77, -89], [-49, -73, 10], [-76, -62, -115]], [[123, -72, -79], [26, -91, 98], [72, -38, -25]], [[-34, 60, -21], [-55, 46, -92], [73, -19, 112]]]]> : tensor<8x4x3x3xi8>}> : () -> tensor<8x4x3x3xi8>
    %sw = "onnx.Constant"() <{value = dense<[0.0056299004, 0.0079474198, 0.005391438, 0.0087680127, 0.0046145422, 0.0090970956, 0.0065357368, 0.0080774082]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %zw = "onnx.Constant"() <{value = dense<[0, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xi8>}> : () -> tensor<8xi8>
    %b = "onnx.Constant"() <{value = dense<[429, 34, 249, -184, 79, -6, 230, -450]> : tensor<8xi32>}> : () -> tensor<8xi32>
    %sy = "onnx.Constant"() <{value = dense<0.10000000149011612> : tensor<f32>}> : () -> tensor<f32>
    %sr = "onnx.Constant"() <{value = dense<0.07999999821186066> : tensor<f32>}> : () -> tensor<f32>
    %m = "onnx.Constant"() <{value = dense<[[-67, -117, 122, 8, -3], [-6, -119, 85, 88, -122], [31, 15, -30, -2, 97], [25, -3, 59, 49, 6], [84, 16, 30, -2, 23], [29, 102, -64, -35, 13], [-41, 44, 83, -79, -113], [125, 2, 63, 66, 116], [-119, -53, 123, -14, -26], [-61, -122, -116, 121, -123], [-92, -65, -55, 92, -45], [-86, -27, 48, -13, -64], [-97, -111, -2, -78, 22], [45, -30, 0, -113, 13], [-82, -12, -100, -58, -21], [-3, -120, 108, -20, -76]]> : tensor<16x5xi8>}> : () -> tensor<16x5xi8>
    %sm = "onnx.Constant"() <{value = dense<0.004999999888241291> : tensor<f32>}> : () -> tensor<f32>
    %sa = "onnx.Constant"() <{value = dense<0.029999999329447746> : tensor<f32>}> : () -> tensor<f32>
    %so = "onnx.Constant"() <{value = dense<0.019999999552965164> : tensor<f32>}> : () -> tensor<f32>
    %xq = "onnx.QuantizeLinear"(%x, %sx, %z8) : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<1x4x5x5xi8> loc("x_q")
    %c = "onnx.QLinearConv"(%xq, %sx, %z8, %w, %sw, %zw, %sy, %z8, %b) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x4x5x5xi8>, tensor<f32>, tensor<i8>, tensor<8x4x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x3x3xi8> loc("qconv")
    %cd = "onnx.DequantizeLinear"(%c, %sy, %z8) : (tensor<1x8x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<1x8x3x3xf32> loc("qconv_dq")
    %r = "onnx.Relu"(%cd) : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> loc("relu")
    %rq = "onnx.QuantizeLinear"(%r, %sr, %z8) : (tensor<1x8x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<1x8x3x3xi8> loc("relu_q")
    %y = "onnx.DequantizeLinear"(%rq, %sr, %z8) : (tensor<1x8x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<1x8x3x3xf32> loc("y_dq")
    %aq = "onnx.QuantizeLinear"(%a, %sa, %z8) : (tensor<4x16xf32>, tensor<f32>, tensor<i8>) -> tensor<4x16xi8> loc("a_q")
    %mm = "onnx.QLinearMatMul"(%aq, %sa, %z8, %m, %sm, %z8, %so, %z8) : (tensor<4x16xi8>, tensor<f32>, tensor<i8>, tensor<16x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<4x5xi8> loc("qmatmul")
    %z = "onnx.DequantizeLinear"(%mm, %so, %z8) : (tensor<4x5xi8>, tensor<f32>, tensor<i8>) -> tensor<4x5xf32> loc("z_dq")
    return %y, %z : tensor<1x8x3x3xf32>, tensor<4x5xf32>
  }
}
