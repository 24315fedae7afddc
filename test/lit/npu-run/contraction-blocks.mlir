// The CPU path's contraction kernels against ONNX Runtime where a product
// runs in blocks of k (a packed panel holds 128 k at most; A is small enough
// to stay in cache) and where the fill of its output runs in its
// accumulators: a Gemm with a bias row and a Relu epilogue over K = 300
// (blocks of 128, 128 and 44: the bias in the first, the Relu after the last),
// a MatMul over K = 256 (its zero fill in the first of two blocks), and a 1x1
// Conv with a per-channel bias written into the interior of the padded buffer
// the depthwise Conv after it reads, and that depthwise Conv's own bias (the
// fill of a vectorized reduction's accumulators); a Gemm of 120 rows and 49
// columns (one column tile, its rows split between threads) with a bias and
// a Relu, on one thread and on two; a MatMul of 100 columns over 80 terms, a tile of 64 and
// a narrower one of 48 for the 36 past it.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(7); f = lambda *s: r.uniform(0.1, 1.0, s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(a=f(20, 300), b=f(300, 40), c=f(40), a3=f(18, 256), b3=f(256, 20), x=f(1, 16, 8, 8), w=f(24, 16, 1, 1), bb=f(24), dw=f(24, 1, 3, 3), db=f(24), a4=f(120, 100), b4=f(100, 49), c4=f(49), a5=f(20, 80), b5=f(80, 100)).items()]"
// RUN: npu-run %t/m.onnx --input a=%t/a.npy --input b=%t/b.npy --input c=%t/c.npy --input a3=%t/a3.npy --input b3=%t/b3.npy --input x=%t/x.npy --input w=%t/w.npy --input bb=%t/bb.npy --input dw=%t/dw.npy --input db=%t/db.npy --input a4=%t/a4.npy --input b4=%t/b4.npy --input c4=%t/c4.npy --input a5=%t/a5.npy --input b5=%t/b5.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy b=%t/b.npy c=%t/c.npy a3=%t/a3.npy b3=%t/b3.npy x=%t/x.npy w=%t/w.npy bb=%t/bb.npy dw=%t/dw.npy db=%t/db.npy a4=%t/a4.npy b4=%t/b4.npy c4=%t/c4.npy a5=%t/a5.npy b5=%t/b5.npy | FileCheck %s
// CHECK: gemm: match
// CHECK: mm: match
// CHECK: dconv: match
// CHECK: one: match
// CHECK: tail: match
// The same on two threads (the one-tile product's rows split between them).
// RUN: npu-run %t/m.onnx --threads 2 --input a=%t/a.npy --input b=%t/b.npy --input c=%t/c.npy --input a3=%t/a3.npy --input b3=%t/b3.npy --input x=%t/x.npy --input w=%t/w.npy --input bb=%t/bb.npy --input dw=%t/dw.npy --input db=%t/db.npy --input a4=%t/a4.npy --input b4=%t/b4.npy --input c4=%t/c4.npy --input a5=%t/a5.npy --input b5=%t/b5.npy --output-dir %t/two
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/two a=%t/a.npy b=%t/b.npy c=%t/c.npy a3=%t/a3.npy b3=%t/b3.npy x=%t/x.npy w=%t/w.npy bb=%t/bb.npy dw=%t/dw.npy db=%t/db.npy a4=%t/a4.npy b4=%t/b4.npy c4=%t/c4.npy a5=%t/a5.npy b5=%t/b5.npy | FileCheck %s
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/gemm.npy'); a[19, 39] += 0.01; n.save('%t/cpu/gemm.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy b=%t/b.npy c=%t/c.npy a3=%t/a3.npy b3=%t/b3.npy x=%t/x.npy w=%t/w.npy bb=%t/bb.npy dw=%t/dw.npy db=%t/db.npy a4=%t/a4.npy b4=%t/b4.npy c4=%t/c4.npy a5=%t/a5.npy b5=%t/b5.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: gemm: differs
// The loops: blocks of 128 k in a panel of 128 x 32 (two column tiles of 32 for N = 40, so two threads share them), fills gone.
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnxtext | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS: memref<128x32xf32>
// LOOPS: "memref.prefetch"
// LOOPS-NOT: "tensor.generic"
// The one-tile product's row loop is a nest the runtime splits over threads.
// LOOPS: ["npu-parallel", "{{[0-9]+}}"]
// The 100-column product's tail tile packs a panel of three vectors.
// LOOPS: memref<80x48xf32>

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[20,300] a, float[300,40] b, float[40] c, float[18,256] a3, float[256,20] b3, float[1,16,8,8] x, float[24,16,1,1] w, float[24] bb, float[24,1,3,3] dw, float[24] db, float[120,100] a4, float[100,49] b4, float[49] c4, float[20,80] a5, float[80,100] b5) => (float[20,40] gemm, float[18,20] mm, float[1,24,8,8] dconv, float[120,49] one, float[20,100] tail) {
  g0 = Gemm (a, b, c)
  gemm = Relu (g0)
  mm = MatMul (a3, b3)
  p = Conv <kernel_shape = [1, 1]> (x, w, bb)
  dconv = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1], group = 24> (p, dw, db)
  g4 = Gemm (a4, b4, c4)
  one = Relu (g4)
  tail = MatMul (a5, b5)
}
