// RUN: npu-opt %s --split-input-file --verify-diagnostics --pack-weight-arguments | FileCheck %s

// The arguments marked npu.weight become one byte buffer where the first
// stood, each weight a view of it at a multiple of 64 bytes: 16 f32 (64 bytes)
// at 0, 3 i8 at 64, 4 f16 at 128 (after the 3 bytes, aligned up). The other
// arguments keep their places and attributes.
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%arg0: memref<4xf32> {llvm.noalias}, %arg1: memref<136xi8> {llvm.noalias, onnx.name = "__weights"}, %arg2: memref<4xf32> {llvm.noalias})
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[W0:.*]] = "memref.view"(%arg1, %[[C0]]) : (memref<136xi8>, index) -> memref<4x4xf32>
// CHECK-DAG: %[[W1:.*]] = "memref.view"(%arg1, %[[C64]]) : (memref<136xi8>, index) -> memref<3xi8>
// CHECK-DAG: %[[W2:.*]] = "memref.view"(%arg1, %[[C128]]) : (memref<136xi8>, index) -> memref<4xf16>
// CHECK: call @use(%arg0, %[[W0]], %[[W1]], %[[W2]], %arg2)
func.func private @use(memref<4xf32>, memref<4x4xf32>, memref<3xi8>, memref<4xf16>, memref<4xf32>)
func.func @model(%x: memref<4xf32> {llvm.noalias}, %w0: memref<4x4xf32> {llvm.noalias, npu.weight, onnx.name = "__weight_0"}, %w1: memref<3xi8> {npu.weight}, %w2: memref<4xf16> {npu.weight}, %y: memref<4xf32> {llvm.noalias}) {
  call @use(%x, %w0, %w1, %w2, %y) : (memref<4xf32>, memref<4x4xf32>, memref<3xi8>, memref<4xf16>, memref<4xf32>) -> ()
  return
}

// -----

// Without marked arguments nothing changes.
// CHECK-LABEL: func.func @plain
// CHECK-SAME: (%arg0: memref<4xf32>)
// CHECK-NOT: memref.view
func.func @plain(%x: memref<4xf32>) {
  return
}

// -----

// A weight the runtime could not lay out in bytes is an error at its function.
// expected-error @+1 {{weight argument 0 is memref<?xf32>, not a static memref of numbers without a layout}}
func.func @dynamic(%w: memref<?xf32> {npu.weight}) {
  return
}

// -----

// expected-error @+1 {{weight argument 0 is memref<4xf32, strided<[2]>>, not a static memref of numbers without a layout}}
func.func @strided(%w: memref<4xf32, strided<[2]>> {npu.weight}) {
  return
}

// -----

// A 4-bit float takes a byte, as LLVM stores it: 40 of them end at 40.
// CHECK-LABEL: func.func @nibbles
// CHECK-SAME: (%arg0: memref<40xi8> {llvm.noalias, onnx.name = "__weights"})
// CHECK: "memref.view"(%arg0, %{{.*}}) : (memref<40xi8>, index) -> memref<40xf4E2M1FN>
func.func @nibbles(%w: memref<40xf4E2M1FN> {npu.weight}) {
  return
}
