// Row bands on npu16 (`bands.rs`): a chain of convolutions, pools and the
// elementwise ops between them whose maps do not fit the scratchpad whole
// runs band by band, each band's maps on chip. Here a 3x3 depthwise Conv over
// 96 channels of 56x56 (18,816 scratchpad rows), the 1x1 projection, the
// residual Add and a MaxPool run in four bands of 14 rows (7 after the pool):
// a band reads the rows its windows reach (15-17 of the expanded map), the
// halo rows again; the 1x1 expansion before the chain stays whole (its bands
// would compute more than 12% of its rows twice). The bands' Slices and their
// Concat move nothing (`schedule/views.rs`): the depthwise conv reads its rows
// where they lie in DRAM, the pool writes its rows where they lie in the
// whole. DRAM traffic 5,105,468 bytes (30.10x the minimum) unbanded, 2,877,692
// (16.96x) in bands; 525,013 -> 559,804 cycles (the halo rows and a layer per band).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/bands.py %t
// RUN: npu-run %t/bands.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/bands.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/bands.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (0 of 36):
// CHECK: expand+expand_clip
// CHECK-COUNT-4: dw+dw_clip {{.*}}
// CHECK-NOT: /band
// CHECK: gap
// CHECK: DRAM traffic {{[0-9]+}} bytes ({{1[0-9]\.[0-9]+}}x the minimum 169640)
// CMP: y: ok
// CMP: reference: 1 NPU partition outputs match the host reference

// The rewrite: each band's rows sliced from the expanded map (its first
// and last band padded above and below as the whole was, the others not),
// the skip's rows for the Add, the bands' pools joined along H. A band's
// convs count the model's MACs of its own rows, not of the halo it shares.
// RUN: npu-translate --import-onnx %t/bands.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition)' | FileCheck %s --check-prefix=IR
// IR: "onnx.Conv"(%{{.*}}) <{pads = array<i64: 0, 0, 0, 0>}> : (tensor<1x16x56x56xf32>, tensor<96x16x1x1xf32>, tensor<96xf32>) -> tensor<1x96x56x56xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x96x56x56xf32>, {{.*}}) -> tensor<1x96x15x56xf32>
// IR-NEXT: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 1, 1, 0, 1>}> : ({{.*}}) -> tensor<1x96x14x56xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x16x56x56xf32>, {{.*}}) -> tensor<1x16x14x56xf32>
// IR: "onnx.MaxPool"({{.*}}) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 0, 1>, strides = array<i64: 2, 2>}> : (tensor<1x16x14x56xf32>) -> tensor<1x16x7x28xf32>
// IR: "onnx.Slice"({{.*}}) : (tensor<1x96x56x56xf32>, {{.*}}) -> tensor<1x96x17x56xf32>
// IR-NEXT: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 0, 1, 0, 1>}> {backend.useful_rows = 14 : i64} : ({{.*}}) -> tensor<1x96x15x56xf32>
// IR-COUNT-2: "onnx.Slice"({{.*}}) : (tensor<1x96x56x56xf32>, {{.*}})
// IR-NEXT: "onnx.Conv"({{.*}}) <{group = 96 : i64, pads = array<i64: 0, 1, 1, 1>}> {backend.useful_rows = 14 : i64} : ({{.*}}) -> tensor<1x96x15x56xf32>
// IR: "onnx.Concat"({{.*}}) <{axis = 2 : i64}> : ({{.*}}) -> tensor<1x16x28x28xf32>
// IR-NEXT: "onnx.GlobalAveragePool"
