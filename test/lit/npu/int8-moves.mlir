// int8 data movement on npu16: a nearest-neighbour Resize and a Slice between
// a DequantizeLinear and a QuantizeLinear of one scale and zero point (as
// ONNX Runtime's quantizer writes them), and a Concat whose inputs and
// output share theirs, move int8 values (DMA through the scratchpad); the
// DQ/Q pairs go. A Concat of inputs of two scales (ONNX Runtime's form)
// requantizes the other input first (an int8 add of it to itself, halves of
// weight 2^19: one rounding). Bit for bit against the host reference, equal
// to the CPU path's float evaluation of the QDQ graph and to ONNX Runtime.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_moves.py %t
// RUN: npu-run %t/moves.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: npu-run %t/moves.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 0 --atol 0 --check-reference --asm-dir %t/asm 2>&1 | FileCheck %s
// CHECK: CPU operations (2 of 24):
// CHECK-NEXT: onnx.QuantizeLinear "q0"
// CHECK-NEXT: onnx.DequantizeLinear "dq6"
// CHECK: npu16: 22 ops (91.7%) in 1 partitions
// CHECK: up
// CHECK: sl
// CHECK: cat
// CHECK: y: ok
// CHECK: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/moves_npu16_0_program.s
// ASM: .layer "up"
// ASM: dma.load.i8
// ASM: dma.store.i8
// ASM: .layer "cat"
// ASM: dma.load.i8
// ASM-NOT: dma.loadacc.f32
// ASM: .layer "c3+q6"
// RUN: npu-run %t/requant.onnx -q --input x=%t/x2.npy --output-dir %t/cpu2
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/requant.onnx %t/cpu2 x=%t/x2.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/requant.onnx --target npu -v --input x=%t/x2.npy --compare %t/cpu2 --rtol 0 --atol 0 --check-reference --asm-dir %t/asm2 2>&1 | FileCheck %s --check-prefix=REQUANT
// REQUANT: npu16: 22 ops (91.7%) in 1 partitions
// REQUANT: c2+q4
// REQUANT-NEXT: dq4
// REQUANT-NEXT: cat
// REQUANT: y: ok
// REQUANT: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=REQASM < %t/asm2/requant_npu16_0_program.s
// REQASM: .layer "dq4"
// REQASM: v.requant.i8 {{.*}} zp=-7
