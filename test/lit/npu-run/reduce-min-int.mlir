// ReduceMin over 64-bit integers starts from the type's largest value (an f64
// cannot hold 2^63 - 1: it used to round up and wrap to INT64_MIN, and to 0
// for uint64), so the minimum of [3, 1, 2] is 1 (ONNX Runtime's answer) and
// of [7, 5, 9] is 5 (ONNX Runtime has no uint64 ReduceMin).
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/reduce-min-int.mlir -o %t/r.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.array([[3, 1, 2]], dtype=n.int64)); n.save('%t/u.npy', n.array([[7, 5, 9]], dtype=n.uint64))"
// RUN: npu-run %t/r.onnx --input x=%t/x.npy --input u=%t/u.npy --output-dir %t/out
// RUN: python3 -c "import numpy as n; print(n.load('%t/out/y.npy').tolist(), n.load('%t/out/z.npy').tolist())" | FileCheck %s
// CHECK: [1] [5]
