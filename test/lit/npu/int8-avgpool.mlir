// int8 AveragePool over a window on npu16 (QDQ, as ONNX Runtime's quantizer
// writes it): 2x2 stride 2, 3x3 stride 1, 3x3 stride 2. The vector unit sums
// the window exactly (inputs times kw, so v.poolavg's horizontal mean is the
// sum; rows added vertically), takes the input zero point times the window
// off and requantizes once by s_x / (s_y·K). Bit for bit against the host
// reference; within one output step (0.03) of the CPU path's float
// evaluation and of ONNX Runtime (whose QLinearAveragePool rounds its own way).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_avgpool.py %t
// RUN: npu-run %t/avg.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: npu-run %t/avg.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu --compare %t/cpu --rtol 0 --atol 0.0301 --check-reference --asm-dir %t/asm 2>&1 | FileCheck %s
// CHECK: npu16: 13 ops (86.7%) in 1 partitions
// CHECK: avg2+q2
// CHECK-NEXT: avg3+q3
// CHECK-NEXT: avg3s2+q4
// CHECK: y: ok
// CHECK: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py --atol=0.0301 %t/avg.onnx %t/npu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: FileCheck %s --check-prefix=ASM < %t/asm/avg_npu16_0_program.s
// ASM: .layer "avg2+q2"
// ASM: v.mul.i32 {{.*}}, bcast
// ASM: v.poolavg.i32 {{.*}}, rows=9, window=2{{$}}
// ASM: v.add.i32
// ASM: v.requant.i8
// The comparison can fail: two steps off is not within one.
// RUN: python3 -c "import numpy as n; a = n.load('%t/npu/y.npy'); a[0, 3, 1, 1] += 0.06; n.save('%t/npu/y.npy', a)"
// RUN: python3 %S/../npu-run/Inputs/match_ort.py --atol=0.0301 %t/avg.onnx %t/npu x=%t/x.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: y: differs
// Padded windows that do not count the padding (ONNX's default): the
// inputs are multiplied by L = lcm(1..kw), so a window clipped to w' columns
// gives L/w' times its exact sum, and the zero point's row and the
// requantization depend only on the window's rows inside the image h' (one
// v.requant per output row). One that counts the padding (count_include_pad)
// stays on the CPU, with the reason.
// RUN: npu-run %t/pad.onnx -q --input x=%t/x2.npy --output-dir %t/pad.cpu
// RUN: npu-run %t/pad.onnx --target npu -v --input x=%t/x2.npy --output-dir %t/pad.npu --compare %t/pad.cpu --rtol 0 --atol 0.0801 --check-reference --asm-dir %t/pad.asm 2>&1 | FileCheck %s --check-prefix=PAD
// PAD: onnx.DequantizeLinear "dq4" {{.*}}[element-type] dequantizes an input of avgcip (onnx.AveragePool), whose int8 form the NPU refuses: a padded int8 average that counts the padding
// PAD: npu16: 14 ops (73.7%) in 1 partitions
// PAD: avgpad+q2
// PAD-NEXT: avgpad2+q3
// PAD: y: ok
// PAD: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)
// RUN: python3 %S/../npu-run/Inputs/match_ort.py --atol=0.0801 %t/pad.onnx %t/pad.npu x=%t/x2.npy | FileCheck %s --check-prefix=ORT
// RUN: FileCheck %s --check-prefix=PADASM < %t/pad.asm/pad_npu16_0_program.s
// PADASM: .layer "avgpad+q2"
// PADASM: dma.loadacc.i32 acc[0], %weights+{{[0-9]+}}, rows=4, cols=16
// PADASM: v.mul.i32 {{.*}}, acc[0], {{.*}}bcast
// PADASM: v.poolavg.i32 {{.*}}, window=2
// PADASM: v.add.i32 {{.*}}, acc[2], rows=8, bcast
// PADASM: v.add.i32 {{.*}}, acc[3], rows=8, bcast
// PADASM: v.requant.i8 {{.*}}, rows=8, mult=[[M2:[0-9]+]], shift=
// PADASM: v.requant.i8 {{.*}}, rows=8, mult=[[M3:[0-9]+]], shift=
