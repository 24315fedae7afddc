// Det, Col2Im, RoiAlign (average and max), ConvInteger and QLinearConv (the
// latter with per-channel weight scales and zero points) run on both paths and
// give what ONNX Runtime gives. RoiAlign's max mode is compared with one
// sample per bin: ONNX Runtime documents its max over several samples as
// wrong (the node tests check that case against ONNX's reference).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(1); n.save('%t/a.npy', r.standard_normal((3, 3, 3)).astype(n.float32)); n.save('%t/cols.npy', r.standard_normal((1, 12, 4)).astype(n.float32)); n.save('%t/img.npy', r.standard_normal((1, 2, 6, 6)).astype(n.float32)); n.save('%t/rois.npy', n.array([[0, 0, 9, 9], [2.5, 1, 11, 7.5]], dtype=n.float32)); n.save('%t/bi.npy', n.array([0, 0])); n.save('%t/q.npy', r.integers(0, 256, (1, 2, 5, 5)).astype(n.uint8)); n.save('%t/w.npy', r.integers(0, 256, (3, 2, 3, 3)).astype(n.uint8)); n.save('%t/bad.npy', n.array([0, 5])); n.save('%t/neg.npy', n.array([0, -1]))"
// RUN: npu-run %t/m.onnx --input a=%t/a.npy --input cols=%t/cols.npy --input img=%t/img.npy --input rois=%t/rois.npy --input bi=%t/bi.npy --input q=%t/q.npy --input w=%t/w.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy cols=%t/cols.npy img=%t/img.npy rois=%t/rois.npy bi=%t/bi.npy q=%t/q.npy w=%t/w.npy 2>/dev/null | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input a=%t/a.npy --input cols=%t/cols.npy --input img=%t/img.npy --input rois=%t/rois.npy --input bi=%t/bi.npy --input q=%t/q.npy --input w=%t/w.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu a=%t/a.npy cols=%t/cols.npy img=%t/img.npy rois=%t/rois.npy bi=%t/bi.npy q=%t/q.npy w=%t/w.npy 2>/dev/null | FileCheck %s
// CHECK: det: match
// CHECK-NEXT: image: match
// CHECK-NEXT: avg: match
// CHECK-NEXT: mx: match
// CHECK-NEXT: acc: match
// CHECK-NEXT: qy: match
// The comparison can fail: a corrupted determinant differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/det.npy'); a[1] += 0.01; n.save('%t/cpu/det.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu a=%t/a.npy cols=%t/cols.npy img=%t/img.npy rois=%t/rois.npy bi=%t/bi.npy q=%t/q.npy w=%t/w.npy 2>/dev/null | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: det: differs
// A region of a batch that is not there is an error naming the node.
// RUN: not npu-run %t/m.onnx --input a=%t/a.npy --input cols=%t/cols.npy --input img=%t/img.npy --input rois=%t/rois.npy --input bi=%t/bad.npy --input q=%t/q.npy --input w=%t/w.npy 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: RoiAlign 'RoiAlign#4': index 5 is out of range for the batch of 1
// A batch index does not count from the end (as Gather's do): -1 is refused too.
// RUN: not npu-run %t/m.onnx --input a=%t/a.npy --input cols=%t/cols.npy --input img=%t/img.npy --input rois=%t/rois.npy --input bi=%t/neg.npy --input q=%t/q.npy --input w=%t/w.npy 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: RoiAlign 'RoiAlign#4': index -1 is out of range for the batch of 1; indices must be in [0, 0]

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 21]>
g (float[3,3,3] a, float[1,12,4] cols, float[1,2,6,6] img, float[2,4] rois, int64[2] bi, uint8[1,2,5,5] q, uint8[3,2,3,3] w) => (float[3] det, float[1,3,3,3] image, float[2,2,2,2] avg, float[2,2,2,2] mx, int32[1,3,4,4] acc, uint8[1,3,4,4] qy) {
  det = Det (a)
  shape = Constant <value = int64[2] {3, 3}> ()
  block = Constant <value = int64[2] {2, 2}> ()
  image = Col2Im (cols, shape, block)
  avg = RoiAlign <output_height = 2, output_width = 2, sampling_ratio = 2, spatial_scale = 0.5> (img, rois, bi)
  mx = RoiAlign <output_height = 2, output_width = 2, sampling_ratio = 1, mode = "max", coordinate_transformation_mode = "output_half_pixel"> (img, rois, bi)
  xz = Constant <value = uint8 {3}> ()
  wz = Constant <value = uint8[3] {1, 2, 3}> ()
  wz1 = Constant <value = uint8 {2}> ()
  acc = ConvInteger <pads = [1, 0, 0, 1]> (q, w, xz, wz1)
  xs = Constant <value = float {0.05}> ()
  ws = Constant <value = float[3] {0.01, 0.02, 0.03}> ()
  ys = Constant <value = float {0.1}> ()
  yz = Constant <value = uint8 {128}> ()
  bias = Constant <value = int32[3] {10, -20, 30}> ()
  qy = QLinearConv <pads = [1, 0, 0, 1]> (q, xs, xz, w, ws, wz, ys, yz, bias)
}
