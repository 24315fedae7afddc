// scripts/generate-test-checks.py writes CHECK lines for npu-opt's output:
// a label per function, its signature's values captured on a SAME line, each
// value captured once and matched by name after. The lines it writes into
// this file pass against the same output, and fail when a line is changed.
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' | python3 %S/../../../scripts/generate-test-checks.py --prefix GEN --source %s > %t.mlir
// RUN: npu-opt %t.mlir --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' | FileCheck %t.mlir --check-prefix=GEN
// RUN: FileCheck %s --input-file %t.mlir
// CHECK: // {{GEN}}-LABEL: func.func @chain(
// CHECK-NEXT: // {{GEN}}-SAME: {{%\[\[VAL_0:\.\*\]\]}}: tensor<4x8xf32>, {{%\[\[VAL_1:\.\*\]\]}}: tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK: // {{GEN}}: {{%\[\[VAL_3:\.\*\]\]}} = "tensor.generic"({{%\[\[VAL_0\]\]}}, {{%\[\[VAL_1\]\]}}, {{%\[\[VAL_2\]\]}})
// CHECK: // {{GEN}}: ^bb0({{%\[\[VAL_4:\.\*\]\]}}: f32,
// CHECK: // {{GEN}}: {{%\[\[VAL_7:\.\*\]\]}} = arith.addf {{%\[\[VAL_4\]\]}}, {{%\[\[VAL_5\]\]}} : f32
// CHECK: // {{GEN}}: return {{%\[\[VAL_3\]\]}} : tensor<4x8xf32>
// CHECK: func.func @chain
// CHECK: // {{GEN}}-LABEL: func.func @brackets(
// CHECK: {{dense<..\[\[\]\[\[\]..1\.000000e\+00}}
// CHECK: func.func @brackets
// A changed line fails: the Relu's maximum made a minimum.
// RUN: sed 's/arith.maximumf/arith.minimumf/' %t.mlir > %t.bad.mlir
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' | not FileCheck %t.bad.mlir --check-prefix=GEN

func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "onnx.Relu"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// FileCheck's own brackets in the IR ([[ in a nested dense literal) are escaped.
func.func @brackets() -> tensor<1x2xf32> {
  %c = "onnx.Constant"() <{value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  return %c : tensor<1x2xf32>
}
