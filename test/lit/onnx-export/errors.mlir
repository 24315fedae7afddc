// What the exporter cannot write is an error with a location, and no file.
// RUN: split-file %s %t
// RUN: not npu-translate --export-onnx %t/arith.mlir -o %t/a.onnx 2>&1 | FileCheck %s --check-prefix=ARITH
// RUN: not ls %t/a.onnx
// RUN: not npu-translate --export-onnx %t/axes.mlir -o %t/b.onnx 2>&1 | FileCheck %s --check-prefix=AXES
// RUN: not npu-translate --export-onnx %t/two.mlir -o %t/c.onnx 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not npu-translate --export-onnx %t/attr.mlir -o %t/d.onnx 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not npu-translate --import-onnx --export-onnx %t/two.mlir 2>&1 | FileCheck %s --check-prefix=BOTH

// ARITH: arith.mlir:3:3: error: cannot export 'arith.addf': only onnx dialect ops have an ONNX form
// AXES: axes.mlir:3:3: error: onnx.Unsqueeze: operand 'axes' has no form at opset 11 (it must be a constant to become attribute 'axes')
// TWO: error: export needs exactly one func.func in the module, found 2
// ATTR: attr.mlir:3:3: error: onnx.Relu: attribute 'alpha' does not exist at opset 14
// BOTH: error: choose one translation (--import-onnx, --export-onnx, --mlir-to-llvmir or --mlir-to-npu)

//--- arith.mlir
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {onnx.opset = 18 : i64} {
  // A comment keeps the op on line 3.
  %0 = arith.addf %a, %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}
//--- axes.mlir
func.func @f(%a: tensor<2xf32>, %axes: tensor<1xi64>) -> tensor<1x2xf32> attributes {onnx.opset = 11 : i64} {
  // Runtime axes cannot become an attribute.
  %0 = "onnx.Unsqueeze"(%a, %axes) : (tensor<2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}
//--- two.mlir
func.func @f() {
  return
}
func.func @g() {
  return
}
//--- attr.mlir
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {onnx.opset = 14 : i64} {
  // Relu has no alpha.
  %0 = "onnx.Relu"(%a) <{alpha = 1.0 : f32}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
