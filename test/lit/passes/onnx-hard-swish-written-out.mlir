// canonicalize's onnx-hard-swish-written-out: x * Clip(x + 3, 0, 6) / 6, as
// paddle2onnx writes every HardSwish, becomes one onnx.HardSwish (the Mul's
// operands and the Add's in either order); near misses stay as written. The
// CPU path's result matches ONNX Runtime's evaluation of the written-out
// graph; on the NPU the HardSwish is one vector pass, not three layers.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-opt --onnx-shape-inference --canonicalize | FileCheck %s
// CHECK-LABEL: func.func @g
// CHECK: %[[C:.*]] = "onnx.Conv"
// CHECK-NEXT: %[[H:.*]] = "onnx.HardSwish"(%[[C]])
// CHECK-NEXT: %[[H2:.*]] = "onnx.HardSwish"(%[[H]])
// Divided by 5, a Clip to 7, x + 3 times another value: as written.
// CHECK-COUNT-3: "onnx.Div"
// CHECK-NOT: onnx.HardSwish
// CHECK: return
// RUN: npu-translate --import-onnx %t/m.onnxtext | npu-translate --export-onnx -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(3); n.save('%t/x.npy', (4 * r.standard_normal((1, 4, 8, 8))).astype(n.float32)); n.save('%t/z.npy', r.standard_normal((1, 8, 8, 8)).astype(n.float32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input z=%t/z.npy --output-dir %t/cpu -q
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy z=%t/z.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// ORT: miss1: match
// ORT: miss2: match
// ORT: miss3: match
// RUN: npu-run %t/m.onnx --target npu -v --input x=%t/x.npy --input z=%t/z.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 > %t/npu.txt 2>&1
// RUN: FileCheck %s --check-prefix=NPU < %t/npu.txt
// NPU: npu16: 15 ops (100.0%) in 1 partitions
// NPU: layer
// NPU-NEXT: Conv
// NPU-NEXT: Add{{#[0-9]+}}+Clip{{#[0-9]+}}+Mul{{#[0-9]+}}+Div{{#[0-9]+}} 
// NPU-NEXT: Add{{#[0-9]+}}+Clip{{#[0-9]+}}+Mul{{#[0-9]+}}+Div{{#[0-9]+}} 
// NPU-NEXT: Add{{#[0-9]+}}+Clip{{#[0-9]+}} 
// NPU-NEXT: Mul
// NPU: y: ok

//--- m.onnxtext
<ir_version: 10, opset_import: ["" : 19]>
g (float[1,4,8,8] x, float[1,8,8,8] z) => (float[1,8,8,8] y, float[1,8,8,8] miss1, float[1,8,8,8] miss2, float[1,8,8,8] miss3)
<float[8,4,3,3] w = {0.100, -0.220, 0.360, 0.065, -0.140, 0.300, 0.240, -0.050, 0.275, 0.120, -0.260, 0.420, 0.075, -0.160, 0.200, 0.165, -0.060, 0.325, 0.140, -0.300, 0.480, 0.050, -0.110, 0.240, 0.195, -0.070, 0.375, 0.160, -0.200, 0.330, 0.060, -0.130, 0.280, 0.225, -0.080, 0.250, 0.110, -0.240, 0.390, 0.070, -0.150, 0.320, 0.150, -0.055, 0.300, 0.130, -0.280, 0.450, 0.080, -0.100, 0.220, 0.180, -0.065, 0.350, 0.150, -0.320, 0.300, 0.055, -0.120, 0.260, 0.210, -0.075, 0.400, 0.100, -0.220, 0.360, 0.065, -0.140, 0.300, 0.240, -0.050, 0.275, 0.120, -0.260, 0.420, 0.075, -0.160, 0.200, 0.165, -0.060, 0.325, 0.140, -0.300, 0.480, 0.050, -0.110, 0.240, 0.195, -0.070, 0.375, 0.160, -0.200, 0.330, 0.060, -0.130, 0.280, 0.225, -0.080, 0.250, 0.110, -0.240, 0.390, 0.070, -0.150, 0.320, 0.150, -0.055, 0.300, 0.130, -0.280, 0.450, 0.080, -0.100, 0.220, 0.180, -0.065, 0.350, 0.150, -0.320, 0.300, 0.055, -0.120, 0.260, 0.210, -0.075, 0.400, 0.100, -0.220, 0.360, 0.065, -0.140, 0.300, 0.240, -0.050, 0.275, 0.120, -0.260, 0.420, 0.075, -0.160, 0.200, 0.165, -0.060, 0.325, 0.140, -0.300, 0.480, 0.050, -0.110, 0.240, 0.195, -0.070, 0.375, 0.160, -0.200, 0.330, 0.060, -0.130, 0.280, 0.225, -0.080, 0.250, 0.110, -0.240, 0.390, 0.070, -0.150, 0.320, 0.150, -0.055, 0.300, 0.130, -0.280, 0.450, 0.080, -0.100, 0.220, 0.180, -0.065, 0.350, 0.150, -0.320, 0.300, 0.055, -0.120, 0.260, 0.210, -0.075, 0.400, 0.100, -0.220, 0.360, 0.065, -0.140, 0.300, 0.240, -0.050, 0.275, 0.120, -0.260, 0.420, 0.075, -0.160, 0.200, 0.165, -0.060, 0.325, 0.140, -0.300, 0.480, 0.050, -0.110, 0.240, 0.195, -0.070, 0.375, 0.160, -0.200, 0.330, 0.060, -0.130, 0.280, 0.225, -0.080, 0.250, 0.110, -0.240, 0.390, 0.070, -0.150, 0.320, 0.150, -0.055, 0.300, 0.130, -0.280, 0.450, 0.080, -0.100, 0.220, 0.180, -0.065, 0.350, 0.150, -0.320, 0.300, 0.055, -0.120, 0.260, 0.210, -0.075, 0.400, 0.100, -0.220, 0.360, 0.065, -0.140, 0.300, 0.240, -0.050, 0.275, 0.120, -0.260, 0.420, 0.075, -0.160, 0.200, 0.165, -0.060, 0.325, 0.140, -0.300, 0.480, 0.050, -0.110, 0.240, 0.195, -0.070, 0.375, 0.160, -0.200, 0.330, 0.060, -0.130, 0.280, 0.225, -0.080, 0.250}, float three = {3.0}, float zero = {0.0}, float six = {6.0}, float five = {5.0}, float seven = {7.0}>
{
  c = Conv <pads = [1, 1, 1, 1]> (x, w)
  a1 = Add (c, three)
  k1 = Clip (a1, zero, six)
  mul1 = Mul (c, k1)
  hs1 = Div (mul1, six)
  a2 = Add (three, hs1)
  k2 = Clip (a2, zero, six)
  m2 = Mul (k2, hs1)
  y = Div (m2, six)
  b1 = Add (y, three)
  l1 = Clip (b1, zero, six)
  n1 = Mul (y, l1)
  miss1 = Div (n1, five)
  b2 = Add (y, three)
  l2 = Clip (b2, zero, seven)
  n2 = Mul (y, l2)
  miss2 = Div (n2, six)
  b3 = Add (y, three)
  l3 = Clip (b3, zero, six)
  n3 = Mul (z, l3)
  miss3 = Div (n3, six)
}
