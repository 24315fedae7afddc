// Weights with zero points on npu16 (uint8 weights as ONNX Runtime's
// `weight_type=QUInt8` writes them): the array multiplies int8 with no weight
// zero point, so each such product reduces over its input n times, the
// differences w - zw (9-bit) split into n symmetric int8 parts: 3 for the
// Conv (a channel with zero point 0 holds 255), 2 for the MatMul (a zero
// point per column). The activation is read n times (an int8 Concat, a move);
// the MACs reported are the model's. QDQ and QOperator (QLinearConv,
// QLinearMatMul, uint8 activations) forms; equal to the CPU path and to ONNX
// Runtime bit for bit, and to the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_asym_weights.py %t
// RUN: npu-run %t/qdq.onnx -q --input x=%t/x.npy --output-dir %t/qdq.cpu
// RUN: npu-run %t/qdq.onnx --target npu -v --input x=%t/x.npy --output-dir %t/qdq.npu --compare %t/qdq.cpu --rtol 0 --atol 0 --check-reference 2>&1 | FileCheck %s
// CHECK: CPU operations (2 of 22):
// CHECK: npu16: 20 ops (90.9%) in 1 partitions
// CHECK: conv+cq {{.*}} 3456
// CHECK: matmul+yq {{.*}} 480
// CHECK: y: ok (max abs 0.000e0
// CHECK: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/qdq.onnx %t/qdq.npu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-translate --import-onnx %t/qdq.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR
// IR: "npu.concat"(%arg0, %arg0, %arg0) <{axis = 3 : i64}>
// IR: "npu.conv"({{.*}}macs = 3456 : i64{{.*}} : (tensor<1x8x8x12xi8>, tensor<3x3x12x6xi8>
// IR: "npu.concat"(%[[F:.*]], %[[F]]) <{axis = 1 : i64}>
// IR: "npu.matmul"({{.*}}macs = 480 : i64{{.*}} : (tensor<1x192xi8>, tensor<192x5xi8>
// RUN: npu-run %t/qop.onnx -q --input x=%t/x.npy --output-dir %t/qop.cpu
// RUN: npu-run %t/qop.onnx --target npu -v --input x=%t/x.npy --output-dir %t/qop.npu --compare %t/qop.cpu --rtol 0 --atol 0 --check-reference 2>&1 | FileCheck %s --check-prefix=QOP
// QOP: qconv
// QOP: qmatmul
// QOP: y: ok (max abs 0.000e0
// QOP: reference: 2 NPU partition outputs match the host reference (2 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/qop.onnx %t/qop.npu x=%t/x.npy | FileCheck %s --check-prefix=ORT
