// The CPU path's vector loops (16 lanes along the output's last dim) against
// ONNX Runtime: a depthwise Conv of stride 2 with padding (two vectors and a
// shuffle of their even lanes), one of stride 3 (gathers), one of stride 1
// with a bias and a Clip as its epilogue, a MaxPool of stride 2, an
// AveragePool, a broadcast Add and a Sigmoid, at widths with masked tails.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(9); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 6, 19, 37), w=f(6, 1, 3, 3), b=f(6), r=f(6, 1, 37)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input r=%t/r.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy r=%t/r.npy | FileCheck %s
// CHECK: dw2: match
// CHECK: dw1: match
// CHECK: mp: match
// CHECK: ap: match
// CHECK: sg: match
// CHECK: dw3: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/dw2.npy'); a[0, 5, 9, 18] += 0.01; n.save('%t/cpu/dw2.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy r=%t/r.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: dw2: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,6,19,37] x, float[6,1,3,3] w, float[6] b, float[6,1,37] r) => (float[1,6,10,19] dw2, float[1,6,19,37] dw1, float[1,6,9,18] mp, float[1,6,17,35] ap, float[1,6,19,37] sg, float[1,6,6,12] dw3) {
  dw2 = Conv <group = 6, kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (x, w)
  c = Conv <group = 6, kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w, b)
  lo = Constant <value = float {0.0}> ()
  hi = Constant <value = float {1.0}> ()
  dw1 = Clip (c, lo, hi)
  dw3 = Conv <group = 6, kernel_shape = [3, 3], strides = [3, 3]> (x, w)
  mp = MaxPool <kernel_shape = [3, 3], strides = [2, 2]> (x)
  ap = AveragePool <kernel_shape = [3, 3]> (x)
  s = Add (x, r)
  sg = Sigmoid (s)
}
