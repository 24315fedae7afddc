// A window op's padding after the input that no window reaches is not made:
// a 3x3 stride-2 max pool, average pool or conv with a pad of 1 over 12 rows
// reads rows -1..11 (its padded input 13x13, not 14x14; each padded column
// costs a cache line a row to fill), a dilated one likewise. Where the last
// window does reach the padding (stride 1; ceil mode, whose last window
// overhangs it), it stays. The results are ONNX Runtime's, an average pool
// that counts its padding included.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/m.onnx --emit=loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<1x8x13x13xf32>
// LOOPS-DAG: memref<1x8x14x14xf32>
// LOOPS-DAG: memref<1x8x15x15xf32>
// Each stride-2 op on its own: the max pool, the average pool, the conv
// (dilated: its pad of 2 after the rows trimmed to 1) have no 14x14 input.
// RUN: npu-translate --import-onnx %t/mp2.onnxtext --emit=loops | FileCheck %s --check-prefix=ONE
// RUN: npu-translate --import-onnx %t/ap2.onnxtext --emit=loops | FileCheck %s --check-prefix=ONE
// RUN: npu-translate --import-onnx %t/cv2.onnxtext --emit=loops | FileCheck %s --check-prefix=ONE
// ONE: memref<1x8x13x13xf32>
// ONE-NOT: memref<1x8x14x14xf32>
// RUN: npu-translate --import-onnx %t/dil.onnxtext --emit=loops | FileCheck %s --check-prefix=DIL
// DIL: memref<1x8x15x15xf32>
// DIL-NOT: memref<1x8x16x16xf32>
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(6); f = lambda *s: (r.integers(-8, 9, s) / 8).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 8, 12, 12), w=f(8, 8, 3, 3)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/out
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy w=%t/w.npy | FileCheck %s
// CHECK: mp2: match
// CHECK: mp1: match
// CHECK: ap2: match
// CHECK: apc: match
// CHECK: cv2: match
// CHECK: cv1: match
// CHECK: dil: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/out/ap2.npy'); a[0, 7, 5, 5] += 0.01; n.save('%t/out/ap2.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy w=%t/w.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: ap2: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,12,12] x, float[8,8,3,3] w) => (float[1,8,6,6] mp2, float[1,8,12,12] mp1, float[1,8,6,6] ap2, float[1,8,7,7] apc, float[1,8,6,6] cv2, float[1,8,12,12] cv1, float[1,8,6,6] dil) {
  mp2 = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (x)
  mp1 = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x)
  ap2 = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2], count_include_pad = 1> (x)
  apc = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2], count_include_pad = 1, ceil_mode = 1> (x)
  cv2 = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w)
  cv1 = Conv <pads = [1, 1, 1, 1]> (x, w)
  dil = Conv <pads = [2, 2, 2, 2], strides = [2, 2], dilations = [2, 2]> (x, w)
}

//--- mp2.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,12,12] x) => (float[1,8,6,6] y) {
  y = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (x)
}

//--- ap2.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,12,12] x) => (float[1,8,6,6] y) {
  y = AveragePool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2], count_include_pad = 1> (x)
}

//--- cv2.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,12,12] x, float[8,8,3,3] w) => (float[1,8,6,6] y) {
  y = Conv <pads = [1, 1, 1, 1], strides = [2, 2]> (x, w)
}

//--- dil.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,8,12,12] x, float[8,8,3,3] w) => (float[1,8,6,6] y) {
  y = Conv <pads = [2, 2, 2, 2], strides = [2, 2], dilations = [2, 2]> (x, w)
}
