// LSTMs and GRUs on npu16, which has no loops: written out as their steps before
// partitioning (onnx::unroll_recurrent; test/lit/passes/onnx-unroll-recurrent.mlir
// shows the ops), every step's products, gates and cell update on the NPU,
// against ONNX Runtime: forward with biases and initial states from the
// inputs (batch 2), reverse with only Y_h used, bidirectional with zero
// initial states, a single step, batch 1 (the recurrent product as R times
// h's column) with constant initial states; GRUs forward (batch 2), and with
// linear_before_reset bidirectional from a constant state and reverse without
// biases; a clipped LSTM stays whole on the CPU with its reason.
// RUN: rm -rf %t && python3 %S/Inputs/lstm_steps.py %t
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input h0=%t/h0.npy --input c0=%t/c0.npy --input x1=%t/x1.npy --input x2=%t/x2.npy --input gh0=%t/gh0.npy --output-dir %t/npu --report-json %t/r.json -v 2>&1 | FileCheck %s --check-prefix=PLACED
// PLACED: onnx.LSTM "LSTM#8" [attribute] LSTM is written out as its steps, not this one: a clip
// PLACED: npu16: 631 ops (99.8%) in 1 partitions; cpu: 1 ops (0.2%) in 1 partitions
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy h0=%t/h0.npy c0=%t/c0.npy x1=%t/x1.npy x2=%t/x2.npy gh0=%t/gh0.npy | FileCheck %s
// CHECK: fw_y: match
// CHECK: fw_yh: match
// CHECK: fw_yc: match
// CHECK: bw_yh: match
// CHECK: bi_y: match
// CHECK: bi_yh: match
// CHECK: bi_yc: match
// CHECK: one_y: match
// CHECK: col_y: match
// CHECK: col_yh: match
// CHECK: col_yc: match
// CHECK: gru_fw_y: match
// CHECK: gru_fw_yh: match
// CHECK: gru_lbr_y: match
// CHECK: gru_lbr_yh: match
// CHECK: gru_nob_y: match
// CHECK: clip_y: match
// Every product of the steps ran on the NPU: one input projection per
// direction and one recurrent product per step but the first of a zero or
// constant state (made at compile time), 6 (fw) + 5 (bw) + 10 (bi) + 1 (one)
// + 8 (col); a GRU's two per step (z and r; h), 11 (gru_fw) + 14 (gru_lbr) + 7 (gru_nob).
// RUN: python3 -c "import json; p = json.load(open('%t/r.json'))['placements']; print(sorted(set((q['backend'], q['op']) for q in p if q['op'] in ('onnx.MatMul', 'onnx.LSTM'))), sum(q['op'] == 'onnx.MatMul' for q in p))" | FileCheck %s --check-prefix=MM
// MM: [('cpu', 'onnx.LSTM'), ('npu16', 'onnx.MatMul')] 62
// A placement rule naming an LSTM keeps it whole for the backend it names
// (a regular expression: '#' begins a comment in placement files).
// RUN: echo '/LSTM.0/ cpu' > %t/pin.txt
// RUN: npu-run %t/m.onnx --target npu --placement %t/pin.txt --input x=%t/x.npy --input h0=%t/h0.npy --input c0=%t/c0.npy --input x1=%t/x1.npy --input x2=%t/x2.npy --input gh0=%t/gh0.npy --output-dir %t/pin -v 2>&1 | FileCheck %s --check-prefix=PIN
// PIN: onnx.LSTM "LSTM#0" [placement] placed on cpu by {{.*}}pin.txt:1
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/pin x=%t/x.npy h0=%t/h0.npy c0=%t/c0.npy x1=%t/x1.npy x2=%t/x2.npy gh0=%t/gh0.npy | FileCheck %s
// The comparison can fail: one value of Y off by 1e-3.
// RUN: python3 -c "import numpy as n; a = n.load('%t/npu/bi_y.npy'); a[2, 1, 0, 3] += 1e-3; n.save('%t/npu/bi_y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy h0=%t/h0.npy c0=%t/c0.npy x1=%t/x1.npy x2=%t/x2.npy gh0=%t/gh0.npy | FileCheck %s --check-prefix=BAD
// BAD: bi_y: differs
