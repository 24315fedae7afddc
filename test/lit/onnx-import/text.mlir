// ONNX's textual syntax (.onnxtext) imports like a binary model: header,
// typed inputs and outputs with symbolic dims, initializers, node labels,
// attributes of every kind incl. subgraphs. Errors are at line:column.
// RUN: split-file %s %t
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/good.onnxtext | FileCheck %s
// RUN: npu-translate --import-onnx %t/good.onnxtext | npu-translate --export-onnx -o %t/good.onnx
// RUN: npu-translate --import-onnx %t/good.onnx | FileCheck %s --check-prefix=BINARY
// RUN: not npu-translate --import-onnx %t/syntax.onnxtext 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not npu-translate --import-onnx %t/elem.onnxtext 2>&1 | FileCheck %s --check-prefix=ELEM
// RUN: not npu-translate --import-onnx %t/count.onnxtext 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not npu-translate --import-onnx %t/empty.onnxtext 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not npu-translate --import-onnx %t/header.onnxtext 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not npu-translate --import-onnx %t/lex.onnxtext 2>&1 | FileCheck %s --check-prefix=LEX
// RUN: not npu-translate --import-onnx %t/unknown.onnxtext 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not npu-translate --import-onnx --onnx-text %t/syntax.onnxtext -o %t/never.mlir
// RUN: not ls %t/never.mlir

// CHECK: func.func @g(%arg0: tensor<?x4xf32> {onnx.dims = ["N", ""], onnx.name = "X"}, %arg1: tensor<i1> {onnx.name = "c"}) -> (tensor<?x2xf32> {onnx.dims = ["N", ""], onnx.name = "Y"}, tensor<2xf32> {onnx.name = "Z"})
// CHECK-SAME: onnx.opset = 18
// CHECK-DAG: "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00]]> : tensor<4x2xf32>}> {{.*}} loc("W")
// CHECK: "onnx.MatMul"(%arg0, %{{.*}}) {{.*}} loc("mm")
// CHECK: "onnx.Transpose"(%{{.*}}) <{perm = array<i64: 0, 1>}>
// CHECK: "onnx.LeakyRelu"(%{{.*}}) <{alpha = 2.000000e-01 : f32}>
// CHECK: "onnx.If"(%arg1) ({
// CHECK: dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: "onnx.Yield"
// CHECK: }, {
// CHECK: dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// BINARY: "onnx.MatMul"
// BINARY: "onnx.If"
// SYNTAX: syntax.onnxtext:3:1: error: unexpected '}'; expected one of: ) ,
// ELEM: elem.onnxtext:1:4: error: unknown element type 'floot'
// COUNT: count.onnxtext:1:33: error: tensor of 3 elements given 2 values
// EMPTY: empty.onnxtext:2:18: error: an empty list needs its type (`name: ints = []`)
// HEADER: header.onnxtext:1:3: error: unknown or mistyped model field 'ir_versio'
// LEX: lex.onnxtext:2:7: error: unexpected character '$'
// UNKNOWN: error: node 'weird' (Frobnicate in domain 'ai.onnx', opset 18): unknown operator

//--- good.onnxtext
<
  ir_version: 8,
  opset_import: [ "" : 18 ],
  producer_name: "lit"
>
g (float[N, 4] X, bool[] c) => (float[N, 2] Y, float[2] Z)
<float[4, 2] W = {1, 0, 0, 1, 1, 1, 0, 0}>
{
  [mm] T = MatMul(X, W)
  U = Transpose <perm = [0, 1]> (T)
  Y = LeakyRelu <alpha = 0.2> (U)
  Z = If (c) <
    then_branch = t () => (float[2] a) { a = Constant <value = float[2] {1, 2}> () },
    else_branch = e () => (float[2] b) { b = Constant <value = float[2] {3, 4}> () }
  >
}
//--- syntax.onnxtext
g (float[N] X) => (float[N] Y) {
  Y = Relu(X
}
//--- elem.onnxtext
g (floot[N] X) => (float[N] Y) {
  Y = Relu(X)
}
//--- count.onnxtext
g (float[N] X) => (float[N] Y) <float[3] w = {1, 2}> {
  Y = Relu(X)
}
//--- empty.onnxtext
g (float[N] X) => (float[N] Y) {
  Y = Transpose <perm = []> (X)
}
//--- header.onnxtext
< ir_versio: 8 >
g (float[N] X) => (float[N] Y) {
  Y = Relu(X)
}
//--- lex.onnxtext
g (float[N] X) => (float[N] Y) {
  Y = $Relu(X)
}
//--- unknown.onnxtext
< opset_import: [ "" : 18 ] >
g (float[N] X) => (float[N] Y) {
  [weird] Y = Frobnicate(X)
}
