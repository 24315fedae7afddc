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
// RUN: npu-opt %S/Inputs/qdq.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR

// CHECK: CPU operations (2 of 24):
// CHECK-NEXT: onnx.QuantizeLinear "x_q" [no-lowering] no NPU lowering for onnx.QuantizeLinear
// CHECK-NEXT: onnx.DequantizeLinear "y_dq" [no-lowering] no NPU lowering for onnx.DequantizeLinear
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
// ASM: v.add.i32
// ASM: v.requant.i8 spad[{{[0-9]+}}], acc[{{[0-9]+}}], rows=36, mult=1, shift=2, min=0, per_channel
// ASM: dma.store.i8
// The int8 add: both inputs through the identity tile, scaled, summed, requantized.
// ASM: mx.preload.i8 spad[0], k=16, n=16
// ASM: v.mul.i32
// ASM: v.add.i32
// ASM: v.requant.i8
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
