// npu-schedule: a partition's npu ops become one program of instructions
// (layers named after the ONNX nodes, DMA double-buffered against compute
// through semaphores, a fence between layers) and the partition launches it.
// The program translates to assembly that the NPU assembler takes.
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize, npu-schedule)' -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: npu-translate --mlir-to-npu %t.mlir -o %t.s
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// The text npu-translate prints assembles to the program of the binary it writes.
// RUN: npu-sim asm %t.s -o %t.bin
// RUN: npu-translate --mlir-to-npu --emit=npu-bin %t.mlir -o %t2.bin
// RUN: npu-sim disasm %t.bin -o %t.dis.s
// RUN: npu-sim disasm %t2.bin -o %t2.dis.s
// RUN: diff %t.dis.s %t2.dis.s
// A scratchpad too small for the smallest tile is an error naming the op and the memory.
// RUN: rm -f %t.none
// RUN: sed 's/^func.func @g/module attributes {npu.hw = {spad_rows = 32 : i64}} { func.func @g/; $ a }' %s > %t.small.mlir
// RUN: not npu-opt %t.small.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize, npu-schedule)' -o %t.none 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not ls %t.none
// Revision 3 (no bias row in the vector unit): the bias in a v.add of its own before the relu.
// RUN: sed 's/^func.func @g/module attributes {npu.hw = {vector_bias = 0 : i64}} { func.func @g/; $ a }' %s > %t.r3.mlir
// RUN: npu-opt %t.r3.mlir --pass-pipeline='builtin.module(npu-partition, convert-onnx-to-npu, canonicalize, npu-schedule)' | FileCheck %s --check-prefix=R3
// R3: "npu.v.add"({{.*}}) <{a = 0 : i64, b = 0 : i64, bcast,
// R3-NEXT: "npu.v.relu"({{.*}}) <{dst = 0 : i64, dtype = "f32", rows = 16 : i64, src = 0 : i64}>

// CHECK-LABEL: func.func private @g_npu16_0_program() attributes {npu.args = [{dir = "in", dtype = "f32", name = "in0", shape = [1 : i64, 8 : i64, 8 : i64, 3 : i64]}, {dir = "out", dtype = "f32", name = "out0", shape = [1 : i64, 4 : i64, 4 : i64, 4 : i64]}, {dir = "in", dtype = "i8", name = "weights"
// CHECK-SAME: npu.const_image = dense_resource<g_npu16_0_weights>
// CHECK-SAME: npu.program
// The layer carries the conv's MACs as the model defines them (4x4x4 outputs of 3x3x3 taps).
// CHECK: "npu.layer"() <{macs = 1728 : i64, name = "conv1+relu1"}>
// Buffers of the layer, in the scratchpad (memory space 1) and the accumulator (2).
// CHECK: %[[IN0:.*]] = "npu.alloc"() <{name = "input.0", row = 0 : i64}> : () -> memref<36x16xf32, 1>
// CHECK: %[[IN1:.*]] = "npu.alloc"() <{name = "input.1", row = 36 : i64}> : () -> memref<36x16xf32, 1>
// CHECK: %[[W:.*]] = "npu.alloc"() <{name = "weights", row = 72 : i64}> : () -> memref<27x16xf32, 1>
// CHECK: %[[B:.*]] = "npu.alloc"() <{name = "bias", row = 0 : i64}> : () -> memref<1x16xf32, 2>
// CHECK: %[[A0:.*]] = "npu.alloc"() <{name = "acc.0", row = 1 : i64}> : () -> memref<16x16xf32, 2>
// CHECK: "npu.dma.loadacc"(%[[B]]) <{cols = 16 : i64, dst = 0 : i64, dtype = "f32", rows = 1 : i64, src = "weights"
// CHECK: "npu.sem.signal"() <{queue = "load", sem = 0 : i64}>
// Stationary weights: each output block's are loaded by the first step that uses them.
// CHECK: "npu.dma.load"(%[[W]]) <{cols = 4 : i64, dst = 0 : i64, dtype = "f32", rows = 27 : i64, src = "weights"
// CHECK: "npu.sem.signal"() <{queue = "load", sem = 3 : i64}>
// Three input channels: the 3 taps of a kernel row share a memory row (9 lanes), loaded as one
// contiguous run of the NHWC row; the left column's first tap is padding (3 zero lanes).
// CHECK: "npu.dma.load"(%[[IN0]]) <{cols = 6 : i64, dst = 4 : i64, dtype = "f32", pad_left = 3 : i64, rows = 1 : i64, src = "in0", src_offset = 0 : i64}>
// CHECK: "npu.dma.load"(%[[IN0]]) <{cols = 9 : i64, dst = 5 : i64, dtype = "f32", rows = 3 : i64, src = "in0", src_offset = 12 : i64, stride = 24 : i64}>
// CHECK: "npu.sem.signal"() <{queue = "load", sem = 1 : i64}>
// CHECK: "npu.sem.wait"() <{queue = "exec", sem = 0 : i64}>
// CHECK: "npu.sem.wait"() <{queue = "exec", sem = 1 : i64}>
// CHECK: "npu.sem.wait"() <{queue = "exec", sem = 3 : i64}>
// CHECK: "npu.mx.preload"(%[[W]]) <{dtype = "f32", k = 9 : i64, n = 4 : i64
// CHECK: "npu.mx.mul"(%[[A0]], %[[IN0]]) <{dst = {{.*}}, dtype = "f32", k = 9 : i64, {{.*}}n = 4 : i64, rows = 4 : i64
// CHECK: "npu.mx.mul"(%[[A0]], %[[IN0]]) <{accumulate,
// The bias in the activation's pass (npu16 revision 4, `vector.bias`): no v.add.
// CHECK-NOT: "npu.v.add"
// CHECK: "npu.v.relu"(%[[A0]], %[[A0]]) <{bias = 0 : i64,
// CHECK: "npu.sem.signal"() <{queue = "exec", sem = 5 : i64}>
// CHECK: "npu.sem.wait"() <{queue = "store", sem = 5 : i64}>
// CHECK: "npu.dma.storeacc"(%[[A0]]) <{cols = 4 : i64, dst = "out0", dst_offset = 0 : i64, dtype = "f32", rows = 16 : i64, src = 0 : i64, stride = 16 : i64}>
// CHECK: "npu.fence"()
// CHECK: "npu.halt"()
// CHECK-LABEL: func.func private @g_npu16_0(%arg0: tensor<1x8x8x3xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: "npu.launch"(%arg0) <{inputs = ["in0"], outputs = ["out0"], program = @g_npu16_0_program}>

// ASM: .target "npu16"
// ASM: .arg %in0 in f32 [1, 8, 8, 3]
// ASM: .arg %out0 out f32 [1, 4, 4, 4]
// ASM: .arg %weights in i8 [
// ASM: .layer "conv1+relu1"
// ASM: dma.loadacc.f32 acc[0], %weights+{{[0-9]+}}, rows=1, cols=16
// ASM: sem.signal load, s0
// Absolute rows: the buffer's start plus the offset.
// ASM: mx.mul.f32 acc[5], spad[8], rows=4, k=9, n=4, loop=3, src_stride=8, dst_stride=4
// ASM: v.relu.f32
// ASM: dma.storeacc.f32 %out0, acc[1], rows=16, cols=4, stride=16
// ASM: halt

// SMALL: loc({{.*}}"conv1"{{.*}}): npu.conv: the smallest tile needs {{[0-9]+}} scratchpad rows; the scratchpad has 32

func.func @g(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = "onnx.Constant"() <{value = dense<[[[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [0.7, 0.8, 0.9]], [[1.0, 1.1, 1.2], [-1.3, 1.4, 1.5], [1.6, 1.7, 1.8]], [[1.9, 2.0, 2.1], [2.2, 2.3, 2.4], [2.5, -2.6, 2.7]]], [[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[1.0, 1.1, 1.2], [1.3, 1.4, 1.5], [1.6, 1.7, 1.8]], [[1.9, 2.0, 2.1], [2.2, 2.3, 2.4], [2.5, 2.6, 2.7]]], [[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[1.0, 1.1, 1.2], [1.3, 1.4, 1.5], [1.6, 1.7, 1.8]], [[1.9, 2.0, 2.1], [2.2, 2.3, 2.4], [2.5, 2.6, 2.7]]], [[[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]], [[1.0, 1.1, 1.2], [1.3, 1.4, 1.5], [1.6, 1.7, 1.8]], [[1.9, 2.0, 2.1], [2.2, 2.3, 2.4], [2.5, 2.6, 2.7]]]]> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
  %b = "onnx.Constant"() <{value = dense<[0.5, -0.5, 0.25, 0.0]> : tensor<4xf32>}> : () -> tensor<4xf32>
  %0 = "onnx.Conv"(%x, %w, %b) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> loc("conv1")
  %1 = "onnx.Relu"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("relu1")
  return %1 : tensor<1x4x4x4xf32>
}
