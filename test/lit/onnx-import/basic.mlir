// Importing ONNX node tests: a func.func named after the graph, inputs and
// outputs keeping their ONNX names, attributes as properties, node names as
// locations, absent optional inputs as onnx.NoValue. The output parses back.
// RUN: npu-translate --import-onnx %onnx_node/test_conv_with_strides_padding/model.onnx | FileCheck %s --check-prefix=CONV
// RUN: npu-translate --import-onnx %onnx_node/test_conv_with_strides_padding/model.onnx | npu-opt | FileCheck %s --check-prefix=CONV
// RUN: npu-translate --import-onnx %onnx_node/test_clip_default_max/model.onnx | FileCheck %s --check-prefix=CLIP
// RUN: npu-translate --import-onnx %onnx_node/test_gemm_default_zero_bias/model.onnx --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: npu-translate --import-onnx %onnx_node/test_constant/model.onnx --mlir-print-op-generic | FileCheck %s --check-prefix=CONST

// CONV: func.func @test_conv_with_strides_padding(%arg0: tensor<1x1x7x5xf32> {onnx.name = "x"}, %arg1: tensor<1x1x3x3xf32> {onnx.name = "W"}) -> (tensor<1x1x4x3xf32> {onnx.name = "y"}) attributes {onnx.opset = 22 : i64, onnx.producer = "backend-test"}
// CONV-NEXT: "onnx.Conv"(%arg0, %arg1) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x1x7x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x3xf32>

// CLIP: %[[NONE:.*]] = "onnx.NoValue"() : () -> none
// CLIP-NEXT: "onnx.Clip"(%arg0, %[[NONE]], %arg1)

// Unnamed nodes are located by operator and index in the model file.
// LOC: "onnx.Gemm"{{.*}} loc("Gemm#0"("{{.*}}model.onnx":0:0))

// CONST: "onnx.Constant"() <{value = dense<{{.*}}> : tensor<5x5xf32>}> : () -> tensor<5x5xf32>
