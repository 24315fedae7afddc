// Every verifier error of the onnx dialect's own checks.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

// A value of another shape: folders would read three elements as one.
func.func @f() -> tensor<f32> {
  // expected-error @+1 {{'onnx.Constant' op value of type 'tensor<3xf32>' does not match the result type 'tensor<f32>'}}
  %0 = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----
func.func @f() -> tensor<2xi64> {
  // expected-error @+1 {{'onnx.Constant' op value of type 'tensor<2xf32>' does not match the result's element type 'i64'}}
  %0 = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----
func.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Constant' op needs a 'value' attribute holding the constant's elements}}
  %0 = "onnx.Constant"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----
// A symbolic or unranked result accepts any value of its element type.
func.func @f() -> (tensor<?xf32>, tensor<*xf32>) {
  %0 = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<?xf32>
  %1 = "onnx.Constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<*xf32>
  return %0, %1 : tensor<?xf32>, tensor<*xf32>
}

// -----
// Type constraints from ONNX's schemas: Relu takes floats (T), not booleans.
func.func @f(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'onnx.Relu' op operand #0 ('X') has element type bool, not one of T's (float, double, float16, bfloat16, int8, int16, int32, int64)}}
  %0 = "onnx.Relu"(%x) : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----
// One element type per type variable: Add's A, B and C are all T.
func.func @f(%a: tensor<4xf32>, %b: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Add' op operand #1 ('B') is int64 but operand #0 is float: both are T}}
  %0 = "onnx.Add"(%a, %b) : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----
// Results too: Shape gives int64.
func.func @f(%x: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'onnx.Shape' op result #0 ('shape') has element type int32, not one of T1's (int64)}}
  %0 = "onnx.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----
// A literal parameter type: Reshape's shape is int64.
func.func @f(%x: tensor<6xf32>, %s: tensor<2xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'onnx.Reshape' op operand #1 ('shape') has element type int32, not int64}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----
// Attributes the schema requires: Cast's `to`.
func.func @f(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'onnx.Cast' op needs the attribute 'to'}}
  %0 = "onnx.Cast"(%x) : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----
// Absent optionals, unranked tensors and a variadic parameter's values of
// different types (Loop's carried values) verify.
func.func @f(%x: tensor<*xf32>, %n: tensor<i64>, %c: tensor<i1>, %k: tensor<i32>) -> (tensor<*xf32>, tensor<i32>) {
  %none = "onnx.NoValue"() : () -> none
  %0 = "onnx.Clip"(%x, %none, %none) : (tensor<*xf32>, none, none) -> tensor<*xf32>
  %1:2 = "onnx.Loop"(%n, %c, %0, %k) ({
  ^bb0(%i: tensor<i64>, %cond: tensor<i1>, %v: tensor<*xf32>, %w: tensor<i32>):
    "onnx.Yield"(%cond, %v, %w) : (tensor<i1>, tensor<*xf32>, tensor<i32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<*xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<i32>)
  return %1#0, %1#1 : tensor<*xf32>, tensor<i32>
}

// -----
// A model of an older opset keeps its types when its ops take the newest
// form: opset 7's Dropout gives a float mask (bool since opset 10), and a
// variable binds no parameter whose types changed across versions.
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = "onnx.Dropout"(%x) <{ratio = 5.000000e-01 : f32}> : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----
// A parameter's types over all its versions: Dropout's mask is a float or a
// bool, never an int32.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'onnx.Dropout' op result #1 ('mask') has element type int32, not one of (float, double, float16, bool)}}
  %0:2 = "onnx.Dropout"(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#0 : tensor<4xf32>
}
