// npu-run --profile without --perf times one warm run: a fused group is one
// row named after all its nodes (Conv+Relu), with its MACs, its GFLOP/s and
// their share of one core's measured peak (an FMA loop, timed after); the
// per-op-type table groups by those patterns. A conv whose product writes
// channel panels counts its MACs in the product, not in the copy back to NCHW
// after it (the region of the most time).
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: npu-run %t/m.onnx --profile | FileCheck %s
// CHECK: time per run by node (mean of 1 runs; {{[0-9.]+}} ms in profiled nodes):
// CHECK: (GFLOP/s: 2 x MACs / time; peak: one core's measured peak, {{[0-9]+}} GFLOP/s, 12 chains of {{(16-lane AVX-512|8-lane AVX2)}} multiply-adds for 20 ms)
// CHECK: ms      %  GFLOP/s  peak     MMACs  op
// CHECK-DAG: {{[0-9]+\.[0-9]}} {{[0-9]+}}% 4.7 Conv+Relu Conv#0+Relu#1
// CHECK-DAG: {{[0-9]+\.[0-9]}} {{[0-9]+}}% 2.1 MatMul MatMul#2
// CHECK-DAG: {{[0-9]+\.[0-9]}} {{[0-9]+}}% 4.1 Conv Conv#5{{$}}
// CHECK: time per run by op type (fused groups by their ops):
// CHECK-DAG: Conv+Relu (2 nodes)
// CHECK-DAG: Conv (2 nodes)
// CHECK-DAG: MatMul (1 nodes)

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,16,32,32] x, float[32,16,3,3] w, float[64,128] a, float[128,256] b, float[1,24,14,14] x2) => (float[1,32,32,32] y, float[64,256] z, float[1,96,14,14] y2) {
  c = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x, w)
  y = Relu (c)
  z = MatMul (a, b)
  s2 = Constant <value = int64[4] {96, 24, 3, 3}> ()
  w2 = ConstantOfShape <value = float[1] {0.5}> (s2)
  c2 = Conv <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (x2, w2)
  y2 = Relu (c2)
}
