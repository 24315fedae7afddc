// onnx-unroll-recurrent: an LSTM written out as its steps in onnx ops (what
// npu16 runs, having no loops): the input projection of every step as one
// MatMul plus the summed biases, a Split into steps, then per step the
// recurrent MatMul (not on the first step of a zero state), the gate Split
// in ONNX's order i, o, f, c, Sigmoid/Tanh, the cell update, and Y as a
// Concat of the steps. What cannot be written out stays whole, with a remark.
// The numbers: test/lit/npu-run/lstm-steps.mlir runs the result against ONNX Runtime.
// RUN: npu-opt %s --split-input-file --mlir-print-debuginfo --pass-pipeline='builtin.module(onnx-unroll-recurrent)' | FileCheck %s
// RUN: npu-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnx-unroll-recurrent{explain=true max-steps=4})' -o /dev/null
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-unroll-recurrent)' --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: 1 unrolled

// CHECK-LABEL: func.func @forward
// CHECK-NOT: onnx.LSTM
// W [1, 4, 2] transposed to [2, 4], the biases summed: 1+10, 2+20, 3+30, 4+40.
// CHECK: %[[W:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]]> : tensor<2x4xf32>}> {{.*}}loc("lstm/fw.W")
// CHECK: %[[R:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[5.000000e-01], [2.500000e-01], [-5.000000e-01], [1.000000e+00]]> : tensor<4x1xf32>}> {{.*}}loc("lstm/fw.R")
// CHECK: %[[XP:.*]] = "onnx.MatMul"(%arg0, %[[W]]) : (tensor<3x1x2xf32>, tensor<2x4xf32>) -> tensor<3x1x4xf32>
// CHECK: %[[B:.*]] = "onnx.Constant"() <{value = dense<[1.100000e+01, 2.200000e+01, 3.300000e+01, 4.400000e+01]> : tensor<4xf32>}>
// CHECK: %[[XB:.*]] = "onnx.Add"(%[[XP]], %[[B]])
// CHECK: %[[S:.*]]:3 = "onnx.Split"(%[[XB]], %{{.*}}) <{axis = 0 : i64}> : (tensor<3x1x4xf32>, tensor<3xi64>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
// Step 0 of a zero state: no recurrent product, no forget gate.
// CHECK: %[[G0:.*]]:4 = "onnx.Split"(%[[S]]#0, %{{.*}}) <{axis = 2 : i64}> {{.*}}loc("lstm/fw0.split")
// CHECK: %[[I0:.*]] = "onnx.Sigmoid"(%[[G0]]#0)
// CHECK: %[[O0:.*]] = "onnx.Sigmoid"(%[[G0]]#1)
// CHECK: %[[C0G:.*]] = "onnx.Tanh"(%[[G0]]#3)
// CHECK: %[[C0:.*]] = "onnx.Mul"(%[[I0]], %[[C0G]])
// CHECK: %[[T0:.*]] = "onnx.Tanh"(%[[C0]])
// CHECK: %[[H0:.*]] = "onnx.Mul"(%[[O0]], %[[T0]])
// Step 1 (batch 1): R times h as a column, back to a row, added to the step's projection.
// CHECK: %[[HC:.*]] = "onnx.Reshape"(%[[H0]], %{{.*}}) : (tensor<1x1x1xf32>, tensor<2xi64>) -> tensor<1x1xf32> loc("lstm/fw1.recurrent.column")
// CHECK: %[[REC:.*]] = "onnx.MatMul"(%[[R]], %[[HC]]) : (tensor<4x1xf32>, tensor<1x1xf32>) -> tensor<4x1xf32> loc("lstm/fw1.recurrent")
// CHECK: %[[ROW:.*]] = "onnx.Reshape"(%[[REC]], %{{.*}}) : (tensor<4x1xf32>, tensor<3xi64>) -> tensor<1x1x4xf32> loc("lstm/fw1.recurrent.row")
// CHECK: %[[G1:.*]] = "onnx.Add"(%[[S]]#1, %[[ROW]])
// CHECK: %[[GS1:.*]]:4 = "onnx.Split"(%[[G1]]
// CHECK: "onnx.Sigmoid"(%[[GS1]]#2) {{.*}}loc("lstm/fw1.f")
// CHECK: %[[Y:.*]] = "onnx.Concat"(%[[H0]], %{{.*}}, %{{.*}}) <{axis = 0 : i64}> : (tensor<1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<3x1x1xf32>
// CHECK: %[[Y4:.*]] = "onnx.Unsqueeze"(%[[Y]], %{{.*}}) : (tensor<3x1x1xf32>, tensor<1xi64>) -> tensor<3x1x1x1xf32>
// CHECK: return %[[Y4]]
func.func @forward(%x: tensor<3x1x2xf32>) -> tensor<3x1x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]]> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %r = "onnx.Constant"() <{value = dense<[[[0.5], [0.25], [-0.5], [1.0]]]> : tensor<1x4x1xf32>}> : () -> tensor<1x4x1xf32>
  %b = "onnx.Constant"() <{value = dense<[[1.0, 2.0, 3.0, 4.0, 10.0, 20.0, 30.0, 40.0]]> : tensor<1x8xf32>}> : () -> tensor<1x8xf32>
  %y:3 = "onnx.LSTM"(%x, %w, %r, %b) <{hidden_size = 1 : i64}> : (tensor<3x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, tensor<1x8xf32>) -> (tensor<3x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) loc("lstm")
  return %y#0 : tensor<3x1x1x1xf32>
}

// -----

// A bidirectional LSTM's last states: the backward direction ends at step 0;
// an initial state from the caller is split per direction and read by the
// first step's recurrent product and forget gate.
// CHECK-LABEL: func.func @bidirectional
// CHECK: %[[H:.*]]:2 = "onnx.Split"(%arg1, %{{.*}}) <{axis = 0 : i64}> {{.*}}loc("lstm/h0")
// CHECK: %[[C0:.*]] = "onnx.Reshape"(%[[H]]#0, %{{.*}}) {{.*}}loc("lstm/fw0.recurrent.column")
// CHECK: "onnx.MatMul"(%{{.*}}, %[[C0]]) {{.*}}loc("lstm/fw0.recurrent")
// CHECK: %[[FH:.*]] = "onnx.Mul"({{.*}}loc("lstm/fw1.h")
// CHECK: %[[C1:.*]] = "onnx.Reshape"(%[[H]]#1, %{{.*}}) {{.*}}loc("lstm/bw1.recurrent.column")
// CHECK: "onnx.MatMul"(%{{.*}}, %[[C1]]) {{.*}}loc("lstm/bw1.recurrent")
// CHECK: %[[BH:.*]] = "onnx.Mul"({{.*}}loc("lstm/bw0.h")
// CHECK: %[[YH:.*]] = "onnx.Concat"(%[[FH]], %[[BH]]) <{axis = 0 : i64}> : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x1x1xf32>
// CHECK: return %[[YH]]
func.func @bidirectional(%x: tensor<2x1x2xf32>, %h0: tensor<2x1x1xf32>) -> tensor<2x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<2x4x2xf32>}> : () -> tensor<2x4x2xf32>
  %r = "onnx.Constant"() <{value = dense<0.25> : tensor<2x4x1xf32>}> : () -> tensor<2x4x1xf32>
  %n = "onnx.NoValue"() : () -> none
  %y:3 = "onnx.LSTM"(%x, %w, %r, %n, %n, %h0, %h0) <{direction = "bidirectional", hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<2x4x2xf32>, tensor<2x4x1xf32>, none, none, tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> (tensor<2x2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) loc("lstm")
  return %y#1 : tensor<2x1x1xf32>
}

// -----

// Batch 2: h times R transposed. A constant initial state's product is made
// now (h0 · Rᵀ, per batch row), leaving no product of two constants for a backend.
// CHECK-LABEL: func.func @batch2
// CHECK: %[[RT:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]]> : tensor<1x4xf32>}> {{.*}}loc("lstm/fw.R")
// CHECK: %[[P0:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[{{\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]]]> : tensor<1x2x4xf32>}> {{.*}}loc("lstm/fw0.recurrent")
// CHECK: "onnx.Add"(%{{.*}}, %[[P0]]) {{.*}}loc("lstm/fw0.gates")
// CHECK: "onnx.MatMul"(%{{.*}}, %[[RT]]) : (tensor<1x2x1xf32>, tensor<1x4xf32>) -> tensor<1x2x4xf32> loc("lstm/fw1.recurrent")
func.func @batch2(%x: tensor<2x2x1xf32>) -> tensor<1x2x1xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<1x4x1xf32>}> : () -> tensor<1x4x1xf32>
  %r = "onnx.Constant"() <{value = dense<[[[1.0], [2.0], [3.0], [4.0]]]> : tensor<1x4x1xf32>}> : () -> tensor<1x4x1xf32>
  %h0 = "onnx.Constant"() <{value = dense<[[[1.0], [2.0]]]> : tensor<1x2x1xf32>}> : () -> tensor<1x2x1xf32>
  %n = "onnx.NoValue"() : () -> none
  %y:3 = "onnx.LSTM"(%x, %w, %r, %n, %n, %h0) <{hidden_size = 1 : i64}> : (tensor<2x2x1xf32>, tensor<1x4x1xf32>, tensor<1x4x1xf32>, none, none, tensor<1x2x1xf32>) -> (tensor<2x1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) loc("lstm")
  return %y#1 : tensor<1x2x1xf32>
}

// -----

// A GRU (batch 1): z and r from one product of R's first 2H rows, the
// candidate from R_h times r·h; from the zero state h = h̃ − z·h̃, after it
// h = h̃ + z·(h − h̃).
// CHECK-LABEL: func.func @gru
// CHECK-DAG: %[[RZR:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[1.000000e+00], [2.000000e+00]]> : tensor<2x1xf32>}> {{.*}}loc("gru/fw.R_zr")
// CHECK-DAG: %[[RH:.*]] = "onnx.Constant"() <{value = dense<3.000000e+00> : tensor<1x1xf32>}> {{.*}}loc("gru/fw.R_h")
// CHECK: %[[P0:.*]]:2 = "onnx.Split"({{.*}}loc("gru/fw0.split")
// CHECK: %[[ZR0:.*]] = "onnx.Sigmoid"(%[[P0]]#0)
// CHECK: %[[S0:.*]]:2 = "onnx.Split"(%[[ZR0]]
// CHECK: %[[C0:.*]] = "onnx.Tanh"(%[[P0]]#1)
// CHECK: %[[ZC:.*]] = "onnx.Mul"(%[[S0]]#0, %[[C0]])
// CHECK: %[[H0:.*]] = "onnx.Sub"(%[[C0]], %[[ZC]]) {{.*}}loc("gru/fw0.h")
// CHECK: "onnx.MatMul"(%[[RZR]], %{{.*}}) : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32> loc("gru/fw1.recurrent_zr")
// CHECK: %[[RS:.*]] = "onnx.Mul"(%{{.*}}#1, %[[H0]]) {{.*}}loc("gru/fw1.reset")
// CHECK: %[[RC:.*]] = "onnx.Reshape"(%[[RS]]
// CHECK: "onnx.MatMul"(%[[RH]], %[[RC]]) {{.*}}loc("gru/fw1.recurrent_h")
// CHECK: %[[D:.*]] = "onnx.Sub"(%[[H0]], %{{.*}}) {{.*}}loc("gru/fw1.diff")
// CHECK: %[[ZD:.*]] = "onnx.Mul"(%{{.*}}#0, %[[D]])
// CHECK: "onnx.Add"(%{{.*}}, %[[ZD]]) {{.*}}loc("gru/fw1.h")
func.func @gru(%x: tensor<2x1x1xf32>) -> tensor<1x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<1x3x1xf32>}> : () -> tensor<1x3x1xf32>
  %r = "onnx.Constant"() <{value = dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>}> : () -> tensor<1x3x1xf32>
  %y:2 = "onnx.GRU"(%x, %w, %r) <{hidden_size = 1 : i64}> : (tensor<2x1x1xf32>, tensor<1x3x1xf32>, tensor<1x3x1xf32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>) loc("gru")
  return %y#1 : tensor<1x1x1xf32>
}

// -----

// sequence_lens saying every sequence is whole (as exporters write it) is
// written out; shorter ones are not (below).
// CHECK-LABEL: func.func @full_lengths
// CHECK-NOT: "onnx.LSTM"
// CHECK: return
func.func @full_lengths(%x: tensor<2x1x2xf32>) -> tensor<2x1x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %r = "onnx.Constant"() <{value = dense<0.25> : tensor<1x4x1xf32>}> : () -> tensor<1x4x1xf32>
  %lens = "onnx.Constant"() <{value = dense<2> : tensor<1xi32>}> : () -> tensor<1xi32>
  %n = "onnx.NoValue"() : () -> none
  %y:3 = "onnx.LSTM"(%x, %w, %r, %n, %lens) <{hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, none, tensor<1xi32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  return %y#0 : tensor<2x1x1x1xf32>
}

// -----

// Kept whole, each with its reason.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: "onnx.LSTM"
func.func @kept(%x: tensor<2x1x2xf32>, %w2: tensor<1x4x2xf32>, %lens: tensor<1xi32>) -> (tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x2x1x1xf32>) {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<1x4x2xf32>}> : () -> tensor<1x4x2xf32>
  %r = "onnx.Constant"() <{value = dense<0.25> : tensor<1x4x1xf32>}> : () -> tensor<1x4x1xf32>
  %n = "onnx.NoValue"() : () -> none
  // expected-remark @+1 {{LSTM kept whole: a clip}}
  %a:3 = "onnx.LSTM"(%x, %w, %r) <{clip = 1.0 : f32, hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  // expected-remark @+1 {{LSTM kept whole: W is not a constant}}
  %b:3 = "onnx.LSTM"(%x, %w2, %r) <{hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  // expected-remark @+1 {{LSTM kept whole: sequence_lens}}
  %c:3 = "onnx.LSTM"(%x, %w, %r, %n, %lens) <{hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, none, tensor<1xi32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  %short = "onnx.Constant"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-remark @+1 {{LSTM kept whole: sequence_lens shorter than the sequence}}
  %e:3 = "onnx.LSTM"(%x, %w, %r, %n, %short) <{hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, none, tensor<1xi32>) -> (tensor<2x1x1x1xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>)
  %w4 = "onnx.Constant"() <{value = dense<0.5> : tensor<2x4x2xf32>}> : () -> tensor<2x4x2xf32>
  %r4 = "onnx.Constant"() <{value = dense<0.25> : tensor<2x4x1xf32>}> : () -> tensor<2x4x1xf32>
  // expected-remark @+1 {{LSTM kept whole: activations ["Relu", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"] (only Sigmoid, Tanh, Tanh)}}
  %d:3 = "onnx.LSTM"(%x, %w4, %r4) <{activations = ["Relu", "Tanh", "Tanh", "Sigmoid", "Tanh", "Tanh"], direction = "bidirectional", hidden_size = 1 : i64}> : (tensor<2x1x2xf32>, tensor<2x4x2xf32>, tensor<2x4x1xf32>) -> (tensor<2x2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %a#0, %b#0, %c#0, %d#0 : tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x2x1x1xf32>
}

// -----

// More steps than max-steps (4 in the second RUN line: 3 steps in 2 directions).
// CHECK-LABEL: func.func @long
func.func @long(%x: tensor<3x1x2xf32>) -> tensor<3x2x1x1xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<2x4x2xf32>}> : () -> tensor<2x4x2xf32>
  %r = "onnx.Constant"() <{value = dense<0.25> : tensor<2x4x1xf32>}> : () -> tensor<2x4x1xf32>
  // expected-remark @+1 {{LSTM kept whole: 3 steps in 2 directions (more than 4 written out)}}
  %y:3 = "onnx.LSTM"(%x, %w, %r) <{direction = "bidirectional", hidden_size = 1 : i64}> : (tensor<3x1x2xf32>, tensor<2x4x2xf32>, tensor<2x4x1xf32>) -> (tensor<3x2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %y#0 : tensor<3x2x1x1xf32>
}
