// Symbolic dimensions keep their names (onnx.dims); --dim NAME=SIZE binds one,
// as ONNX Runtime's free dimension override does; a bad --dim is an error.
// RUN: npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx | FileCheck %s --check-prefix=FREE
// RUN: npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx --dim N=7 --dim M=3 | FileCheck %s --check-prefix=BOUND
// RUN: not npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx --dim M=x 2>&1 | FileCheck %s --check-prefix=BAD

// FREE: (%arg0: !onnx.Seq<tensor<?xf32>> {onnx.name = "x0"}, %arg1: tensor<?xf32> {onnx.dims = ["M"], onnx.name = "x1"})
// BOUND: (%arg0: !onnx.Seq<tensor<7xf32>> {onnx.name = "x0"}, %arg1: tensor<3xf32> {onnx.name = "x1"})
// BAD: error: --dim expects NAME=SIZE with a non-negative size, got 'M=x'
