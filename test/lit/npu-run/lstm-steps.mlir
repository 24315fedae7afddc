// LSTMs on npu16, which has no loops: written out as their steps before
// partitioning (onnx::unroll_recurrent; test/lit/passes/onnx-unroll-recurrent.mlir
// shows the ops), every step's products, gates and cell update on the NPU,
// against ONNX Runtime: forward with biases and initial states from the
// inputs (batch 2), reverse with only Y_h used, bidirectional with zero
// initial states, a single step, batch 1 (the recurrent product as R times
// h's column) with constant initial states; a clipped LSTM stays whole on the
// CPU with its reason.
// RUN: rm -rf %t && python3 %S/Inputs/lstm_steps.py %t
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input h0=%t/h0.npy --input c0=%t/c0.npy --input x1=%t/x1.npy --input x2=%t/x2.npy --output-dir %t/npu --report-json %t/r.json -v 2>&1 | FileCheck %s --check-prefix=PLACED
// PLACED: onnx.LSTM "LSTM#5" [attribute] an LSTM is written out as its steps, not this one: a clip
// PLACED: npu16: 374 ops (99.7%) in 1 partitions; cpu: 1 ops (0.3%) in 1 partitions
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy h0=%t/h0.npy c0=%t/c0.npy x1=%t/x1.npy x2=%t/x2.npy | FileCheck %s
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
// CHECK: clip_y: match
// Every product of the steps ran on the NPU: one input projection per
// direction and one recurrent product per step but the first of a zero or
// constant state (made at compile time), 6 (fw) + 5 (bw) + 10 (bi) + 1 (one)
// + 8 (col).
// RUN: python3 -c "import json; p = json.load(open('%t/r.json'))['placements']; print(sorted(set((q['backend'], q['op']) for q in p if q['op'] in ('onnx.MatMul', 'onnx.LSTM'))), sum(q['op'] == 'onnx.MatMul' for q in p))" | FileCheck %s --check-prefix=MM
// MM: [('cpu', 'onnx.LSTM'), ('npu16', 'onnx.MatMul')] 30
// The comparison can fail: one value of Y off by 1e-3.
// RUN: python3 -c "import numpy as n; a = n.load('%t/npu/bi_y.npy'); a[2, 1, 0, 3] += 1e-3; n.save('%t/npu/bi_y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy h0=%t/h0.npy c0=%t/c0.npy x1=%t/x1.npy x2=%t/x2.npy | FileCheck %s --check-prefix=BAD
// BAD: bi_y: differs
