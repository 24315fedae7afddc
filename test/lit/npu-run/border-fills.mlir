// A depthwise conv's padded input: its four border fills are one loop nest
// (`fuse-fill-nests`), the left and right columns one loop that writes a
// row's two borders together, and the nest is split over the threads (a
// fill's store counts as a cache line written). Outputs match ONNX Runtime
// and are the same bits on one thread and two; a 5x5 kernel (two columns a
// side) and a 1x3 one (columns only) too.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/m.onnx --emit=loops | FileCheck %s --check-prefix=LOOPS
// LOOPS: func.func private @g_nest0(%arg0: memref<1x64x32x32xf32> {llvm.noalias}, %arg1: index, %arg2: index, %arg3: index)
// LOOPS-SAME: ["npu-parallel", "{{[0-9]+}}"]
// LOOPS: "scf.for"(%arg1, %arg2, %arg3)
// LOOPS: "vector.maskedstore"
// LOOPS: "scf.for"
// LOOPS-NEXT: ^bb0(%[[R:.*]]: index):
// LOOPS-NEXT: "memref.store"({{.*}}, %arg0, {{.*}}, %[[R]], %{{.*}})
// LOOPS-NEXT: "memref.store"({{.*}}, %arg0, {{.*}}, %[[R]], %{{.*}})
// LOOPS-NEXT: "scf.yield"
// LOOPS: return
// LOOPS-NEXT: }
// LOOPS-NEXT: func.func private @g_nest1(
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(4); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 64, 30, 30), w=f(64, 1, 3, 3), w5=f(64, 1, 5, 5), w13=f(64, 1, 1, 3)).items()]"
// RUN: npu-run %t/m.onnx --threads 1 --input x=%t/x.npy --input w=%t/w.npy --input w5=%t/w5.npy --input w13=%t/w13.npy --output-dir %t/one
// RUN: npu-run %t/m.onnx --threads 2 --input x=%t/x.npy --input w=%t/w.npy --input w5=%t/w5.npy --input w13=%t/w13.npy --output-dir %t/two
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/two x=%t/x.npy w=%t/w.npy w5=%t/w5.npy w13=%t/w13.npy | FileCheck %s
// CHECK: y3: match
// CHECK: y5: match
// CHECK: y13: match
// RUN: python3 -c "import numpy as n; print(*[k + (': same' if n.array_equal(n.load('%t/one/' + k + '.npy'), n.load('%t/two/' + k + '.npy')) else ': differs') for k in ('y3', 'y5', 'y13')])" | FileCheck %s --check-prefix=SAME
// SAME: y3: same y5: same y13: same
// The comparison can fail: a border output changed differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/two/y5.npy'); a[0, 63, 0, 29] += 0.125; n.save('%t/two/y5.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/two x=%t/x.npy w=%t/w.npy w5=%t/w5.npy w13=%t/w13.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y5: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,64,30,30] x, float[64,1,3,3] w, float[64,1,5,5] w5, float[64,1,1,3] w13) => (float[1,64,30,30] y3, float[1,64,30,30] y5, float[1,64,30,30] y13) {
  y3 = Conv <pads = [1, 1, 1, 1], group = 64> (x, w)
  y5 = Conv <pads = [2, 2, 2, 2], group = 64> (x, w5)
  y13 = Conv <pads = [0, 1, 0, 1], group = 64> (x, w13)
}
