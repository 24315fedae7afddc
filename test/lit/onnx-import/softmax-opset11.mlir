// Softmax, LogSoftmax and Hardmax before opset 13 work on the input coerced to
// 2-D at `axis` (default 1): over [1, 1000, 1, 1] at axis 1, SqueezeNet's
// Softmax is over the 1000 classes. They import as Flatten → the op over the
// last axis → Reshape back; at the last axis they stay one op. Every path
// used the opset-13 meaning (the last axis, of size 1: all ones).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | FileCheck %s
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-translate --import-onnx %t/m.onnx | FileCheck %s --check-prefix=AGAIN
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.arange(8, dtype=n.float32).reshape(1, 4, 2, 1)); n.save('%t/w.npy', n.array([[0.0, 1.0]], n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/cpu
// RUN: npu-run %t/m.onnx --target npu --input x=%t/x.npy --input w=%t/w.npy --output-dir %t/npu
// RUN: python3 -c "import numpy as n; x = n.arange(8, dtype=n.float64); e = n.exp(x - x.max()); want = (e / e.sum()).reshape(1, 4, 2, 1); l = n.exp(n.array([0.0, 1.0])); [print(p, n.allclose(n.load('%t/' + p + '/y.npy'), want, rtol=1e-5), n.allclose(n.load('%t/' + p + '/z.npy'), n.log((l / l.sum())).reshape(1, 2), rtol=1e-5)) for p in ('cpu', 'npu')]" | FileCheck %s --check-prefix=VALUES

// CHECK: %[[FLAT:.*]] = "onnx.Flatten"(%arg0) <{axis = 1 : i64}> : (tensor<1x4x2x1xf32>) -> tensor<*xf32>
// CHECK-NEXT: %[[S:.*]] = "onnx.Softmax"(%[[FLAT]]) <{axis = -1 : i64}> : (tensor<*xf32>) -> tensor<*xf32>
// CHECK-NEXT: %[[SHAPE:.*]] = "onnx.Shape"(%arg0) : (tensor<1x4x2x1xf32>) -> tensor<4xi64>
// CHECK-NEXT: "onnx.Reshape"(%[[S]], %[[SHAPE]]) : (tensor<*xf32>, tensor<4xi64>) -> tensor<1x4x2x1xf32>
// CHECK: "onnx.LogSoftmax"(%arg1) <{axis = 1 : i64}> : (tensor<1x2xf32>) -> tensor<1x2xf32>
// Imported again, the exported Softmax (axis -1 at opset 11) stays one op:
// AGAIN-COUNT-1: "onnx.Flatten"
// AGAIN-NOT: "onnx.Flatten"
// VALUES: cpu True True
// VALUES: npu True True

//--- m.onnxtext
<ir_version: 6, opset_import: ["" : 11]>
g (float[1,4,2,1] x, float[1,2] w) => (float[1,4,2,1] y, float[1,2] z) {
  y = Softmax (x)
  z = LogSoftmax (w)
}
