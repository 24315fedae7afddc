// A returned value that a subgraph also uses keeps one name everywhere: the
// exported If branch refers to the graph output "y", and the model imports back.
// An outer value a branch yields goes out through an Identity.
// RUN: npu-translate --export-onnx %s -o %t.onnx
// RUN: npu-translate --import-onnx %t.onnx | FileCheck %s

// CHECK: func.func @g(%arg0: tensor<2xf32> {onnx.name = "x"}, %arg1: tensor<i1> {onnx.name = "c"}) -> (tensor<2xf32> {onnx.name = "y"}, tensor<2xf32> {onnx.name = "z"})
// CHECK: %[[Y:.*]] = "onnx.Relu"(%arg0)
// CHECK: %[[Z:.*]] = "onnx.If"(%arg1) ({
// CHECK-NEXT: "onnx.Neg"(%[[Y]])
// CHECK: }, {
// CHECK-NEXT: "onnx.Identity"(%[[Y]])
// CHECK: return %[[Y]], %[[Z]]
module {
  func.func @g(%x: tensor<2xf32> {onnx.name = "x"}, %c: tensor<i1> {onnx.name = "c"}) -> (tensor<2xf32> {onnx.name = "y"}, tensor<2xf32> {onnx.name = "z"}) attributes {onnx.opset = 18 : i64} {
    %y = "onnx.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    %z = "onnx.If"(%c) ({
      %n = "onnx.Neg"(%y) : (tensor<2xf32>) -> tensor<2xf32>
      "onnx.Yield"(%n) : (tensor<2xf32>) -> ()
    }, {
      "onnx.Yield"(%y) : (tensor<2xf32>) -> ()
    }) : (tensor<i1>) -> tensor<2xf32>
    return %y, %z : tensor<2xf32>, tensor<2xf32>
  }
}
