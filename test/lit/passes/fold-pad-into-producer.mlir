// fold-pad-into-producer: a generic whose result is only copied into the
// interior of a padded tensor writes that interior itself, its output map
// offset by the padding; a reduction brings the generic that filled its
// accumulator along. A result read twice, or through a reshape, keeps its copy.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise), func.func(fold-pad-into-producer))' | FileCheck %s
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise), func.func(fold-pad-into-producer))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: (S) 1 num-folded
// STATS: (S) 1 num-folded
// STATS: (S) 0 num-folded
// STATS: (S) 1 num-folded
// STATS: (S) 0 num-folded
// STATS: (S) 1 num-folded
// STATS: (S) 0 num-folded
// The folded model computes what it computed before (a 1x1 conv, its loop
// over H·W split into rows, then a 3x3 conv chain of 56-wide rows: the
// contraction kernel writing at an offset).
// RUN: rm -rf %t && mkdir -p %t && python3 %S/Inputs/conv_chain.py %t
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --compare %t/expected --rtol 1e-4 --atol 1e-5 -q 2>&1 | FileCheck %s --check-prefix=RUNS
// RUNS: y: {{.*}}ok
// The comparison can fail: a corrupted expected value differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/expected/y.npy'); a[0, 3, 20, 20] += 0.01; n.save('%t/expected/y.npy', a)"
// RUN: not npu-run %t/m.onnx --input x=%t/x.npy --compare %t/expected --rtol 1e-4 --atol 1e-5
// RUN: npu-translate --import-onnx %t/m.onnx | npu-opt --pass-pipeline='builtin.module(onnx-shape-inference, func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise), func.func(fold-pad-into-producer))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=CHAIN
// CHAIN: (S) 3 num-folded - padded copies

// Relu then a depthwise Conv's padding: the Relu writes the interior of the
// padded input; the copy is gone.
// CHECK-LABEL: func.func @relu_conv
// CHECK: "tensor.generic"(%arg0, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3 + 1)>], {{.*}}loop_ranges = array<i64: 1, 2, 5, 5>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.maximumf
func.func @relu_conv(%x: tensor<1x2x5x5xf32>, %w: tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32> {
  %0 = "onnx.Relu"(%x) : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %1 = "onnx.Conv"(%0, %w) <{group = 2 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %1 : tensor<1x2x5x5xf32>
}

// -----

// A direct 3x3 Conv (rows 30 wide) accumulating into its bias, then padded
// for the next Conv: the bias broadcast and the product both write into the
// padded tensor at (h + 1, w + 1).
// CHECK-LABEL: func.func @conv_conv
// CHECK: affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 + 1, d3 + 1)>
// CHECK: affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 + 1, d3 + 1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
func.func @conv_conv(%x: tensor<1x2x30x30xf32>, %w: tensor<2x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<1x2x30x30xf32> {
  %0 = "onnx.Conv"(%x, %w, %b) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x2x30x30xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x30x30xf32>
  %1 = "onnx.Conv"(%0, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x2x30x30xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x30x30xf32>
  return %1 : tensor<1x2x30x30xf32>
}

// -----

// The Relu is also a result: it keeps its own tensor and the copy stays.
// CHECK-LABEL: func.func @two_uses
// CHECK: -> (d0, d1, d2 + 1, d3 + 1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>
func.func @two_uses(%x: tensor<1x2x5x5xf32>, %w: tensor<2x1x3x3xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) {
  %0 = "onnx.Relu"(%x) : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %1 = "onnx.Conv"(%0, %w) <{group = 2 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %1, %0 : tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>
}

// -----

// A 1x1 Conv, computed over [N, C, H·W] and read as [N, C, H, W], before a
// depthwise Conv's padding: its loop over H·W becomes rows × 16, written at
// (h + 1, w + 1); the reshapes go.
// CHECK-LABEL: func.func @pointwise_depthwise
// CHECK-NOT: tensor.collapse_shape"(%{{.*}}) {{.*}}tensor<1x4x256xf32>
// CHECK: affine_map<(d0, d1, d2, d3, d4) -> (d1, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2 * 16 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2 + 1, d4 + 1)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"], loop_ranges = array<i64: 1, 4, 16, 2, 16>
func.func @pointwise_depthwise(%x: tensor<1x2x16x16xf32>, %pw: tensor<4x2x1x1xf32>, %dw: tensor<4x1x3x3xf32>) -> tensor<1x4x16x16xf32> {
  %0 = "onnx.Conv"(%x, %pw) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x2x16x16xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x16x16xf32>
  %1 = "onnx.Conv"(%0, %dw) <{group = 4 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x16x16xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x16x16xf32>
  return %1 : tensor<1x4x16x16xf32>
}

// -----

// Rows of 7 would leave half the lanes idle: the product stays flat and copies.
// CHECK-LABEL: func.func @narrow_rows
// CHECK: tensor.expand_shape
// CHECK: -> (d0, d1, d2 + 1, d3 + 1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>
func.func @narrow_rows(%x: tensor<1x2x7x7xf32>, %pw: tensor<4x2x1x1xf32>, %dw: tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %0 = "onnx.Conv"(%x, %pw) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x2x7x7xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x7x7xf32>
  %1 = "onnx.Conv"(%0, %dw) <{group = 4 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x7x7xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %1 : tensor<1x4x7x7xf32>
}

// -----

// Rows of 14 fill 14 of 16 lanes: a product of few terms (16 input channels)
// splits into rows and writes the padded tensor itself...
// CHECK-LABEL: func.func @rows_of_14_shallow
// CHECK: affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2 * 14 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2 + 1, d4 + 1)>
func.func @rows_of_14_shallow(%x: tensor<1x16x14x14xf32>, %pw: tensor<4x16x1x1xf32>, %dw: tensor<4x1x3x3xf32>) -> tensor<1x4x14x14xf32> {
  %0 = "onnx.Conv"(%x, %pw) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x16x14x14xf32>, tensor<4x16x1x1xf32>) -> tensor<1x4x14x14xf32>
  %1 = "onnx.Conv"(%0, %dw) <{group = 4 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x14x14xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x14x14xf32>
  return %1 : tensor<1x4x14x14xf32>
}

// -----

// ...one of many terms (a 3x3 conv over 16 channels: 144, as ResNet's 14x14
// layers' 2,304) stays flat over H·W and copies: its idle lanes would cost
// more than the copy.
// CHECK-LABEL: func.func @rows_of_14_deep
// CHECK: "tensor.expand_shape"({{.*}}) -> tensor<1x4x14x14xf32>
// CHECK: -> (d0, d1, d2 + 1, d3 + 1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"], operandSegmentSizes = array<i32: 1, 1>
func.func @rows_of_14_deep(%x: tensor<1x16x14x14xf32>, %w: tensor<4x16x3x3xf32>, %dw: tensor<4x1x3x3xf32>) -> tensor<1x4x14x14xf32> {
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x16x14x14xf32>, tensor<4x16x3x3xf32>) -> tensor<1x4x14x14xf32>
  %1 = "onnx.Conv"(%0, %dw) <{group = 4 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x14x14xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x14x14xf32>
  return %1 : tensor<1x4x14x14xf32>
}
