// Symbolic dimensions keep their names (onnx.dims); --dim NAME=SIZE binds one,
// as ONNX Runtime's free dimension override does; a bad --dim is an error.
// Shape inference carries a name to the outputs it reaches, and the exporter
// writes named dims back as dim_params.
// RUN: npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx | FileCheck %s --check-prefix=FREE
// RUN: npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx --dim N=7 --dim M=3 | FileCheck %s --check-prefix=BOUND
// RUN: not npu-translate --import-onnx %onnx_node/test_sequence_map_identity_1_sequence_1_tensor/model.onnx --dim M=x 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: split-file %s %t
// RUN: npu-translate --import-onnx %t/named.onnxtext --ignore-value-info | npu-opt --onnx-shape-inference | FileCheck %s --check-prefix=NAMED
// RUN: npu-translate --import-onnx %t/named.onnxtext --ignore-value-info | npu-opt --onnx-shape-inference | npu-translate --export-onnx -o %t/named.onnx
// RUN: npu-translate --import-onnx %t/named.onnx | FileCheck %s --check-prefix=EXPORTED

// FREE: (%arg0: !onnx.Seq<tensor<?xf32>> {onnx.name = "x0"}, %arg1: tensor<?xf32> {onnx.dims = ["M"], onnx.name = "x1"})
// BOUND: (%arg0: !onnx.Seq<tensor<7xf32>> {onnx.name = "x0"}, %arg1: tensor<3xf32> {onnx.name = "x1"})
// BAD: error: --dim expects NAME=SIZE with a non-negative size, got 'M=x'

// NAMED: func.func @g(%arg0: tensor<?x4xf32> {onnx.dims = ["batch", ""], onnx.name = "X"}, %arg1: tensor<4x8xf32> {onnx.name = "W"}) -> (tensor<?x8xf32> {onnx.declared_type = tensor<*xf32>, onnx.dims = ["batch", ""], onnx.name = "Y"})
// EXPORTED: func.func @g(%arg0: tensor<?x4xf32> {onnx.dims = ["batch", ""], onnx.name = "X"}, %arg1: tensor<4x8xf32> {onnx.name = "W"}) -> (tensor<?x8xf32> {onnx.dims = ["batch", ""], onnx.name = "Y"})

//--- named.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18]
>
g (float[batch, 4] X, float[4, 8] W) => (float Y) {
  T = MatMul (X, W)
  Y = Relu (T)
}
