// A contraction's column vector that holds 8 columns or fewer, known at
// compile time (a tile's last vector over rows of 40 = 16 + 16 + 8, a tail
// tile), runs its multiply-adds on 8 lanes (half the work where the FMA
// units are 256 bits wide), back to 16 lanes for the epilogue and the
// masked store. Against ONNX Runtime: a direct 3x3 conv over 40-wide rows
// with a bias and a Relu, a MatMul with 24 columns and a bias Add after it,
// one with 13 rows and 5 columns (a single, partial half vector), and one of
// 37 rows, 200 terms and 72 columns with B given at run time (tiles of 48
// columns and a tail tile of 16 + 8, its panel packed and 8 lanes read from
// it, k in two blocks: the accumulators narrowed and widened in each).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32, so the order of
// the additions (ours, ONNX Runtime's) cannot matter.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(5); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 8, 9, 40), w=f(12, 8, 3, 3), b=f(12), a=f(37, 64), m=f(64, 24), c=f(24), p=f(13, 70), q=f(70, 5), e=f(37, 200), h=f(200, 72)).items()]"
// RUN: npu-run %t/m.onnx --bind w,b,m,c,q --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input a=%t/a.npy --input m=%t/m.npy --input c=%t/c.npy --input p=%t/p.npy --input q=%t/q.npy --input e=%t/e.npy --input h=%t/h.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy a=%t/a.npy m=%t/m.npy c=%t/c.npy p=%t/p.npy q=%t/q.npy e=%t/e.npy h=%t/h.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// CHECK: s: match
// CHECK: u: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/y.npy'); a[0, 11, 8, 39] += 0.125; n.save('%t/cpu/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy a=%t/a.npy m=%t/m.npy c=%t/c.npy p=%t/p.npy q=%t/q.npy e=%t/e.npy h=%t/h.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs
// The 8-lane multiply-adds are there.
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; [open('%t/' + k + '.pb', 'wb').write(h.from_array(n.load('%t/' + k + '.npy'), k).SerializeToString()) for k in ('w', 'b', 'm', 'c', 'q')]"
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb --bind-input b=%t/b.pb --bind-input m=%t/m.pb --bind-input c=%t/c.pb --bind-input q=%t/q.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: "vector.fma"({{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// LOOPS-DAG: "vector.load"({{.*}}) : (memref<128x32xf32>, index, index) -> vector<8xf32>

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,9,40] x, float[12,8,3,3] w, float[12] b, float[37,64] a, float[64,24] m, float[24] c, float[13,70] p, float[70,5] q, float[37,200] e, float[200,72] h) => (float[1,12,9,40] y, float[37,24] z, float[13,5] s, float[37,72] u) {
  cv = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  y = Relu (cv)
  mm = MatMul (a, m)
  z = Add (mm, c)
  s = MatMul (p, q)
  u = MatMul (e, h)
}
