// Folding of the integer and bool shape logic expanded ONNX functions use
// (Mod, comparisons, And/Or/Xor/Not, Where): the Expand's target shape folds
// to a constant, so its result type becomes static.
// RUN: npu-opt %s --onnx-shape-inference | FileCheck %s

// CHECK-LABEL: func.func @shape_logic
// CHECK: "onnx.Expand"(%arg0, %{{.*}}) : (tensor<2x1x8xf32>, tensor<3xi64>) -> tensor<2x3x8xf32>
// CHECK: return {{.*}} : tensor<2x3x8xf32>, tensor<2xi1>, tensor<1xi64>
func.func @shape_logic(%x: tensor<2x1x8xf32>) -> (tensor<*xf32>, tensor<*xi1>, tensor<*xi64>) {
  %two = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %three = "onnx.Constant"() <{value = dense<3> : tensor<1xi64>}> : () -> tensor<1xi64>
  %eight = "onnx.Constant"() <{value = dense<8> : tensor<1xi64>}> : () -> tensor<1xi64>
  %zero = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %m = "onnx.Mod"(%eight, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %ne = "onnx.Equal"(%m, %zero) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %nz = "onnx.Not"(%ne) : (tensor<1xi1>) -> tensor<1xi1>
  %lt = "onnx.Less"(%two, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %ok = "onnx.And"(%nz, %lt) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
  %mid = "onnx.Where"(%ok, %three, %two) : (tensor<1xi1>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %shape = "onnx.Concat"(%two, %mid, %eight) <{axis = 0 : i64}> : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %y = "onnx.Expand"(%x, %shape) : (tensor<2x1x8xf32>, tensor<3xi64>) -> tensor<*xf32>
  %b = "onnx.Concat"(%ok, %ne) <{axis = 0 : i64}> : (tensor<1xi1>, tensor<1xi1>) -> tensor<*xi1>
  %pm = "onnx.Mod"(%two, %three) <{fmod = 0 : i64}> : (tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  return %y, %b, %pm : tensor<*xf32>, tensor<*xi1>, tensor<*xi64>
}
