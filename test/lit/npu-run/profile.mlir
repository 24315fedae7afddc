// npu-run --profile without --perf times one warm run: a fused group is one
// row named after all its nodes (Conv+Relu), with its MACs and GFLOP/s; the
// per-op-type table groups by those patterns.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-run %t/m.onnx --profile | FileCheck %s
// CHECK: time per run by node (mean of 1 runs; {{[0-9.]+}} ms in profiled nodes):
// CHECK: ms      %  GFLOP/s     MMACs  op
// CHECK-DAG: {{[0-9]+\.[0-9]}} 4.7 Conv+Relu Conv#0+Relu#1
// CHECK-DAG: {{[0-9]+\.[0-9]}} 2.1 MatMul MatMul#2
// CHECK: time per run by op type (fused groups by their ops):
// CHECK-DAG: Conv+Relu (1 nodes)
// CHECK-DAG: MatMul (1 nodes)

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,16,32,32] x, float[32,16,3,3] w, float[64,128] a, float[128,256] b) => (float[1,32,32,32] y, float[64,256] z) {
  c = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w)
  y = Relu (c)
  z = MatMul (a, b)
}
