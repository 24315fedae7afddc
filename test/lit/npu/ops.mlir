// The npu dialect's ops at both levels parse, verify and print back.
// RUN: npu-opt %s | FileCheck %s
// RUN: npu-opt %s | npu-opt | FileCheck %s

// CHECK-LABEL: func.func @tensor_level
func.func @tensor_level(%x: tensor<1x8x8x20xf32>, %w: tensor<3x3x20x18xf32>, %b: tensor<18xf32>, %dw: tensor<3x3x1x18xf32>, %a: tensor<4x20xf32>, %k: tensor<20x5xf32>, %acc: tensor<4x5xi32>) -> (tensor<1x4x4x18xf32>, tensor<4x5xf32>, tensor<4x5xi8>) {
  // CHECK: "npu.conv"(%{{.*}}, %{{.*}}, %{{.*}}) <{act = "relu", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}>
  %0 = "npu.conv"(%x, %w, %b) <{act = "relu", group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x20xf32>, tensor<3x3x20x18xf32>, tensor<18xf32>) -> tensor<1x8x8x18xf32>
  // CHECK: "npu.conv"{{.*}}act = "clip", group = 18 : i64, max = 6.000000e+00 : f32, min = 0.000000e+00 : f32
  %1 = "npu.conv"(%0, %dw) <{act = "clip", min = 0.0 : f32, max = 6.0 : f32, group = 18 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x8x8x18xf32>, tensor<3x3x1x18xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.pool"{{.*}}kind = "max"
  %2 = "npu.pool"(%1) <{kind = "max", kernel = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>}> : (tensor<1x4x4x18xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.eltwise"{{.*}}act = "none", kind = "add"
  %3 = "npu.eltwise"(%1, %2) <{kind = "add", act = "none"}> : (tensor<1x4x4x18xf32>, tensor<1x4x4x18xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.matmul"{{.*}}act = "relu6"
  %4 = "npu.matmul"(%a, %k) <{act = "relu6"}> : (tensor<4x20xf32>, tensor<20x5xf32>) -> tensor<4x5xf32>
  // CHECK: "npu.requant"{{.*}}mult = 1073741824 : i64, shift = 3 : i64, zp = -2 : i64
  %5 = "npu.requant"(%acc) <{mult = 1073741824 : i64, shift = 3 : i64, zp = -2 : i64}> : (tensor<4x5xi32>) -> tensor<4x5xi8>
  return %3, %4, %5 : tensor<1x4x4x18xf32>, tensor<4x5xf32>, tensor<4x5xi8>
}

// Broadcast operands (one value, one per channel) and standalone activations.
// CHECK-LABEL: func.func @vector_unit
func.func @vector_unit(%x: tensor<1x4x4x18xf32>, %c: tensor<1x1x1x18xf32>, %s: tensor<1xf32>) -> tensor<1x4x4x18xf32> {
  // CHECK: "npu.eltwise"{{.*}}act = "sigmoid", kind = "mul"
  %0 = "npu.eltwise"(%x, %c) <{kind = "mul", act = "sigmoid"}> : (tensor<1x4x4x18xf32>, tensor<1x1x1x18xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.eltwise"{{.*}}act = "none", kind = "rsub"
  %1 = "npu.eltwise"(%0, %s) <{kind = "rsub", act = "none"}> : (tensor<1x4x4x18xf32>, tensor<1xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.act"{{.*}}act = "hardsigmoid", alpha = 2.000000e-01 : f32, beta = 5.000000e-01 : f32
  %2 = "npu.act"(%1) <{act = "hardsigmoid", alpha = 0.2 : f32, beta = 0.5 : f32}> : (tensor<1x4x4x18xf32>) -> tensor<1x4x4x18xf32>
  // CHECK: "npu.act"{{.*}}act = "hardswish"
  %3 = "npu.act"(%2) <{act = "hardswish"}> : (tensor<1x4x4x18xf32>) -> tensor<1x4x4x18xf32>
  return %3 : tensor<1x4x4x18xf32>
}

// Products of two computed operands, batch by batch; B as given or transposed.
// CHECK-LABEL: func.func @batched
func.func @batched(%q: tensor<8x24x15xf32>, %k: tensor<8x24x15xf32>, %v: tensor<8x24x15xf32>) -> tensor<8x24x15xf32> {
  // CHECK: "npu.batch_matmul"{{.*}}<{act = "none", transpose_b}> : (tensor<8x24x15xf32>, tensor<8x24x15xf32>) -> tensor<8x24x24xf32>
  %0 = "npu.batch_matmul"(%q, %k) <{act = "none", transpose_b}> : (tensor<8x24x15xf32>, tensor<8x24x15xf32>) -> tensor<8x24x24xf32>
  // CHECK: "npu.batch_matmul"{{.*}}<{act = "none"}> : (tensor<8x24x24xf32>, tensor<8x24x15xf32>) -> tensor<8x24x15xf32>
  %1 = "npu.batch_matmul"(%0, %v) <{act = "none"}> : (tensor<8x24x24xf32>, tensor<8x24x15xf32>) -> tensor<8x24x15xf32>
  return %1 : tensor<8x24x15xf32>
}

// Normalizations over the innermost dim (the vector unit's lane reductions).
// CHECK-LABEL: func.func @rows
func.func @rows(%x: tensor<2x40xf32>, %s: tensor<40xf32>, %b: tensor<40xf32>) -> tensor<2x40xf32> {
  // CHECK: "npu.layernorm"{{.*}}epsilon = 1.000000e-05 : f32
  %0 = "npu.layernorm"(%x, %s, %b) <{epsilon = 1.0e-5 : f32}> : (tensor<2x40xf32>, tensor<40xf32>, tensor<40xf32>) -> tensor<2x40xf32>
  // CHECK: "npu.softmax"
  %1 = "npu.softmax"(%0) : (tensor<2x40xf32>) -> tensor<2x40xf32>
  return %1 : tensor<2x40xf32>
}

// Data movement (the DMA engines alone).
// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<1x4x4x18xf32>, %c: tensor<1x4x6x2xf32>) -> tensor<1x5x8x20xf32> {
  // CHECK: "npu.slice"{{.*}}offsets = array<i64: 0, 1, 0, 0>, steps = array<i64: 1, 2, 1, 1>
  %0 = "npu.slice"(%x) <{offsets = array<i64: 0, 1, 0, 0>, steps = array<i64: 1, 2, 1, 1>}> : (tensor<1x4x4x18xf32>) -> tensor<1x2x2x18xf32>
  // CHECK: "npu.upsample"{{.*}}factors = array<i64: 2, 3>
  %1 = "npu.upsample"(%0) <{factors = array<i64: 2, 3>}> : (tensor<1x2x2x18xf32>) -> tensor<1x4x6x18xf32>
  // CHECK: "npu.concat"{{.*}}axis = 3 : i64
  %2 = "npu.concat"(%1, %c) <{axis = 3 : i64}> : (tensor<1x4x6x18xf32>, tensor<1x4x6x2xf32>) -> tensor<1x4x6x20xf32>
  // CHECK: "npu.pad"{{.*}}pads = array<i64: 0, 1, 0, 0, 0, 0, 2, 0>, value = 1.500000e+00 : f32
  %3 = "npu.pad"(%2) <{pads = array<i64: 0, 1, 0, 0, 0, 0, 2, 0>, value = 1.5 : f32}> : (tensor<1x4x6x20xf32>) -> tensor<1x5x8x20xf32>
  return %3 : tensor<1x5x8x20xf32>
}

// Schedule level: one op per instruction, operands named as in the assembly.
// CHECK-LABEL: func.func private @prog
// CHECK: "npu.layer"() <{name = "conv1"}>
// CHECK: "npu.dma.load"() <{cols = 16 : i64, dst = 0 : i64, dtype = "f32", pad_top = 1 : i64, rows = 8 : i64, src = "in0", src_offset = 64 : i64, stride = 80 : i64}>
// CHECK: "npu.sem.signal"() <{queue = "load", sem = 1 : i64}>
// CHECK: "npu.mx.mul"() <{accumulate, dst = 0 : i64, dst_stride = 8 : i64, dtype = "f32", k = 16 : i64, loop = 2 : i64, n = 16 : i64, rows = 8 : i64, src = 0 : i64, src_stride = 10 : i64}>
// CHECK: "npu.v.clamp"() <{dst = 0 : i64, dtype = "f32", max = 6.000000e+00 : f32, min = 0.000000e+00 : f32, rows = 4 : i64, src = 0 : i64}>
// CHECK: "npu.v.shr"() <{amount = 4 : i64, dst = 0 : i64, dtype = "i32", round, rows = 4 : i64, src = 0 : i64}>
// CHECK: "npu.v.shl"() <{amount = 1 : i64, dst = 0 : i64, dtype = "i32", rows = 4 : i64, src = 0 : i64}>
// CHECK: "npu.v.hsum"() <{dst = 8 : i64, dtype = "f32", lanes = 8 : i64, rows = 4 : i64, src = 0 : i64}>
// CHECK: "npu.v.exp"() <{dst = 0 : i64, dtype = "f32", rows = 4 : i64, src = 0 : i64}>
// CHECK: "npu.v.mac"() <{accumulate, dst = 0 : i64, dst_stride = 4 : i64, dtype = "i8", loop = 3 : i64, rows = 4 : i64, src = 0 : i64, src_stride = 6 : i64, w = 40 : i64}>
// CHECK: "npu.halt"()
func.func private @prog() attributes {npu.program, npu.args = [{name = "in0", dir = "in", dtype = "f32", shape = [4, 80]}]} {
  "npu.layer"() <{name = "conv1"}> : () -> ()
  "npu.dma.load"() <{dtype = "f32", dst = 0, src = "in0", src_offset = 64, rows = 8, cols = 16, stride = 80, pad_top = 1}> : () -> ()
  "npu.sem.signal"() <{queue = "load", sem = 1}> : () -> ()
  "npu.sem.wait"() <{queue = "exec", sem = 1}> : () -> ()
  "npu.mx.preload"() <{dtype = "f32", src = 100, k = 16, n = 16}> : () -> ()
  "npu.mx.mul"() <{dtype = "f32", dst = 0, src = 0, rows = 8, k = 16, n = 16, loop = 2, src_stride = 10, dst_stride = 8, accumulate}> : () -> ()
  "npu.v.clamp"() <{dtype = "f32", dst = 0, src = 0, rows = 4, min = 0.0 : f32, max = 6.0 : f32}> : () -> ()
  "npu.v.shr"() <{dtype = "i32", dst = 0, src = 0, rows = 4, amount = 4, round}> : () -> ()
  "npu.v.shl"() <{dtype = "i32", dst = 0, src = 0, rows = 4, amount = 1}> : () -> ()
  "npu.v.hsum"() <{dtype = "f32", dst = 8, src = 0, rows = 4, lanes = 8}> : () -> ()
  "npu.v.exp"() <{dtype = "f32", dst = 0, src = 0, rows = 4}> : () -> ()
  "npu.v.mac"() <{dtype = "i8", dst = 0, src = 0, w = 40, rows = 4, loop = 3, src_stride = 6, dst_stride = 4, accumulate}> : () -> ()
  "npu.fence"() : () -> ()
  "npu.halt"() : () -> ()
  return
}

// An int8 function of one value as its 256-entry table (here x -> floor(x / 2)).
// CHECK-LABEL: func.func @lookup
func.func @lookup(%x: tensor<1x4x4x18xi8>) -> tensor<1x4x4x18xi8> {
  // CHECK: "npu.lut"(%{{.*}}) <{table = array<i64: -64, -64, -63,
  %0 = "npu.lut"(%x) <{table = array<i64: -64, -64, -63, -63, -62, -62, -61, -61, -60, -60, -59, -59, -58, -58, -57, -57, -56, -56, -55, -55, -54, -54, -53, -53, -52, -52, -51, -51, -50, -50, -49, -49, -48, -48, -47, -47, -46, -46, -45, -45, -44, -44, -43, -43, -42, -42, -41, -41, -40, -40, -39, -39, -38, -38, -37, -37, -36, -36, -35, -35, -34, -34, -33, -33, -32, -32, -31, -31, -30, -30, -29, -29, -28, -28, -27, -27, -26, -26, -25, -25, -24, -24, -23, -23, -22, -22, -21, -21, -20, -20, -19, -19, -18, -18, -17, -17, -16, -16, -15, -15, -14, -14, -13, -13, -12, -12, -11, -11, -10, -10, -9, -9, -8, -8, -7, -7, -6, -6, -5, -5, -4, -4, -3, -3, -2, -2, -1, -1, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37, 38, 38, 39, 39, 40, 40, 41, 41, 42, 42, 43, 43, 44, 44, 45, 45, 46, 46, 47, 47, 48, 48, 49, 49, 50, 50, 51, 51, 52, 52, 53, 53, 54, 54, 55, 55, 56, 56, 57, 57, 58, 58, 59, 59, 60, 60, 61, 61, 62, 62, 63, 63>}> : (tensor<1x4x4x18xi8>) -> tensor<1x4x4x18xi8>
  return %0 : tensor<1x4x4x18xi8>
}

// A depthwise int8 conv whose filter holds weights less their zero points (i16).
// CHECK-LABEL: func.func @depthwise_wide_filter
func.func @depthwise_wide_filter(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x1x4xi16>) -> tensor<1x8x8x4xi8> {
  // CHECK: "npu.conv"{{.*}} : (tensor<1x8x8x4xi8>, tensor<3x3x1x4xi16>) -> tensor<1x8x8x4xi8>
  %0 = "npu.conv"(%x, %w) <{act = "none", group = 4 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, mult = array<i64: 1073741824, 1073741824, 1073741824, 1073741824>, shift = array<i64: 3, 3, 3, 3>}> : (tensor<1x8x8x4xi8>, tensor<3x3x1x4xi16>) -> tensor<1x8x8x4xi8>
  return %0 : tensor<1x8x8x4xi8>
}
