// onnx canonicalizations and folders: the exporters' shape chain folds to a
// constant so Reshape becomes static; Identity and inference Dropout vanish;
// BatchNormalization and a constant per-channel Mul/Add fold into the Conv
// or ConvTranspose before it; a zero Pad of H and W folds into the Conv after it; Gemm's transposed
// constant B is transposed in place. Values are computed by hand below.
// RUN: npu-opt %s --canonicalize --onnx-shape-inference | FileCheck %s

// CHECK-LABEL: func.func @shape_chain(%arg0: tensor<2x3x4xf32>) -> tensor<3x8xf32>
// CHECK: %[[S:.*]] = "onnx.Constant"() <{value = dense<[3, -1]> : tensor<2xi64>}>
// CHECK: "onnx.Reshape"(%arg0, %[[S]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
// CHECK-NOT: onnx.Shape
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %d1 = "onnx.Gather"(%s, %one) <{axis = 0 : i64}> : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %zero = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%d1, %zero) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %m1 = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %shape = "onnx.Concat"(%u, %m1) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "onnx.Reshape"(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// CHECK-LABEL: func.func @identities
// CHECK-NEXT: return %arg0
func.func @identities(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Identity"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Dropout"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// s = scale / sqrt(var + eps) = [4/2, 3/3] = [2, 1]; W' = W·s = [2, 1];
// B' = (B - mean)·s + bias = [(1 - 1)·2 + 0.5, (2 - 0)·1 - 1] = [0.5, 1].
// CHECK-LABEL: func.func @bn_into_conv
// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>}>
// CHECK-DAG: "onnx.Constant"() <{value = dense<[5.000000e-01, 1.000000e+00]> : tensor<2xf32>}>
// CHECK: "onnx.Conv"
// CHECK-NOT: onnx.BatchNormalization
func.func @bn_into_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = "onnx.Conv"(%x, %w, %b) : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %scale = "onnx.Constant"() <{value = dense<[4.0, 3.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %bias = "onnx.Constant"() <{value = dense<[0.5, -1.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %mean = "onnx.Constant"() <{value = dense<[1.0, 0.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %var = "onnx.Constant"() <{value = dense<[3.0, 8.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %y = "onnx.BatchNormalization"(%c, %scale, %bias, %mean, %var) <{epsilon = 1.0 : f32}> : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// A constant per-channel Mul then Add after a Conv (an exporter's BatchNormalization)
// fold into its weights and bias: W' = W·s = [2, -1], B' = B·s + a = [1·2 + 10, 2·-1 + 20] = [12, 18].
// CHECK-LABEL: func.func @channel_affine_into_conv
// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf32>}>
// CHECK-DAG: "onnx.Constant"() <{value = dense<[1.200000e+01, 1.800000e+01]> : tensor<2xf32>}>
// CHECK: %[[C:.*]] = "onnx.Conv"
// CHECK-NEXT: "onnx.Relu"(%[[C]])
// CHECK-NOT: onnx.Mul
func.func @channel_affine_into_conv(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %b = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = "onnx.Conv"(%x, %w, %b) : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %s = "onnx.Constant"() <{value = dense<[[[2.0]], [[-1.0]]]> : tensor<2x1x1xf32>}> : () -> tensor<2x1x1xf32>
  %m = "onnx.Mul"(%s, %c) : (tensor<2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = "onnx.Constant"() <{value = dense<[[[[10.0]], [[20.0]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
  %y = "onnx.Add"(%m, %a) : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = "onnx.Relu"(%y) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %r : tensor<1x2x4x4xf32>
}

// The same after a grouped ConvTranspose, whose weights are [in, out per
// group, kh, kw]: input channel 0 feeds outputs 0-1 (scaled by 1, 2), input
// channel 1 (the second group) outputs 2-3 (scaled by 3, 4).
// CHECK-LABEL: func.func @channel_scale_into_conv_transpose
// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]], {{\[\[}}4.000000e+00]]]]> : tensor<2x2x1x1xf32>}>
// CHECK: "onnx.ConvTranspose"
// CHECK-NOT: onnx.Mul
func.func @channel_scale_into_conv_transpose(%x: tensor<1x2x2x2xf32>) -> tensor<1x4x2x2xf32> {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x2x1x1xf32>}> : () -> tensor<2x2x1x1xf32>
  %c = "onnx.ConvTranspose"(%x, %w) <{group = 2 : i64}> : (tensor<1x2x2x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x4x2x2xf32>
  %s = "onnx.Constant"() <{value = dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>}> : () -> tensor<4x1x1xf32>
  %y = "onnx.Mul"(%c, %s) : (tensor<1x4x2x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32>
  return %y : tensor<1x4x2x2xf32>
}

// A zero Pad of H and W before a Conv becomes the Conv's padding (added to
// its own: top 1+1, left 0+2, bottom 1+0, right 0+1); a Pad of the channels,
// or by a nonzero value, stays.
// CHECK-LABEL: func.func @pad_into_conv
// CHECK: "onnx.Conv"(%arg0, %{{.*}}) <{pads = array<i64: 2, 2, 1, 1>}>
// CHECK: %[[P1:.*]] = "onnx.Pad"
// CHECK: "onnx.Conv"(%[[P1]]
// CHECK: %[[P2:.*]] = "onnx.Pad"
// CHECK: "onnx.Conv"(%[[P2]]
func.func @pad_into_conv(%x: tensor<1x2x4x4xf32>) -> (tensor<1x3x5x5xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<3x2x3x3xf32>}> : () -> tensor<3x2x3x3xf32>
  %pads = "onnx.Constant"() <{value = dense<[0, 0, 1, 2, 0, 0, 0, 1]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %zero = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %p = "onnx.Pad"(%x, %pads, %zero) : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x5x7xf32>
  %c = "onnx.Conv"(%p, %w) <{pads = array<i64: 1, 0, 1, 0>}> : (tensor<1x2x5x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
  %cpads = "onnx.Constant"() <{value = dense<[0, 1, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %p1 = "onnx.Pad"(%x, %cpads) : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x3x6x6xf32>
  %w1 = "onnx.Constant"() <{value = dense<1.0> : tensor<3x3x3x3xf32>}> : () -> tensor<3x3x3x3xf32>
  %c1 = "onnx.Conv"(%p1, %w1) : (tensor<1x3x6x6xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x4x4xf32>
  %hw = "onnx.Constant"() <{value = dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %one = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %p2 = "onnx.Pad"(%x, %hw, %one) : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x6x6xf32>
  %c2 = "onnx.Conv"(%p2, %w) : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %c, %c1, %c2 : tensor<1x3x5x5xf32>, tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// Not per channel (a constant along the last axis), or a Conv with another
// user: nothing folds.
// CHECK-LABEL: func.func @channel_affine_stays
// CHECK: "onnx.Mul"
// CHECK: "onnx.Add"
func.func @channel_affine_stays(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = "onnx.Constant"() <{value = dense<1.0> : tensor<2x1x1x1xf32>}> : () -> tensor<2x1x1x1xf32>
  %c = "onnx.Conv"(%x, %w) : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %s = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %m = "onnx.Mul"(%c, %s) : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = "onnx.Conv"(%x, %w) : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = "onnx.Constant"() <{value = dense<3.0> : tensor<f32>}> : () -> tensor<f32>
  %y = "onnx.Add"(%c2, %a) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  return %m, %y, %c2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @gemm_trans_b
// CHECK: %[[B:.*]] = "onnx.Constant"() <{value = dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}>
// CHECK: "onnx.Gemm"(%arg0, %[[B]]) : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
func.func @gemm_trans_b(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = "onnx.Constant"() <{value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  %y = "onnx.Gemm"(%a, %b) <{transB = 1 : i64}> : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// An If on a constant condition is the branch it takes (the branch's ops move
// out, its values replace the If's results); on a value it stays.
// CHECK-LABEL: func.func @if_of_constant
// CHECK-NOT: onnx.If
// CHECK: %[[N:.*]] = "onnx.Neg"(%arg0)
// CHECK: %[[A:.*]] = "onnx.Abs"(%arg0)
// CHECK: return %[[N]], %[[A]]
func.func @if_of_constant(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %f = "onnx.Constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  %a = "onnx.If"(%t) ({
    %n = "onnx.Neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%n) : (tensor<4xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  %b = "onnx.If"(%f) ({
    "onnx.Yield"(%x) : (tensor<4xf32>) -> ()
  }, {
    %m = "onnx.Abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%m) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @if_kept
// CHECK: "onnx.If"(%arg1)
// CHECK: "onnx.If"(%{{.*}}) ({
// CHECK: : (tensor<i1>) -> tensor<4xf32>
func.func @if_kept(%x: tensor<*xf32>, %c: tensor<i1>) -> (tensor<*xf32>, tensor<4xf32>) {
  %a = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<*xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<*xf32>) -> ()
  }) : (tensor<i1>) -> tensor<*xf32>
  // The If is typed more precisely than what the branch yields (declared value info): kept.
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %b = "onnx.If"(%t) ({
    "onnx.Yield"(%x) : (tensor<*xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<*xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %a, %b : tensor<*xf32>, tensor<4xf32>
}

// An old-opset Softmax over the last axis (imported as Flatten → Softmax →
// Reshape back) is one Softmax again; over another axis it stays as it is.
// CHECK-LABEL: func.func @softmax_last_axis
// CHECK-NEXT: "onnx.Constant"
// CHECK-NEXT: %[[S:.*]] = "onnx.Softmax"(%arg0) <{axis = -1 : i64}> : (tensor<1x2x3x5xf32>) -> tensor<1x2x3x5xf32>
// CHECK-NEXT: %[[F:.*]] = "onnx.Flatten"(%arg0) <{axis = 1 : i64}>
// CHECK-NEXT: %[[L:.*]] = "onnx.LogSoftmax"(%[[F]]) <{axis = -1 : i64}>
// CHECK: "onnx.Reshape"(%[[L]]
// CHECK-NEXT: return %[[S]], %{{.*}}
func.func @softmax_last_axis(%x: tensor<1x2x3x5xf32>) -> (tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>) {
  %f = "onnx.Flatten"(%x) <{axis = 3 : i64}> : (tensor<1x2x3x5xf32>) -> tensor<6x5xf32>
  %s = "onnx.Softmax"(%f) <{axis = -1 : i64}> : (tensor<6x5xf32>) -> tensor<6x5xf32>
  %shape = "onnx.Constant"() <{value = dense<[1, 2, 3, 5]> : tensor<4xi64>}> : () -> tensor<4xi64>
  %r = "onnx.Reshape"(%s, %shape) : (tensor<6x5xf32>, tensor<4xi64>) -> tensor<1x2x3x5xf32>
  %f1 = "onnx.Flatten"(%x) <{axis = 1 : i64}> : (tensor<1x2x3x5xf32>) -> tensor<1x30xf32>
  %l = "onnx.LogSoftmax"(%f1) <{axis = -1 : i64}> : (tensor<1x30xf32>) -> tensor<1x30xf32>
  %r1 = "onnx.Reshape"(%l, %shape) : (tensor<1x30xf32>, tensor<4xi64>) -> tensor<1x2x3x5xf32>
  return %r, %r1 : tensor<1x2x3x5xf32>, tensor<1x2x3x5xf32>
}
