// The CPU path's int8 products on AVX-512 VNNI (`vpdpbusd`) against ONNX
// Runtime, bit for bit: QLinearConv (a 7x7 stride-2 stem of 3 channels, a
// dilated uint8 conv with a zero point, a 1x1 conv of 30 channels without bias, per-channel
// and per-tensor weight scales), QLinearMatMul on a 3-D activation, and the
// QDQ groups `onnx-form-integer-products` forms (Conv, Gemm with transB and
// an int32 bias, MatMul); a depthwise Conv stays a float QDQ group. The
// portable integer kernels (NPU_CPU_NO_VNNI=1) give the same outputs.
// REQUIRES: vnni
// RUN: rm -rf %t && python3 %S/Inputs/int8_products.py %t
// RUN: npu-run %t/m.onnx --input x1=%t/x1.npy --input x2=%t/x2.npy --input x3=%t/x3.npy --input a=%t/a.npy --input f=%t/f.npy --output-dir %t/vnni -q
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/vnni x1=%t/x1.npy x2=%t/x2.npy x3=%t/x3.npy a=%t/a.npy f=%t/f.npy | FileCheck %s
// RUN: env NPU_CPU_NO_VNNI=1 npu-run %t/m.onnx --input x1=%t/x1.npy --input x2=%t/x2.npy --input x3=%t/x3.npy --input a=%t/a.npy --input f=%t/f.npy --output-dir %t/portable -q
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/portable x1=%t/x1.npy x2=%t/x2.npy x3=%t/x3.npy a=%t/a.npy f=%t/f.npy | FileCheck %s
// CHECK: stem: match
// CHECK: dilated: match
// CHECK: pointwise: match
// CHECK: qmatmul: match
// CHECK: qdq_conv: match
// CHECK: qdq_depthwise: match
// CHECK: qdq_gemm: match
// CHECK: qdq_matmul: match
// The products are formed and run as vpdpbusd; not with NPU_CPU_NO_VNNI=1.
// RUN: npu-translate --import-onnx %t/m.onnx -o %t/m.mlir
// RUN: npu-opt %t/m.mlir --pass-pipeline='builtin.module(onnx-shape-inference, onnx-form-integer-products)' --mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=FORMED
// FORMED: 3 num-formed
// RUN: npu-translate --mlir-to-llvmir --emit loops %t/m.mlir | FileCheck %s --check-prefix=LOOPS
// LOOPS: "llvm.call_intrinsic"({{.*}}) <{intrin = "llvm.x86.avx512.vpdpbusd.512"
// RUN: env NPU_CPU_NO_VNNI=1 npu-translate --mlir-to-llvmir --emit loops %t/m.mlir | FileCheck %s --check-prefix=PORTABLE
// PORTABLE-NOT: vpdpbusd
// The comparison can fail: an output off by one step differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/vnni/qdq_gemm.npy'); a[0, 3] += 1; n.save('%t/vnni/qdq_gemm.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/vnni x1=%t/x1.npy x2=%t/x2.npy x3=%t/x3.npy a=%t/a.npy f=%t/f.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: qdq_gemm: differs
