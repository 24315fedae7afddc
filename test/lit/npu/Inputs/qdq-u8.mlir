// qdq-asym.mlir with uint8 activations (zero points 128 more): the NPU takes
// them as int8, less 128.
module {
  func.func @qu8(%x: tensor<1x4x6x6xf32> {onnx.name = "x"}) -> (tensor<1x8x3x3xf32> {onnx.name = "y"}) attributes {onnx.opset = 17 : i64} {
    %sx = "onnx.Constant"() <{value = dense<0.05000000074505806> : tensor<f32>}> : () -> tensor<f32>
    %z8 = "onnx.Constant"() <{value = dense<0> : tensor<i8>}> : () -> tensor<i8>
    %zx = "onnx.Constant"() <{value = dense<131> : tensor<ui8>}> : () -> tensor<ui8>
    %zc = "onnx.Constant"() <{value = dense<88> : tensor<ui8>}> : () -> tensor<ui8>
    %zr = "onnx.Constant"() <{value = dense<0> : tensor<ui8>}> : () -> tensor<ui8>
    %zd = "onnx.Constant"() <{value = dense<138> : tensor<ui8>}> : () -> tensor<ui8>
    %zs = "onnx.Constant"() <{value = dense<48> : tensor<ui8>}> : () -> tensor<ui8>
    %w1 = "onnx.Constant"() <{value = dense<[[[[79, -106, -82], [-67, -81, 77], [94, 21, -117]], [[-103, -43, -17], [31, -5, -60], [-87, 49, 60]], [[-119, -99, -12], [-28, 99, 4], [-20, -18, 42]], [[22, -83, 61], [65, 116, 73], [-55, -46, 38]]], [[[38, 50, 94], [-53, 112, -127], [-108, 121, 113]], [[-51, -92, -47], [-117, 100, 41], [22, -65, -7]], [[-79, 70, -7], [-120, -63, 53], [5, -32, -63]], [[-104, 28, 41], [5, 110, 109], [-75, 28, 33]]], [[[-64, -51, -3], [62, -53, 57], [39, -72, -29]], [[84, 87, 40], [-126, 47, -70], [82, 105, -18]], [[117, 66, -44], [97, -29, -101], [24, 89, 40]], [[-27, 103, -5], [-29, -90, -73], [51, 76, -53]]], [[[33, 95, -90], [-57, 6, 16], [-26, -26, -95]], [[29, 110, -77], [76, -82, -116], [63, -81, 64]], [[-43, 17, 112], [107, -6, -75], [-64, 89, 23]], [[-84, 98, 118], [120, 32, 121], [27, 0, 120]]], [[[27, 73, -41], [74, 121, -114], [9, -33, -114]], [[-106, -59, -78], [55, -73, 32], [91, -1, -95]], [[-111, -52, -22], [-2, -50, 89], [17, 119, 111]], [[53, -121, -73], [63, 11, 113], [53, 82, -114]]], [[[-52, 46, 34], [-34, -87, 23], [-105, 43, 77]], [[43, -111, 6], [-50, 14, 46], [-77, -118, -1]], [[31, -96, 108], [-5, 119, 9], [58, 70, -1]], [[-27, 43, -123], [30, 7, -89], [-75, -119, 62]]], [[[47, -28, 116], [-30, -49, 104], [-107, -27, -121]], [[-39, 58, -39], [-2, -5, -112], [-104, -51, 12]], [[-109, 107, 91], [16, 59, 62], [-125, 114, -115]], [[87, 85, 62], [-93, 80, 117], [82, 49, -63]]], [[[14, -5, 94], [-40, -23, -61], [-3, 18, -10]], [[-46, 13, 30], [-85, 21, 53], [-101, 30, -15]], [[110, -28, -47], [53, 94, -105], [-100, -84, -40]], [[3, 17, -24], [98, 42, -85], [-43, -77, -77]]]]> : tensor<8x4x3x3xi8>}> : () -> tensor<8x4x3x3xi8>
    %sw1 = "onnx.Constant"() <{value = dense<[0.0094547635, 0.0039511719, 0.0031765145, 0.0042391531, 0.0047177952, 0.0038009279, 0.0062905317, 0.0094954707]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %zw1 = "onnx.Constant"() <{value = dense<[0, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xi8>}> : () -> tensor<8xi8>
    %b1 = "onnx.Constant"() <{value = dense<[1747, -1496, 1162, -340, 1279, 672, -1776, 1538]> : tensor<8xi32>}> : () -> tensor<8xi32>
    %sb1 = "onnx.Constant"() <{value = dense<[0.00047273817, 0.00019755859, 0.00015882573, 0.00021195765, 0.00023588976, 0.0001900464, 0.00031452658, 0.00047477355]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %zb1 = "onnx.Constant"() <{value = dense<[0, 0, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>}> : () -> tensor<8xi32>
    %w2 = "onnx.Constant"() <{value = dense<[[[[109]], [[127]], [[-112]], [[-91]]], [[[33]], [[10]], [[-104]], [[97]]], [[[-68]], [[-114]], [[92]], [[23]]], [[[-121]], [[-83]], [[97]], [[68]]], [[[94]], [[112]], [[-51]], [[10]]], [[[-33]], [[-125]], [[-67]], [[-111]]], [[[-98]], [[-21]], [[106]], [[89]]], [[[37]], [[-67]], [[-95]], [[43]]]]> : tensor<8x4x1x1xi8>}> : () -> tensor<8x4x1x1xi8>
    %sw2 = "onnx.Constant"() <{value = dense<[0.0052424627, 0.0041212416, 0.0076311128, 0.004466054, 0.0049750474, 0.0081224823, 0.0059615993, 0.0082713487]> : tensor<8xf32>}> : () -> tensor<8xf32>
    %sc = "onnx.Constant"() <{value = dense<0.07999999821186066> : tensor<f32>}> : () -> tensor<f32>
    %sr = "onnx.Constant"() <{value = dense<0.05000000074505806> : tensor<f32>}> : () -> tensor<f32>
    %sd = "onnx.Constant"() <{value = dense<0.05999999865889549> : tensor<f32>}> : () -> tensor<f32>
    %ss = "onnx.Constant"() <{value = dense<0.09000000357627869> : tensor<f32>}> : () -> tensor<f32>
    %sy = "onnx.Constant"() <{value = dense<0.07000000029802322> : tensor<f32>}> : () -> tensor<f32>
    %xq = "onnx.QuantizeLinear"(%x, %sx, %zx) : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8> loc("x_q")
    %xd = "onnx.DequantizeLinear"(%xq, %sx, %zx) : (tensor<1x4x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xf32> loc("x_dq")
    %w1d = "onnx.DequantizeLinear"(%w1, %sw1, %zw1) <{axis = 0 : i64}> : (tensor<8x4x3x3xi8>, tensor<8xf32>, tensor<8xi8>) -> tensor<8x4x3x3xf32> loc("w1_dq")
    %b1d = "onnx.DequantizeLinear"(%b1, %sb1, %zb1) <{axis = 0 : i64}> : (tensor<8xi32>, tensor<8xf32>, tensor<8xi32>) -> tensor<8xf32> loc("b1_dq")
    %c1 = "onnx.Conv"(%xd, %w1d, %b1d) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32> loc("conv1")
    %c1q = "onnx.QuantizeLinear"(%c1, %sc, %zc) : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8> loc("conv1_q")
    %c1d = "onnx.DequantizeLinear"(%c1q, %sc, %zc) : (tensor<1x8x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xf32> loc("conv1_dq")
    %r1 = "onnx.Relu"(%c1d) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("relu1")
    %r1q = "onnx.QuantizeLinear"(%r1, %sr, %zr) : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8> loc("relu1_q")
    %r1d = "onnx.DequantizeLinear"(%r1q, %sr, %zr) : (tensor<1x8x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xf32> loc("relu1_dq")
    %w2d = "onnx.DequantizeLinear"(%w2, %sw2, %zw1) <{axis = 0 : i64}> : (tensor<8x4x1x1xi8>, tensor<8xf32>, tensor<8xi8>) -> tensor<8x4x1x1xf32> loc("w2_dq")
    %c2 = "onnx.Conv"(%xd, %w2d) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32> loc("conv2")
    %c2q = "onnx.QuantizeLinear"(%c2, %sd, %zd) : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8> loc("conv2_q")
    %c2d = "onnx.DequantizeLinear"(%c2q, %sd, %zd) : (tensor<1x8x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xf32> loc("conv2_dq")
    %s = "onnx.Add"(%r1d, %c2d) : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("add3")
    %sq = "onnx.QuantizeLinear"(%s, %ss, %zs) : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8> loc("add3_q")
    %sdq = "onnx.DequantizeLinear"(%sq, %ss, %zs) : (tensor<1x8x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xf32> loc("add3_dq")
    %r3 = "onnx.Relu"(%sdq) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("relu3")
    %yq = "onnx.QuantizeLinear"(%r3, %sy, %zr) : (tensor<1x8x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xui8> loc("relu3_q")
    %pd = "onnx.DequantizeLinear"(%yq, %sy, %zr) : (tensor<1x8x6x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x6x6xf32> loc("pool_dq")
    %p = "onnx.MaxPool"(%pd) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x8x6x6xf32>) -> tensor<1x8x3x3xf32> loc("maxpool4")
    %pq = "onnx.QuantizeLinear"(%p, %sy, %zr) : (tensor<1x8x3x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x8x3x3xui8> loc("maxpool4_q")
    %y = "onnx.DequantizeLinear"(%pq, %sy, %zr) : (tensor<1x8x3x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x3x3xf32> loc("y_dq")
    return %y : tensor<1x8x3x3xf32>
  }
}
