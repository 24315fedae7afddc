// Each verifier error of the named structured ops.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%s: f64, %e: tensor<4xf32>) {
  // expected-error @+1 {{'tensor.fill' op expects the value to have the init's element type}}
  %r = "tensor.fill"(%s, %e) : (f64, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%s: f32, %e: tensor<?xf32>) {
  // expected-error @+1 {{'tensor.fill' op expects static shapes, got tensor<?xf32>}}
  %r = "tensor.fill"(%s, %e) : (f32, tensor<?xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @f(%s: f32) {
  // expected-error @+1 {{'tensor.fill' op expects ranked tensor or memref operands, got f32}}
  %r = "tensor.fill"(%s, %s) : (f32, f32) -> f32
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<3x2xf32>) {
  // expected-error @+1 {{'tensor.transpose' op expects a permutation of the init's dims}}
  %r = "tensor.transpose"(%a, %e) <{permutation = array<i64: 0, 0>}> : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.transpose' op expects the init's shape to be the input's, permuted}}
  %r = "tensor.transpose"(%a, %e) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<3x2xf32>) {
  // expected-error @+1 {{'tensor.transpose' op expects a permutation}}
  %r = "tensor.transpose"(%a, %e) <{permutation = 1}> : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<3x2xf64>) {
  // expected-error @+1 {{'tensor.transpose' op expects operands of one element type}}
  %r = "tensor.transpose"(%a, %e) <{permutation = array<i64: 1, 0>}> : (tensor<2x3xf32>, tensor<3x2xf64>) -> tensor<3x2xf64>
  return
}

// -----

func.func @f(%a: tensor<3xf32>, %e: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.broadcast' op expects the added dimensions to complete the input's rank to the init's}}
  %r = "tensor.broadcast"(%a, %e) <{dimensions = array<i64: 0, 1>}> : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.broadcast' op expects the input's dims to match the init's kept dims}}
  %r = "tensor.broadcast"(%a, %e) <{dimensions = array<i64: 0>}> : (tensor<4xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %e: tensor<2x5xf32>) {
  // expected-error @+1 {{'tensor.matmul' op expects rank-2 operands}}
  %r = "tensor.matmul"(%a, %b, %e) : (tensor<2x3x4xf32>, tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, %e: tensor<2x5xf32>) {
  // expected-error @+1 {{'tensor.matmul' op expects [.., M, K] x [.., K, N] into [.., M, N]}}
  %r = "tensor.matmul"(%a, %b, %e) : (tensor<2x3xf32>, tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %w: tensor<8x3x3x3xf32>, %e: tensor<1x8x5x5xf32>) {
  // expected-error @+1 {{'tensor.conv_2d_nchw_fchw' op expects two positive strides and dilations}}
  %r = "tensor.conv_2d_nchw_fchw"(%x, %w, %e) <{strides = array<i64: 0, 1>}> : (tensor<1x3x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<3x7x7xf32>, %w: tensor<8x3x3x3xf32>, %e: tensor<1x8x5x5xf32>) {
  // expected-error @+1 {{'tensor.conv_2d_nchw_fchw' op expects a rank-4 input and init}}
  %r = "tensor.conv_2d_nchw_fchw"(%x, %w, %e) : (tensor<3x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<1x4x7x7xf32>, %w: tensor<8x3x3x3xf32>, %e: tensor<1x8x5x5xf32>) {
  // expected-error @+1 {{'tensor.conv_2d_nchw_fchw' op expects the filter's channels to match the input's}}
  %r = "tensor.conv_2d_nchw_fchw"(%x, %w, %e) : (tensor<1x4x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %w: tensor<8x3x3x3xf32>, %e: tensor<1x4x5x5xf32>) {
  // expected-error @+1 {{'tensor.conv_2d_nchw_fchw' op expects the init to have the batch and filter count}}
  %r = "tensor.conv_2d_nchw_fchw"(%x, %w, %e) : (tensor<1x3x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %w: tensor<8x3x3x3xf32>, %e: tensor<1x8x6x6xf32>) {
  // expected-error @+1 {{'tensor.conv_2d_nchw_fchw' op expects the (padded) input to cover every window}}
  %r = "tensor.conv_2d_nchw_fchw"(%x, %w, %e) : (tensor<1x3x7x7xf32>, tensor<8x3x3x3xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %e: tensor<1x3x3x3xf32>) {
  // expected-error @+1 {{'tensor.pooling_nchw_max' op expects kernel, strides and dilations for each spatial dim}}
  %r = "tensor.pooling_nchw_max"(%x, %e) <{kernel = array<i64: 2>}> : (tensor<1x3x7x7xf32>, tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %e: tensor<1x4x3x3xf32>) {
  // expected-error @+1 {{'tensor.pooling_nchw_max' op expects the init to keep batch and channels}}
  %r = "tensor.pooling_nchw_max"(%x, %e) <{kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x3x7x7xf32>, tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return
}

// -----

func.func @f(%x: tensor<1x3x7x7xf32>, %e: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'tensor.pooling_nchw_max' op expects the (padded) input to cover every window}}
  %r = "tensor.pooling_nchw_max"(%x, %e) <{kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x3x7x7xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<2xf32>) {
  // expected-error @+1 {{'tensor.reduce' op expects kind = "add", "mul", "max" or "min"}}
  %r = "tensor.reduce"(%a, %e) <{dimensions = array<i64: 1>, kind = "sum"}> : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.reduce' op expects the init to be the input without the reduced dims}}
  %r = "tensor.reduce"(%a, %e) <{dimensions = array<i64: 1>, kind = "add"}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<3xf32>) {
  // expected-error @+1 {{'tensor.reduce' op expects the init's dims to be the input's kept dims}}
  %r = "tensor.reduce"(%a, %e) <{dimensions = array<i64: 1>, kind = "add"}> : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @f(%a: tensor<4x6xf32>, %e: tensor<2x2xf32>) {
  // expected-error @+1 {{'tensor.extract_slice' op expects one offset and stride per dim}}
  %r = "tensor.extract_slice"(%a, %e) <{static_offsets = array<i64: 1>}> : (tensor<4x6xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<4x6xf32>, %e: tensor<2x2xf32>) {
  // expected-error @+1 {{'tensor.extract_slice' op expects the slice inside the larger tensor}}
  %r = "tensor.extract_slice"(%a, %e) <{static_offsets = array<i64: 3, 0>}> : (tensor<4x6xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x2xf32>, %e: tensor<4x6xf32>) {
  // expected-error @+1 {{'tensor.insert_slice' op expects unit strides when inserting}}
  %r = "tensor.insert_slice"(%a, %e) <{static_offsets = array<i64: 0, 0>, static_strides = array<i64: 1, 2>}> : (tensor<2x2xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %v: f32) {
  // expected-error @+1 {{'tensor.pad' op expects low and high padding for every dim}}
  %r = "tensor.pad"(%a, %v) <{low = array<i64: 1>, high = array<i64: 0, 2>}> : (tensor<2x3xf32>, f32) -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %v: f32) {
  // expected-error @+1 {{'tensor.pad' op expects non-negative padding}}
  %r = "tensor.pad"(%a, %v) <{low = array<i64: -1, 0>, high = array<i64: 2, 2>}> : (tensor<2x3xf32>, f32) -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %v: f32) {
  // expected-error @+1 {{'tensor.pad' op expects the result to be the source's shape plus the padding}}
  %r = "tensor.pad"(%a, %v) <{low = array<i64: 1, 0>, high = array<i64: 0, 1>}> : (tensor<2x3xf32>, f32) -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %v: f64) {
  // expected-error @+1 {{'tensor.pad' op expects the padding value to have the element type}}
  %r = "tensor.pad"(%a, %v) <{low = array<i64: 1, 0>, high = array<i64: 0, 2>}> : (tensor<2x3xf32>, f64) -> tensor<3x5xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.concat' op expects dim to be a dim of the result}}
  %r = "tensor.concat"(%a) <{dim = 2 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'tensor.concat' op expects operands equal to the result except along dim}}
  %r = "tensor.concat"(%a, %b) <{dim = 0 : i64}> : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf64>) {
  // expected-error @+1 {{'tensor.concat' op expects operands of the result's element type}}
  %r = "tensor.concat"(%a, %b) <{dim = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.concat' op expects the operands' sizes along dim to add up to the result's}}
  %r = "tensor.concat"(%a, %b) <{dim = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @f(%a: tensor<3xf32>, %e: tensor<2x3xf32>) {
  // expected-error @+1 {{'tensor.broadcast' op expects dimensions}}
  %r = "tensor.broadcast"(%a, %e) <{dimensions = 0 : i64}> : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @f(%x: tensor<1x1x4x4xf32>, %e: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{'tensor.pooling_nchw_max' op expects a kernel}}
  %r = "tensor.pooling_nchw_max"(%x, %e) <{kernel = 2 : i64}> : (tensor<1x1x4x4xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @f(%a: tensor<2x3xf32>, %e: tensor<2xf32>) {
  // expected-error @+1 {{'tensor.reduce' op expects dimensions}}
  %r = "tensor.reduce"(%a, %e) <{dimensions = 1 : i64, kind = "add"}> : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%a: tensor<4xf32>, %e: tensor<2xf32>) {
  // expected-error @+1 {{'tensor.extract_slice' op expects static_offsets}}
  %r = "tensor.extract_slice"(%a, %e) <{static_offsets = 1 : i64}> : (tensor<4xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @f(%t: tensor<2xf32>, %v: f32) {
  // expected-error @+1 {{'tensor.pad' op expects low padding}}
  %r = "tensor.pad"(%t, %v) <{low = 1 : i64, high = array<i64: 1>}> : (tensor<2xf32>, f32) -> tensor<4xf32>
  return
}

// -----

func.func @f(%t: tensor<2xf32>, %v: f32) {
  // expected-error @+1 {{'tensor.pad' op expects high padding}}
  %r = "tensor.pad"(%t, %v) <{low = array<i64: 1>, high = 1 : i64}> : (tensor<2xf32>, f32) -> tensor<4xf32>
  return
}
