// No tensor may take more than --max-tensor-bytes (default: the machine's
// memory): an input declared with 10^10 elements is refused before random data
// is made for it (it aborted on the allocation), and a node that would compute
// 64 GiB is refused at compile time, by name, on both paths, also when the
// compile cache holds the model compiled under a larger limit. The simulator
// running an NPU program has its cycle budget as an option too.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/input.onnxtext | npu-translate --export-onnx -o %t/input.onnx
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/grow.onnxtext | npu-translate --export-onnx -o %t/grow.onnx
// RUN: npu-translate --import-onnx %t/huge.onnxtext | npu-translate --export-onnx -o %t/huge.onnx
// RUN: npu-translate --import-onnx --mlir-print-debuginfo %t/widen.onnxtext | npu-translate --export-onnx -o %t/widen.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.ones([1], n.float32)); n.save('%t/small.npy', n.ones([4, 4], n.float32))"
// RUN: not npu-run %t/input.onnx --max-tensor-bytes 4294967296 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not npu-run %t/huge.onnx 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not npu-run %t/grow.onnx --max-tensor-bytes 4294967296 --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=GROW
// RUN: not npu-run %t/grow.onnx --max-tensor-bytes 4294967296 --target npu --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=GROW
// RUN: npu-translate --import-onnx %t/small.onnxtext | npu-translate --export-onnx -o %t/small.onnx
// RUN: npu-run %t/small.onnx --input x=%t/small.npy --max-tensor-bytes 64 --cache-dir %t/cache
// RUN: not npu-run %t/small.onnx --input x=%t/small.npy --max-tensor-bytes 63 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: npu-translate --import-onnx %t/add.onnxtext | npu-translate --export-onnx -o %t/add.onnx
// RUN: npu-run %t/add.onnx --target npu --input a=%t/small.npy --input b=%t/small.npy --max-cycles 1000
// RUN: not npu-run %t/add.onnx --target npu --input a=%t/small.npy --input b=%t/small.npy --max-cycles 10 2>&1 | FileCheck %s --check-prefix=CYCLES
// RUN: npu-run %t/widen.onnx --input x=%t/x.npy --max-tensor-bytes 64 --cache-dir %t/cache
// RUN: not npu-run %t/widen.onnx --input x=%t/x.npy --max-tensor-bytes 63 --cache-dir %t/cache 2>&1 | FileCheck %s --check-prefix=WIDEN
// INPUT: error: a tensor of shape [100000, 100000] needs 40000000000 bytes, more than the limit of 4294967296 (--max-tensor-bytes)
// HUGE: error: a tensor of shape [10000000, 10000000] needs 400000000000000 bytes, more than the limit of {{[0-9]+}} (--max-tensor-bytes)
// GROW: error: node 'grow' (onnx.Expand) computes a tensor of type tensor<131072x131072xf32>, 68719476736 bytes, more than the limit of 4294967296 (--max-tensor-bytes)
// WIDEN: error: node 'widen' (onnx.Expand) computes a tensor of type tensor<4x4xf32>, 64 bytes, more than the limit of 63 (--max-tensor-bytes)
// CYCLES: g_npu16_0_program: error: the run needs more than its budget of 10 cycles at #{{[0-9]+}} {{.*}} (see --max-cycles)
// SMALL: error: {{.*}} needs 64 bytes, more than the limit of 63 (--max-tensor-bytes)

//--- input.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[100000,100000] x) => (float[100000,100000] y) {
  y = Relu (x)
}
//--- huge.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[10000000,10000000] x) => (float[10000000,10000000] y) {
  y = Relu (x)
}
//--- grow.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[1] x) => (float y) <int64[2] s = {131072, 131072}> {
  [grow] big = Expand (x, s)
  [sum] y = ReduceSum <keepdims = 0> (big)
}
//--- widen.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[1] x) => (float y) <int64[2] s = {4, 4}> {
  [widen] big = Expand (x, s)
  [sum] y = ReduceSum <keepdims = 0> (big)
}
//--- small.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[4,4] x) => (float[4,4] y) {
  y = Relu (x)
}
//--- add.onnxtext
<ir_version: 8, opset_import: ["" : 17]>
g (float[4,4] a, float[4,4] b) => (float[4,4] y) {
  y = Add (a, b)
}
