// Row bands of an int8 chain (`bands.rs`): `bands.py`'s inverted residual
// block as ONNX Runtime's quantizer writes it (QDQ, int8 activations and
// per-channel weights). Each band keeps the QDQ groups the whole had: its
// input rows are the DequantizeLinear's result sliced, quantized and
// dequantized again with its scale and zero point (Q(DQ(q)) = q: an int8
// move of rows), each DQ -> op -> Q runs as one int8 layer, and the bands'
// results are joined as DQ -> Concat -> Q (an int8 Concat, written in
// place). The depthwise conv, the projection and the residual Add run in
// three bands; the expansion stays whole (at most 5% of an int8 chain's MACs
// may be computed twice: `MAX_RECOMPUTE_INT8`). Bit for bit against the CPU
// path's evaluation of the QDQ graph and against the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/int8_bands.py %t
// RUN: npu-run %t/bands8.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: npu-run %t/bands8.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 0 --atol 0 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (2 of 106):
// CHECK-NEXT: onnx.QuantizeLinear "x_QuantizeLinear"
// CHECK-NEXT: onnx.DequantizeLinear "y_DequantizeLinear"
// CHECK: expand+expand_QuantizeLinear
// CHECK-COUNT-3: dw+dw_QuantizeLinear{{.*}}
// CHECK-NOT: /band
// CHECK: pool
// CMP: y: ok (max abs 0.000e0
// CMP: reference: 1 NPU partition outputs match the host reference (1 integer bit for bit, 0 f32 within 1e-4)

