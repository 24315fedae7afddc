// An absent optional input (onnx.NoValue) is copied into the partition that
// reads it, like a constant, never passed between partitions: a Resize with
// no roi between two NPU convolutions used to give its CPU partition an
// argument of type none ("'g_cpu0#0' has type none; the CPU path needs
// ranked tensors"). The Resize now runs on the NPU with the convolutions (one
// partition, the NoValue inside it) and agrees with ONNX Runtime.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/m.onnx | npu-opt --onnx-shape-inference --npu-partition | FileCheck %s --check-prefix=IR
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.random.default_rng(0).standard_normal((1, 2, 4, 4)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --target npu16,cpu -v --input x=%t/x.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s
// IR-LABEL: func.func private @g_npu16_0
// IR-NOT: none
// IR: "onnx.NoValue"() : () -> none
// IR: "onnx.Resize"
// PLACED: CPU operations (0 of 4)
// PLACED: npu16: 4 ops
// CHECK: y: match

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[1,2,4,4] x) => (float[1,2,8,8] y) {
  w = Constant <value = float[2,2,1,1] {1.0, 0.5, -0.5, 1.0}> ()
  a = Conv (x, w)
  s = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()
  r = Resize <mode = "nearest"> (a, "", s)
  y = Conv (r, w)
}
