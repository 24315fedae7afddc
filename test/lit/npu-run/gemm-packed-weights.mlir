// A Gemm or MatMul whose constant f32 weights exceed 1 MiB (they do not stay
// in L2, so packing them at run time meant streaming them twice) takes them
// packed at compile time into panels [N/64, K, 64] that the contraction kernel
// reads in place, as ONNX Runtime packs a Gemm's weights once at load; the
// product writes [M, N/64, 64], the bytes of [M, N]. Against ONNX Runtime
// (1e-5 relative / 1e-6 absolute): a Gemm with a bias, transA and a Relu
// after it (the epilogue), a MatMul, and a Gemm of one row (a GEMV: panels of
// 128 columns) whose 300 columns are two panels and a product of the last 44; with the weights bound (the panels) and
// at run time (the kernel packs them, as before).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(10); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(a=f(512, 24), w=f(512, 576), c=f(576), x=f(40, 640), v=f(640, 448), u=f(1, 1000), g=f(1000, 300), e=f(300)).items()]"
// RUN: npu-run %t/m.onnx --bind w,c,v,g,e --input a=%t/a.npy --input w=%t/w.npy --input c=%t/c.npy --input x=%t/x.npy --input v=%t/v.npy --input u=%t/u.npy --input g=%t/g.npy --input e=%t/e.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound a=%t/a.npy w=%t/w.npy c=%t/c.npy x=%t/x.npy v=%t/v.npy u=%t/u.npy g=%t/g.npy e=%t/e.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --input a=%t/a.npy --input w=%t/w.npy --input c=%t/c.npy --input x=%t/x.npy --input v=%t/v.npy --input u=%t/u.npy --input g=%t/g.npy --input e=%t/e.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy w=%t/w.npy c=%t/c.npy x=%t/x.npy v=%t/v.npy u=%t/u.npy g=%t/g.npy e=%t/e.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// CHECK: s: match
// Bound, the weights are panels (no panel buffer filled at run time).
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; [open('%t/' + k + '.pb', 'wb').write(h.from_array(n.load('%t/' + k + '.npy'), k).SerializeToString()) for k in ('w', 'c', 'v', 'g', 'e')]"
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb --bind-input c=%t/c.pb --bind-input v=%t/v.pb --bind-input g=%t/g.pb --bind-input e=%t/e.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<9x512x64xf32>
// LOOPS-DAG: memref<7x640x64xf32>
// LOOPS-DAG: memref<2x1000x128xf32>
// LOOPS-DAG: memref<1000x44xf32>
// LOOPS-NOT: -> memref<128x64xf32>
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/bound/z.npy'); a[17, 300] += 0.001; n.save('%t/bound/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound a=%t/a.npy w=%t/w.npy c=%t/c.npy x=%t/x.npy v=%t/v.npy u=%t/u.npy g=%t/g.npy e=%t/e.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[512,24] a, float[512,576] w, float[576] c, float[40,640] x, float[640,448] v, float[1,1000] u, float[1000,300] g, float[300] e) => (float[24,576] y, float[40,448] z, float[1,300] s) {
  g1 = Gemm <transA = 1> (a, w, c)
  y = Relu (g1)
  z = MatMul (x, v)
  s = Gemm (u, g, e)
}
