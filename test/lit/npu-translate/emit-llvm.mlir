// npu-translate compiles onnx-level IR for the CPU: the LLVM IR it emits is
// accepted by LLVM 22's llvm-as and verifier, and exports the C entry point;
// a math op without an LLVM intrinsic or a polynomial of ours (acosh) is a libm call.
// Each loop nest is a function of its own (outline-loop-nests) with no C entry point.
// RUN: npu-translate --mlir-to-llvmir %s -o %t.ll
// RUN: llvm-as %t.ll -o %t.bc
// RUN: opt -passes=verify %t.bc -disable-output
// RUN: FileCheck %s < %t.ll
// RUN: npu-translate --mlir-to-llvmir --emit=loops %s | FileCheck %s --check-prefix=LOOPS
// RUN: npu-translate --mlir-to-llvmir --emit=obj %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: not npu-translate --mlir-to-llvmir --emit=obj %s 2>&1 | FileCheck %s --check-prefix=NOFILE

// CHECK: define void @model(
// The zero fill of the product runs in its accumulators: one nest, the Acosh its epilogue.
// CHECK: call void @model_nest0(
// CHECK-NOT: call void @model_nest1(
// CHECK: define void @_mlir_ciface_model(
// CHECK-NOT: _mlir_ciface_model_nest
// CHECK: define void @model_nest0(
// CHECK: call float @acoshf(
// LOOPS: func.func @model(%arg0: memref<2x8xf32> {llvm.noalias}, %arg1: memref<8x4xf32> {llvm.noalias}, %arg2: memref<2x4xf32> {llvm.noalias})
// LOOPS: scf.for
// OBJ-NOT: _mlir_ciface_model_nest
// OBJ: T _mlir_ciface_model
// OBJ-NOT: _mlir_ciface_model_nest
// NOFILE: error: --emit=obj writes a binary file: give -o FILE
func.func @model(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = "onnx.Acosh"(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}
