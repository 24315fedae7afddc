// Dynamically quantized products on npu16, as ONNX Runtime's quantize_dynamic
// writes them: MatMulInteger of DynamicQuantizeLinear's uint8 output (its
// zero point known only at run time) by constant weights, uint8 with a zero
// point per column and int8 with one per tensor. Before partitioning each
// becomes an int8 product with zero points 0 (on the array) and exact i32
// corrections (on the CPU: the activations less 128, the zero point times the
// weights' column sums, the weight zero point times the activations' row
// sums); bit for bit against ONNX Runtime and the host reference. An
// unpadded ConvInteger of the same (the 1x1 one) too, its window sums of a'
// a ConvInteger with a filter of ones on the array; the padded ones stay on
// the CPU (their padding is the run-time zero point).
// RUN: rm -rf %t && python3 %S/../npu-run/Inputs/int8_asymmetric.py %t
// RUN: npu-run %t/m.onnx --target npu -v --input f=%t/f.npy --input g=%t/g.npy --input x=%t/x.npy --input a=%t/a.npy --output-dir %t/npu --check-reference 2>&1 | FileCheck %s
// CHECK: onnx.ConvInteger "ConvInteger#1" [element-type] uint8 activations (the array multiplies int8)
// CHECK: npu16: 4 ops (9.1%) in 1 partitions
// CHECK: ConvInteger#2
// CHECK-NEXT: ConvInteger#2
// CHECK-NEXT: MatMulInteger#4
// CHECK-NEXT: MatMulInteger#5
// CHECK: reference: 4 NPU partition outputs match the host reference (4 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/m.onnx %t/npu f=%t/f.npy g=%t/g.npy x=%t/x.npy a=%t/a.npy | FileCheck %s --check-prefix=ORT
// ORT: dyn_conv: match
// ORT: dyn_pointwise: match
// ORT: dyn_matmul: match
// ORT: dyn_matmul_s8: match
// The products run on the array as int8 with i32 results.
// RUN: npu-run %t/m.onnx --target npu --input f=%t/f.npy --input g=%t/g.npy --input x=%t/x.npy --input a=%t/a.npy --asm-dir %t/asm > /dev/null
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/int8_asymmetric_npu16_0_program.s
// ASM: mx.mul.i8
// ASM: dma.storeacc.i32
// The comparison can fail: an int32 output off by one differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/npu/dyn_matmul_s8.npy'); a[1, 0, 5] -= 1; n.save('%t/npu/dyn_matmul_s8.npy', a)"
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/m.onnx %t/npu f=%t/f.npy g=%t/g.npy x=%t/x.npy a=%t/a.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: dyn_matmul_s8: differs
