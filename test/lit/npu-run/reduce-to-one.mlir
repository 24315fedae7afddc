// A reduction of a whole tensor to one value runs as 16 partial results side
// by side, then those 16: the same values as ONNX Runtime (integers in f32 sum
// exactly), DynamicQuantizeLinear's scale
// and zero point included; the lowering shows the two steps.
// RUN: rm -rf %t && split-file %s %t
// RUN: npu-translate --import-onnx %t/m.onnxtext -o %t/m.mlir
// RUN: npu-translate --export-onnx %t/m.mlir -o %t/m.onnx
// RUN: python3 -c "import numpy as n; r = n.random.default_rng(3); x = r.integers(-50, 50, (4, 8, 32)).astype(n.float32); n.save('%t/x.npy', x); n.save('%t/i.npy', r.integers(-9, 9, (16, 32)).astype(n.int32))"
// RUN: npu-run %t/m.onnx --input x=%t/x.npy --input i=%t/i.npy --output-dir %t/out -q
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy i=%t/i.npy | FileCheck %s
// CHECK: sum: match
// CHECK: max: match
// CHECK: imin: match
// CHECK: q: match
// CHECK: s: match
// CHECK: z: match
// RUN: npu-opt %t/m.mlir --pass-pipeline='builtin.module(onnx-shape-inference, func.func(convert-onnx-to-tensor))' | FileCheck %s --check-prefix=TWO
// TWO: "tensor.expand_shape"({{.*}}) -> tensor<64x16xf32>
// TWO: "tensor.generic"{{.*}}affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]
// TWO: "tensor.generic"{{.*}}affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]
// The comparison can fail: a corrupted sum differs.
// RUN: python3 -c "import numpy as n; a = n.load('%t/out/sum.npy'); a += 1; n.save('%t/out/sum.npy', a)"
// RUN: python3 %S/Inputs/match_ort.py %t/m.onnx %t/out x=%t/x.npy i=%t/i.npy | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: sum: differs

//--- m.onnxtext
<ir_version: 8, opset_import: ["" : 18]>
g (float[4,8,32] x, int32[16,32] i) => (float sum, float max, int32 imin, uint8[4,8,32] q, float s, uint8 z) {
  sum = ReduceSum<keepdims = 0>(x)
  max = ReduceMax<keepdims = 0>(x)
  imin = ReduceMin<keepdims = 0>(i)
  q, s, z = DynamicQuantizeLinear(x)
}
