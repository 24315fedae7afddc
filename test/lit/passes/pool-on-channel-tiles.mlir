// pool-on-channel-tiles: a max pool of a conv computed with its channels
// along the lanes pools the channel tiles ([N, C/t, H, W, t], padded with
// −inf) and copies back its own output, the ops of the conv's copy (a Relu)
// after the pool. The ops must keep order (max(f(a), f(b)) =
// f(max(a, b))): a Neg stays; an average pool, a conv whose result is read
// twice, or one with its positions along the lanes (im2col) stay too.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, fold-constant-copies, func.func(fuse-elementwise), func.func(pool-on-channel-tiles))' | FileCheck %s
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, fold-constant-copies, func.func(fuse-elementwise), func.func(pool-on-channel-tiles))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: (S) 1 num-pooled
// STATS: (S) 1 num-pooled
// STATS: (S) 0 num-pooled
// STATS: (S) 0 num-pooled
// STATS: (S) 0 num-pooled

// A stride-2 conv into 32 channels (one tile of 32), a Relu, a 3x3 stride-2
// max pool: the tiles padded with −inf at the top and the left (31x31), the
// pool over them, the copy back with the Relu after it.
// CHECK-LABEL: func.func @relu_pool
// CHECK: arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: "tensor.empty"() : () -> tensor<1x1x31x31x32xf32>
// CHECK: loop_ranges = array<i64: 1, 1, 1, 31, 32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: "tensor.yield"(%[[NEG]])
// CHECK: loop_ranges = array<i64: 1, 1, 31, 1, 32>
// CHECK: %[[TP:.*]] = "tensor.generic"({{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2 + 1, d3 + 1, d4)>]
// CHECK: %[[Q:.*]] = "tensor.generic"(%[[TP]], %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction"], loop_ranges = array<i64: 1, 1, 15, 15, 32, 3, 3>
// CHECK: arith.maximumf
// CHECK: "tensor.generic"(%[[Q]], %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 32, d2, d3, d1 mod 32)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant 0.000000e+00
// CHECK-NEXT: arith.maximumf
// CHECK-NOT: tensor<1x32x31x31xf32>
// CHECK: return
func.func @relu_pool(%x: tensor<1x2x60x60xf32>) -> tensor<1x32x15x15xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<32x2x3x3xf32>}> : () -> tensor<32x2x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x2x60x60xf32>, tensor<32x2x3x3xf32>) -> tensor<1x32x30x30xf32>
  %1 = "onnx.Relu"(%0) : (tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x32x30x30xf32>) -> tensor<1x32x15x15xf32>
  return %2 : tensor<1x32x15x15xf32>
}

// -----

// A Relu then a 2x2 pool of dilation 2 without padding: the pool reads the
// tiles themselves, no border fill, no copy in.
// CHECK-LABEL: func.func @dilated_pool
// CHECK: %[[T:.*]] = "tensor.generic"(%{{.*}}, %{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7)
// CHECK-NOT: floordiv
// CHECK: "tensor.generic"(%[[T]], %{{.*}}) <{indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2 * 2 + d5 * 2, d3 * 2 + d6 * 2, d4)>
// CHECK: d1 floordiv 32
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.constant 0.000000e+00
// CHECK-NEXT: arith.maximumf
func.func @dilated_pool(%x: tensor<1x2x60x60xf32>) -> tensor<1x32x14x14xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<32x2x3x3xf32>}> : () -> tensor<32x2x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x2x60x60xf32>, tensor<32x2x3x3xf32>) -> tensor<1x32x30x30xf32>
  %1 = "onnx.Relu"(%0) : (tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x32x30x30xf32>) -> tensor<1x32x14x14xf32>
  return %2 : tensor<1x32x14x14xf32>
}

// -----

// A Neg reverses the order: the pool stays on NCHW.
// CHECK-LABEL: func.func @neg_pool
// CHECK: tensor<1x32x31x31xf32>
// CHECK-NOT: tensor<1x1x15x15x32xf32>
func.func @neg_pool(%x: tensor<1x2x60x60xf32>) -> tensor<1x32x15x15xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<32x2x3x3xf32>}> : () -> tensor<32x2x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x2x60x60xf32>, tensor<32x2x3x3xf32>) -> tensor<1x32x30x30xf32>
  %1 = "onnx.Neg"(%0) : (tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x32x30x30xf32>) -> tensor<1x32x15x15xf32>
  return %2 : tensor<1x32x15x15xf32>
}

// -----

// An average pool stays.
// CHECK-LABEL: func.func @average_pool
// CHECK-NOT: tensor<1x1x15x15x32xf32>
func.func @average_pool(%x: tensor<1x2x60x60xf32>) -> tensor<1x32x15x15xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<32x2x3x3xf32>}> : () -> tensor<32x2x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x2x60x60xf32>, tensor<32x2x3x3xf32>) -> tensor<1x32x30x30xf32>
  %2 = "onnx.AveragePool"(%0) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64}> : (tensor<1x32x30x30xf32>) -> tensor<1x32x15x15xf32>
  return %2 : tensor<1x32x15x15xf32>
}

// -----

// The conv's result is also returned: its copy back stays, and the pool with it.
// CHECK-LABEL: func.func @read_twice
// CHECK-NOT: tensor<1x1x15x15x32xf32>
func.func @read_twice(%x: tensor<1x2x60x60xf32>) -> (tensor<1x32x15x15xf32>, tensor<1x32x30x30xf32>) {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<32x2x3x3xf32>}> : () -> tensor<32x2x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x2x60x60xf32>, tensor<32x2x3x3xf32>) -> tensor<1x32x30x30xf32>
  %1 = "onnx.Relu"(%0) : (tensor<1x32x30x30xf32>) -> tensor<1x32x30x30xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x32x30x30xf32>) -> tensor<1x32x15x15xf32>
  return %2, %1 : tensor<1x32x15x15xf32>, tensor<1x32x30x30xf32>
}
