// insert-profiling: each node's top-level code (ops sharing the node's
// location) is bracketed by calls to the runtime's hooks with the region's
// id; the function lists the regions' node names (all of a fused op's nodes,
// joined by `+`).
// RUN: npu-opt %s --insert-profiling | FileCheck %s

// CHECK: func.func private @npu_profile_exit(i32)
// CHECK: func.func private @npu_profile_enter(i32)
// CHECK-LABEL: func.func @f
// CHECK-SAME: npu.profile_regions = ["conv1", "relu1", "conv2+relu2"]
// CHECK: %[[ID0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: call @npu_profile_enter(%[[ID0]])
// CHECK-NEXT: "memref.store"
// CHECK-NEXT: "memref.store"
// CHECK-NEXT: call @npu_profile_exit(%[[ID0]])
// CHECK: %[[ID1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: call @npu_profile_enter(%[[ID1]])
// CHECK-NEXT: "memref.store"
// CHECK-NEXT: call @npu_profile_exit(%[[ID1]])
// CHECK: %[[ID2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: call @npu_profile_enter(%[[ID2]])
// CHECK-NEXT: "memref.store"
// CHECK-NEXT: call @npu_profile_exit(%[[ID2]])
// CHECK-NEXT: return
func.func @f(%m: memref<4xf32>, %v: f32, %i: index) {
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> () loc("conv1")
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> () loc("conv1")
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> () loc("relu1")
  "memref.store"(%v, %m, %i) : (f32, memref<4xf32>, index) -> () loc(fused["conv2", "relu2"])
  return
}
