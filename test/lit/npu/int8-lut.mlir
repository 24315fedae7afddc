// int8 functions of one value on npu16 (`v.lut`, npu16 revision 3): each
// DequantizeLinear → f → QuantizeLinear of a QDQ model (Sigmoid, HardSwish,
// Tanh, LeakyRelu, Elu, Softplus, HardSigmoid, Erf, and a Relu with no
// producer to fuse into) becomes an `npu.lut` whose 256 entries the compiler
// computes from the two quantizations; a table read only by a Concat of
// another scale gives the Concat's quantization directly (no requantizing
// layer). Equal to the CPU path's float evaluation bit for bit, which equals
// ONNX Runtime; bit for bit against the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_lut.py %t
// RUN: npu-run %t/lut.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/lut.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/lut.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 0 --atol 0 --check-reference --asm-dir %t/asm 2>&1 | FileCheck %s
// CHECK: CPU operations (2 of 47):
// CHECK-NEXT: onnx.QuantizeLinear "q0"
// CHECK-NEXT: onnx.DequantizeLinear "dq12"
// CHECK: npu16: 45 ops (95.7%) in 1 partitions
// CHECK: relu_in+q1
// CHECK: sigmoid+q3
// CHECK: hardswish+q4
// CHECK: tanh+q5
// CHECK: leakyrelu+q6
// CHECK: elu+q7
// CHECK: softplus+q8
// CHECK: hardsigmoid+q9
// CHECK: erf+q10
// CHECK-NEXT: cat
// CHECK: y: ok (max abs 0.000e0
// CHECK: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/lut_npu16_0_program.s
// ASM: .layer "sigmoid+q3"
// ASM-NEXT: dma.loadacc.i32 acc[0], %weights+{{[0-9]+}}, rows=16, cols=16
// ASM: dma.load.i8 spad[0],
// ASM: v.lut.i8 spad[0], spad[0], acc[0], rows=16
// ASM: dma.store.i8
// The tables, by hand: Sigmoid's input q means (q - 3)·0.06; its output goes
// through its own quantization (1/255, -128) to the Concat's (0.03, -10):
// q = -128 -> sigmoid(-7.86) = 0.0004 -> -128 -> 0.0 -> -10; q = 0 ->
// sigmoid(-0.18) = 0.455 -> -12 -> 0.4549 -> 5; q = 127 -> 0.9994 -> 127 -> 1.0 -> 23.
// RUN: npu-translate --import-onnx %t/lut.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR
// IR: "npu.lut"(%arg0) <{table = array<i64: -128, -128,
// IR: "npu.lut"({{.*}}) <{table = array<i64: -10, -10, {{(-?[0-9]+, ){126}[5]}}, {{(-?[0-9]+, ){126}23>}}}>
// Revision 2 (no v.lut) keeps them on the CPU and says why; the Concat's
// inputs are requantized on the NPU then (fixed point: within one step, 0.1).
// RUN: npu-run %t/lut.onnx --target npu --set npu16.vector.lut=false -v --input x=%t/x.npy --compare %t/cpu --rtol 0 --atol 0.1001 2>&1 | FileCheck %s --check-prefix=R2
// R2: onnx.Sigmoid "sigmoid" {{.*}}[element-type] int8 pattern refused: an int8 Sigmoid needs v.lut (vector.lut = false: npu16 revision 2)
// R2: y: ok
// x·f(x) of one int8 tensor is one table too: SiLU (x·sigmoid(x)) and
// x·hardsigmoid(x), each a Mul of the tensor and its function between QDQ
// convolutions; equal to the CPU path and ONNX Runtime bit for bit.
// RUN: npu-run %t/swish.onnx -q --input x=%t/x2.npy --output-dir %t/cpu2
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/swish.onnx %t/cpu2 x=%t/x2.npy | FileCheck %s --check-prefix=ORT
// RUN: npu-run %t/swish.onnx --target npu -v --input x=%t/x2.npy --compare %t/cpu2 --rtol 0 --atol 0 --check-reference 2>&1 | FileCheck %s --check-prefix=SWISH
// SWISH: npu16: 26 ops (92.9%) in 1 partitions
// SWISH: c1+q1
// SWISH-NEXT: silu+q3
// SWISH-NEXT: c2+q4
// SWISH-NEXT: hswish+q6
// SWISH-NEXT: c3+q7
// SWISH: y: ok (max abs 0.000e0
// SWISH: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
