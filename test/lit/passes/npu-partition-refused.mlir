// npu-partition asks no backend an op says could not compile its partition
// (`backend.compile_failed = {backend = "why"}`, what the runner records
// before partitioning again): the op goes to the next backend of the list, the
// CPU here, with code compile-failed and the message.
// RUN: npu-opt %s --pass-pipeline='builtin.module(npu-partition{report=-})' -o /dev/null 2>&1 | FileCheck %s
// The Relu it feeds is no product: it stays with the Conv on the CPU rather than be a program of its own.
// CHECK: CPU operations (2 of 2):
// CHECK-NEXT: onnx.Conv "c1" [compile-failed] no tile fits
// CHECK-NEXT: onnx.Relu "r1" [constraint] no product in its run of NPU ops, which another target feeds: cheaper where its input is than as a program of its own
// CHECK-NEXT: npu16: 0 ops (0.0%) in 0 partitions; cpu: 2 ops (100.0%) in 1 partitions
// Without the mark the same ops go to npu16.
// RUN: sed 's/backend.compile_failed/unrelated/' %s | npu-opt --pass-pipeline='builtin.module(npu-partition{report=-})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: npu16: 2 ops (100.0%) in 1 partitions

func.func @g(%x: tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32> {
  %w = "onnx.Constant"() <{value = dense<0.5> : tensor<8x4x3x3xf32>}> : () -> tensor<8x4x3x3xf32>
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>}> {backend.compile_failed = {npu16 = "no tile fits"}} : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> loc("c1")
  %1 = "onnx.Relu"(%0) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> loc("r1")
  return %1 : tensor<1x8x6x6xf32>
}
