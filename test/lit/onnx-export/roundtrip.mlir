// --export-onnx writes a ModelProto that imports back to the same IR: names,
// opset, constants, and regions as subgraphs. At an old opset, a constant
// operand that was an attribute there (Unsqueeze's axes before 13) goes back
// to being the attribute, and imports again as the operand.
// RUN: npu-translate --export-onnx %s -o %t.onnx
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t.onnx | FileCheck %s
// RUN: npu-translate --import-onnx %onnx_node/test_if/model.onnx | npu-translate --export-onnx -o %t.if.onnx
// RUN: npu-translate --import-onnx %t.if.onnx | FileCheck %s --check-prefix=IF
// The values in between carry their types (value_info), as ONNX's inference writes them;
// the graph's outputs are declared once, as outputs.
// RUN: python3 -c "import onnx; g = onnx.load('%t.onnx').graph; print(sorted((v.name, [d.dim_value for d in v.type.tensor_type.shape.dim]) for v in g.value_info))" | FileCheck %s --check-prefix=VI
// VI: [('v5', [2, 3])]

// CHECK: func.func @g(%arg0: tensor<2x3xf32> {onnx.name = "x"}, %arg1: tensor<3xf32> {onnx.name = "b"}) -> (tensor<1x2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "z"})
// CHECK-SAME: onnx.opset = 11
// CHECK: %[[ADD:.*]] = "onnx.Add"(%arg0, %arg1){{.*}} loc("add1")
// CHECK: %[[AXES:.*]] = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}>
// CHECK: %[[U:.*]] = "onnx.Unsqueeze"(%[[ADD]], %[[AXES]])
// CHECK: %[[R:.*]] = "onnx.Relu"(%[[ADD]])
// CHECK: return %[[U]], %[[R]]
module {
  func.func @g(%x: tensor<2x3xf32> {onnx.name = "x"}, %b: tensor<3xf32> {onnx.name = "b"}) -> (tensor<1x2x3xf32> {onnx.name = "y"}, tensor<2x3xf32> {onnx.name = "z"}) attributes {onnx.opset = 11 : i64} {
    %axes = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %0 = "onnx.Add"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> loc("add1")
    %1 = "onnx.Unsqueeze"(%0, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x2x3xf32>
    %2 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1, %2 : tensor<1x2x3xf32>, tensor<2x3xf32>
  }
}

// IF: func.func @test_if(%arg0: tensor<i1> {onnx.name = "cond"}) -> (tensor<5xf32> {onnx.name = "res"})
// IF: "onnx.If"(%arg0) ({
// IF: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]>
// IF: "onnx.Yield"
// IF: }, {
// IF: dense<[5.000000e+00, 4.000000e+00, 3.000000e+00, 2.000000e+00, 1.000000e+00]>
