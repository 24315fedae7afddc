// Folders read constants only up to their limit, checked before any element
// is read: a splat of 2^32 elements stays a splat (canonicalize used to
// materialize all of it, and ran out of memory or time), while a small one
// folds. The address-space limit makes a regression fail fast.
// RUN: prlimit --as=2000000000 npu-opt %s --canonicalize | FileCheck %s
// RUN: prlimit --as=2000000000 npu-opt %s --sccp | FileCheck %s --check-prefix=SCCP
// RUN: prlimit --as=2000000000 npu-opt %s --onnx-shape-inference | FileCheck %s --check-prefix=INFER

// CHECK-LABEL: func.func @big
// CHECK: "onnx.Neg"
// CHECK: "onnx.Add"
// CHECK-LABEL: func.func @small
// CHECK-NEXT: "onnx.Constant"() <{value = dense<-1.000000e+00> : tensor<3xf32>}>
// Shape inference reads shape operands only up to 65,536 elements:
// INFER-LABEL: func.func @huge_shape
// INFER: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<2xf32>, tensor<4294967296xi64>) -> tensor<*xf32>
// SCCP-LABEL: func.func @big
// SCCP: "onnx.Neg"
func.func @big(%x: tensor<4294967296xf32>) -> tensor<4294967296xf32> {
  %0 = "onnx.Constant"() <{value = dense<1.0> : tensor<4294967296xf32>}> : () -> tensor<4294967296xf32>
  %1 = "onnx.Neg"(%0) : (tensor<4294967296xf32>) -> tensor<4294967296xf32>
  %2 = "onnx.Add"(%1, %x) : (tensor<4294967296xf32>, tensor<4294967296xf32>) -> tensor<4294967296xf32>
  return %2 : tensor<4294967296xf32>
}
func.func @small() -> tensor<3xf32> {
  %0 = "onnx.Constant"() <{value = dense<1.0> : tensor<3xf32>}> : () -> tensor<3xf32>
  %1 = "onnx.Neg"(%0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
func.func @huge_shape(%x: tensor<2xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() <{value = dense<1> : tensor<4294967296xi64>}> : () -> tensor<4294967296xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2xf32>, tensor<4294967296xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
