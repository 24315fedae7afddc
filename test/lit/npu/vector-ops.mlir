// What exporters write around convolutions runs on the vector unit: Paddle's
// hard-swish (Add, Clip, Mul, Div by constants: one HardSwish after
// canonicalize), a squeeze-and-excitation
// scale computed per channel, SiLU, HardSigmoid, HardSwish, LeakyRelu, Tanh,
// a Relu that cannot fuse, a constant minus a tensor, per-channel Max and Mul,
// a full-shape constant minus and plus a tensor (the constant goes second:
// rsub, add), a Gemm row plus a constant vector. The whole model is one NPU program; the
// CPU path matches ONNX Runtime and the NPU path the CPU path.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/vector_ops.py %t
// RUN: npu-run %t/vector.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/vector.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/vector.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// CHECK: CPU operations (0 of 37):
// CHECK: npu16: 37 ops (100.0%) in 1 partitions; cpu: 0 ops
// CHECK: hs_add+hs_clip+hs_mul+hs_div
// CHECK: se_gate
// CHECK: se_scale
// CHECK: silu_gate
// CHECK: hswish
// CHECK: leaky
// CHECK: relu4
// CHECK: rsub+tanh
// CHECK: max_c
// CHECK: table_sub
// CHECK: table_add
// CHECK: bn
// CHECK: bn+bn_relu
// CHECK: gconv
// CHECK: sum3+sum_relu
// CHECK: mean2
// CHECK: max3
// CHECK: gmp
// CHECK: rmean
// CHECK: fc_bias+y
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference

// A check that can fail: the NPU's output against a corrupted copy of the CPU's.
// RUN: python3 -c "import numpy as n; y = n.load('%t/cpu/y.npy'); y[0, 3] += 1e-2; n.save('%t/cpu/y.npy', y)"
// RUN: not npu-run %t/vector.onnx --target npu -q --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: y: MISMATCH
