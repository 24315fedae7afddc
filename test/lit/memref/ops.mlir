// memref ops as upstream MLIR writes them (generic form: ours has no custom
// form for memref yet): every op verifies, prints back the same, and mlir-opt
// reads our output and prints what we read back to the same module.
// RUN: npu-opt %s --mlir-print-op-generic > %t.ours
// RUN: npu-opt %t.ours --mlir-print-op-generic | diff %t.ours -
// RUN: %llvm_tools_dir/mlir-opt %t.ours --mlir-print-op-generic | npu-opt --mlir-print-op-generic | diff %t.ours -
// RUN: FileCheck %s --input-file %t.ours
// CHECK: "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<
// CHECK: "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
// CHECK: "memref.alloca"()
// CHECK: "memref.load"(%arg0, %arg1, %arg1) : (memref<4x8xf32>, index, index) -> f32
// CHECK: "memref.store"(%arg2, %{{.*}}, %arg1, %arg1)
// CHECK: "memref.copy"
// CHECK: "memref.get_global"() <{name = @w}>
// CHECK: "memref.dim"
// CHECK: "memref.reinterpret_cast"
// CHECK: "memref.subview"{{.*}}memref<2x4xf32, strided<[8, 1], offset: 10>>
// CHECK: "memref.cast"{{.*}}memref<?x8xf32>
// CHECK: "memref.view"(%{{.*}}, %arg1) : (memref<256xi8>, index) -> memref<4x8xf32>
// CHECK: "memref.view"(%{{.*}}, %arg1, %arg1) : (memref<256xi8>, index, index) -> memref<?x4xf32>
// CHECK: "memref.prefetch"(%arg0, %arg1, %arg1) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}>
// CHECK: "memref.dealloc"

"builtin.module"() ({
  "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>, sym_name = "w", sym_visibility = "private", type = memref<4xf32>}> : () -> ()
  "func.func"() <{function_type = (memref<4x8xf32>, index, f32) -> f32, sym_name = "memrefs"}> ({
  ^bb0(%arg0: memref<4x8xf32>, %arg1: index, %arg2: f32):
    %0 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4x8xf32>
    %1 = "memref.alloca"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<16xi8>
    %2 = "memref.load"(%arg0, %arg1, %arg1) : (memref<4x8xf32>, index, index) -> f32
    "memref.store"(%arg2, %0, %arg1, %arg1) : (f32, memref<4x8xf32>, index, index) -> ()
    "memref.copy"(%arg0, %0) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
    %3 = "memref.get_global"() <{name = @w}> : () -> memref<4xf32>
    %4 = "memref.dim"(%arg0, %arg1) : (memref<4x8xf32>, index) -> index
    %5 = "memref.reinterpret_cast"(%0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 0>, static_sizes = array<i64: 32>, static_strides = array<i64: 1>}> : (memref<4x8xf32>) -> memref<32xf32>
    %6 = "memref.subview"(%arg0) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, static_offsets = array<i64: 1, 2>, static_sizes = array<i64: 2, 4>, static_strides = array<i64: 1, 1>}> : (memref<4x8xf32>) -> memref<2x4xf32, strided<[8, 1], offset: 10>>
    %7 = "memref.cast"(%arg0) : (memref<4x8xf32>) -> memref<?x8xf32>
    %8 = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<256xi8>
    %9 = "memref.view"(%8, %arg1) : (memref<256xi8>, index) -> memref<4x8xf32>
    %10 = "memref.view"(%8, %arg1, %arg1) : (memref<256xi8>, index, index) -> memref<?x4xf32>
    "memref.prefetch"(%arg0, %arg1, %arg1) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<4x8xf32>, index, index) -> ()
    "memref.dealloc"(%0) : (memref<4x8xf32>) -> ()
    "func.return"(%2) : (f32) -> ()
  }) : () -> ()
}) : () -> ()
