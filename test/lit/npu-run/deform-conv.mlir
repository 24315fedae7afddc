// DeformConv (2-D, groups, offset groups, a mask and a bias; offsets large
// enough that many taps read outside the image, which count as zero) runs on
// both paths and gives what ONNX Runtime gives.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(3); n.save('%t/x.npy', r.standard_normal((1, 4, 5, 5)).astype(n.float32)); n.save('%t/w.npy', r.standard_normal((2, 2, 3, 3)).astype(n.float32)); n.save('%t/off.npy', (2 * r.standard_normal((1, 36, 3, 3))).astype(n.float32)); n.save('%t/b.npy', r.standard_normal(2).astype(n.float32)); n.save('%t/mask.npy', r.random((1, 18, 3, 3)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --input off=%t/off.npy --input b=%t/b.npy --input mask=%t/mask.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy off=%t/off.npy b=%t/b.npy mask=%t/mask.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input w=%t/w.npy --input off=%t/off.npy --input b=%t/b.npy --input mask=%t/mask.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy w=%t/w.npy off=%t/off.npy b=%t/b.npy mask=%t/mask.npy | FileCheck %s
// CHECK: y: match
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/y.npy'); a[0, 1, 2, 2] += 0.01; n.save('%t/cpu/y.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy w=%t/w.npy off=%t/off.npy b=%t/b.npy mask=%t/mask.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,4,5,5] x, float[2,2,3,3] w, float[1,36,3,3] off, float[2] b, float[1,18,3,3] mask) => (float[1,2,3,3] y) {
  y = DeformConv <group = 2, offset_group = 2> (x, w, off, b, mask)
}
