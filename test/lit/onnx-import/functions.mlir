// Model-local functions are inlined on import: values renamed apart, inputs
// and outputs bound to the call's, attribute references resolved against the
// call (or the function's default), calls inside functions and inside
// subgraphs inlined too, node names prefixed with the caller's. The inlined
// model exported and run in ONNX Runtime gives what ONNX Runtime gives for
// the model with its functions. Bad functions are errors naming the call.
// RUN: split-file %s %t
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/good.onnxtext | FileCheck %s
// RUN: npu-translate --import-onnx %t/good.onnxtext | npu-translate --export-onnx -o %t/inlined.onnx
// RUN: python3 %S/Inputs/compare_functions_ort.py %t/good.onnxtext %t/inlined.onnx | FileCheck %s --check-prefix=ORT
// RUN: not npu-translate --import-onnx %t/recursive.onnxtext 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RUN: not npu-translate --import-onnx %t/arity.onnxtext 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not npu-translate --import-onnx %t/undeclared.onnxtext 2>&1 | FileCheck %s --check-prefix=UNDECLARED
// RUN: not npu-translate --import-onnx %t/opset.onnxtext 2>&1 | FileCheck %s --check-prefix=OPSET
// RUN: not npu-translate --import-onnx %t/graphref.onnxtext 2>&1 | FileCheck %s --check-prefix=GRAPHREF

// CHECK-LABEL: func.func @g(%arg0: tensor<4xf32> {onnx.name = "X"}, %arg1: tensor<i1> {onnx.name = "c"})
// CHECK-NOT: local.
// The call with alpha = 3: x * x * 3.
// CHECK: %[[SQ:.*]] = "onnx.Mul"(%arg0, %arg0) {{.*}} loc("sq1/m")
// CHECK: %[[A3:.*]] = "onnx.Constant"() <{value = dense<3.000000e+00> : tensor<f32>}> {{.*}} loc("sq1/a")
// CHECK: %[[Y1:.*]] = "onnx.Mul"(%[[SQ]], %[[A3]]) {{.*}} loc("sq1/s")
// The call that leaves alpha to its default (2), through another function.
// CHECK: "onnx.Mul"(%[[Y1]], %[[Y1]]) {{.*}} loc("tw/inner/m")
// CHECK: "onnx.Constant"() <{value = dense<2.000000e+00> : tensor<f32>}> {{.*}} loc("tw/inner/a")
// CHECK: %[[Y2:.*]] = "onnx.Mul"({{.*}}) {{.*}} loc("tw/inner/s")
// CHECK: %[[Y3:.*]] = "onnx.Add"(%[[Y2]], %[[Y1]]) {{.*}} loc("tw/add")
// A function holding an If whose branches read the function's values.
// CHECK: "onnx.If"(%arg1) ({
// CHECK: "onnx.Neg"(%[[Y3]]) {{.*}} loc("pick/neg")
// CHECK: }, {
// CHECK: "onnx.Abs"(%[[Y3]]) {{.*}} loc("pick/abs")
// CHECK: }) {{.*}} loc("pick/branch")
// ORT: outputs match

//--- good.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X, bool[] c) => (float[4] Y) {
  [sq1] y1 = local.scaled_square <alpha = 3.0> (X)
  [tw] y3 = local.twice (y1)
  [pick] Y = local.pick (y3, c)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
scaled_square <alpha: float = 2.0> (x) => (y) {
  [m] sq = Mul (x, x)
  [a] k = Constant <value_float: float = @alpha> ()
  [s] y = Mul (sq, k)
}
<
  domain: "local",
  opset_import: ["" : 18, "local" : 1]
>
twice (x) => (y) {
  [inner] t = local.scaled_square (x)
  [add] y = Add (t, x)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
pick (x, c) => (y) {
  [branch] y = If (c) <then_branch = then_g () => (float[4] a) { [neg] a = Neg (x) }, else_branch = else_g () => (float[4] b) { [abs] b = Abs (x) }>
}

//--- recursive.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X) => (float[4] Y) {
  [call] Y = local.f (X)
}
<
  domain: "local",
  opset_import: ["" : 18, "local" : 1]
>
f (x) => (y) {
  [again] y = local.f (x)
}
// RECURSIVE: error: node 'call/again/again{{.*}}' calls function 'f': calls nest deeper than 64 (does the function call itself?)

//--- arity.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X) => (float[4] Y) {
  [call] Y = local.f (X, X)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
f (x) => (y) {
  y = Neg (x)
}
// ARITY: error: node 'call' calls function 'f' with 2 inputs and 1 outputs; it takes 1 and gives 1

//--- undeclared.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X) => (float[4] Y) {
  [call] Y = local.f (X)
}
<
  domain: "local",
  opset_import: ["" : 18]
>
f (x) => (y) {
  y = LeakyRelu <alpha: float = @slope> (x)
}
// UNDECLARED: error: attribute 'alpha' refers to '@slope', which the function does not declare

//--- opset.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18, "local" : 1]
>
g (float[4] X) => (float[4] Y) {
  [call] Y = local.f (X)
}
<
  domain: "local",
  opset_import: ["" : 13]
>
f (x) => (y) {
  y = Neg (x)
}
// OPSET: error: function 'f' (domain 'local') is written for opset 13 of the default domain; the model imports opset 18

//--- graphref.onnxtext
<
  ir_version: 8,
  opset_import: ["" : 18]
>
g (float[4] X) => (float[4] Y) {
  [lr] Y = LeakyRelu <alpha: float = @slope> (X)
}
// GRAPHREF: error: node 'lr' (LeakyRelu in domain 'ai.onnx', opset 18): attribute 'alpha' refers to a function attribute
