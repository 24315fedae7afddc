// On AVX-512 run by 256-bit units (AMD's Zen 4: `NPU_CPU_TARGET=avx512-narrow`,
// what such a host picks by itself) and on AMD's Zen 5 (`avx512-zen5`) a Conv over a 7x7 map (49 positions) with
// 2.4 MB of constant weights runs with its output channels along the lanes:
// the weights packed at compile time into panels of 64 channels,
// [M/64, C·K, 64], the product written as [N, M/64, P, 64]. AVX-512 on
// 512-bit units keeps such a conv with its positions along the lanes (49 of
// 64; its 2 MiB limit and 65 positions). Against ONNX Runtime on this host.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// Values in eighths: every product and sum is exact in f32.
// RUN: python3 -c "import numpy as n, onnx.numpy_helper as h; r = n.random.default_rng(3); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 128, 7, 7), w=f(512, 128, 3, 3)).items()]; open('%t/w.pb', 'wb').write(h.from_array(n.load('%t/w.npy'), 'w').SerializeToString())"
// RUN: npu-run %t/m.onnx --bind w --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/out
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy w=%t/w.npy | FileCheck %s
// RUN: env NPU_CPU_TARGET=avx512-narrow npu-run %t/m.onnx --bind w --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/narrow
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/narrow x=%t/x.npy w=%t/w.npy | FileCheck %s
// CHECK: y: match
// RUN: env NPU_CPU_TARGET=avx512-narrow npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512-narrow npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=NARROW
// RUN: env NPU_CPU_TARGET=avx512-zen5 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512-zen5 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=NARROW
// NARROW-DAG: memref<8x1152x64xf32>
// NARROW-DAG: memref<1x8x49x64xf32>
// The 49 rows run as 7 tiles of 6 rows (0..42), one of 4 (42..46) and one of
// 3 (46..49), not 8 tiles of 6 and a tile of one row.
// NARROW-DAG: arith.constant 42 : index
// NARROW-DAG: arith.constant 46 : index
// The packed panel's rows 64 ahead are prefetched in the product's k loop.
// NARROW-DAG: "memref.prefetch"(%{{.*}}) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<8x1152x64xf32>, index, index, index) -> ()
// RUN: env NPU_CPU_TARGET=avx512 npu-translate --import-onnx %t/m.onnx --bind-input w=%t/w.pb | env NPU_CPU_TARGET=avx512 npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=WIDE
// WIDE-NOT: memref<8x1152x64xf32>
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/narrow/y.npy'); a[0, 300, 3, 3] += 0.001; n.save('%t/narrow/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/narrow x=%t/x.npy w=%t/w.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,128,7,7] x, float[512,128,3,3] w) => (float[1,512,7,7] y) {
  y = Conv <pads = [1, 1, 1, 1]> (x, w)
}
