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
