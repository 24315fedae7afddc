// A scalar input that chooses the branch of an If decides shapes when the
// branches give different ones (a model's sample-rate switch): it is listed,
// and npu-run compiles for its value (the If folds to its branch), so the
// model runs with static shapes. When the branches agree, the choice stays a
// run-time one (scf.if) and nothing is listed.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/switch.onnxtext --list-shape-inputs | FileCheck %s --check-prefix=SWITCH
// RUN: npu-translate --import-onnx %t/same.onnxtext --list-shape-inputs | count 0
// RUN: npu-translate --import-onnx %t/switch.onnxtext | npu-translate --export-onnx -o %t/switch.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.arange(8, dtype=n.float32)); n.save('%t/sr.npy', n.array(16000)); n.save('%t/sr8.npy', n.array(8000))"
// RUN: npu-run %t/switch.onnx --input x=%t/x.npy --input sr=%t/sr.npy --output-dir %t/a
// RUN: npu-run %t/switch.onnx --input x=%t/x.npy --input sr=%t/sr8.npy --output-dir %t/b
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/switch.onnx %t/a x=%t/x.npy sr=%t/sr.npy | FileCheck %s
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/switch.onnx %t/b x=%t/x.npy sr=%t/sr8.npy | FileCheck %s
// SWITCH: sr
// CHECK: y: match

//--- switch.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[8] x, int64[] sr) => (float[?] y) {
  k = Constant <value = int64 {16000}> ()
  c = Equal (sr, k)
  y = If (c) <
    then_branch = t () => (float[8] z) { z = Neg (x) },
    else_branch = e () => (float[4] z) {
      s = Constant <value = int64[1] {0}> ()
      n = Constant <value = int64[1] {4}> ()
      z = Slice (x, s, n)
    }
  >
}

//--- same.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[8] x, int64[] sr) => (float[8] y) {
  k = Constant <value = int64 {16000}> ()
  c = Equal (sr, k)
  y = If (c) <
    then_branch = t () => (float[8] z) { z = Neg (x) },
    else_branch = e () => (float[8] z) { z = Abs (x) }
  >
}
