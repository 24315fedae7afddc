// A max pool after a conv computed with its channels along the lanes pools
// the channel tiles and copies back its own output (`pool-on-channel-tiles`),
// on one thread and two, against ONNX Runtime: a ResNet-like stem (7x7
// stride-2 conv with a bias into 64 channels, Relu, 3x3 stride-2 max pool
// padded by 1), a conv without a Relu and a 2x2 pool of dilation 2 without
// padding, and a ceil-mode pool (padded after the input only: it stays on
// NCHW).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32.
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; r = n.random.default_rng(11); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); d = dict(x=f(1, 3, 64, 64), w=f(64, 3, 7, 7), b=f(64), u=f(1, 4, 60, 60), v=f(32, 4, 3, 3)); [n.save('%t/' + k + '.npy', a) for k, a in d.items()]; [open('%t/' + k + '.pb', 'wb').write(h.from_array(d[k], k).SerializeToString()) for k in ('w', 'b', 'v')]"
// RUN: npu-run %t/m.onnx --bind w,b,v --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input v=%t/v.npy --threads 1 --output-dir %t/one
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/one x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy v=%t/v.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --bind w,b,v --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input u=%t/u.npy --input v=%t/v.npy --threads 2 --output-dir %t/two
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/two x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy v=%t/v.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// CHECK: c: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/two/y.npy'); a[0, 63, 15, 0] += 0.125; n.save('%t/two/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/two x=%t/x.npy w=%t/w.npy b=%t/b.npy u=%t/u.npy v=%t/v.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs
// The pools over channel tiles ([N, C/t, oh, ow, t]); the stem's padded NCHW
// buffer is gone, the ceil-mode pool's stays.
// RUN: npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb --bind-input b=%t/b.pb --bind-input v=%t/v.pb --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<1x1x16x16x64xf32>
// LOOPS-DAG: memref<1x1x14x14x32xf32>
// LOOPS-NOT: memref<1x64x33x33xf32>

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,3,64,64] x, float[64,3,7,7] w, float[64] b, float[1,4,60,60] u, float[32,4,3,3] v) => (float[1,64,16,16] y, float[1,32,14,14] z, float[1,32,15,15] c) {
  s = Conv <pads = [3, 3, 3, 3], strides = [2, 2]> (x, w, b)
  r = Relu (s)
  y = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (r)
  t = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (u, v)
  z = MaxPool <kernel_shape = [2, 2], dilations = [2, 2], strides = [2, 2]> (t)
  q = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (u, v)
  e = Relu (q)
  c = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (e)
}
