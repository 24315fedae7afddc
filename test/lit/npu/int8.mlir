// Quantized (QDQ) models run on the NPU in int8: each Conv with its
// DequantizeLinears and QuantizeLinear, the DequantizeLinear → Relu →
// QuantizeLinear after it, and the residual Add become int8 npu ops; only
// the model's input quantization and output dequantization stay on the
// CPU; a MaxPool between a DQ and a Q of one scale pools the int8 values. The NPU's outputs equal the host reference bit for bit, and the
// CPU path's float evaluation of the QDQ graph within two output steps.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/qdq.mlir -o %t/qdq.onnx
// RUN: npu-run %t/qdq.onnx --target cpu --seed 1 --output-dir %t/cpu
// RUN: npu-run %t/qdq.onnx --target npu -v --seed 1 --check-reference --compare %t/cpu --atol 0.141 --rtol 0 --asm-dir %t/asm > %t/out.txt 2> %t/err.txt
// RUN: FileCheck %s < %t/out.txt
// RUN: FileCheck %s --check-prefix=OK < %t/err.txt
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/qblock_npu16_0_program.s
// Revision 3 (no bias row in the vector unit): the bias in a v.add of its own, the same int8 outputs.
// RUN: npu-run %t/qdq.onnx --target npu --seed 1 --set npu16.vector.bias=false --check-reference --output-dir %t/r3 --asm-dir %t/asm3 -q
// RUN: npu-run %t/qdq.onnx --target npu --seed 1 --output-dir %t/r4 -q
// RUN: cmp %t/r3/y.npy %t/r4/y.npy
// RUN: FileCheck %s --check-prefix=R3ASM < %t/asm3/qblock_npu16_0_program.s
// R3ASM-NOT: bias=
// R3ASM: v.add.i32 acc[{{[0-9]+}}], acc[{{[0-9]+}}], acc[0], rows=36, bcast
// R3ASM-NEXT: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=36, mult=1, shift=2, min=0, per_channel
// R3ASM-NOT: bias=
// Without `v.mac` (revision 2): the add's inputs through the identity tile, scaled and summed; the same int8 outputs.
// RUN: npu-run %t/qdq.onnx --target npu --seed 1 --set npu16.vector.mac=false --check-reference --output-dir %t/r2 --asm-dir %t/asm2 -q
// RUN: cmp %t/r2/y.npy %t/r4/y.npy
// RUN: FileCheck %s --check-prefix=R2ASM < %t/asm2/qblock_npu16_0_program.s
// R2ASM-NOT: v.mac
// R2ASM: mx.preload.i8 spad[0], k=16, n=16
// R2ASM: v.mul.i32
// R2ASM: v.add.i32
// R2ASM: v.requant.i8
// A layer that cannot be scheduled (a scratchpad of 60 rows: conv1's smallest
// tile needs 120) leaves the NPU with its DequantizeLinears and QuantizeLinear;
// the rest of the block compiles again and stays (the int8 groups do not take
// back a member that failed to compile).
// RUN: npu-run %t/qdq.onnx --target npu -v --seed 1 --set npu16.scratchpad.rows=60 --compare %t/cpu --atol 0.141 --rtol 0 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: onnx.Conv "conv1" [compile-failed] npu16 could not compile its partition: npu.conv: the smallest tile needs 120 scratchpad rows; the scratchpad has 60
// SMALL: npu16: 11 ops (45.8%) in 1 partitions
// SMALL: y: ok
// QLinearConv and QLinearMatMul (zero points 0) are the same int8 products
// (the CPU path has no QLinearConv lowering: the reference is the check).
// RUN: npu-translate --export-onnx %S/Inputs/qlinear.mlir -o %t/ql.onnx
// RUN: npu-run %t/ql.onnx --target npu -v --seed 3 --check-reference 2>&1 | FileCheck %s --check-prefix=QL
// QL: CPU operations (4 of 9):
// QL: npu16: 5 ops (55.6%) in 1 partitions
// QL: qconv+qconv_dq+relu+relu_q
// QL: qmatmul
// QL: reference: 2 NPU partition outputs match the host reference (2 integer bit for bit, 0 f32 within 1e-4)
// ConvInteger and MatMulInteger (int8, zero points 0): the i32 accumulators,
// bit for bit.
// RUN: npu-translate --export-onnx %S/Inputs/integer.mlir -o %t/int.onnx
// RUN: npu-run %t/int.onnx --target npu -v --seed 3 --check-reference --output-dir %t/int.npu 2>&1 | FileCheck %s --check-prefix=INT
// INT: npu16: 2 ops (100.0%) in 1 partitions
// INT: convint
// INT: matmulint
// INT: reference: 2 NPU partition outputs match the host reference (2 integer bit for bit, 0 f32 within 1e-4)
// RUN: npu-run %t/int.onnx --target npu -v --seed 3 --asm-dir %t/int.asm > /dev/null
// RUN: FileCheck %s --check-prefix=INTASM < %t/int.asm/integer_npu16_0_program.s
// INTASM: .arg %out0 out i32 [1, 6, 6, 6]
// INTASM: mx.mul.i8
// INTASM: dma.storeacc.i32
// The same block with ONNX Runtime's default activations (int8 with zero
// points): the input's zero point is folded into the bias and is the
// padding's value (the DMA writes it, every tap runs), the output's is added
// by the requantization, an Add takes its inputs' off; bit for bit against
// the reference, within two output steps of the float QDQ graph.
// RUN: npu-translate --export-onnx %S/Inputs/qdq-asym.mlir -o %t/qa.onnx
// RUN: npu-run %t/qa.onnx --target cpu --seed 1 --output-dir %t/qa.cpu
// RUN: npu-run %t/qa.onnx --target npu -v --seed 1 --check-reference --compare %t/qa.cpu --atol 0.141 --rtol 0 --asm-dir %t/qa.asm --output-dir %t/qa.npu > %t/qa.txt 2> %t/qa.err
// RUN: FileCheck %s --check-prefix=ASYM < %t/qa.txt
// RUN: FileCheck %s --check-prefix=OK < %t/qa.err
// RUN: FileCheck %s --check-prefix=ASYMASM < %t/qa.asm/qasym_npu16_0_program.s
// RUN: npu-opt %S/Inputs/qdq-asym.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=ASYMIR
// ASYM: npu16: 22 ops (91.7%) in 1 partitions
// ASYM: conv1+conv1_q+conv1_dq+relu1+relu1_q
// ASYM: add3+add3_q+add3_dq+relu3+relu3_q
// ASYMASM: dma.load.i8 spad[{{[0-9]+}}], %in0, rows=0, cols=12, pad_top=6, pad_value=3
// ASYMASM: dma.load.i8 spad[{{[0-9]+}}], %in0+{{[0-9]+}}, rows=1, cols=8, pad_left=4, pad_value=3
// ASYMASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=36, mult=1, shift=2, zp=-128, per_channel
// ASYMASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=36, mult=1, shift=2, zp=10, per_channel
// The add's zero points: one constant row, -(za·ma + zb·mb), added to the sum in the
// requantization's pass (npu16 revision 4; revision 3 adds it with a v.add first).
// ASYMASM: v.mac.i8 acc[{{[0-9]+}}], spad[{{[0-9]+}}], acc[1], rows={{[0-9]+}}, accumulate
// ASYMASM-NEXT: v.requant.i8 {{.*}} zp=-128, bias=2
// The bias of conv1 is b - 3·Σw per output channel (b = 1747, Σw of channel 0 = -317: 1747 + 951).
// ASYMIR: %[[B:.*]] = "onnx.Constant"() <{value = dense<[2698, {{.*}}]> : tensor<8xi32>}>
// ASYMIR: "npu.conv"(%arg0, {{.*}}, %[[B]]) <{act = "relu", {{.*}}pad_value = 3 : i64, pads = array<i64: 1, 1, 1, 1>, qmax = 127 : i64, qmin = -128 : i64, {{.*}}zp = -128 : i64}>
// ASYMIR: "npu.eltwise"({{.*}}) <{act = "relu", in_mult = array<i64: {{[0-9]+}}, {{[0-9]+}}>, in_zp = array<i64: -128, 10>, kind = "add", {{.*}}zp = -128 : i64}>
// uint8 activations between QuantizeLinear and DequantizeLinear become int8
// less 128 before partitioning (exact): the uint8 block gives the int8
// block's results bit for bit, all of it on the NPU.
// RUN: npu-translate --export-onnx %S/Inputs/qdq-u8.mlir -o %t/qu8.onnx
// RUN: npu-run %t/qu8.onnx --target npu -v --seed 1 --check-reference --compare %t/qa.npu --atol 0 --rtol 0 2>&1 | FileCheck %s --check-prefix=U8
// U8: npu16: 22 ops (91.7%) in 1 partitions
// U8: y: ok (max abs 0.000e0
// U8: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit
// A classifier head: the GlobalAveragePool between a DQ and a Q averages
// int8 on the vector unit (inputs shifted left by 16 bits, the zero point's
// row taken off, one requantization), the Flatten between a DQ and a Q of one
// scale moves int8: the whole model is one NPU program.
// RUN: npu-translate --export-onnx %S/Inputs/qdq-head.mlir -o %t/qh.onnx
// RUN: npu-run %t/qh.onnx --target cpu --seed 4 --output-dir %t/qh.cpu
// RUN: npu-run %t/qh.onnx --target npu -v --seed 4 --check-reference --compare %t/qh.cpu --atol 0.04 --rtol 0 --asm-dir %t/qh.asm 2>&1 | FileCheck %s --check-prefix=HEAD
// RUN: FileCheck %s --check-prefix=HEADASM < %t/qh.asm/qhead_npu16_0_program.s
// HEAD: npu16: 14 ops (87.5%) in 1 partitions
// HEAD: gap+gap_q
// HEAD: y: ok
// HEAD: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit
// HEADASM: v.shl.i32 acc[{{[0-9]+}}], acc[{{[0-9]+}}], rows=25, amount=16
// HEADASM: v.poolavg.i32 acc[{{[0-9]+}}], acc[{{[0-9]+}}], rows=1, window=25
// HEADASM: v.add.i32 acc[{{[0-9]+}}], acc[{{[0-9]+}}], acc[0], rows=1, bcast
// HEADASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=1, mult={{[0-9]+}}, shift={{[0-9]+}}, zp=-120
// Quantized patterns the NPU refuses fall back with the exact reason, on
// the op, its DequantizeLinears (the weights' too) and its QuantizeLinear;
// the CPU path runs them all.
// RUN: npu-translate --export-onnx %S/Inputs/qdq-refused.mlir -o %t/qr.onnx
// RUN: npu-run %t/qr.onnx --target cpu --seed 1 --output-dir %t/qr.cpu
// RUN: npu-run %t/qr.onnx --target npu -v --seed 1 --compare %t/qr.cpu 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: onnx.DequantizeLinear "wa_dq" [element-type] a constant's dequantization, copied to where its user conv_asym_w (onnx.Conv) runs: int8 pattern refused: weights: asymmetric weights (zero point 5) in a grouped convolution (the array has no weight zero point: ungrouped products run such weights as symmetric parts, depthwise ones on the vector unit)
// REFUSED: onnx.Conv "conv_asym_w" [element-type] int8 pattern refused: weights: asymmetric weights (zero point 5
// REFUSED: onnx.QuantizeLinear "q1" [element-type] quantizes the result of conv_asym_w (onnx.Conv), whose int8 form the NPU refuses: weights: asymmetric weights
// REFUSED: onnx.Conv "conv_u8" [element-type] int8 pattern refused: input: uint8 activations (the array multiplies int8)
// REFUSED: onnx.Conv "conv_zero_scale" [element-type] int8 pattern refused: input: a DequantizeLinear scale 0 is not a positive finite number
// REFUSED: onnx.Conv "conv_per_axis_out" [element-type] int8 pattern refused: results quantized per axis (2 scales; one per tensor)
// REFUSED: y4: ok
// RUN: npu-opt %S/Inputs/qdq.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR

// CHECK: CPU operations (2 of 24):
// CHECK-NEXT: onnx.QuantizeLinear "x_q" [no-lowering] quantizes a model input: the NPU runs a QuantizeLinear only fused into the op before it
// CHECK-NEXT: onnx.DequantizeLinear "y_dq" [no-lowering] dequantizes a model output: the NPU runs a DequantizeLinear only fused into the int8 op after it
// CHECK-NEXT: npu16: 22 ops (91.7%) in 1 partitions
// CHECK: conv1+conv1_q+conv1_dq+relu1+relu1_q
// CHECK: conv2+conv2_q
// CHECK: add3+add3_q+add3_dq+relu3+relu3_q
// CHECK: maxpool4
// OK: y: ok
// OK: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)

// ASM: .arg %in0 in i8 [1, 6, 6, 4]
// ASM: .arg %out0 out i8 [1, 3, 3, 8]
// ASM: dma.loadacc.i32 acc[0]
// ASM: mx.mul.i8
// The bias in the requantization's pass (npu16 revision 4, `vector.bias`): no v.add.
// ASM-NOT: v.add
// ASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=36, mult=1, shift=2, min=0, per_channel, bias=0
// ASM: dma.store.i8
// The int8 add: each input's rows times its multiplier's row, summed in one accumulator (`v.mac`), requantized.
// ASM: v.mac.i8 acc[[[SUM:[0-9]+]]], spad[{{[0-9]+}}], acc[0], rows=18
// ASM-NEXT: v.mac.i8 acc[[[SUM]]], spad[{{[0-9]+}}], acc[1], rows=18, accumulate
// ASM-NEXT: v.requant.i8 spad[{{[0-9]+}}], acc[[[SUM]]], rows=18
// The int8 max pool: into the accumulator through the identity tile, pooled, back by an exact identity requantization.
// ASM: mx.mul.i8
// ASM: v.poolmax.i32
// ASM: v.max.i32
// ASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=9, mult=2147483647, shift=0

// IR-LABEL: func.func private @qblock_npu16_0(%arg0: tensor<1x6x6x4xi8>) -> tensor<1x3x3x8xi8>
// IR-NOT: onnx.DequantizeLinear
// IR-NOT: onnx.QuantizeLinear
// IR: "npu.conv"(%arg0, {{.*}}) <{act = "relu", group = 1 : i64, macs = 10368 : i64, mult = array<i64: {{.*}}>, pads = array<i64: 1, 1, 1, 1>, qmax = 127 : i64, qmin = 0 : i64, shift = array<i64: {{.*}}>, strides = array<i64: 1, 1>}> : (tensor<1x6x6x4xi8>, tensor<3x3x4x8xi8>, tensor<8xi32>) -> tensor<1x6x6x8xi8>
// IR: "npu.conv"(%arg0, {{.*}}) <{act = "none", {{.*}}qmax = 127 : i64, qmin = -128 : i64
// IR: "npu.eltwise"({{.*}}) <{act = "relu", in_mult = array<i64: {{[0-9]+}}, {{[0-9]+}}>, kind = "add", mult = array<i64: {{[0-9]+}}>, qmax = 127 : i64, qmin = 0 : i64, shift = array<i64: {{[0-9]+}}>}>
// IR: "npu.pool"({{.*}}) <{count_include_pad = 0 : i64, kernel = array<i64: 3, 3>, kind = "max", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x6x6x8xi8>) -> tensor<1x3x3x8xi8>
// IR-NOT: onnx.Transpose
// IR: return
