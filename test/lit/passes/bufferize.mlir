// bufferize: tensors become memrefs; results become output arguments; the
// returned value is computed straight into its output argument; constants
// become private globals; each temporary buffer is freed after its last use.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(convert-onnx-to-tensor), func.func(bufferize))' | FileCheck %s

// CHECK: "memref.global"() <{alignment = 64 : i64, constant, initial_value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>, sym_name = "__constant_f_0", sym_visibility = "private", type = memref<3xf32>}>
// CHECK-LABEL: func.func @f(%arg0: memref<2x3xf32> {llvm.noalias}, %arg1: memref<2x3xf32> {llvm.noalias}) attributes {llvm.emit_c_interface}
// CHECK: %[[C:.*]] = "memref.get_global"() <{name = @__constant_f_0}> : () -> memref<3xf32>
// CHECK: %[[T:.*]] = "memref.alloc"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x3xf32>
// CHECK: "tensor.generic"(%arg0, %[[C]], %[[T]])
// CHECK: }) : (memref<2x3xf32>, memref<3xf32>, memref<2x3xf32>) -> ()
// CHECK: "tensor.generic"(%[[T]], %arg1)
// CHECK: "memref.dealloc"(%[[T]])
// CHECK-NEXT: return
func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = "onnx.Constant"() <{value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %0 = "onnx.Add"(%a, %c) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "onnx.Relu"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
