// A 2-D MaxPool whose window is large for its output runs as two pools, along
// each row and then down the columns (the max over a window is the max of its
// rows' maxima, exactly): an SPP block's 5×5, 9×9 and 13×13 windows of stride
// 1 over 13×13 maps, a 5×5 window of stride 2 in ceil mode, a 7×7 window
// dilated by 2, and a 3×7 one. A 3×3 window of stride 2 stays one pass.
// Against ONNX Runtime.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(11); f = lambda *s: r.standard_normal(s).astype(n.float32); [n.save('%t/' + k + '.npy', v) for k, v in dict(x=f(1, 24, 13, 13), z=f(2, 5, 20, 23)).items()]"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input z=%t/z.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy | FileCheck %s
// CHECK: spp: match
// CHECK: ceil: match
// CHECK: dil: match
// CHECK: wide: match
// CHECK: small: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/dil.npy'); a[1, 2, 3, 4] += 0.01; n.save('%t/cpu/dil.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: dil: differs
// Each first pass keeps the padded rows the windows reach, one column per
// output column: 25, 21 and 17 rows of 13 for the SPP's windows, 23 of 11 in
// ceil mode, 32 of 23 dilated, 20 of 17 for 3×7; the 3×3 window of stride 2
// reads 9 elements an output either way, and has none (21 rows of 12).
// RUN: npu-translate --import-onnx %t/m.onnx | npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=LOOPS
// LOOPS-DAG: memref<1x24x25x13xf32>
// LOOPS-DAG: memref<1x24x21x13xf32>
// LOOPS-DAG: memref<1x24x17x13xf32>
// LOOPS-DAG: memref<2x5x23x11xf32>
// LOOPS-DAG: memref<2x5x32x23xf32>
// LOOPS-DAG: memref<2x5x20x17xf32>
// RUN: npu-translate --import-onnx %t/m.onnx | npu-translate --mlir-to-llvmir --emit loops | FileCheck %s --check-prefix=ONEPASS
// ONEPASS-NOT: memref<2x5x21x12xf32>

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,24,13,13] x, float[2,5,20,23] z) => (float[1,96,13,13] spp, float[2,5,10,11] ceil, float[2,5,20,23] dil, float[2,5,18,17] wide, float[2,5,10,12] small) {
  p5 = MaxPool <kernel_shape = [5, 5], pads = [2, 2, 2, 2], strides = [1, 1]> (x)
  p9 = MaxPool <kernel_shape = [9, 9], pads = [4, 4, 4, 4], strides = [1, 1]> (x)
  p13 = MaxPool <kernel_shape = [13, 13], pads = [6, 6, 6, 6], strides = [1, 1]> (x)
  spp = Concat <axis = 1> (x, p5, p9, p13)
  ceil = MaxPool <kernel_shape = [5, 5], pads = [1, 1, 1, 1], strides = [2, 2], ceil_mode = 1> (z)
  dil = MaxPool <kernel_shape = [7, 7], pads = [6, 6, 6, 6], dilations = [2, 2]> (z)
  wide = MaxPool <kernel_shape = [3, 7]> (z)
  small = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1], strides = [2, 2]> (z)
}
