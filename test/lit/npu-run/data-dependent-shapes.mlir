// Ops whose output sizes depend on the data (NonMaxSuppression, Unique,
// NonZero) cut the model into stages: each stage is compiled for the values
// before it, the op runs on the host between them, and what follows it
// (here a MatMul the NPU takes) is compiled for its actual results; every node
// runs once, in the first stage that needs it. Both paths match ONNX Runtime.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 %S/Inputs/boxes.py %t
// RUN: npu-run %t/m.onnx --input boxes=%t/boxes.npy --input logits=%t/logits.npy --input t=%t/t.npy --output-dir %t/cpu 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu boxes=%t/boxes.npy logits=%t/logits.npy t=%t/t.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input boxes=%t/boxes.npy --input logits=%t/logits.npy --input t=%t/t.npy --output-dir %t/npu 2>&1 | FileCheck %s --check-prefix=PLACED
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu boxes=%t/boxes.npy logits=%t/logits.npy t=%t/t.npy | FileCheck %s
// STAGES: stage: up to NonMaxSuppression 'nms'
// STAGES: stage: up to Unique 'uniq'
// STAGES: stage: up to NonZero 'nz'
// PLACED: stage: up to Unique 'uniq'
// PLACED: npu16: 2 ops
// PLACED: MatMul#5
// PLACED: stage: up to NonZero 'nz'
// CHECK: sel: match
// CHECK: proj: match
// CHECK: u: match
// CHECK: inv: match
// CHECK: cnt: match
// CHECK: pos: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/sel.npy'); a[0, 2] += 1; n.save('%t/cpu/sel.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu boxes=%t/boxes.npy logits=%t/logits.npy t=%t/t.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: sel: differs
// Boxes that are not [batches, boxes, 4]: an error naming the node.
// RUN: python3 -c "import numpy as n; n.save('%t/bad.npy', n.zeros((1, 8, 5), n.float32))"
// RUN: not npu-run %t/m.onnx --input boxes=%t/bad.npy --input logits=%t/logits.npy --input t=%t/t.npy 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: NonMaxSuppression 'nms': boxes must be [batches, boxes, 4], not [1, 8, 5]
// A sequence needed across a cut: refused with the value and the cut named.
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/seq.onnxtext | npu-translate --export-onnx -o %t/seq.onnx
// RUN: not npu-run %t/seq.onnx 2>&1 | FileCheck %s --check-prefix=SEQ
// SEQ: error: '{{.+}}' is needed after NonZero 'nzn' (whose output size depends on the data) but is not a tensor; a staged run carries tensors only across its cuts

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,c] boxes, float[1,2,8] logits, float[3,5] t) => (int64[n,3] sel, float[n,4] proj, float[k] u, int64[15] inv, int64[k] cnt, float[m] pos)
<int64 maxb = {3}, float iou = {0.4}, float sth = {0.3}, int64 two = {2}, int64[1] zero = {0}, float[4,4] w = {1,0,0,0, 0,1,0,0, 0,0,2,0, 0,0,0,-1}, float half = {0.5}> {
  scores = Sigmoid(logits)
  [nms] sel = NonMaxSuppression(boxes, scores, maxb, iou, sth)
  idx = Gather<axis = 1>(sel, two)
  b0 = Squeeze(boxes, zero)
  picked = Gather<axis = 0>(b0, idx)
  proj = MatMul(picked, w)
  tr = Round(t)
  [uniq] u, ind, inv, cnt = Unique<sorted = 1>(tr)
  gt = Greater(t, half)
  [nz] nz = NonZero(gt)
  nzf = Cast<to = 1>(nz)
  pos = ReduceSum<keepdims = 0>(nzf, zero)
}

//--- seq.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[3] a, float[3] b, float[4] x) => (float[3] y, int64[1,n] nz) <int64 one = {1}> {
  [mk] s = SequenceConstruct(a, b)
  [nzn] nz = NonZero(x)
  [at] y = SequenceAt(s, one)
}
