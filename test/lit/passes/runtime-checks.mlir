// Run-time index checks: convert-onnx-to-tensor reduces a Gather's indices to
// how many are out of range and the largest of those, and passes both with the
// check's id to @__npu_check_failed; the module lists each check's message.
// bufferize reads the verdicts with memref.load.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor))' | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), tensor-generalize, func.func(bufferize))' | FileCheck %s --check-prefix=BUF

// CHECK: module attributes {npu.runtime_checks = ["Gather 'pick': index {} is out of range for axis 0 of size 3; indices must be in [-3, 2]", "GatherElements 'ge': index {} is out of range for axis 1 of size 4; indices must be in [-4, 3]"]}
// CHECK: func.func private @__npu_check_failed(i64, i64, i64)
// CHECK-LABEL: func.func @g
// CHECK: %[[G:.*]]:2 = "tensor.generic"(%arg1, %{{.*}}, %{{.*}}) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sge
// CHECK: arith.addi
// CHECK: arith.maxsi
// CHECK: %[[N:.*]] = "tensor.extract"(%[[G]]#0) : (tensor<i64>) -> i64
// CHECK: %[[V:.*]] = "tensor.extract"(%[[G]]#1) : (tensor<i64>) -> i64
// CHECK: %[[ID:.*]] = arith.constant 0 : i64
// CHECK: call @__npu_check_failed(%[[ID]], %[[N]], %[[V]])
// CHECK-LABEL: func.func @e
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.constant 1 : i64
// CHECK: call @__npu_check_failed
// Constant indices are checked when lowering: no call.
// CHECK-LABEL: func.func @c
// CHECK-NOT: npu_check_failed
// CHECK: return

// BUF-LABEL: func.func @g
// BUF: %[[N:.*]] = "memref.load"(%{{.*}}) : (memref<i64>) -> i64
// BUF: %[[V:.*]] = "memref.load"(%{{.*}}) : (memref<i64>) -> i64
// BUF: call @__npu_check_failed(%{{.*}}, %[[N]], %[[V]])

func.func @g(%x: tensor<3xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : si64}> : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32> loc("pick")
  return %0 : tensor<2xf32>
}
func.func @e(%x: tensor<2x4xf32>, %i: tensor<2x2xi32>) -> tensor<2x2xf32> {
  %0 = "onnx.GatherElements"(%x, %i) <{axis = 1 : si64}> : (tensor<2x4xf32>, tensor<2x2xi32>) -> tensor<2x2xf32> loc("ge")
  return %0 : tensor<2x2xf32>
}
func.func @c(%x: tensor<3xf32>) -> tensor<2xf32> {
  %i = "onnx.Constant"() <{value = dense<[0, -3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = "onnx.Gather"(%x, %i) <{axis = 0 : si64}> : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
