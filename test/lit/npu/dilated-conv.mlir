// Dilated convolutions on npu16 (`to_npu/products.rs`): the kernel with
// d - 1 zeros between its taps, run as that kernel (a 3x3 with dilation 2 as
// a 5x5; a grouped one also with block-diagonal weights, a depthwise one
// stays depthwise), where that costs at most 3x the kernel's own work; a 3x3
// with dilation 3 (49 taps for 9) stays on the CPU with the reason. The CPU
// path matches ONNX Runtime, the NPU path the CPU path and the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/dilated_conv.py %t
// RUN: npu-run %t/dilated.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/dilated.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/dilated.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-5 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=CMP < %t/npu.err
// CHECK: CPU operations (1 of 6):
// CHECK-NEXT: onnx.Conv {{ *}}"d3" {{ *}}[attribute] dilations [3, 3]: the zero-filled 7x7 kernel would do 5.4x the 3x3 kernel's work (at most 3x)
// CMP: y: ok
// CMP: reference: 2 NPU partition outputs match the host reference

// After conversion: 5x5 (and, grouped, a dense 5x3) kernels with zeros between
// the taps, no dilation left; `macs` stays the useful work.
// RUN: npu-translate --import-onnx %t/dilated.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR
// IR: "npu.conv"({{.*}}) <{act = "none", group = 1 : i64, macs = 76032 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>}> : (tensor<1x12x11x8xf32>, tensor<5x5x8x8xf32>, tensor<8xf32>) -> tensor<1x12x11x8xf32>
// IR-NEXT: "npu.conv"({{.*}}) <{act = "none", group = 8 : i64, macs = 9504 : i64, pads = array<i64: 2, 2, 2, 2>, strides = array<i64: 1, 1>}> : (tensor<1x12x11x8xf32>, tensor<5x5x1x8xf32>, tensor<8xf32>) -> tensor<1x12x11x8xf32>
// IR: "npu.conv"({{.*}}) <{act = "none", group = 1 : i64, macs = 5184 : i64, pads = array<i64: 1, 2, 2, 1>, strides = array<i64: 2, 2>}> : (tensor<1x12x11x8xf32>, tensor<5x3x8x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
