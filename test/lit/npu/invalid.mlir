// Every verifier error of the npu dialect, at both levels.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{result must be [1, 8, 8, 18], got [1, 7, 7, 18]}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x7x7x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{group 3 must divide the input channels 20 and the filters 18}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 3 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x10x18xf32>) {
  // expected-error @+1 {{filter has 10 input channels per group; the input has 20 channels in 1 groups}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x10x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>, %b: tensor<20xf32>) {
  // expected-error @+1 {{bias must be [18], got [20]}}
  %0 = "npu.conv"(%x, %w, %b) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>, tensor<20xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{strides must be 2 positive integers}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 0, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{pads must be 4 non-negative integers [top, left, bottom, right]}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x20xf32>, %w: tensor<3x20x18xf32>) {
  // expected-error @+1 {{input, filter and result must be 4-D (NHWC, HWIO, NHWC)}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x20xf32>, tensor<3x20x18xf32>) -> tensor<1x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf16>, %w: tensor<3x3x20x18xf16>) {
  // expected-error @+1 {{runs on f32 or i8 tensors, not f16}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf16>, tensor<3x3x20x18xf16>) -> tensor<1x8x8x18xf16>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>) {
  // expected-error @+1 {{unknown activation 'gelu' (expected one of none, relu, relu6, clip, sigmoid, tanh)}}
  %0 = "npu.matmul"(%a, %k) <{act = "gelu"}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>) {
  // expected-error @+1 {{act = "clip" needs float min and max}}
  %0 = "npu.matmul"(%a, %k) <{act = "clip"}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>) {
  // expected-error @+1 {{clip needs min <= max}}
  %0 = "npu.matmul"(%a, %k) <{act = "clip", min = 2.0 : f32, max = 1.0 : f32}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<21x5xf32>) {
  // expected-error @+1 {{operands must be [M, K] and [K, N], got [4, 20] and [21, 5]}}
  %0 = "npu.matmul"(%a, %k) <{act = "none"}> : (tensor<4x20xf32>, tensor<21x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>) {
  // expected-error @+1 {{result must be [4, 5], got [5, 4]}}
  %0 = "npu.matmul"(%a, %k) <{act = "none"}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<5x4xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{bias must be [5]}}
  %0 = "npu.matmul"(%a, %k, %b) <{act = "none"}> : (tensor<4x20xf32>, tensor<20x5xf32>, tensor<4xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>, %b: tensor<5xf32>) {
  // expected-error @+1 {{takes at most 3 operands, got 4}}
  %0 = "npu.matmul"(%a, %k, %b, %b) <{act = "none"}> : (tensor<4x20xf32>, tensor<20x5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<3x8x5xf32>) {
  // expected-error @+1 {{operands must be [Bt, M, K] and [Bt, K, N], got [2, 4, 8] and [3, 8, 5]}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none"}> : (tensor<2x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<2x8x5xf32>) {
  // expected-error @+1 {{operands must be [Bt, M, K] and [Bt, N, K], got [2, 4, 8] and [2, 8, 5]}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none", transpose_b}> : (tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{operands must be [Bt, M, K] and [Bt, K, N], got [4, 8] and [8, 5]}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none"}> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<2x5x8xf32>) {
  // expected-error @+1 {{result must be [2, 4, 5], got [2, 5, 4]}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none", transpose_b}> : (tensor<2x4x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x4xf32>
  return
}

// -----
func.func @f(%a: tensor<2x4x8xi8>, %b: tensor<2x8x5xi8>) {
  // expected-error @+1 {{runs on f32 tensors, got i8, i8 and i32}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none"}> : (tensor<2x4x8xi8>, tensor<2x8x5xi8>) -> tensor<2x4x5xi32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{unknown pool kind 'min' (expected max or avg)}}
  %0 = "npu.pool"(%x) <{kind = "min", kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{padding must be smaller than the window}}
  %0 = "npu.pool"(%x) <{kind = "max", kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 2, 0, 0, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x3x2x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{result must be [1, 2, 2, 8], got [1, 4, 4, 8]}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{kernel must be 2 positive integers}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
  return
}

// -----
// An int8 average over a window has no avg_shift (its sum is requantized as it is).
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{avg_shift belongs to an int8 average of the whole image (a window's sum is requantized as it is)}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, mult = array<i64: 1073741824>, shift = array<i64: 3>, avg_shift = 8}> : (tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8>
  return
}

// -----
// Over a window, one requantization per count of window rows inside the image.
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{an int8 average requantizes: mult and shift (one, or over a window one per window row count 1..=kh; mult in [2^30, 2^31), shift 0..=62), and over the whole image avg_shift (0..=24)}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, mult = array<i64: 1073741824>, shift = array<i64: 3>}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{a padded int8 average over a window does not count the padding}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1, mult = array<i64: 1073741824, 1073741824, 1073741824>, shift = array<i64: 3, 3, 3>}> : (tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{an int8 average requantizes: mult and shift (one, or over a window one per window row count 1..=kh; mult in [2^30, 2^31), shift 0..=62), and over the whole image avg_shift (0..=24)}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 4, 4>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, mult = array<i64: 1073741824>, shift = array<i64: 3>, avg_shift = 30}> : (tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{in_zp must be an int8 value}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 4, 4>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, mult = array<i64: 1073741824>, shift = array<i64: 3>, avg_shift = 8, in_zp = 300}> : (tensor<1x4x4x8xi8>) -> tensor<1x1x1x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{mult, shift, zp, in_zp and avg_shift belong to an int8 average}}
  %0 = "npu.pool"(%x) <{kind = "avg", kernel = array<i64: 4, 4>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, avg_shift = 8}> : (tensor<1x4x4x8xf32>) -> tensor<1x1x1x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x9xf32>) {
  // expected-error @+1 {{the first operand and the result must have one shape, the second that shape, one value or one per channel ([1, .., 1, C])}}
  %0 = "npu.eltwise"(%x, %y) <{kind = "add", act = "none"}> : (tensor<1x4x4x8xf32>, tensor<1x4x4x9xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{unknown elementwise kind 'div' (expected one of add, sub, mul, max, min, rsub)}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "div", act = "none"}> : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{requantizes i32 to i8, got f32 to i8}}
  %0 = "npu.requant"(%x) <{mult = 1, shift = 0}> : (tensor<4x5xf32>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%x: tensor<4x5xi32>) {
  // expected-error @+1 {{shift must be in 0..=62, got 63}}
  %0 = "npu.requant"(%x) <{mult = 1, shift = 63}> : (tensor<4x5xi32>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%x: tensor<4x5xi32>) {
  // expected-error @+1 {{operand and result must have one shape}}
  %0 = "npu.requant"(%x) <{mult = 1, shift = 0}> : (tensor<4x5xi32>) -> tensor<5x4xi8>
  return
}

// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{names 2 inputs and 1 outputs for 1 operands and 1 results}}
  %0 = "npu.launch"(%x) <{program = @p, inputs = ["in0", "in1"], outputs = ["out0"]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'p' does not name a program}}
  %0 = "npu.launch"(%x) <{program = @p, inputs = ["in0"], outputs = ["out0"]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----
func.func private @p()
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'p' is not an npu.program}}
  %0 = "npu.launch"(%x) <{program = @p, inputs = ["in0"], outputs = ["out0"]}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----
// Schedule level, checked against the hardware description on the function.
func.func private @p() attributes {npu.hw = {name = "npu16", array_rows = 16, array_cols = 16, spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{a 17x16 weight tile does not fit the 16x16 array}}
  "npu.mx.preload"() <{dtype = "f32", src = 0, k = 17, n = 16}> : () -> ()
  return
}

// -----
// A transposed tile holds k in its lanes: a tall array's k does not fit a row.
func.func private @p() attributes {npu.hw = {name = "npu16", array_rows = 32, array_cols = 16, spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{a transposed tile's k=20 is its lanes: at most 16}}
  "npu.mx.preload"() <{dtype = "f32", src = 0, k = 20, n = 16, transpose}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{dst rows 60..70 are outside the scratchpad (64 rows)}}
  "npu.dma.load"() <{dtype = "f32", dst = 60, src = "in0", src_offset = 0, rows = 8, cols = 16, pad_top = 2}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{dst rows 16..40 are outside the accumulator (32 rows)}}
  "npu.mx.mul"() <{dtype = "f32", dst = 16, src = 0, rows = 8, k = 16, n = 16, loop = 3, src_stride = 8, dst_stride = 8}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16"}} {
  // expected-error @+1 {{cols=17 must be in 1..=16 (the lanes of a row)}}
  "npu.dma.storeacc"() <{dtype = "f32", dst = "out0", dst_offset = 0, src = 0, rows = 1, cols = 17}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'v.relu6' needs dtype one of f32, got i32}}
  "npu.v.relu6"() <{dtype = "i32", dst = 0, src = 0, rows = 1}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'sem.wait' takes no element type}}
  "npu.sem.wait"() <{dtype = "f32", queue = "exec", sem = 1}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'sem.wait' operand 'queue' is missing or malformed}}
  "npu.sem.wait"() <{queue = "fetch", sem = 1}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'sem.signal' operand 'sem' is missing or malformed}}
  "npu.sem.signal"() <{queue = "load", sem = 16}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'dma.load' operand 'src' is missing or malformed}}
  "npu.dma.load"() <{dtype = "f32", dst = 0, src = "in0", rows = 1, cols = 1}> : () -> ()
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{'v.clamp' operand 'min' is missing or malformed}}
  "npu.v.clamp"() <{dtype = "f32", dst = 0, src = 0, rows = 1, max = 1.0 : f32}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {array_rows = 0}} {
  // expected-error @+1 {{npu.hw.array_rows must be a positive integer}}
  "npu.fence"() : () -> ()
  return
}

// -----
// int8 products.
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xi8>) {
  // expected-error @+1 {{an f32 product takes f32 operands and result}}
  %0 = "npu.matmul"(%a, %k) <{act = "none"}> : (tensor<4x20xf32>, tensor<20x5xi8>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xf32>, %k: tensor<20x5xf32>) {
  // expected-error @+1 {{mult, shift, zp and pad_value belong to int8 products only}}
  %0 = "npu.matmul"(%a, %k) <{act = "none", mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<4x5xf32>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x5xi8>) {
  // expected-error @+1 {{an int8 product takes an i8 filter (i16 for a depthwise conv: weights less their zero points) and gives an i8 or i32 result}}
  %0 = "npu.matmul"(%a, %k) <{act = "none"}> : (tensor<4x20xi8>, tensor<20x5xi8>) -> tensor<4x5xf32>
  return
}

// -----
// An i16 filter (weights less their zero points) belongs to a depthwise conv only.
func.func @f(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x4x4xi16>) {
  // expected-error @+1 {{an int8 product takes an i8 filter (i16 for a depthwise conv: weights less their zero points) and gives an i8 or i32 result}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, mult = array<i64: 1073741824, 1073741824, 1073741824, 1073741824>, shift = array<i64: 3, 3, 3, 3>}> : (tensor<1x8x8x4xi8>, tensor<3x3x4x4xi16>) -> tensor<1x8x8x4xi8>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x5xi8>, %b: tensor<5xi32>) {
  // expected-error @+1 {{an integer product (i32 result) takes an i8 filter, no bias, no requantization, zero points or activation}}
  %0 = "npu.matmul"(%a, %k, %b) <{act = "none"}> : (tensor<4x20xi8>, tensor<20x5xi8>, tensor<5xi32>) -> tensor<4x5xi32>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x5xi8>, %b: tensor<5xi8>) {
  // expected-error @+1 {{an int8 product takes an i32 bias}}
  %0 = "npu.matmul"(%a, %k, %b) <{act = "none"}> : (tensor<4x20xi8>, tensor<20x5xi8>, tensor<5xi8>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x5xi8>) {
  // expected-error @+1 {{an int8 product needs mult and shift for each of its 5 output channels, got 1 and 5}}
  %0 = "npu.matmul"(%a, %k) <{act = "none", mult = array<i64: 1073741824>, shift = array<i64: 0, 0, 0, 0, 0>}> : (tensor<4x20xi8>, tensor<20x5xi8>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x1xi8>) {
  // expected-error @+1 {{mult must be in [2^30, 2^31) and shift in 0..=62}}
  %0 = "npu.matmul"(%a, %k) <{act = "none", mult = array<i64: 5>, shift = array<i64: 0>}> : (tensor<4x20xi8>, tensor<20x1xi8>) -> tensor<4x1xi8>
  return
}

// -----
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x1xi8>) {
  // expected-error @+1 {{the int8 clamp [10, 5] must be an ordered range within [-128, 127]}}
  %0 = "npu.matmul"(%a, %k) <{act = "clip", mult = array<i64: 1073741824>, shift = array<i64: 0>, qmin = 10, qmax = 5}> : (tensor<4x20xi8>, tensor<20x1xi8>) -> tensor<4x1xi8>
  return
}

// -----
// Zero points: the result's (zp) and the padding's (pad_value) are int8 values.
func.func @f(%a: tensor<4x20xi8>, %k: tensor<20x1xi8>) {
  // expected-error @+1 {{zp 200 is not an int8 value}}
  %0 = "npu.matmul"(%a, %k) <{act = "none", mult = array<i64: 1073741824>, shift = array<i64: 0>, zp = 200}> : (tensor<4x20xi8>, tensor<20x1xi8>) -> tensor<4x1xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>, %k: tensor<3x3x8x8xi8>) {
  // expected-error @+1 {{pad_value -129 is not an int8 value}}
  %0 = "npu.conv"(%x, %k) <{act = "none", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, group = 1, mult = array<i64: 1073741824, 1073741824, 1073741824, 1073741824, 1073741824, 1073741824, 1073741824, 1073741824>, shift = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, pad_value = -129}> : (tensor<1x4x4x8xi8>, tensor<3x3x8x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>, %k: tensor<3x3x8x8xf32>) {
  // expected-error @+1 {{mult, shift, zp and pad_value belong to int8 products only}}
  %0 = "npu.conv"(%x, %k) <{act = "none", strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, group = 1, pad_value = 3}> : (tensor<1x4x4x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{in_zp must be two zero points in [-128, 127]}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "add", act = "none", in_mult = array<i64: 1, 1>, in_zp = array<i64: 3>, mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{int8 elementwise ops are adds of two i8 tensors into an i8 result}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "mul", act = "none"}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{an int8 add needs in_mult (two values in 0..=2^20), mult (one, in [2^30, 2^31)) and shift (one, in 0..=62)}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "add", act = "none", in_mult = array<i64: 1>, mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{in_mult, in_zp, mult, shift and zp requantize int8 adds only}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "add", act = "none", in_mult = array<i64: 1, 1>}> : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
// Buffers: typed memory regions, and instructions addressing rows inside them.
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{rows 60..76 are outside the scratchpad (64 rows)}}
  %0 = "npu.alloc"() <{row = 60}> : () -> memref<16x16xf32, 1>
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{memory space 3 is neither the scratchpad (1) nor the accumulator (2)}}
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<16x16xf32, 3>
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{the buffer must be a memref<ROWSxLANESxT, 1|2> (1: scratchpad, 2: accumulator)}}
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<16xf32, 1>
  return
}

// -----
func.func private @p() {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 1>
  %1 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 2>
  // expected-error @+1 {{'mx.mul' operand 'src' touches rows 4..12 of a 8-row buffer}}
  "npu.mx.mul"(%1, %0) <{dtype = "f32", dst = 0, src = 4, rows = 8, k = 16, n = 16}> : (memref<8x16xf32, 2>, memref<8x16xf32, 1>) -> ()
  return
}

// -----
// A replay loop stepping backwards from row 2 by 2 rows a pass reaches row -2 of its input buffer.
func.func private @p() {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 1>
  %1 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 2>
  // expected-error @+1 {{'mx.mul' operand 'src' steps back to row -2, below its buffer}}
  "npu.mx.mul"(%1, %0) <{dtype = "f32", dst = 0, src = 2, rows = 2, k = 16, n = 16, loop = 3, src_stride = -2}> : (memref<8x16xf32, 2>, memref<8x16xf32, 1>) -> ()
  return
}

// -----
// A v.mac's replay loop reaches past its input buffer (rows 0..4, then 6..10); its weights are one row.
func.func private @p() {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 1>
  %1 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 2>
  %2 = "npu.alloc"() <{row = 8}> : () -> memref<1x16xf32, 2>
  // expected-error @+1 {{'v.mac' operand 'src' touches rows 0..10 of a 8-row buffer}}
  "npu.v.mac"(%1, %0, %2) <{dtype = "f32", dst = 0, src = 0, w = 0, rows = 4, loop = 2, src_stride = 6}> : (memref<8x16xf32, 2>, memref<8x16xf32, 1>, memref<1x16xf32, 2>) -> ()
  return
}

// -----
func.func private @p() {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 1>
  // expected-error @+1 {{'mx.mul' operand 'dst' must be an accumulator buffer}}
  "npu.mx.mul"(%0, %0) <{dtype = "f32", dst = 0, src = 0, rows = 8, k = 16, n = 16}> : (memref<8x16xf32, 1>, memref<8x16xf32, 1>) -> ()
  return
}

// -----
func.func private @p() {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 2>
  // expected-error @+1 {{'mx.mul' takes 2 buffer operands (one per memory operand) or none, got 1}}
  "npu.mx.mul"(%0) <{dtype = "f32", dst = 0, src = 0, rows = 8, k = 16, n = 16}> : (memref<8x16xf32, 2>) -> ()
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>, %y: tensor<1x1x4x8xf32>) {
  // expected-error @+1 {{the first operand and the result must have one shape, the second that shape, one value or one per channel}}
  %0 = "npu.eltwise"(%x, %y) <{kind = "add", act = "none"}> : (tensor<1x4x4x8xf32>, tensor<1x1x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>, %c: tensor<1x1x1x8xi8>) {
  // expected-error @+1 {{the first operand and the result must have one shape}}
  %0 = "npu.eltwise"(%x, %c) <{kind = "add", act = "none", in_mult = array<i64: 1, 1>, mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xi8>) {
  // expected-error @+1 {{an int8 op's activation is a clamp (none, relu, relu6, clip), not sigmoid}}
  %0 = "npu.eltwise"(%x, %x) <{kind = "add", act = "sigmoid", in_mult = array<i64: 1, 1>, mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<1x4x4x8xi8>, tensor<1x4x4x8xi8>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{takes and gives one f32 shape, got [1, 4, 4, 8] f32 and [1, 4, 4, 4] f32}}
  %0 = "npu.act"(%x) <{act = "relu"}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{unknown activation 'gelu' (expected one of relu, relu6, clip, sigmoid, tanh, hardsigmoid, hardswish, leakyrelu, erf, rpow)}}
  %0 = "npu.act"(%x) <{act = "gelu"}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{act = "hardsigmoid" needs a float beta}}
  %0 = "npu.act"(%x) <{act = "hardsigmoid", alpha = 0.2 : f32}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{act = "rpow" takes beta 0.5, 0.75 or 1, not 0.6}}
  %0 = "npu.act"(%x) <{act = "rpow", beta = 0.6 : f32}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{act = "rpow" needs a float beta}}
  %0 = "npu.act"(%x) <{act = "rpow"}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{act = "clip" needs float min and max}}
  %0 = "npu.act"(%x) <{act = "clip", min = 0.0 : f32}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{dim 1: 3 elements from 2 by steps of 1 do not fit in 4 (steps positive)}}
  %0 = "npu.slice"(%x) <{offsets = array<i64: 0, 2, 0, 0>, steps = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x4x8xf32>) -> tensor<1x3x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{offsets, steps and the result need one entry per dim of the 4-D input}}
  %0 = "npu.slice"(%x) <{offsets = array<i64: 0, 0>, steps = array<i64: 1, 1>}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{moves data without converting it: operand f32 and result i8}}
  %0 = "npu.slice"(%x) <{offsets = array<i64: 0, 0, 0, 0>, steps = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xi8>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{the operands give 11 along axis 3, the result has 12}}
  %0 = "npu.concat"(%x, %y) <{axis = 3 : i64}> : (tensor<1x4x4x8xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x12xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x2x3xf32>) {
  // expected-error @+1 {{operand [1, 4, 2, 3] does not match the result [1, 4, 4, 11] outside axis 3}}
  %0 = "npu.concat"(%x, %y) <{axis = 3 : i64}> : (tensor<1x4x4x8xf32>, tensor<1x4x2x3xf32>) -> tensor<1x4x4x11xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{axis 4 is not a dim of the 4-D result}}
  %0 = "npu.concat"(%x) <{axis = 4 : i64}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{an NHWC input [1, 4, 4, 8] upsampled by [2, 2] gives [1, 8, 8, 8], not [1, 8, 4, 8]}}
  %0 = "npu.upsample"(%x) <{factors = array<i64: 2, 2>}> : (tensor<1x4x4x8xf32>) -> tensor<1x8x4x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{factors must be 2 positive integers}}
  %0 = "npu.upsample"(%x) <{factors = array<i64: 0, 2>}> : (tensor<1x4x4x8xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{pads must be 8 non-negative integers (before, then after, each dim of the 4-D input)}}
  %0 = "npu.pad"(%x) <{pads = array<i64: 0, 1, 1, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x5x5x8xf32>
  return
}

// -----
func.func @f(%x: tensor<1x4x4x8xf32>) {
  // expected-error @+1 {{an input [1, 4, 4, 8] padded by [0, 1, 1, 0, 0, 1, 1, 0] gives [1, 6, 6, 8], not [1, 5, 6, 8]}}
  %0 = "npu.pad"(%x) <{pads = array<i64: 0, 1, 1, 0, 0, 1, 1, 0>}> : (tensor<1x4x4x8xf32>) -> tensor<1x5x6x8xf32>
  return
}

// -----
func.func @f(%x: tensor<2x40xf32>, %s: tensor<40xf32>, %b: tensor<20xf32>) {
  // expected-error @+1 {{bias must be 40 f32 values (one per element of the innermost dim), got [20] f32}}
  %0 = "npu.layernorm"(%x, %s, %b) <{epsilon = 1.0e-5 : f32}> : (tensor<2x40xf32>, tensor<40xf32>, tensor<20xf32>) -> tensor<2x40xf32>
  return
}

// -----
func.func @f(%x: tensor<2x40xf32>, %s: tensor<40xf32>) {
  // expected-error @+1 {{epsilon must be finite and non-negative, got -1}}
  %0 = "npu.layernorm"(%x, %s, %s) <{epsilon = -1.0 : f32}> : (tensor<2x40xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<2x40xf32>
  return
}

// -----
func.func @f(%x: tensor<2x40xf32>) {
  // expected-error @+1 {{takes and gives one f32 shape, got [2, 40] f32 and [2, 20] f32}}
  %0 = "npu.softmax"(%x) : (tensor<2x40xf32>) -> tensor<2x20xf32>
  return
}

// -----
func.func @f(%x: tensor<2x40xi8>) {
  // expected-error @+1 {{takes and gives one f32 shape, got [2, 40] i8 and [2, 40] i8}}
  %0 = "npu.softmax"(%x) : (tensor<2x40xi8>) -> tensor<2x40xi8>
  return
}

// -----
func.func @f(%x: tensor<f32>) {
  // expected-error @+1 {{normalizes over the innermost dim: a scalar has none}}
  %0 = "npu.softmax"(%x) : (tensor<f32>) -> tensor<f32>
  return
}

// -----
func.func @f(%x: tensor<4x5xf32>) {
  // expected-error @+1 {{takes and gives one i8 shape, got [4, 5] f32 and [4, 5] i8}}
  %0 = "npu.lut"(%x) <{table = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<4x5xf32>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%x: tensor<4x5xi8>) {
  // expected-error @+1 {{table has 255 entries (expected 256, one per int8 value)}}
  %0 = "npu.lut"(%x) <{table = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<4x5xi8>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%x: tensor<4x5xi8>) {
  // expected-error @+1 {{table entry 200 is 128, outside -128..127}}
  %0 = "npu.lut"(%x) <{table = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<4x5xi8>) -> tensor<4x5xi8>
  return
}

// -----
func.func @f(%x: tensor<4x5xi8>) {
  // expected-error @+1 {{table must be a list of integers}}
  %0 = "npu.lut"(%x) <{table = "sigmoid"}> : (tensor<4x5xi8>) -> tensor<4x5xi8>
  return
}

// -----
func.func private @p() {
  // expected-error @+1 {{the buffer needs a non-negative start row}}
  %0 = "npu.alloc"() <{row = -1}> : () -> memref<16x16xf32, 1>
  return
}

// -----
func.func private @p(%m: memref<8xf32>) {
  %0 = "npu.alloc"() <{row = 0}> : () -> memref<8x16xf32, 1>
  // expected-error @+1 {{'mx.mul' operand 'dst' is not a buffer}}
  "npu.mx.mul"(%m, %0) <{dtype = "f32", dst = 0, src = 0, rows = 8, k = 16, n = 16}> : (memref<8xf32>, memref<8x16xf32, 1>) -> ()
  return
}

// -----
func.func @f(%x: f32) {
  // expected-error @+1 {{expects ranked tensors, got f32}}
  %0 = "npu.softmax"(%x) : (f32) -> f32
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{strides must be a list of 2 integers}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = 1 : i64}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>) {
  // expected-error @+1 {{pads must be a list of 4 integers}}
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 1 : i64, pads = 1 : i64, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>) -> tensor<1x8x8x18xf32>
  return
}

// -----
func.func @f(%a: tensor<2x4x8xf32>, %b: tensor<2x8x5xf32>) {
  // expected-error @+1 {{mult and shift requantize int8 products only}}
  %0 = "npu.batch_matmul"(%a, %b) <{act = "none", mult = array<i64: 1073741824>, shift = array<i64: 0>}> : (tensor<2x4x8xf32>, tensor<2x8x5xf32>) -> tensor<2x4x5xf32>
  return
}

// -----
func.func @f(%x: tensor<4x4x8xf32>) {
  // expected-error @+1 {{input must be NHWC}}
  %0 = "npu.pool"(%x) <{kind = "max", kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>}> : (tensor<4x4x8xf32>) -> tensor<2x2x8xf32>
  return
}

// -----
func.func @f(%x: tensor<4x4x8xf32>) {
  // expected-error @+1 {{upsamples an NHWC (4-D) input, got [4, 4, 8]}}
  %0 = "npu.upsample"(%x) <{factors = array<i64: 2, 2>}> : (tensor<4x4x8xf32>) -> tensor<8x8x8xf32>
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{'v.requant' bias=-2 must be an accumulator row or -1 (none)}}
  "npu.v.requant"() <{dtype = "i8", dst = 0, src = 0, rows = 1, mult = 1073741824, shift = 0, zp = 0, bias = -2}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32}} {
  // expected-error @+1 {{bias row 32 is outside the accumulator (32 rows)}}
  "npu.v.requant"() <{dtype = "i8", dst = 0, src = 0, rows = 1, mult = 1073741824, shift = 0, zp = 0, bias = 32}> : () -> ()
  return
}

// -----
func.func private @p() attributes {npu.hw = {name = "npu16", spad_rows = 64, acc_rows = 32, vector_bias = 0}} {
  // expected-error @+1 {{'v.requant' adds a bias row, which target 'npu16' has not (vector.bias = false: npu16 revision 3)}}
  "npu.v.requant"() <{dtype = "i8", dst = 0, src = 0, rows = 1, mult = 1073741824, shift = 0, zp = 0, bias = 3}> : () -> ()
  return
}
