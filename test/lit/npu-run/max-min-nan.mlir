// Max and Min propagate NaN on both paths, as ONNX Runtime does: the NPU's
// v.max/v.min are IEEE 754-2019 maximum/minimum (they used to drop NaN, so
// the NPU path answered [0, 1, 2] where the CPU path answers [nan, nan, 2]).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/a.npy', n.array([[n.nan, 1, 2, -n.inf]], n.float32)); n.save('%t/b.npy', n.array([[0, n.nan, 2, 3]], n.float32))"
// RUN: npu-run %t/m.onnx --target npu --input a=%t/a.npy --input b=%t/b.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// RUN: npu-run %t/m.onnx --input a=%t/a.npy --input b=%t/b.npy --output-dir %t/cpu
// RUN: python3 -c "import numpy as n; print(*[p + o + '=' + str(n.load('%t/' + p + '/' + o + '.npy').ravel().tolist()) for p in ('npu', 'cpu') for o in 'yz'])" | FileCheck %s
// PLACED: npu16: 2 ops (100.0%)
// CHECK: npuy={{\[}}nan, nan, 2.0, 3.0] npuz={{\[}}nan, nan, 2.0, -inf] cpuy={{\[}}nan, nan, 2.0, 3.0] cpuz={{\[}}nan, nan, 2.0, -inf]

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[1,4] a, float[1,4] b) => (float[1,4] y, float[1,4] z) {
  y = Max (a, b)
  z = Min (a, b)
}
