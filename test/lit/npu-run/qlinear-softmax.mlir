// A QDQ Softmax (DequantizeLinear → Softmax → QuantizeLinear) gives what ONNX
// Runtime gives with its default optimizations, which run it as com.microsoft's
// QLinearSoftmax (a table of exponentials, floor(1 / y_scale)): 4 of the uint8
// and 13 of the int8 outputs below differ by a step from the float evaluation
// (ONNX Runtime with its optimizations off). QLinearSoftmax read from the model
// runs too, in its opset-12 form (over every dim from `axis`).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', (n.random.default_rng(0).standard_normal((2, 3, 8)) * 3).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s
// On the NPU path the fused Softmax falls back to the CPU, with the reason.
// RUN: npu-run %t/m.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s
// PLACED: onnx.ms.QLinearSoftmax {{.*}} [no-lowering] no NPU lowering for onnx.ms.QLinearSoftmax
// The comparison can fail: a corrupted output differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/cpu/y2.npy'); a.flat[5] += 0.0039; n.save('%t/cpu/y2.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CHECK: y: match
// CHECK: y2: match
// CHECK: y3: match
// CORRUPT: y2: differs

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 13, "com.microsoft" : 1]>
g (float[2,3,8] x) => (float[2,3,8] y, float[2,3,8] y2, float[2,3,8] y3) <float s = {0.05}, uint8 z = {128}, int8 zi = {0}, float ys = {0.00392156886}, uint8 yz = {0}, float ys2 = {0.00392156886}, int8 yz2 = {-128}> {
  xq = QuantizeLinear(x, s, z)
  xd = DequantizeLinear(xq, s, z)
  p = Softmax<axis = -1>(xd)
  pq = QuantizeLinear(p, ys, yz)
  y = DequantizeLinear(pq, ys, yz)
  xq2 = QuantizeLinear(x, s, zi)
  xd2 = DequantizeLinear(xq2, s, zi)
  p2 = Softmax<axis = 1>(xd2)
  pq2 = QuantizeLinear(p2, ys2, yz2)
  y2 = DequantizeLinear(pq2, ys2, yz2)
  pq3 = com.microsoft.QLinearSoftmax<axis = 1, opset = 12>(xq, s, z, ys, yz)
  y3 = DequantizeLinear(pq3, ys, yz)
}
