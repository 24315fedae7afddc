// Reductions along the inputs' last dim run 16 lanes at a time along it
// (16 partial results, lanes past the row keeping theirs, then one
// vector.reduction combined with the output's value): a Softmax's max and
// sum of exps, a LogSoftmax, a LayerNormalization's moments, ReduceMax,
// ReduceMin, ReduceProd and ReduceSumSquare over the last axis, at row
// lengths with tails (50, 33) and whole vectors (64); a max over negative
// values and a min over positive ones (where a zero in the tail lanes, or a
// wrong identity, would win), over rows of 33 and of 32. Against ONNX Runtime.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(4); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(3, 37, 50), y=f(6, 64), g=f(64), b=f(64), z=f(5, 33), p=(1 + f(4, 20) / 8), q=(abs(f(3, 33)) + 1), w=(abs(f(3, 32)) + 1)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input y=%t/y.npy --input g=%t/g.npy --input b=%t/b.npy --input z=%t/z.npy --input p=%t/p.npy --input q=%t/q.npy --input w=%t/w.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy y=%t/y.npy g=%t/g.npy b=%t/b.npy z=%t/z.npy p=%t/p.npy q=%t/q.npy w=%t/w.npy | FileCheck %s
// CHECK: sm: match
// CHECK: lsm: match
// CHECK: ln: match
// CHECK: mx: match
// CHECK: mn: match
// CHECK: pr: match
// CHECK: ss: match
// CHECK: nmx: match
// CHECK: pmn: match
// CHECK: nmx32: match
// CHECK: pmn32: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/mx.npy'); a[4, 0] += 0.01; n.save('%t/cpu/mx.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy y=%t/y.npy g=%t/g.npy b=%t/b.npy z=%t/z.npy p=%t/p.npy q=%t/q.npy w=%t/w.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: mx: differs
// The row loops carry 16 partial results and end in one vector.reduction each.
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: "vector.reduction"({{.*}}) <{kind = #vector.kind<maximumf>}>
// LOOPS-DAG: "vector.reduction"({{.*}}) <{kind = #vector.kind<add>}>
// LOOPS-DAG: "vector.reduction"({{.*}}) <{kind = #vector.kind<minimumf>}>
// LOOPS-DAG: "vector.reduction"({{.*}}) <{kind = #vector.kind<mul>}>

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[3,37,50] x, float[6,64] y, float[64] g, float[64] b, float[5,33] z, float[4,20] p, float[3,33] q, float[3,32] w) => (float[3,37,50] sm, float[3,37,50] lsm, float[6,64] ln, float[5,1] mx, float[5] mn, float[4,1] pr, float[5,1] ss, float[3,1] nmx, float[3,1] pmn, float[3,1] nmx32, float[3,1] pmn32) {
  sm = Softmax <axis = -1> (x)
  lsm = LogSoftmax <axis = -1> (x)
  ln = LayerNormalization <axis = -1, epsilon = 0.00001> (y, g, b)
  ax = Constant <value = int64[1] {-1}> ()
  mx = ReduceMax <keepdims = 1> (z, ax)
  mn = ReduceMin <keepdims = 0> (z, ax)
  pr = ReduceProd <keepdims = 1> (p, ax)
  ss = ReduceSumSquare <keepdims = 1> (z, ax)
  nq = Neg (q)
  nmx = ReduceMax <keepdims = 1> (nq, ax)
  pmn = ReduceMin <keepdims = 1> (q, ax)
  nw = Neg (w)
  nmx32 = ReduceMax <keepdims = 1> (nw, ax)
  pmn32 = ReduceMin <keepdims = 1> (w, ax)
}
