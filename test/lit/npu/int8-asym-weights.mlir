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
// A depthwise conv runs on the vector unit (v.mac), whose weight rows are i32
// lanes: its filter holds w - zw as they are (an i16 npu.conv filter), here
// uint8 weights with a zero point per channel, 0 on a channel holding 255.
// RUN: npu-run %t/dw.onnx -q --input x=%t/x.npy --output-dir %t/dw.cpu
// RUN: npu-run %t/dw.onnx --target npu -v --input x=%t/x.npy --output-dir %t/dw.npu --compare %t/dw.cpu --rtol 0 --atol 0 --check-reference --asm-dir %t/dw.asm 2>&1 | FileCheck %s --check-prefix=DW
// DW: npu16: 4 ops (66.7%) in 1 partitions
// DW: dwconv+yq
// DW: y: ok (max abs 0.000e0
// DW: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/dw.onnx %t/dw.npu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// RUN: FileCheck %s --check-prefix=DWASM < %t/dw.asm/dw_npu16_0_program.s
// DWASM: dma.loadacc.i32
// DWASM: v.mac.i8
// RUN: npu-translate --import-onnx %t/dw.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=DWIR
// DWIR: "npu.conv"({{.*}}) <{act = "none", group = 4 : i64{{.*}} : (tensor<1x8x8x4xi8>, tensor<3x3x1x4xi16>
// Without v.mac (npu16 revision 2) the array's int8 tiles cannot hold them: the CPU, with the reason.
// RUN: npu-run %t/dw.onnx --target npu --set npu16.vector.mac=false -v --input x=%t/x.npy 2>&1 | FileCheck %s --check-prefix=DWR2
// DWR2: onnx.Conv "dwconv" [element-type] int8 pattern refused: weights: uint8 weights (the array multiplies int8)
