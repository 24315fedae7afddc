// fuse-elementwise: elementwise consumers merge into their producers at the
// tensor level — parallel chains into one loop nest, and a consumer of a
// reduction into that reduction's epilogue (run once per output element).
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' | FileCheck %s
// RUN: npu-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(fuse-elementwise))' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS: (S) 1 num-fused
// STATS: (S) 2 num-fused
// STATS: (S) 0 num-fused
// STATS: (S) 0 num-fused
// STATS: (S) 1 num-fused
// STATS-NEXT: (S) 1 num-reshapes-sunk
// STATS: (S) 1 num-fused
// STATS-NEXT: (S) 1 num-reshapes-sunk

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

// -----

// A 1x1 Conv computes [N, C, H·W] and reshapes it to [N, C, H, W]; the Clip
// after it runs on the product's shape instead (its bounds are scalars), so it
// becomes the product's epilogue and the reshape moves after it.
// CHECK-LABEL: func.func @through_reshape
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: }, {
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: -> tensor<1x8x16xf32>
// CHECK-NOT: "tensor.generic"
// CHECK: "tensor.expand_shape"
// CHECK-SAME: -> tensor<1x8x4x4xf32>
// CHECK-NOT: "tensor.generic"
func.func @through_reshape(%x: tensor<1x4x4x4xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %lo = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %hi = "onnx.Constant"() <{value = dense<6.0> : tensor<f32>}> : () -> tensor<f32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x4x4xf32>
  %1 = "onnx.Clip"(%0, %lo, %hi) : (tensor<1x8x4x4xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x4x4xf32>
  return %1 : tensor<1x8x4x4xf32>
}

// -----

// A residual Add after a 1x1 Conv: its other operand is reshaped to the
// product's shape too, and the Add fuses.
// CHECK-LABEL: func.func @residual_through_reshape
// CHECK: "tensor.collapse_shape"(%arg0)
// CHECK: "tensor.expand_shape"
// CHECK-SAME: -> tensor<1x4x16xf32>
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: }, {
// CHECK: arith.addf
// CHECK-NOT: "tensor.generic"
// CHECK: return
func.func @residual_through_reshape(%x: tensor<1x4x4x4xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = [1, 1]}> : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = "onnx.Add"(%0, %x) : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %1 : tensor<1x4x4x4xf32>
}
