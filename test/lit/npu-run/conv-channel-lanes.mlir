// A Conv over 65 to 256 output positions that do not fill whole vectors (a
// 14x14 map's 196 fill 196 of 208 lanes) with constant weights of at most
// 2 MiB runs with its output channels along the lanes: the weights packed at
// compile time into panels of 64 (or 32) channels, [M/64, C·K, 64], that the
// contraction kernel reads in place, the product written as [N, M/64, P, 64]
// and transposed back to NCHW with the elementwise ops after it. Against ONNX
// Runtime (1e-5 relative / 1e-6 absolute): a 1x1 conv of 128 channels over a
// 9x9 map with a bias and a Relu after it, a batch of two; a 3x3 conv with
// padding of 96 channels over a 14x14 map (panels of 48: two, which two
// threads split evenly, not three of 32); with the weights
// bound as constants (the panels) and given at run time (the positions along
// the lanes, as before).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32, so the order of
// the additions (ours, ONNX Runtime's) cannot matter.
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(9); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(2, 40, 9, 9), w=f(128, 40, 1, 1), b=f(128), x2=f(1, 24, 14, 14), w2=f(96, 24, 3, 3), r=f(1, 96, 14, 14)).items()]"
// RUN: npu-run %t/m.onnx --bind w,b,w2 --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input x2=%t/x2.npy --input w2=%t/w2.npy --input r=%t/r.npy --output-dir %t/bound
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy x2=%t/x2.npy w2=%t/w2.npy r=%t/r.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input b=%t/b.npy --input x2=%t/x2.npy --input w2=%t/w2.npy --input r=%t/r.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy b=%t/b.npy x2=%t/x2.npy w2=%t/w2.npy r=%t/r.npy | FileCheck %s
// CHECK: y: match
// CHECK: z: match
// The bound weights are panels the kernel reads in place (no copy into a
// panel buffer at run time); the products write [N, M/t, P, t]; the 3x3
// conv's product (216 terms: two blocks of k, whose loop bounds are computed
// at run time) still counts as work enough for threads, and the residual Add
// runs in the copy back to NCHW (one nest reads the product and r, writes z).
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; [open('%t/' + k + '.pb', 'wb').write(h.from_array(n.load('%t/' + k + '.npy'), k).SerializeToString()) for k in ('w', 'b', 'w2')]"
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb --bind-input b=%t/b.pb --bind-input w2=%t/w2.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<2x40x64xf32>
// LOOPS-DAG: memref<2x2x81x64xf32>
// LOOPS-DAG: memref<2x216x48xf32>
// LOOPS-DAG: memref<1x2x196x48xf32>
// LOOPS-DAG: memref<2x216x48xf32>{{.*}}["npu-parallel", "{{[0-9]+}}"]
// LOOPS-DAG: (%arg0: memref<1x2x196x48xf32> {llvm.noalias}, %arg1: memref<1x96x14x14xf32> {llvm.noalias}, %arg2: memref<1x96x14x14xf32> {llvm.noalias}
// LOOPS-NOT: "memref.alloc"() {{.*}} -> memref<128x64xf32>
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/bound/z.npy'); a[0, 70, 13, 5] += 0.001; n.save('%t/bound/z.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/bound x=%t/x.npy w=%t/w.npy b=%t/b.npy x2=%t/x2.npy w2=%t/w2.npy r=%t/r.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: z: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[2,40,9,9] x, float[128,40,1,1] w, float[128] b, float[1,24,14,14] x2, float[96,24,3,3] w2, float[1,96,14,14] r) => (float[2,128,9,9] y, float[1,96,14,14] z) {
  c = Conv (x, w, b)
  y = Relu (c)
  d = Conv <pads = [1, 1, 1, 1]> (x2, w2)
  z = Add (d, r)
}

