// LayerNorm and Softmax over the innermost dim run on the vector unit: the
// written-out LayerNorm of exporters before opset 17 (with Pow or Mul(d, d),
// with and without a per-channel scale and shift) is taken as one op,
// LayerNormalization and Softmax as they are, GELU's Erf; rows of 40 values (the last
// block of lanes partial). The whole model is one NPU program; the CPU path
// matches ONNX Runtime and the NPU path the CPU path and the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/norms.py %t
// RUN: npu-run %t/norms.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/norms.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/norms.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// CHECK: CPU operations (0 of 31):
// CHECK: npu16: 31 ops (100.0%) in 1 partitions; cpu: 0 ops
// CHECK: ln1_mean+ln1_sub+ln1_pow+ln1_var+ln
// CHECK: ln2
// CHECK: ln3_mean+ln3_sub+ln3_sq+ln3_var+ln3
// CHECK: gelu_erf
// CHECK: softmax
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference

// On an array of 8 rows by 16 lanes the blocks are 8 wide: the reductions
// name their lanes (the other 8 hold stale values).
// RUN: npu-run %t/norms.onnx --target npu -q --set npu16.array.rows=8 --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference 2>&1 | FileCheck %s --check-prefix=NARROW
// NARROW: y: ok
// NARROW: reference: 1 NPU partition outputs match the host reference

// The kernels' instructions: lane sums over the 8 valid lanes of the last
// block, the reciprocal square root, erf, the shift by the row maximum, e^x
// and the reciprocal of the sum.
// RUN: npu-translate --import-onnx %t/norms.onnx | npu-opt --pass-pipeline='builtin.module(onnx-shape-inference,canonicalize,npu-partition{targets=npu16},convert-onnx-to-npu,canonicalize,npu-schedule)' | FileCheck %s --check-prefix=ASM
// ASM: "npu.v.hsum"{{.*}}lanes = 8
// ASM: "npu.v.rsqrt"
// ASM: "npu.v.erf"
// ASM: "npu.v.hmax"{{.*}}lanes = 8
// ASM: "npu.v.exp"
// ASM: "npu.v.recip"
