// The CPU path's contraction kernels against ONNX Runtime, at sizes that take
// every branch: products of 16 rows or more copy each panel of B into a
// contiguous buffer first (here with row and column tails, and inside batch
// loops), a GEMV (one row) reads B in place; a Gemm with a constant transposed
// B is transposed at compile time; the Clip and the residual Add after a 1x1
// Conv run as its epilogue through the reshape that follows it.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(5); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(a=f(20, 37), b=f(37, 50), p=f(2, 17, 9), q=f(2, 9, 33), v=f(1, 37), t=f(10, 37), x=f(1, 24, 5, 6), w=f(24, 24, 1, 1)).items()]"
// RUN: npu-run %t/m.onnx --bind t --input a=%t/a.npy --input b=%t/b.npy --input p=%t/p.npy --input q=%t/q.npy --input v=%t/v.npy --input t=%t/t.npy --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy b=%t/b.npy p=%t/p.npy q=%t/q.npy v=%t/v.npy t=%t/t.npy x=%t/x.npy w=%t/w.npy | FileCheck %s
// CHECK: mm: match
// CHECK: bmm: match
// CHECK: gemv: match
// CHECK: gemm: match
// CHECK: conv: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/mm.npy'); a[19, 49] += 0.01; n.save('%t/cpu/mm.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy b=%t/b.npy p=%t/p.npy q=%t/q.npy v=%t/v.npy t=%t/t.npy x=%t/x.npy w=%t/w.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: mm: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[20,37] a, float[37,50] b, float[2,17,9] p, float[2,9,33] q, float[1,37] v, float[10,37] t, float[1,24,5,6] x, float[24,24,1,1] w) => (float[20,50] mm, float[2,17,33] bmm, float[1,10] gemv, float[20,10] gemm, float[1,24,5,6] conv) {
  mm = MatMul (a, b)
  bmm = MatMul (p, q)
  gemv = Gemm <transB = 1> (v, t)
  gemm = Gemm <transB = 1> (a, t)
  c = Conv <kernel_shape = [1, 1]> (x, w)
  lo = Constant <value = float {0.0}> ()
  hi = Constant <value = float {1.5}> ()
  r = Clip (c, lo, hi)
  conv = Add (r, x)
}
