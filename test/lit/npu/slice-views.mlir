// Data movement that moves nothing (`schedule/views.rs`): an NPU Slice whose
// elements are one contiguous run of its NHWC input (rows 2..10 of a map:
// every column and channel) is its input at an offset, with no layer; a crop
// (rows and columns) and a slice of channels are not, and copy; a Concat
// along H of two convs' results is written in place by the convs, with no
// layer. The crop's conv read the map at the crop's offset as if it were
// contiguous (every row after its first wrong) until a crop was told apart.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/slice_views.py %t
// RUN: npu-run %t/views.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/views.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// ORT: z: match
// RUN: npu-run %t/views.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (0 of 8):
// CHECK: layer
// CHECK-NEXT: stem
// CHECK-NEXT: crop
// CHECK-NEXT: chans
// CHECK-NEXT: pw_rows
// CHECK-NEXT: pw_chans
// CHECK-NEXT: z
// CHECK-EMPTY:
// CMP: y: ok
// CMP: z: ok
// CMP: reference: 2 NPU partition outputs match the host reference
