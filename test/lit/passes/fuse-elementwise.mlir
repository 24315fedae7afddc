// fuse-elementwise: elementwise consumers merge into their producers at the
// tensor level — parallel chains into one loop nest, and a consumer of a
// reduction into that reduction's epilogue (run once per output element).
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' | FileCheck %s
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: (S) 1 num-fused
// STATS: (S) 2 num-fused
// STATS: (S) 0 num-fused
// STATS: (S) 0 num-fused

// Add then Relu: one generic whose body adds then takes the maximum.
// CHECK-LABEL: func.func @chain
// CHECK: "tensor.generic"
// CHECK: arith.addf
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.maximumf
// CHECK-NOT: "tensor.generic"
// CHECK: return
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "onnx.Add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "onnx.Relu"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}

// -----

// MatMul, bias Add, Relu: the zero fill stays; the product's generic gains
// the bias as an input its body ignores, and an epilogue adding it and
// applying Relu.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK: "tensor.generic"(%arg0, %arg1, %arg2, %{{.*}}) <{{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: "tensor.yield"
// CHECK: }, {
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: "tensor.yield"
// CHECK-NOT: "tensor.generic"
// CHECK: return
func.func @matmul_bias_relu(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = "onnx.MatMul"(%a, %w) : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = "onnx.Relu"(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// A result used twice is not fused (it must be written).
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-3: "tensor.generic"
func.func @shared(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "onnx.Exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.Relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "onnx.Neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2 : tensor<4xf32>, tensor<4xf32>
}


// -----

// A producer before an If is not fused into a consumer in a branch (it would
// move into the branch); the consumer stays in the branch.
// CHECK-LABEL: func.func @across_blocks
// CHECK: "tensor.generic"
// CHECK: math.exp
// CHECK: "scf.if"
// CHECK: "tensor.generic"
// CHECK-NOT: math.exp
// CHECK: arith.negf
func.func @across_blocks(%c: tensor<i1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "onnx.Exp"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "onnx.If"(%c) ({
    %2 = "onnx.Neg"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    "onnx.Yield"(%2) : (tensor<4xf32>) -> ()
  }, {
    "onnx.Yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
