// convert-onnx-to-tensor on control flow: If becomes scf.if on the
// condition's element, Loop and Scan become scf.while carrying the iteration
// number, the condition (Loop), the carried tensors and the scan outputs,
// whose rows are written with tensor.insert_row; the bodies move in and their
// onnx ops are lowered where they land. What the CPU path cannot run is an
// error at the node.
// RUN: npu-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor))' | FileCheck %s

// CHECK-LABEL: func.func @if
// CHECK: %[[C:.*]] = "tensor.extract"(%arg0) : (tensor<i1>) -> i1
// CHECK: "scf.if"(%[[C]]) ({
// CHECK: "tensor.generic"
// CHECK: arith.addf
// CHECK: "scf.yield"
// CHECK: }, {
// CHECK: "scf.yield"(%arg1) : (tensor<3xf32>) -> ()
// CHECK: }) : (i1) -> tensor<3xf32>
// CHECK-NOT: onnx.
func.func @if(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "onnx.If"(%c) ({
    %1 = "onnx.Add"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.Yield"(%1) : (tensor<3xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @loop
// CHECK: %[[M:.*]] = "tensor.extract"(%{{.*}}) : (tensor<i64>) -> i64
// CHECK: %[[ROWS:.*]] = "tensor.empty"() : () -> tensor<4x2xf32>
// CHECK: "scf.while"(%{{.*}}, %{{.*}}, %arg0, %[[ROWS]]) ({
// CHECK: ^bb0(%[[I:.*]]: i64, %[[GO:.*]]: i1, %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<4x2xf32>):
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[M]] : i64
// CHECK: arith.andi %[[LT]], %[[GO]] : i1
// CHECK: "scf.condition"
// CHECK: }, {
// CHECK: "tensor.insert_row"(%{{.*}}, %{{.*}}, %{{.*}}) <{dim = 0 : i64}> : (tensor<2xf32>, tensor<4x2xf32>, index) -> tensor<4x2xf32>
// CHECK: "scf.yield"
// CHECK: }) : (i64, i1, tensor<2xf32>, tensor<4x2xf32>) -> (i64, i1, tensor<2xf32>, tensor<4x2xf32>)
// CHECK-NOT: onnx.
func.func @loop(%v: tensor<2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>) {
  %n = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %0:2 = "onnx.Loop"(%n, %t, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>):
    %1 = "onnx.Add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%c, %1, %a) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<4x2xf32>
}

// -----

// A reversed scan input along axis 1: row 2 - i of each iteration.
// CHECK-LABEL: func.func @scan
// CHECK: "scf.while"
// CHECK: arith.subi
// CHECK: "tensor.extract"(%arg1, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, index, index) -> f32
// CHECK: "tensor.insert_row"
// CHECK-NOT: onnx.
func.func @scan(%s: tensor<2xf32>, %x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) attributes {onnx.opset = 17 : i64} {
  %0:2 = "onnx.Scan"(%s, %x) <{num_scan_inputs = 1 : i64, scan_input_axes = [1], scan_input_directions = [1]}> ({
  ^bb0(%a: tensor<2xf32>, %r: tensor<2xf32>):
    %1 = "onnx.Add"(%a, %r) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%1, %1) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<2xf32>, tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<3x2xf32>
}

// -----

func.func @branches_differ(%c: tensor<i1>, %x: tensor<3xf32>, %y: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{cannot lower 'onnx.If' to the CPU: the branches give result #0 different types (tensor<3xf32> and tensor<4xf32>); the CPU path needs one static type}}
  %0 = "onnx.If"(%c) ({
    "onnx.Yield"(%x) : (tensor<3xf32>) -> ()
  }, {
    "onnx.Yield"(%y) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// The condition may end the loop early: the scan output's rows are data-dependent.
func.func @early_exit(%c: tensor<i1>, %v: tensor<2xf32>) -> tensor<4x2xf32> {
  %n = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  // expected-error @+1 {{cannot lower 'onnx.Loop' to the CPU: scan output #0 needs the trip count before the loop runs}}
  %0:2 = "onnx.Loop"(%n, %c, %v) ({
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %a: tensor<2xf32>):
    "onnx.Yield"(%ci, %a, %a) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> (tensor<2xf32>, tensor<4x2xf32>)
  return %0#1 : tensor<4x2xf32>
}

// -----

func.func @grows(%v: tensor<2xf32>) -> tensor<?xf32> {
  %n = "onnx.Constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  // expected-error @+1 {{cannot lower 'onnx.Loop' to the CPU: loop-carried value #0 changes type in the body (tensor<2xf32> to tensor<4xf32>); the CPU path needs one static type}}
  %0 = "onnx.Loop"(%n, %t, %v) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>):
    %1 = "onnx.Concat"(%a, %a) <{axis = 0 : i64}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
    "onnx.Yield"(%c, %1) : (tensor<i1>, tensor<4xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Scan of opset 8 with a batch of one: the opset-9 Scan of that row, the
// batch axis reshaped away and back.
// CHECK-LABEL: func.func @scan8
// CHECK: "tensor.collapse_shape"
// CHECK: "scf.while"
// CHECK: "tensor.insert_row"
// CHECK: "tensor.expand_shape"
// CHECK-NOT: onnx.
func.func @scan8(%s: tensor<1x2xf32>, %x: tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>) attributes {onnx.opset = 8 : i64} {
  %none = "onnx.NoValue"() : () -> none
  %0:2 = "onnx.Scan"(%none, %s, %x) <{num_scan_inputs = 1 : i64}> ({
  ^bb0(%a: tensor<2xf32>, %r: tensor<2xf32>):
    %1 = "onnx.Add"(%a, %r) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%1, %1) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (none, tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>)
  return %0#0, %0#1 : tensor<1x2xf32>, tensor<1x3x2xf32>
}

// -----

func.func @scan8_batch(%s: tensor<2x2xf32>, %x: tensor<2x3x2xf32>) -> tensor<2x2xf32> attributes {onnx.opset = 8 : i64} {
  %none = "onnx.NoValue"() : () -> none
  // expected-error @+1 {{cannot lower 'onnx.Scan' to the CPU: Scan of opset 8 runs a batch of one on the CPU path, got shape [2, 2]}}
  %0:2 = "onnx.Scan"(%none, %s, %x) <{num_scan_inputs = 1 : i64}> ({
  ^bb0(%a: tensor<2xf32>, %r: tensor<2xf32>):
    %1 = "onnx.Add"(%a, %r) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "onnx.Yield"(%1, %1) : (tensor<2xf32>, tensor<2xf32>) -> ()
  }) : (none, tensor<2x2xf32>, tensor<2x3x2xf32>) -> (tensor<2x2xf32>, tensor<2x3x2xf32>)
  return %0#0 : tensor<2x2xf32>
}
