// With a batch of one, an LSTM's or RNN's recurrent product (a GEMV per step)
// reads R^T from panels of 128 columns made once before the loop over the
// steps, [gates·H/128, H, 128], streamed in order each step (rows of R^T are
// gates·H apart: a new 4 KB page every row for H = 256). Against ONNX Runtime
// (1e-5 absolute: the RNN's 128-term sums over six steps land up to 3e-6
// from ONNX Runtime's, whose additions run in another order, as before these
// panels): a bidirectional LSTM of H = 64 (two
// directions, two panels each) with a bias and initial states, a reverse RNN
// of H = 128; the weights bound (the panels folded at compile time) and read
// at run time (the panels made once per run, before the loop).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(11); s = lambda *d: (r.standard_normal(d) * 0.2).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=s(6, 1, 20), w=s(2, 256, 20), r=s(2, 256, 64), b=s(2, 512), h=s(2, 1, 64), c=s(2, 1, 64), rw=s(1, 128, 20), rr=s(1, 128, 128)).items()]"
// RUN: npu-run %t/m.onnx --bind w,r,b,rw,rr --input x=%t/x.npy --input w=%t/w.npy --input r=%t/r.npy --input b=%t/b.npy --input h=%t/h.npy --input c=%t/c.npy --input rw=%t/rw.npy --input rr=%t/rr.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py --atol=1e-5 %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy r=%t/r.npy b=%t/b.npy h=%t/h.npy c=%t/c.npy rw=%t/rw.npy rr=%t/rr.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input r=%t/r.npy --input b=%t/b.npy --input h=%t/h.npy --input c=%t/c.npy --input rw=%t/rw.npy --input rr=%t/rr.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py --atol=1e-5 %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy r=%t/r.npy b=%t/b.npy h=%t/h.npy c=%t/c.npy rw=%t/rw.npy rr=%t/rr.npy | FileCheck %s
// CHECK: y: match
// CHECK: yh: match
// CHECK: yc: match
// CHECK: z: match
// The products read panels: the LSTM's two directions' [2, 64, 128], the RNN's [1, 128, 128].
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<2x64x128xf32>
// LOOPS-DAG: memref<1x128x128xf32>
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/bound/y.npy'); a[4, 1, 0, 33] += 0.0001; n.save('%t/bound/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py --atol=1e-5 %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy r=%t/r.npy b=%t/b.npy h=%t/h.npy c=%t/c.npy rw=%t/rw.npy rr=%t/rr.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[6,1,20] x, float[2,256,20] w, float[2,256,64] r, float[2,512] b, float[2,1,64] h, float[2,1,64] c, float[1,128,20] rw, float[1,128,128] rr) => (float[6,2,1,64] y, float[2,1,64] yh, float[2,1,64] yc, float[6,1,1,128] z) {
  y, yh, yc = LSTM <hidden_size = 64, direction = "bidirectional"> (x, w, r, b, "", h, c)
  z = RNN <hidden_size = 128, direction = "reverse"> (x, rw, rr)
}
