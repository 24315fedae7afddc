// A result declared with a static type its op cannot compute (an exporter's
// wrong output shape) is an error at the op: lowering to the declared shape
// would compute something else (ONNX Runtime warns and uses what it computes).
// RUN: npu-opt %s --verify-diagnostics --onnx-shape-inference

func.func @wrong_declared_shape(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'onnx.Conv' computes tensor<1x3x4x4xf32>, but its result is declared tensor<1x3x3x3xf32>}}
  %y = "onnx.Conv"(%x, %w) <{pads = array<i64: 1, 0, 0, 1>}> : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %y : tensor<1x3x3x3xf32>
}
