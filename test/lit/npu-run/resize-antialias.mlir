// Resize with antialias (linear and cubic downsampling by sizes, cubic by
// scales with exclude_outside) runs on both paths and gives what ONNX Runtime gives.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.random.default_rng(5).standard_normal((1, 1, 8, 10)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --output-dir %t/npu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s
// CHECK: lin: match
// CHECK-NEXT: cub: match
// CHECK-NEXT: cubx: match
// The comparison can fail: a corrupted pixel differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/cub.npy'); a[0, 0, 1, 2] += 0.01; n.save('%t/cpu/cub.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: cub: differs

//--- m.onnxtext
<ir_version: 9, opset_import: ["" : 18]>
g (float[1,1,8,10] x) => (float[1,1,3,4] lin, float[1,1,3,4] cub, float[1,1,4,3] cubx) {
  none = Constant <value = float[0] {}> ()
  sizes = Constant <value = int64[4] {1, 1, 3, 4}> ()
  lin = Resize <mode = "linear", antialias = 1> (x, none, none, sizes)
  cub = Resize <mode = "cubic", antialias = 1> (x, none, none, sizes)
  scales = Constant <value = float[4] {1.0, 1.0, 0.6, 0.3}> ()
  cubx = Resize <mode = "cubic", antialias = 1, exclude_outside = 1> (x, none, scales)
}
