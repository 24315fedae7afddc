// Bilinear upsampling by integer factors on npu16: the edge rows and columns
// repeated by DMA, then a depthwise transposed convolution whose kernel is
// the interpolation's weights; against ONNX Runtime (half_pixel ×2, asymmetric
// ×3, pytorch_half_pixel ×(2, 3), half_pixel ×4 over 5 channels). A linear
// resize with align_corners stays on the CPU, with its reason.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.random.default_rng(5).standard_normal((1, 5, 6, 7)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --output-dir %t/npu -v 2>&1 | FileCheck %s --check-prefix=PLACED
// PLACED: onnx.Resize {{.*}} [attribute] linear with coordinate_transformation_mode align_corners
// PLACED: npu16: 4 ops (80.0%) in 1 partitions; cpu: 1 ops (20.0%) in 1 partitions
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s
// CHECK: half2: match
// CHECK-NEXT: asym3: match
// CHECK-NEXT: torch23: match
// CHECK-NEXT: half4: match
// CHECK-NEXT: corners: match
// The comparison can fail: a corrupted pixel differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/npu/asym3.npy'); a[0, 2, 17, 20] += 1e-3; n.save('%t/npu/asym3.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: asym3: differs

//--- m.onnxtext
<ir_version: 9, opset_import: ["" : 18]>
g (float[1,5,6,7] x) => (float[1,5,12,14] half2, float[1,5,18,21] asym3, float[1,5,12,21] torch23, float[1,5,24,28] half4, float[1,5,12,14] corners) {
  none = Constant <value = float[0] {}> ()
  s2 = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
  s3 = Constant <value = float[4] {1.0, 1.0, 3.0, 3.0}> ()
  s23 = Constant <value = float[4] {1.0, 1.0, 2.0, 3.0}> ()
  s4 = Constant <value = float[4] {1.0, 1.0, 4.0, 4.0}> ()
  [half2] half2 = Resize <mode = "linear"> (x, none, s2)
  [asym3] asym3 = Resize <mode = "linear", coordinate_transformation_mode = "asymmetric"> (x, none, s3)
  [torch23] torch23 = Resize <mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel"> (x, none, s23)
  [half4] half4 = Resize <mode = "linear"> (x, none, s4)
  [corners] corners = Resize <mode = "linear", coordinate_transformation_mode = "align_corners"> (x, none, s2)
}
