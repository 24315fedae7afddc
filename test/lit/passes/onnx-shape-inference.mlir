// onnx-shape-inference: result types from operand types (and constant
// operands), then the function signature from what it returns.
// RUN: npu-opt %s --allow-unregistered-dialect --onnx-shape-inference | FileCheck %s

// CHECK-LABEL: func.func @cnn(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<8x3x3x3xf32>, %arg2: tensor<8xf32>) -> tensor<1x4096xf32>
func.func @cnn(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<*xf32> {
  // CHECK: "onnx.Conv"{{.*}} -> tensor<1x8x16x16xf32>
  %0 = "onnx.Conv"(%x, %w, %b) <{pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Relu"{{.*}} -> tensor<1x8x16x16xf32>
  %1 = "onnx.Relu"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: "onnx.MaxPool"{{.*}} -> tensor<1x8x8x8xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<*xf32>) -> tensor<*xf32>
  %shape = "onnx.Constant"() <{value = dense<[1, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Reshape"{{.*}} -> tensor<1x512xf32>
  %3 = "onnx.Reshape"(%2, %shape) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: "onnx.Concat"{{.*}} -> tensor<1x4096xf32>
  %4 = "onnx.Concat"(%3, %3, %3, %3, %3, %3, %3, %3) <{axis = 1 : i64}> : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: return %{{.*}} : tensor<1x4096xf32>
  return %4 : tensor<*xf32>
}

// Shape of a now-static tensor folds on the spot, its constant hoisted to the entry.
// CHECK-LABEL: func.func @misc
// CHECK-NEXT: %[[SHAPE:.*]] = "onnx.Constant"() <{value = dense<[6, 1, 3]> : tensor<3xi64>}>
// CHECK-NOT: "onnx.Shape"
func.func @misc(%a: tensor<4x1x5xf32>, %b: tensor<3x5xf32>, %m: tensor<5x6xf32>) {
  // CHECK: "onnx.Add"{{.*}} -> tensor<4x3x5xf32>
  %0 = "onnx.Add"(%a, %b) : (tensor<4x1x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Less"{{.*}} -> tensor<4x3x5xi1>
  %1 = "onnx.Less"(%a, %b) : (tensor<4x1x5xf32>, tensor<3x5xf32>) -> tensor<*xi1>
  // CHECK: "onnx.MatMul"{{.*}} -> tensor<4x3x6xf32>
  %2 = "onnx.MatMul"(%0, %m) : (tensor<*xf32>, tensor<5x6xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Transpose"{{.*}} -> tensor<6x4x3xf32>
  %3 = "onnx.Transpose"(%2) <{perm = array<i64: 2, 0, 1>}> : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: "onnx.ReduceSum"{{.*}} -> tensor<6x1x3xf32>
  %axes = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %4 = "onnx.ReduceSum"(%3, %axes) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %5 = "onnx.Shape"(%4) : (tensor<*xf32>) -> tensor<*xi64>
  // CHECK: "onnx.Cast"(%[[SHAPE]]){{.*}} -> tensor<3xf32>
  %6 = "onnx.Cast"(%5) <{to = 1 : i64}> : (tensor<*xi64>) -> tensor<*xf32>
  // CHECK: "onnx.Gemm"{{.*}} -> tensor<5x5xf32>
  %7 = "onnx.Gemm"(%b, %b) <{transA = 1 : i64}> : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  "test.use"(%1, %6, %7) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> ()
  return
}

// The exporter's shape chain resolves in one run of the pass: every link folds
// as soon as its operand types are known, and the Reshape ends static.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NOT: "onnx.Shape"
// CHECK-NOT: "onnx.Gather"
// CHECK-NOT: "onnx.Concat"
// CHECK: "onnx.Reshape"{{.*}} -> tensor<2x12xf32>
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %i = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %g = "onnx.Gather"(%s, %i) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%g, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %c = "onnx.Concat"(%u, %m) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %c) : (tensor<2x3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Sequences take the most precise type all their elements share.
// CHECK-LABEL: func.func @sequences
// CHECK: "onnx.SequenceConstruct"{{.*}} -> !onnx.Seq<tensor<2x?xf32>>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<2x?xf32>
// CHECK: "onnx.SequenceLength"{{.*}} -> tensor<i64>
func.func @sequences(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %i: tensor<i64>) {
  %s = "onnx.SequenceConstruct"(%a, %b) : (tensor<2x3xf32>, tensor<2x5xf32>) -> none
  %e = "onnx.SequenceAt"(%s, %i) : (none, tensor<i64>) -> none
  %n = "onnx.SequenceLength"(%s) : (none) -> none
  "test.use"(%e, %n) : (none, none) -> ()
  return
}

// Flatten's axis counts from the rank when negative (-1 of a rank-4 tensor is 3).
// CHECK-LABEL: func.func @flatten_negative
// CHECK: "onnx.Flatten"{{.*}} -> tensor<24x5xf32>
// CHECK: "onnx.Flatten"{{.*}} -> tensor<120x1xf32>
func.func @flatten_negative(%x: tensor<2x3x4x5xf32>) {
  %0 = "onnx.Flatten"(%x) <{axis = -1 : i64}> : (tensor<2x3x4x5xf32>) -> tensor<*xf32>
  %1 = "onnx.Flatten"(%x) <{axis = 4 : i64}> : (tensor<2x3x4x5xf32>) -> tensor<*xf32>
  "test.use"(%0, %1) : (tensor<*xf32>, tensor<*xf32>) -> ()
  return
}

// A Loop body's arguments take the iteration, condition and carried types; its
// carried result merges the initial value with what the body yields.
// CHECK-LABEL: func.func @loop_body
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<2x3xf32>):
// CHECK: "onnx.Relu"{{.*}} -> tensor<2x3xf32>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @loop_body(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  %r = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: none, %cond: none, %v: none):
    %y = "onnx.Relu"(%v) : (none) -> none
    "onnx.Yield"(%cond, %y) : (none, none) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
