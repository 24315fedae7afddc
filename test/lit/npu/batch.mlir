// A batch of images on npu16 (`batch.rs`): each Conv, pool and LRN of a
// batch of N becomes, before partitioning, a Split along the batch, the op
// once per image and a Concat (DMA copies); elementwise ops, the Gemm (the
// batch is its rows) and Flatten take the batch as they are. A small CNN over
// three images runs whole on the NPU; the CPU path matches ONNX Runtime, the
// NPU path the CPU path and the host reference (on the NPU it was 18,576
// cycles with a Concat and a Split between every two per-image ops, 16,714
// without them, 16,339 now that the Split is a view of its input and the
// Concats are written in place: `schedule/views.rs`).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/batch.py %t
// RUN: npu-run %t/batch.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/batch.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/batch.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (0 of 32):
// CHECK: npu16: 32 ops (100.0%) in 1 partitions
// CMP: y: ok
// CMP: reference: 1 NPU partition outputs match the host reference

// After the rewrite: one Split of the input; the convs, their Relus (fused
// into them on the NPU), the pools and LRNs pass the images on with no Concat
// and Split between them; a Concat where a batched op (the residual Add)
// reads them, a Split again for the GlobalAveragePool.
// RUN: npu-translate --import-onnx %t/batch.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition)' | FileCheck %s --check-prefix=IR
// IR: "onnx.Split"(%arg0, %{{.*}}) <{axis = 0 : i64}> : (tensor<3x3x10x12xf32>, tensor<3xi64>) -> (tensor<1x3x10x12xf32>, tensor<1x3x10x12xf32>, tensor<1x3x10x12xf32>)
// IR-NOT: onnx.Split
// IR-NOT: onnx.Concat
// IR-COUNT-3: "onnx.MaxPool"({{.*}}) -> tensor<1x8x5x6xf32>
// IR-NEXT: "onnx.Concat"({{.*}}) <{axis = 0 : i64}> : {{.*}} -> tensor<3x8x5x6xf32>
// IR-NOT: onnx.Split
// IR-COUNT-3: "onnx.LRN"({{.*}}) -> tensor<1x8x5x6xf32>
// IR-NOT: onnx.Split
// IR: "onnx.Concat"({{.*}}) -> tensor<3x8x5x6xf32>
// IR-NEXT: "onnx.Add"
// IR-NEXT: "onnx.Split"
// IR-COUNT-3: "onnx.GlobalAveragePool"
// IR-NEXT: "onnx.Concat"
// IR-NEXT: "onnx.Flatten"
