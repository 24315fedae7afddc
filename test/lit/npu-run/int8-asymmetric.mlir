// Integer products whose zero points the VNNI kernel takes off exactly,
// against ONNX Runtime bit for bit: ConvInteger and MatMulInteger after
// DynamicQuantizeLinear (the activations' zero point known only at run time,
// taken off in the kernel's tail), uint8 weights with a zero point per tensor
// or per column (the `zw·Σx` term from one more output channel of ones), a
// strided ConvInteger on a uint8 input, QLinearConv and QLinearMatMul with
// asymmetric uint8 weights. The portable kernels (NPU_CPU_NO_VNNI=1) agree.
// REQUIRES: vnni
// RUN: rm -rf %t && python3 %S/Inputs/int8_asymmetric.py %t
// RUN: npu-run %t/m.onnx --input f=%t/f.npy --input g=%t/g.npy --input x=%t/x.npy --input a=%t/a.npy --output-dir %t/vnni -q
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/vnni f=%t/f.npy g=%t/g.npy x=%t/x.npy a=%t/a.npy | FileCheck %s
// RUN: env NPU_CPU_NO_VNNI=1 npu-run %t/m.onnx --input f=%t/f.npy --input g=%t/g.npy --input x=%t/x.npy --input a=%t/a.npy --output-dir %t/portable -q
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/portable f=%t/f.npy g=%t/g.npy x=%t/x.npy a=%t/a.npy | FileCheck %s
// CHECK: dyn_conv: match
// CHECK: dyn_pointwise: match
// CHECK: dyn_matmul: match
// CHECK: dyn_matmul_s8: match
// CHECK: strided: match
// CHECK: qconv_u8w: match
// CHECK: qmatmul_u8w: match
// com.microsoft DynamicQuantizeLSTM in sizes the kernel takes (multiples of 4):
// its products run as vpdpbusd, uint8 weights with zero points, H quantized
// at every step.
// RUN: python3 %S/Inputs/dynamic_quantize_lstm.py %t
// RUN: npu-run %t/v.onnx --input x=%t/v_x.npy --output-dir %t/v -q
// RUN: python3 %S/Inputs/match_ort.py %t/v.onnx %t/v x=%t/v_x.npy | FileCheck %s --check-prefix=VNNI
// RUN: env NPU_CPU_NO_VNNI=1 npu-run %t/v.onnx --input x=%t/v_x.npy --output-dir %t/vp -q
// RUN: python3 %S/Inputs/match_ort.py %t/v.onnx %t/vp x=%t/v_x.npy | FileCheck %s --check-prefix=VNNI
// VNNI: y: match
// VNNI: yh: match
// VNNI: yc: match
// RUN: npu-translate --import-onnx %t/v.onnx -o %t/v.mlir
// RUN: npu-translate --mlir-to-llvmir --emit loops %t/v.mlir | FileCheck %s --check-prefix=KERNEL
// KERNEL: intrin = "llvm.x86.avx512.vpdpbusd.512"
// The products run as vpdpbusd.
// RUN: npu-translate --import-onnx %t/m.onnx -o %t/m.mlir
// RUN: npu-translate --mlir-to-llvmir --emit loops %t/m.mlir | FileCheck %s --check-prefix=LOOPS
// LOOPS: "llvm.call_intrinsic"({{.*}}) <{intrin = "llvm.x86.avx512.vpdpbusd.512"
// The comparison can fail: an int32 output off by one differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/vnni/dyn_matmul.npy'); a[0, 0, 3] += 1; n.save('%t/vnni/dyn_matmul.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/vnni f=%t/f.npy g=%t/g.npy x=%t/x.npy a=%t/a.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: dyn_matmul: differs
