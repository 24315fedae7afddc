// Transposing copies on the CPU path's vector loops: where the input's last
// dim runs along another loop than the output's (i), in multiples of 16, 16
// vectors along i, one per output column, are transposed in registers (four
// rounds of shuffles) and the body runs once per i. Against ONNX Runtime: an
// NCHW to NHWC Transpose whose rows (20) end in a partial vector, a 2-D
// transpose with an Add fused after it (the Add's other input read per i),
// the same in uint8, and a transpose whose i (20) is not a multiple of 16,
// which keeps the scalar loops.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(9); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 20, 3, 48), a=f(37, 32), b=f(32, 37), u=r.integers(0, 256, (35, 64)).astype(n.uint8), s=f(20, 30)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input a=%t/a.npy --input b=%t/b.npy --input u=%t/u.npy --input s=%t/s.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy a=%t/a.npy b=%t/b.npy u=%t/u.npy s=%t/s.npy | FileCheck %s
// CHECK: nhwc: match
// CHECK: sum: match
// CHECK: bytes: match
// CHECK: narrow: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/nhwc.npy'); a[1, 2, 47, 19] += 0.01; n.save('%t/cpu/nhwc.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy a=%t/a.npy b=%t/b.npy u=%t/u.npy s=%t/s.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: nhwc: differs
// Three transposing nests, each a loop of whole rows and a copy of it for
// the masked tail, of 64 shuffles each; the narrow one has none.
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-COUNT-384: "vector.shuffle"
// LOOPS-NOT: "vector.shuffle"

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,20,3,48] x, float[37,32] a, float[32,37] b, uint8[35,64] u, float[20,30] s) => (float[2,3,48,20] nhwc, float[32,37] sum, uint8[64,35] bytes, float[30,20] narrow) {
  nhwc = Transpose <perm = [0, 2, 3, 1]> (x)
  t = Transpose <perm = [1, 0]> (a)
  sum = Add (t, b)
  bytes = Transpose <perm = [1, 0]> (u)
  narrow = Transpose <perm = [1, 0]> (s)
}
