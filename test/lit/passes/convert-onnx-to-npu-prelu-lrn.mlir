// convert-onnx-to-npu on ops npu16 runs as short chains: PRelu as
// x − (1 − slope)·Min(x, 0) (the slope per channel or one value), LRN as
// x·(bias + alpha/size·Σx²)^−beta with the window's sum a 1×1 convolution of
// banded weights on the array and the power an `rpow` activation (v.rsqrt).
// RUN: npu-opt %S/Inputs/prelu-lrn.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s
// The chain runs, against the CPU path:
// RUN: npu-translate --export-onnx %S/Inputs/prelu-lrn.mlir -o %t.onnx
// RUN: npu-run %t.onnx --target cpu --seed 3 --output-dir %t.cpu
// RUN: npu-run %t.onnx --target npu --seed 3 --compare %t.cpu --atol 1e-5 --rtol 1e-5 -v 2>&1 | FileCheck %s --check-prefix=RUN-NPU
// RUN-NPU: npu16: 3 ops (100.0%) in 1 partitions
// RUN-NPU: y: ok
// The comparison can fail: the CPU's answer with one value moved.
// RUN: python3 -c "import numpy as n; a = n.load('%t.cpu/y.npy'); a[0, 4, 2, 3] += 1e-3; n.save('%t.cpu/y.npy', a)"
// RUN: not npu-run %t.onnx --target npu --seed 3 --compare %t.cpu --atol 1e-5 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: y: MISMATCH

// CHECK-LABEL: func.func private @main_npu16_0
// The window of 3 channels: alpha/size = 0.5/3 on the band, the bias 2 per channel.
// CHECK: %[[W:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[{{\[}}[0.16666667, 0.16666667, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.16666667, 0.16666667, 0.16666667, 0.000000e+00,
// The first PRelu: 1 − slope per channel (0.9 … −0.5 for a slope of 1.5).
// CHECK: %[[S:.*]] = "onnx.Constant"() <{value = dense<{{\[}}[{{\[}}[9.000000e-01, 8.000000e-01, 7.000000e-01, 6.000000e-01, 1.500000e+00, 0.39999998, 3.000000e-01, -5.000000e-01]]]]> : tensor<1x1x1x8xf32>}>
// CHECK: %[[M:.*]] = "npu.eltwise"(%arg0, %{{.*}}) <{act = "none", kind = "min"}>
// CHECK: %[[P:.*]] = "npu.eltwise"(%[[M]], %[[S]]) <{act = "none", kind = "mul"}>
// CHECK: %[[X:.*]] = "npu.eltwise"(%arg0, %[[P]]) <{act = "none", kind = "sub"}>
// CHECK: %[[SQ:.*]] = "npu.eltwise"(%[[X]], %[[X]]) <{act = "none", kind = "mul"}>
// CHECK: %[[Z:.*]] = "npu.conv"(%[[SQ]], %[[W]], %{{.*}}) <{act = "none", group = 1 : i64
// CHECK: %[[D:.*]] = "npu.act"(%[[Z]]) <{act = "rpow", beta = 7.500000e-01 : f32}>
// CHECK: "npu.eltwise"(%[[X]], %[[D]]) <{act = "none", kind = "mul"}>
