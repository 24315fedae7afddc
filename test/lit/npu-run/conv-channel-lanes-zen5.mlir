// On 512-bit units (Intel's AVX-512, AMD's Zen 5: `NPU_CPU_TARGET=avx512` or
// `avx512-zen5`) a half vector costs the multiply-adds of a whole one, so a
// direct conv over 40-wide rows (two vectors and a half) leaves 8 of 48 lanes
// idle and runs with its output channels along the lanes: the product
// written as [N, M/64, oh, ow, 64]. On 256-bit units (Zen 4,
// `avx512-narrow`) the half vector costs half, no lane is idle, and the
// conv keeps its positions along the lanes. Against ONNX Runtime on each.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32.
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; r = n.random.default_rng(5); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 16, 40, 40), w=f(64, 16, 3, 3)).items()]; open('%t/w.pb', 'wb').write(h.from_array(n.load('%t/w.npy'), 'w').SerializeToString())"
// RUN: env NPU_CPU_TARGET=avx512-zen5 npu-run %t/m.onnx --bind w --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/zen5
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/zen5 x=%t/x.npy w=%t/w.npy | FileCheck %s
// RUN: env NPU_CPU_TARGET=avx512-narrow npu-run %t/m.onnx --bind w --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/narrow
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/narrow x=%t/x.npy w=%t/w.npy | FileCheck %s
// CHECK: y: match
// RUN: env NPU_CPU_TARGET=avx512-zen5 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512-zen5 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LANES
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LANES
// LANES: memref<1x1x40x40x64xf32>
// RUN: env NPU_CPU_TARGET=avx512-narrow npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512-narrow npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=POSITIONS
// POSITIONS-NOT: x64xf32>
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/zen5/y.npy'); a[0, 40, 39, 39] += 0.125; n.save('%t/zen5/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/zen5 x=%t/x.npy w=%t/w.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,16,40,40] x, float[64,16,3,3] w) => (float[1,64,40,40] y) {
  y = Conv <pads = [1, 1, 1, 1]> (x, w)
}
