// A direct conv with constant weights whose output rows would leave a tenth
// or more of the lanes idle (28-wide rows: 28 of 32), or of stride 2 along
// the rows, runs with its output channels along the lanes: the weights
// packed at compile time as [M/t, C, kh, kw, t], the kernel's rows the
// output positions of a row (each input element broadcast), the product
// [N, M/t, oh, ow, t] transposed back to NCHW in 16x16 register tiles with
// the ops after the conv (a residual Add, a Relu) in that copy. Against ONNX
// Runtime: a 3x3 conv of 32 channels (tiles of 32) over 28-wide rows with a
// bias, a residual Add and a Relu; a 7x7 stem of stride 2 and padding 3 over
// 3 channels into 64 (one tile of 64), a batch of two.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32, so the order of
// the additions (ours, ONNX Runtime's) cannot matter.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(3); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 16, 28, 28), w=f(32, 16, 3, 3), b=f(32), r=f(1, 32, 28, 28), s=f(2, 3, 60, 60), v=f(64, 3, 7, 7)).items()]"
// RUN: npu-run %t/m.onnx --bind w,b,v --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input r=%t/r.npy --input s=%t/s.npy --input v=%t/v.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy r=%t/r.npy s=%t/s.npy v=%t/v.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/z.npy'); a[1, 63, 29, 29] += 0.125; n.save('%t/cpu/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy r=%t/r.npy s=%t/s.npy v=%t/v.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs
// The packed weights, the products in channel tiles, and the transposing copies.
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; [open('%t/' + k + '.pb', 'wb').write(h.from_array(n.load('%t/' + k + '.npy'), k).SerializeToString()) for k in ('w', 'b', 'v')]"
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb --bind-input b=%t/b.pb --bind-input v=%t/v.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<1x16x3x3x32xf32>
// LOOPS-DAG: memref<1x3x7x7x64xf32>
// LOOPS-DAG: memref<1x1x28x28x32xf32>
// LOOPS-DAG: memref<2x1x30x30x64xf32>
// LOOPS-DAG: "vector.shuffle"

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,16,28,28] x, float[32,16,3,3] w, float[32] b, float[1,32,28,28] r, float[2,3,60,60] s, float[64,3,7,7] v) => (float[1,32,28,28] y, float[2,64,30,30] z) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  a = Add (c, r)
  y = Relu (a)
  z = Conv <pads = [3, 3, 3, 3], strides = [2, 2]> (s, v)
}
