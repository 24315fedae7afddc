// An input the newest schema renamed keeps its position in the older form:
// BatchNormalization's statistics (`input_mean`, `input_var` since opset 14,
// `mean`, `var` before) export as inputs at opset 12 even when they are not
// constants (they used to be refused: "operand 'input_mean' has no form at
// opset 12"), and the model passes ONNX's checker and imports back the same.
// RUN: npu-translate --export-onnx %s -o %t.onnx
// RUN: python3 -c "import onnx; m = onnx.load('%t.onnx'); onnx.checker.check_model(m, full_check=True); print([(n.op_type, len(n.input)) for n in m.graph.node])" | FileCheck %s --check-prefix=PROTO
// RUN: npu-translate --import-onnx %t.onnx | FileCheck %s
// PROTO: [('BatchNormalization', 5)]
// CHECK: "onnx.BatchNormalization"(%arg0, %arg1, %arg2, %arg3, %arg4)
module {
  func.func @g(%x: tensor<1x2x3x3xf32> {onnx.name = "x"}, %s: tensor<2xf32> {onnx.name = "s"}, %b: tensor<2xf32> {onnx.name = "b"}, %m: tensor<2xf32> {onnx.name = "m"}, %v: tensor<2xf32> {onnx.name = "v"}) -> (tensor<1x2x3x3xf32> {onnx.name = "y"}) attributes {onnx.opset = 12 : i64} {
    %0 = "onnx.BatchNormalization"(%x, %s, %b, %m, %v) : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
    return %0 : tensor<1x2x3x3xf32>
  }
}
