// Row bands on npu16 (`bands.rs`): a chain of convolutions, pools and the
// elementwise ops between them whose maps do not fit the scratchpad whole
// runs band by band, each band's maps on chip. Here the 1x1 expansion to 96
// channels of 56x56 (18,816 scratchpad rows), the 3x3 depthwise Conv, the 1x1
// projection, the residual Add and the stride-2 MaxPool run in six bands of
// 5 pooled rows (3 in the last). A band's expansion computes the rows the
// depthwise window reaches, its halo rows again (a 1x1 conv's row costs
// fewer cycles than joining it); the pool's window takes its first row from
// the band before instead, joined on chip to the band's new rows (a
// rolling window: `pool/bandN`, no MACs computed twice, no DRAM bytes).
// The bands' other Slices and their Concat move nothing
// (`schedule/views.rs`): each band's expansion reads its rows where they lie
// in DRAM, the pools write their rows where they lie in the whole. DRAM
// traffic 5,105,468 bytes (30.10x the minimum) unbanded, 328,444 (1.94x) in
// bands, for 525,013 -> 572,454 cycles (the halo rows, and five layers a band).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/bands.py %t
// RUN: npu-run %t/bands.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/bands.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/bands.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (0 of 70):
// CHECK: stem+stem_relu
// CHECK-NOT: /band0
// CHECK-COUNT-6: dw+dw_clip {{.*}}
// CHECK-NOT: expand/band
// CHECK: pool/band5 {{.*}} 0{{$}}
// CHECK: gap
// CHECK: DRAM traffic {{[0-9]+}} bytes ({{[1-2]\.[0-9]+}}x the minimum 169640)
// CMP: y: ok
// CMP: reference: 1 NPU partition outputs match the host reference

// The rewrite: each band's rows sliced from the stem's map (the first and
// last band's depthwise conv padded above and below as the whole was, the
// others not), the skip's rows for the Add, the Add's last row of the band
// before joined to the band's rows for the pool, the bands' pools joined
// along H. A band's convs count the model's MACs of their own rows, not of
// the halo rows an earlier band computed.
// RUN: npu-translate --import-onnx %t/bands.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition)' | FileCheck %s --check-prefix=IR
// IR: "onnx.Conv"(%arg0, {{.*}}) -> tensor<1x16x56x56xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x16x56x56xf32>, {{.*}}) -> tensor<1x16x11x56xf32>
// IR-NEXT: "onnx.Conv"({{.*}}) <{pads = array<i64: 0, 0, 0, 0>}> : ({{.*}}) -> tensor<1x96x11x56xf32>
// IR-NEXT: "onnx.Clip"
// IR-NEXT: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 1, 1, 0, 1>}> : ({{.*}}) -> tensor<1x96x10x56xf32>
// IR-NEXT: "onnx.Clip"
// IR-NEXT: "onnx.Conv"({{.*}}) -> tensor<1x16x10x56xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x16x56x56xf32>, {{.*}}) -> tensor<1x16x10x56xf32>
// IR-NEXT: "onnx.Add"
// IR-NEXT: "onnx.MaxPool"({{.*}}) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 0, 1>, strides = array<i64: 2, 2>}> : (tensor<1x16x10x56xf32>) -> tensor<1x16x5x28xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x16x56x56xf32>, {{.*}}) -> tensor<1x16x12x56xf32>
// IR-NEXT: "onnx.Conv"({{.*}}) <{pads = array<i64: 0, 0, 0, 0>}> {backend.useful_rows = 10 : i64} : ({{.*}}) -> tensor<1x96x12x56xf32>
// IR-NEXT: "onnx.Clip"
// IR-NEXT: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 0, 1, 0, 1>}> : ({{.*}}) -> tensor<1x96x10x56xf32>
// IR: "onnx.Add"
// IR: "onnx.Slice"({{.*}}) : (tensor<1x16x10x56xf32>, {{.*}}) -> tensor<1x16x1x56xf32>
// IR-NEXT: "onnx.Concat"({{.*}}) <{axis = 2 : i64}> : (tensor<1x16x1x56xf32>, tensor<1x16x10x56xf32>) -> tensor<1x16x11x56xf32>
// IR-NEXT: "onnx.MaxPool"({{.*}}) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 1, 0, 1>, strides = array<i64: 2, 2>}> : (tensor<1x16x11x56xf32>) -> tensor<1x16x5x28xf32>
// IR: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 0, 1, 1, 1>}> : ({{.*}}) -> tensor<1x96x6x56xf32>
// IR: "onnx.Concat"({{.*}}) <{axis = 2 : i64}> : ({{.*}}) -> tensor<1x16x28x28xf32>
// IR-NEXT: "onnx.GlobalAveragePool"
