// A Conv of stride 1 or 2 over rows at least 28 wide runs directly (no
// im2col buffer): the contraction kernel keeps a tile of output channels × row
// vectors in registers over the input channels and the kernel window, reading
// each input row at ow + kw (stride 2: two vectors from 2·ow + kw, their even
// lanes). Against ONNX Runtime (1e-5 relative / 1e-6
// absolute): a 3x3 conv with padding and a bias and a Relu after it (an
// epilogue), a 5x3 kernel with dilation 2 over 37-wide rows (masked tails),
// 13 output channels (a row tile of 6, 6 and 1), a batch of two; a 7x7 stem of
// stride 2 with padding and a bias over 3 channels (38 outputs a row: a tail
// of 6 lanes, whose second vector is partly past the row), and a 3x3 kernel
// of strides (1, 2) and dilations (1, 2); with the weights at run time and
// bound as constants.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32, so the order of
// the additions (ours, ONNX Runtime's) cannot matter.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(8); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 5, 30, 41), w=f(13, 5, 3, 3), b=f(13), u=f(7, 5, 5, 3), x2=f(1, 3, 20, 75), v=f(13, 3, 7, 7), b2=f(13), q=f(6, 3, 3, 3)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input x2=%t/x2.npy --input v=%t/v.npy --input b2=%t/b2.npy --input q=%t/q.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x2=%t/x2.npy v=%t/v.npy b2=%t/b2.npy q=%t/q.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --bind w,b,u,v,b2,q --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input x2=%t/x2.npy --input v=%t/v.npy --input b2=%t/b2.npy --input q=%t/q.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x2=%t/x2.npy v=%t/v.npy b2=%t/b2.npy q=%t/q.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// CHECK: s: match
// CHECK: t: match
// The stride-2 convs run directly: no im2col, two loads (elements 0-15 and
// 15-30) and a shuffle of the first's even lanes and the second's odd ones
// per vector of a row.
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS: "vector.shuffle"({{.*}}) <{mask = array<i64: 0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31>}>
// LOOPS: "vector.fma"
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/z.npy'); a[1, 6, 20, 36] += 0.001; n.save('%t/cpu/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x2=%t/x2.npy v=%t/v.npy b2=%t/b2.npy q=%t/q.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,5,30,41] x, float[13,5,3,3] w, float[13] b, float[7,5,5,3] u, float[1,3,20,75] x2, float[13,3,7,7] v, float[13] b2, float[6,3,3,3] q) => (float[2,13,30,41] y, float[2,7,22,37] z, float[1,13,10,38] s, float[1,6,18,36] t) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  y = Relu (c)
  z = Conv <dilations = [2, 2]> (x, u)
  s = Conv <strides = [2, 2], pads = [3, 3, 3, 3]> (x2, v, b2)
  t = Conv <strides = [1, 2], dilations = [1, 2]> (x2, q)
}
