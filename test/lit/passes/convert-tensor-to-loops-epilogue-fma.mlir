// A product's terms are multiply-adds (vector.fma), but an epilogue's Mul then
// Add, two ONNX nodes fused after a MatMul, keeps its two roundings: the
// epilogue's last argument is an input (the bias), not an accumulator.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise), func.func(bufferize), convert-tensor-to-loops)' | FileCheck %s
// CHECK-LABEL: func.func @matmul_scale_bias
// CHECK: "vector.fma"
// CHECK: %[[P:.*]] = arith.mulf {{.*}} : vector<16xf32>
// CHECK: arith.addf {{.*}}%[[P]]{{.*}} : vector<16xf32>
func.func @matmul_scale_bias(%a: tensor<8x32xf32>, %w: tensor<32x64xf32>, %s: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = "onnx.MatMul"(%a, %w) : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
  %1 = "onnx.Mul"(%0, %s) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %2 = "onnx.Add"(%1, %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  return %2 : tensor<8x64xf32>
}
