// Row bands of an int8 chain (`bands.rs`): `bands.py`'s inverted residual
// block as ONNX Runtime's quantizer writes it (QDQ, int8 activations and
// per-channel weights). Each band keeps the QDQ groups the whole had: its
// input rows are the DequantizeLinear's result sliced, quantized and
// dequantized again with its scale and zero point (Q(DQ(q)) = q: an int8
// move of rows), each DQ -> op -> Q runs as one int8 layer, and the bands'
// results are joined as DQ -> Concat -> Q (an int8 Concat, written in
// place). The expansion, the depthwise conv and the projection run in six
// bands (their halo rows computed again cost fewer cycles than the DRAM
// bytes they save: 17.8x -> 2.4x the minimum DRAM bytes, 385K -> 336K
// cycles against the 5% recompute limit int8 chains had before). Bit for bit
// against the CPU path's evaluation of the QDQ graph and against the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_bands.py %t
// RUN: npu-run %t/bands8.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: npu-run %t/bands8.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 0 --atol 0 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (2 of {{[0-9]+}}):
// CHECK-NEXT: onnx.QuantizeLinear "x_QuantizeLinear"
// CHECK-NEXT: onnx.DequantizeLinear "y_DequantizeLinear"
// CHECK: stem+stem_QuantizeLinear
// CHECK-COUNT-6: dw+dw_QuantizeLinear{{.*}}
// CHECK-NEXT: project+project_QuantizeLinear
// CHECK-NOT: /band
// CHECK-NEXT: residual+residual_QuantizeLinear
// CHECK-NEXT: pool
// CMP: y: ok (max abs 0.000e0
// CMP: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)

