// Feature maps to tokens and back, as vision transformers write it (Reshape
// and a [0, 2, 1] Transpose, a Squeeze of H = 1, a Reshape to NHWC and a
// Transpose to NCHW), cost nothing on the NPU: the NHWC bytes are the
// tokens, so no transpose layer is scheduled. The whole model is one NPU
// program; the CPU path matches ONNX Runtime (within 1e-4 relative: its sums
// run in another order) and the NPU path the CPU path.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/tokens.py %t
// RUN: npu-run %t/tokens.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py --rtol=1e-4 %t/tokens.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/tokens.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// CHECK: CPU operations (0 of 19):
// CHECK: npu16: 19 ops (100.0%) in 1 partitions; cpu: 0 ops
// CHECK: layer
// CHECK-NEXT: conv0
// CHECK-NEXT: conv1
// CHECK-NEXT: ln
// CHECK-NEXT: proj
// CHECK-NEXT: conv2
// CHECK-NEXT: proj2
// CHECK-NEXT: conv3
// CHECK-NEXT: squash
// CHECK-NEXT: head
// CHECK-EMPTY:
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference
