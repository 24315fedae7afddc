// exp, tanh and erf on the CPU path's vector loops are polynomials (vmath.rs),
// not libm: against ONNX Runtime at 1e-5 relative / 1e-6 absolute over their
// whole range, with both ends (overflow to +inf above 88.72, 0 far below), the
// polynomial switches of erf at |x| = 0.5 and of tanh at |x| = 0.625, tiny
// values, infinities and NaN; a Softmax and a GELU built on them too.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; v = [-200, -103, -88, -87.5, -87, -86.9, -50, -10, -3.2, -1, -0.5, -0.49, -1e-8, 0, 1e-8, 0.1, 0.3, 0.49, 0.5, 0.51, 1, 1.5, 3, 4, 5, 10, 50, 88, 88.5, 88.7, 88.8, 100, float('inf'), float('-inf'), float('nan'), -0.0, 0.62, 0.625, 0.63, -0.625, 1e-4, -3e-3]; r = n.random.default_rng(4); x = n.concatenate([n.array(v, n.float32), (r.standard_normal(86) * 4).astype(n.float32)]).reshape(4, 32); n.save('%t/x.npy', x)"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s
// CHECK: e: match
// CHECK: f: match
// CHECK: s: match
// CHECK: g: match
// CHECK: t: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/f.npy'); a[0, 17] *= 1.0001; n.save('%t/cpu/f.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: f: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[4,32] x) => (float[4,32] e, float[4,32] f, float[4,32] s, float[4,32] g, float[4,32] t) {
  e = Exp (x)
  t = Tanh (x)
  f = Erf (x)
  c = Constant <value = float {0.1}> ()
  y = Mul (x, c)
  s = Softmax <axis = -1> (y)
  h = Constant <value = float {0.70710678}> ()
  one = Constant <value = float {1.0}> ()
  half = Constant <value = float {0.5}> ()
  d = Mul (y, h)
  q = Erf (d)
  p = Add (q, one)
  m = Mul (y, p)
  g = Mul (m, half)
}
