// Depthwise convolutions on npu16's vector unit (`v.mac`, revision 3, the
// default): each tap one `v.mac` of the input rows under it by an accumulator
// row of the tap's channel weights, in f32 and in int8 (the input's zero point
// as the padding, per-channel weights, the Clip as the requantization's
// clamp). The same models through the array's diagonal tiles on revision 2
// (`--set npu16.vector.mac=false`) give the same outputs. f32 within 1e-4 of
// the CPU path (ONNX Runtime's outputs to 1e-5); int8 bit for bit against the
// host reference and equal to the CPU path's float evaluation of the QDQ graph.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/depthwise.py %t
// RUN: npu-run %t/dw.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/dw.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/dw.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference --asm-dir %t/r3 2>&1 | FileCheck %s --check-prefix=R3
// R3: npu16: 4 ops (100.0%) in 1 partitions
// R3: dw1+relu6
// R3: dw2
// R3: dw3
// R3: y: ok
// R3: reference: 1 NPU partition outputs match the host reference (0 integer bit for bit, 1 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=ASM3 < %t/r3/dw_npu16_0_program.s
// The 40 channels' 9 taps: 27 weight rows in the accumulator, one DMA.
// ASM3: .layer "dw1+relu6"
// ASM3: dma.loadacc.f32 acc[3], %weights{{.*}}, rows=27, cols=16
// ASM3-NOT: mx.preload
// ASM3: v.mac.f32 acc[{{[0-9]+}}], spad[{{[0-9]+}}], acc[3], rows=12
// ASM3: v.relu6.f32
// ASM3: .layer "dw2"
// ASM3-NOT: mx.
// ASM3: .layer "dw3"
// RUN: npu-run %t/dw.onnx --target npu --set npu16.vector.mac=false -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference --asm-dir %t/r2 2>&1 | FileCheck %s --check-prefix=R2
// R2: y: ok
// R2: reference: 1 NPU partition outputs match the host reference (0 integer bit for bit, 1 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=ASM2 < %t/r2/dw_npu16_0_program.s
// ASM2-NOT: v.mac
// ASM2: mx.preload.f32
// ASM2-NOT: v.mac
//
// RUN: npu-run %t/dwq.onnx -q --input x=%t/x.npy --output-dir %t/qcpu
// RUN: npu-run %t/dwq.onnx --target npu -v --input x=%t/x.npy --compare %t/qcpu --rtol 0 --atol 0 --check-reference --asm-dir %t/q3 2>&1 | FileCheck %s --check-prefix=Q3
// Q3: npu16: 13 ops (86.7%) in 1 partitions
// Q3: dw1+q1+dq1+relu6+q2
// Q3: dw2+q3
// Q3: y: ok
// Q3: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=QASM3 < %t/q3/dwq_npu16_0_program.s
// QASM3: dma.loadacc.i32 acc[{{[0-9]+}}], %weights{{.*}}, rows=27, cols=16
// QASM3: dma.load.i8 {{.*}}pad_value=7
// QASM3: v.mac.i8
// QASM3: v.requant.i8
// RUN: npu-run %t/dwq.onnx --target npu --set npu16.vector.mac=false -v --input x=%t/x.npy --compare %t/qcpu --rtol 0 --atol 0 --check-reference --asm-dir %t/q2 2>&1 | FileCheck %s --check-prefix=Q2
// Q2: y: ok
// Q2: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: not grep -q v.mac %t/q2/dwq_npu16_0_program.s
