// A Conv of stride 1 over rows at least 28 wide runs directly (no im2col
// buffer): the contraction kernel keeps a tile of output channels × row
// vectors in registers over the input channels and the kernel window, reading
// each input row at ow + kw. Against ONNX Runtime (1e-5 relative / 1e-6
// absolute): a 3x3 conv with padding and a bias and a Relu after it (an
// epilogue), a 5x3 kernel with dilation 2 over 37-wide rows (masked tails),
// 13 output channels (a row tile of 6, 6 and 1), a batch of two; with the
// weights at run time and bound as constants.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32, so the order of
// the additions (ours, ONNX Runtime's) cannot matter.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(8); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 5, 30, 41), w=f(13, 5, 3, 3), b=f(13), u=f(7, 5, 5, 3)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --bind w,b,u --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/z.npy'); a[1, 6, 20, 36] += 0.001; n.save('%t/cpu/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,5,30,41] x, float[13,5,3,3] w, float[13] b, float[7,5,5,3] u) => (float[2,13,30,41] y, float[2,7,22,37] z) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  y = Relu (c)
  z = Conv <dilations = [2, 2]> (x, u)
}
