// convert-onnx-to-npu: NHWC npu ops with transposes around each, weights
// transposed to HWIO, activations fused; canonicalization then cancels every
// back-to-back transpose and folds the weight transposes into the constants,
// so a chain of convolutions carries no transpose: the only two left are at
// the model's edges, in the caller.
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu)' | FileCheck %s --check-prefix=RAW
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu)' | grep -c '"onnx.Transpose"' | FileCheck %s --check-prefix=RAWCOUNT
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | grep -c '"onnx.Transpose"' | FileCheck %s --check-prefix=COUNT

// Before canonicalization: one transpose in front of each activation input, one after each output, one per weight (14), one per partition edge inside and one outside (4).
// RAW: "npu.conv"({{.*}}) <{act = "relu", group = 1 : i64, macs = 10368 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}>
// RAW: "npu.conv"({{.*}}) <{act = "relu6", group = 8 : i64, macs = 648 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}>
// RAW: "npu.eltwise"({{.*}}) <{act = "relu", kind = "add"}>
// RAW: "npu.pool"({{.*}}) <{count_include_pad = 0 : i64, kernel = array<i64: 3, 3>, kind = "avg", pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}>
// RAWCOUNT: 18

// CHECK-LABEL: func.func private @g_npu16_0(%arg0: tensor<1x6x6x4xf32>) -> tensor<1x1x1x8xf32>
// CHECK-NOT: onnx.Transpose
// CHECK: "onnx.Constant"() <{value = dense_resource<{{.*}}> : tensor<3x3x4x8xf32>}>
// CHECK-NOT: onnx.Transpose
// CHECK: "npu.conv"(%arg0, %{{.*}}) {{.*}} -> tensor<1x6x6x8xf32>
// CHECK-NOT: onnx.Transpose
// CHECK: "npu.conv"{{.*}} -> tensor<1x3x3x8xf32>
// CHECK-NOT: onnx.Transpose
// CHECK: "npu.conv"{{.*}} -> tensor<1x3x3x8xf32>
// CHECK-NOT: onnx.Transpose
// CHECK: "npu.eltwise"
// CHECK-NOT: onnx.Transpose
// CHECK: "npu.pool"
// CHECK-NOT: onnx.Transpose
// CHECK: return
// CHECK-LABEL: func.func @g(
// CHECK: "onnx.Transpose"(%arg0) <{perm = array<i64: 0, 2, 3, 1>}>
// CHECK: call @g_npu16_0
// CHECK: "onnx.Transpose"({{.*}}) <{perm = array<i64: 0, 3, 1, 2>}>
// COUNT: 2

func.func @g(%x: tensor<1x4x6x6xf32>) -> tensor<1x8x1x1xf32> {
  %w8 = "onnx.Constant"() <{value = dense<[[[[0, 0.841, 0.909], [0.141, -0.757, -0.959], [-0.279, 0.657, 0.989]], [[0.412, -0.544, -1], [-0.537, 0.42, 0.991], [0.65, -0.288, -0.961]], [[-0.751, 0.15, 0.913], [0.837, -0.009, -0.846], [-0.906, -0.132, 0.763]], [[0.956, 0.271, -0.664], [-0.988, -0.404, 0.551], [1, 0.529, -0.428]]], [[[-0.992, -0.644, 0.296], [0.964, 0.745, -0.159], [-0.917, -0.832, 0.018]], [[0.851, 0.902, 0.124], [-0.768, -0.954, -0.262], [0.67, 0.987, 0.396]], [[-0.559, -1, -0.522], [0.436, 0.993, 0.637], [-0.305, -0.966, -0.739]], [[0.167, 0.92, 0.827], [-0.027, -0.856, -0.898], [-0.115, 0.774, 0.951]]], [[[0.254, -0.677, -0.985], [-0.388, 0.566, 1], [0.514, -0.444, -0.994]], [[-0.63, 0.313, 0.968], [0.733, -0.176, -0.923], [-0.822, 0.035, 0.86]], [[0.894, 0.106, -0.779], [-0.948, -0.245, 0.683], [0.984, 0.38, -0.573]], [[-0.999, -0.506, 0.452], [0.995, 0.623, -0.322], [-0.971, -0.727, 0.185]]], [[[0.927, 0.817, -0.044], [-0.865, -0.89, -0.097], [0.785, 0.945, 0.237]], [[-0.69, -0.982, -0.371], [0.581, 0.999, 0.499], [-0.46, -0.996, -0.616]], [[0.33, 0.973, 0.721], [-0.193, -0.93, -0.812], [0.053, 0.869, 0.886]], [[0.088, -0.79, -0.943], [-0.228, 0.696, 0.98], [0.363, -0.588, -0.998]]], [[[-0.491, 0.468, 0.996], [0.609, -0.338, -0.975], [-0.715, 0.202, 0.933]], [[0.806, -0.062, -0.873], [-0.882, -0.08, 0.796], [0.94, 0.219, -0.702]], [[-0.978, -0.355, 0.595], [0.998, 0.483, -0.476], [-0.997, -0.602, 0.347]], [[0.977, 0.709, -0.211], [-0.936, -0.801, 0.071], [0.878, 0.878, 0.071]]], [[[-0.801, -0.936, -0.211], [0.709, 0.977, 0.347], [-0.602, -0.997, -0.476]], [[0.483, 0.998, 0.595], [-0.355, -0.978, -0.702], [0.219, 0.94, 0.796]], [[-0.08, -0.882, -0.873], [-0.062, 0.806, 0.933], [0.202, -0.715, -0.975]], [[-0.338, 0.609, 0.996], [0.468, -0.491, -0.998], [-0.588, 0.363, 0.98]]], [[[0.696, -0.228, -0.943], [-0.79, 0.088, 0.886], [0.869, 0.053, -0.812]], [[-0.93, -0.193, 0.721], [0.973, 0.33, -0.616], [-0.996, -0.46, 0.499]], [[0.999, 0.581, -0.371], [-0.982, -0.69, 0.237], [0.945, 0.785, -0.097]], [[-0.89, -0.865, -0.044], [0.817, 0.927, 0.185], [-0.727, -0.971, -0.322]]], [[[0.623, 0.995, 0.452], [-0.506, -0.999, -0.573], [0.38, 0.984, 0.683]], [[-0.245, -0.948, -0.779], [0.106, 0.894, 0.86], [0.035, -0.822, -0.923]], [[-0.176, 0.733, 0.968], [0.313, -0.63, -0.994], [-0.444, 0.514, 1]], [[0.566, -0.388, -0.985], [-0.677, 0.254, 0.951], [0.774, -0.115, -0.898]]]]> : tensor<8x4x3x3xf32>}> : () -> tensor<8x4x3x3xf32>
  %dw = "onnx.Constant"() <{value = dense<0.5> : tensor<8x1x3x3xf32>}> : () -> tensor<8x1x3x3xf32>
  %pw = "onnx.Constant"() <{value = dense<0.25> : tensor<8x8x1x1xf32>}> : () -> tensor<8x8x1x1xf32>
  %lo = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %hi = "onnx.Constant"() <{value = dense<6.0> : tensor<f32>}> : () -> tensor<f32>
  %0 = "onnx.Conv"(%x, %w8) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  %1 = "onnx.Relu"(%0) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %2 = "onnx.Conv"(%1, %dw) <{group = 8 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  %3 = "onnx.Clip"(%2, %lo, %hi) : (tensor<1x8x3x3xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x3x3xf32>
  %4 = "onnx.Conv"(%3, %pw) <{kernel_shape = array<i64: 1, 1>}> : (tensor<1x8x3x3xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x3x3xf32>
  %5 = "onnx.Add"(%4, %3) : (tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %6 = "onnx.Relu"(%5) : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %7 = "onnx.AveragePool"(%6) <{kernel_shape = array<i64: 3, 3>}> : (tensor<1x8x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %7 : tensor<1x8x1x1xf32>
}
