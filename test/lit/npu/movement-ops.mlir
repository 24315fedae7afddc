// Data moves on the DMA engines: a channel Split and Concat, a Pad by a
// value (a zero Pad before a Conv folds into the Conv), a channel
// shuffle (5-D Reshape, Transpose, Reshape), a strided Slice, nearest Resize
// by scales and by sizes, Squeeze/Unsqueeze, a Concat with a constant and a
// detection head's Reshape + Transpose. The whole model is one NPU program;
// the CPU path matches ONNX Runtime, the NPU path the CPU path and the host
// reference.
// RUN: rm -rf %t && mkdir -p %t
// RUN: python3 %S/Inputs/movement_ops.py %t
// RUN: npu-run %t/movement.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/../npu-run/Inputs/match_ort.py %t/movement.onnx %t/cpu x=%t/x.npy | FileCheck %s --check-prefix=ORT
// ORT: y: match
// RUN: npu-run %t/movement.onnx --target npu -v --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 --check-reference > %t/npu.txt 2> %t/npu.err
// RUN: FileCheck %s < %t/npu.txt
// RUN: FileCheck %s --check-prefix=SAME < %t/npu.err
// The head's Reshape + Transpose ([1, C, H, W] to [1, H·W, C]) is the NHWC map
// as it is: a free reshape, although a transpose of its 1296 elements would
// move one per DMA row. The transposes of the innermost dim inside the
// program (NHWC to NCHW before the shuffle's Reshape) stay.
// CHECK: CPU operations (0 of 21):
// CHECK: npu16: 21 ops (100.0%) in 1 partitions; cpu: 0 ops
// CHECK: split
// The zero Pad folded into conv_b's padding:
// CHECK-NOT: pad_same
// CHECK: conv_b+conv_b_relu
// CHECK: concat
// CHECK: shuffle
// CHECK: pad
// CHECK: slice
// CHECK: up2
// CHECK: up23
// CHECK: concat_const
// CHECK-NOT: {{^  y }}
// CHECK: whole model
// SAME: y: ok
// SAME: reference: 1 NPU partition outputs match the host reference

// A partition whose result is its argument reshaped (the Softmax's output,
// reshaped, is a model output and the NPU MatMul's input) copies it.
// RUN: npu-translate --import-onnx %S/Inputs/reshape-between.onnxtext | npu-translate --export-onnx -o %t/resh.onnx
// RUN: npu-run %t/resh.onnx -q --seed 1 --output-dir %t/resh.cpu
// RUN: npu-run %t/resh.onnx --target npu -v --seed 1 --compare %t/resh.cpu --check-reference 2>&1 | FileCheck %s --check-prefix=COPY
// COPY: npu16: 2 ops (66.7%) in 1 partitions; cpu: 1 ops (33.3%) in 1 partitions
// COPY: copy
// COPY: y: ok
// COPY: z: ok
// COPY: reference: 2 NPU partition outputs match the host reference

// A check that can fail: the NPU's output against a corrupted copy of the CPU's.
// RUN: python3 -c "import numpy as n; y = n.load('%t/cpu/y.npy'); y[0, 5, 2] += 1e-2; n.save('%t/cpu/y.npy', y)"
// RUN: not npu-run %t/movement.onnx --target npu -q --input x=%t/x.npy --compare %t/cpu --rtol 1e-4 --atol 1e-6 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: y: MISMATCH
