// A Conv followed by a constant per-channel Mul and Add (an exporter's
// BatchNormalization) folds into the Conv's weights and bias before
// partitioning: the whole model, Relu fused, is one NPU layer, and both paths
// match ONNX Runtime on the unfolded model.
// RUN: rm -rf %t && mkdir -p %t
// RUN: npu-translate --export-onnx %S/Inputs/conv-affine.mlir -o %t/m.onnx
// RUN: python3 -c "import numpy as n; n.save('%t/x.npy', n.random.default_rng(7).standard_normal((1, 3, 8, 8)).astype(n.float32))"
// RUN: npu-run %t/m.onnx -q --input x=%t/x.npy --output-dir %t/cpu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/cpu x=%t/x.npy | FileCheck %s
// RUN: npu-run %t/m.onnx --target npu -v --input x=%t/x.npy --output-dir %t/npu | FileCheck %s --check-prefix=PLACED
// PLACED: npu16: 2 ops (100.0%) in 1 partitions; cpu: 0 ops
// PLACED: conv+scale+shift+relu
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/npu x=%t/x.npy | FileCheck %s
// CHECK: y: match
