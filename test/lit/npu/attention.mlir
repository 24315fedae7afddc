// Self-attention on the NPU (`Inputs/attention.py`): PyTorch's block (heads
// split by Reshape and Transpose, Kᵀ by a Transpose that canonicalization
// merges with K's head split) and paddle2onnx's (one QKV projection, a 5-D
// transpose, Q, K, V sliced out), then a product by a stack of constant
// matrices. Every op runs on the NPU in one program: QKᵀ and AV are
// `npu.batch_matmul`s reading B from DRAM (Kᵀ through `mx.preload …
// transpose`, so no transpose moves single elements: PyTorch's Kᵀ is left as
// K's head split, a move of whole rows, and paddle's goes entirely), the
// scale and Softmax stay in the heads' layout. The CPU path matches ONNX
// Runtime, the NPU path the CPU path and the host reference, also on an
// 8-row and on a 32x32 array (partial blocks of lanes on either side).
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/attention.py %t
// RUN: npu-run %t/attention.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/attention.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/attention.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// CHECK: CPU operations (0 of 40):
// CHECK: npu16: 40 ops (100.0%) in 1 partitions; cpu: 0 ops
// A projection's bias Add is the product's bias row, not a layer of its own.
// CHECK: tq+tq_bias {{.*}} 32000
// CHECK: t_kt {{.*}} 0.0%
// CHECK-NEXT: t_scores {{.*}} 16000
// CHECK-NEXT: t_scaled
// CHECK-NEXT: t_softmax
// CHECK-NEXT: t_av {{.*}} 16000
// CHECK: p_scaled
// CHECK-NEXT: p_scores {{.*}} 16000
// CHECK-NEXT: p_softmax
// CHECK-NEXT: p_av {{.*}} 16000
// CHECK: stacked {{.*}} 8000
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference
// RUN: npu-run %t/attention.onnx --target npu --set npu16.array.rows=8 --input x=%t/x.npy --output-dir %t/npu8 --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: npu-run %t/attention.onnx --target npu --set npu16.array.rows=32 --set npu16.array.cols=32 --input x=%t/x.npy --output-dir %t/npu32 --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference 2>&1 | FileCheck %s --check-prefix=SAME
// A map made by a Reshape of a projection is an image, not heads: its
// BatchNormalization's per-channel rows go NHWC and the whole model is one program.
// RUN: npu-run %t/map.onnx -q --input x=%t/map_x.npy --output-dir %t/mcpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/map.onnx %t/mcpu x=%t/map_x.npy | FileCheck %s --check-prefix=ORT
// RUN: npu-run %t/map.onnx --target npu -v --input x=%t/map_x.npy --compare %t/mcpu --rtol 1e-4 --atol 1e-6 --check-reference 2>&1 | FileCheck %s --check-prefix=MAP
// MAP: CPU operations (0 of 5):
// MAP: y: ok
// MAP: reference: 1 NPU partition outputs match the host reference
// The products in the IR (Kᵀ read transposed, AV as it is, the stack constant):
// RUN: npu-translate --import-onnx %t/attention.onnx | npu-opt --pass-pipeline='builtin.module(onnx-shape-inference,canonicalize,npu-partition{targets=npu16},convert-onnx-to-npu,canonicalize)' | FileCheck %s --check-prefix=IR
// IR-COUNT-2: "npu.batch_matmul"{{.*}}transpose_b{{.*}} -> tensor<{{[0-9]+}}x20x20xf32>
// IR: "npu.batch_matmul"{{.*}}<{act = "none", macs = 8000 : i64}> : (tensor<4x20x10xf32>, tensor<4x10x10xf32>) -> tensor<4x20x10xf32>
// The schedule: the transposed tiles, and K (20 tokens of 10) loaded as its rows.
// RUN: npu-translate --import-onnx %t/attention.onnx | npu-opt --pass-pipeline='builtin.module(onnx-shape-inference,canonicalize,npu-partition{targets=npu16},convert-onnx-to-npu,canonicalize,npu-schedule)' | FileCheck %s --check-prefix=ASM
// ASM: "npu.mx.preload"{{.*}}k = 10 : i64, n = 16 : i64{{.*}}transpose
// ASM: "npu.mx.preload"{{.*}}k = 10 : i64, n = 4 : i64{{.*}}transpose
