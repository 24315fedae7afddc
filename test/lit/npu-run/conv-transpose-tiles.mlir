// ConvTranspose whose kernel equals its stride (a learned s×s upsampling, as
// DBNet-style detectors end) runs as one product and a rearrangement on the
// CPU path: against ONNX Runtime (1e-5 relative / 1e-6 absolute) in 2-D with
// a bias, 2-D with unequal strides, 1-D without a bias, and with the weights
// bound as constants (their transpose folded at compile time).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(5); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 5, 7, 9), w=f(5, 3, 2, 2), b=f(3), u=f(5, 4, 3, 2), x1=f(1, 5, 19), w1=f(5, 6, 4)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input x1=%t/x1.npy --input w1=%t/w1.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x1=%t/x1.npy w1=%t/w1.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --bind w,b,u,w1 --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input x1=%t/x1.npy --input w1=%t/w1.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x1=%t/x1.npy w1=%t/w1.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// CHECK: y1: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/z.npy'); a[1, 2, 13, 17] += 0.001; n.save('%t/cpu/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy x1=%t/x1.npy w1=%t/w1.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,5,7,9] x, float[5,3,2,2] w, float[3] b, float[5,4,3,2] u, float[1,5,19] x1, float[5,6,4] w1) => (float[2,3,14,18] y, float[2,4,21,18] z, float[1,6,76] y1) {
  y = ConvTranspose <kernel_shape = [2, 2], strides = [2, 2]> (x, w, b)
  z = ConvTranspose <strides = [3, 2]> (x, u)
  y1 = ConvTranspose <strides = [4]> (x1, w1)
}
