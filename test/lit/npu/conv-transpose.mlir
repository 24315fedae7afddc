// ConvTranspose on npu16 (`backends/npu16/src/deconv.rs`): each one is a
// stride-1 convolution with stride_h·stride_w times the output channels (one
// per output phase), a strided DMA copy that interleaves the phases (depth to
// space) and, where the padding crops, a slice. A detector's 2x2 stride-2
// upsampling with BatchNormalization and Relu after it, a padded 4x4 stride-2
// one, a grouped one with output_padding, a stride-1 one (a plain
// convolution) and one with auto_pad SAME_UPPER and a Sigmoid: all on the
// NPU in one program; the CPU path matches ONNX Runtime, the NPU path the
// CPU path and the host reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/conv_transpose.py %t
// RUN: npu-run %t/deconv.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/deconv.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/deconv.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// CHECK: CPU operations (0 of 9):
// CHECK: npu16: 9 ops (100.0%) in 1 partitions; cpu: 0 ops
// The BatchNormalization folds into the first ConvTranspose, the Relu fuses.
// CHECK: up2x2+bn+bn_relu
// CHECK: up4x4
// CHECK: up_grouped
// CHECK: same
// CHECK: same_upper+y
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference

// After conversion the 2x2 stride-2 one is a pointwise conv to 4·6 channels and a
// transpose of the phases; the padded 4x4 one a 2x2 conv, the transpose and
// a slice; the stride-1 one only a conv with the flipped kernel.
// RUN: npu-translate --import-onnx %t/deconv.onnx | npu-opt --pass-pipeline='builtin.module(canonicalize, npu-partition, convert-onnx-to-npu, canonicalize)' | FileCheck %s --check-prefix=IR
// IR: "npu.conv"({{.*}}) <{act = "relu", group = 1 : i64, macs = 5760 : i64, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x5x6x8xf32>, tensor<1x1x8x24xf32>, tensor<24xf32>) -> tensor<1x5x6x24xf32>
// IR-NEXT: "onnx.Reshape"({{.*}}) -> tensor<1x5x6x2x2x6xf32>
// IR-NEXT: "onnx.Transpose"({{.*}}) <{perm = array<i64: 0, 1, 3, 2, 4, 5>}> : (tensor<1x5x6x2x2x6xf32>) -> tensor<1x5x2x6x2x6xf32>
// IR-NEXT: "onnx.Reshape"({{.*}}) -> tensor<1x10x12x6xf32>
// IR-NEXT: "npu.conv"({{.*}}) <{act = "none", group = 1 : i64, macs = 46080 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x10x12x6xf32>, tensor<2x2x6x16xf32>, tensor<16xf32>) -> tensor<1x11x13x16xf32>
// IR: "npu.slice"({{.*}}) <{offsets = array<i64: 0, 1, 1, 0>, steps = array<i64: 1, 1, 1, 1>}> : (tensor<1x22x26x4xf32>) -> tensor<1x20x24x4xf32>
// IR: "npu.slice"({{.*}}) -> tensor<1x40x48x4xf32>
// IR-NEXT: "npu.conv"({{.*}}) <{act = "none", group = 1 : i64, macs = 207360 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x40x48x4xf32>, tensor<3x3x4x3xf32>, tensor<3xf32>) -> tensor<1x40x48x3xf32>
// IR-NEXT: "npu.conv"

// A check that can fail: the NPU's output against a corrupted copy of the CPU's.
// RUN: python3 -c "import numpy as n; y = n.load('%t/cpu/y.npy'); y[0, 1, 7, 3] += 1e-2; n.save('%t/cpu/y.npy', y)"
// RUN: not npu-run %t/deconv.onnx --target npu -q --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: y: MISMATCH
