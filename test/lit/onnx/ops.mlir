// The onnx dialect's ops parse, verify and print back in the generic form:
// absent optional operands (onnx.NoValue), variadic operands, several
// results, regions (If), sequence types and the ops of other domains
// (com.microsoft as onnx.ms.*, ai.onnx.ml as onnx.ml.*). The verifier's
// errors are in invalid.mlir.
// RUN: npu-opt %s --split-input-file | FileCheck %s
// RUN: npu-opt %s --split-input-file | npu-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @ops(
// CHECK-SAME: %[[VAL_0:.*]]: tensor<1x2x5x5xf32>, %[[VAL_1:.*]]: tensor<4x2x3x3xf32>, %[[VAL_2:.*]]: tensor<2x3xf32>, %[[VAL_3:.*]]: tensor<2x3xf32>, %[[VAL_4:.*]]: tensor<i1>) -> (tensor<1x4x3x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xi32>, tensor<2x3xf32>) {
// CHECK: %[[VAL_5:.*]] = "onnx.NoValue"() : () -> none
// CHECK: %[[VAL_6:.*]] = "onnx.Conv"(%[[VAL_0]], %[[VAL_1]], %[[VAL_5]]) <{kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, none) -> tensor<1x4x3x3xf32>
// CHECK: %[[VAL_7:.*]] = "onnx.Constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
// CHECK: %[[VAL_8:.*]] = "onnx.Clip"(%[[VAL_2]], %[[VAL_7]], %[[VAL_5]]) : (tensor<2x3xf32>, tensor<f32>, none) -> tensor<2x3xf32>
// CHECK: %[[VAL_9:.*]] = "onnx.Concat"(%[[VAL_2]], %[[VAL_3]]) <{axis = 0 : si64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK: %[[VAL_10:.*]]:2 = "onnx.Split"(%[[VAL_2]], %[[VAL_5]]) <{axis = 0 : si64, num_outputs = 2 : si64}> : (tensor<2x3xf32>, none) -> (tensor<1x3xf32>, tensor<1x3xf32>)
// CHECK: %[[VAL_11:.*]] = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
// CHECK: %[[VAL_12:.*]]:2 = "onnx.TopK"(%[[VAL_2]], %[[VAL_11]]) <{axis = -1 : si64}> : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
// CHECK: %[[VAL_13:.*]] = "onnx.Cast"(%[[VAL_2]]) <{to = 6 : si64}> : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK: %[[VAL_14:.*]] = "onnx.If"(%[[VAL_4]]) ({
// CHECK: "onnx.Yield"(%[[VAL_2]]) : (tensor<2x3xf32>) -> ()
// CHECK: }, {
// CHECK: %[[VAL_15:.*]] = "onnx.Neg"(%[[VAL_3]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: "onnx.Yield"(%[[VAL_15]]) : (tensor<2x3xf32>) -> ()
// CHECK: }) : (tensor<i1>) -> tensor<2x3xf32>
// CHECK: return %[[VAL_6]], %[[VAL_8]], %[[VAL_9]], %[[VAL_10]]#0, %[[VAL_10]]#1, %[[VAL_12]]#0, %[[VAL_12]]#1, %[[VAL_13]], %[[VAL_14]] : tensor<1x4x3x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xi32>, tensor<2x3xf32>
// CHECK: }
func.func @ops(%x: tensor<1x2x5x5xf32>, %w: tensor<4x2x3x3xf32>, %a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %c: tensor<i1>) -> (tensor<1x4x3x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xi32>, tensor<2x3xf32>) {
  %none = "onnx.NoValue"() : () -> none
  %conv = "onnx.Conv"(%x, %w, %none) <{kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>}> : (tensor<1x2x5x5xf32>, tensor<4x2x3x3xf32>, none) -> tensor<1x4x3x3xf32>
  %lo = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %clip = "onnx.Clip"(%a, %lo, %none) : (tensor<2x3xf32>, tensor<f32>, none) -> tensor<2x3xf32>
  %cat = "onnx.Concat"(%a, %b) <{axis = 0 : si64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %s:2 = "onnx.Split"(%a, %none) <{axis = 0 : si64, num_outputs = 2 : si64}> : (tensor<2x3xf32>, none) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %k = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %tv, %ti = "onnx.TopK"(%a, %k) <{axis = -1 : si64}> : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  %cast = "onnx.Cast"(%a) <{to = 6 : si64}> : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %if = "onnx.If"(%c) ({
    "onnx.Yield"(%a) : (tensor<2x3xf32>) -> ()
  }, {
    %n = "onnx.Neg"(%b) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "onnx.Yield"(%n) : (tensor<2x3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2x3xf32>
  return %conv, %clip, %cat, %s#0, %s#1, %tv, %ti, %cast, %if : tensor<1x4x3x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x3xi32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @domains(
// CHECK-SAME: %[[VAL_0:.*]]: tensor<2x3xf32>, %[[VAL_1:.*]]: tensor<3xf32>) -> (!onnx.Seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<2x3xf32>) {
// CHECK: %[[VAL_2:.*]] = "onnx.SequenceConstruct"(%[[VAL_0]], %[[VAL_0]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.Seq<tensor<2x3xf32>>
// CHECK: %[[VAL_3:.*]] = "onnx.ms.BiasAdd"(%[[VAL_0]], %[[VAL_1]], %[[VAL_0]]) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[VAL_4:.*]] = "onnx.ml.Binarizer"(%[[VAL_0]]) <{threshold = 5.000000e-01 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: return %[[VAL_2]], %[[VAL_3]], %[[VAL_4]] : !onnx.Seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<2x3xf32>
// CHECK: }
func.func @domains(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (!onnx.Seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %seq = "onnx.SequenceConstruct"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.Seq<tensor<2x3xf32>>
  %bias = "onnx.ms.BiasAdd"(%a, %b, %a) : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %lbl = "onnx.ml.Binarizer"(%a) <{threshold = 0.5 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %seq, %bias, %lbl : !onnx.Seq<tensor<2x3xf32>>, tensor<2x3xf32>, tensor<2x3xf32>
}
