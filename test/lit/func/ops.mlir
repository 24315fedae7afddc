// func dialect round trip: custom form, and generic form back to custom.
// RUN: npu-opt %s --allow-unregistered-dialect | npu-opt --allow-unregistered-dialect | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-op-generic | npu-opt --allow-unregistered-dialect | FileCheck %s
// RUN: npu-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func private @decl(i32, f32 {npu.tag}) -> i64
// GENERIC: "func.func"() <{arg_attrs = [{}, {npu.tag}], function_type = (i32, f32) -> i64, sym_name = "decl", sym_visibility = "private"}> ({
func.func private @decl(i32, f32 {npu.tag}) -> i64

// CHECK-LABEL: func.func @add(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:    %0 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:    return %0 : i32
// CHECK-NEXT:  }
// GENERIC: "func.return"(%0) : (i32) -> ()
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  func.return %0 : i32
}

// CHECK-LABEL: func.func @multi(%arg0: f32 {onnx.name = "x"}) -> (f32 {onnx.name = "y"}, f32) attributes {npu.entry} {
// CHECK-NEXT:    %0:2 = call @pair(%arg0) : (f32) -> (f32, f32)
// CHECK-NEXT:    return %0#0, %0#1 : f32, f32
func.func @multi(%x: f32 {onnx.name = "x"}) -> (f32 {onnx.name = "y"}, f32) attributes {npu.entry} {
  %r:2 = call @pair(%x) : (f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}

// CHECK-LABEL: func.func @pair(%arg0: f32) -> (f32, f32) {
func.func @pair(%x: f32) -> (f32, f32) {
  return %x, %x : f32, f32
}

// CHECK-LABEL: func.func @void() {
// CHECK-NEXT:    call @void() : () -> ()
// CHECK-NEXT:    return
func.func @void() {
  func.call @void() : () -> ()
  return
}

// CHECK-LABEL: func.func private @returns_fn() -> ((i32) -> i32)
func.func private @returns_fn() -> ((i32) -> i32)

// CHECK-LABEL: func.func @cfg(%arg0: i1) -> i32 {
// CHECK:       ^bb1:
// CHECK-NEXT:    %{{.*}} = arith.constant 2 : i32
func.func @cfg(%c: i1) -> i32 {
  %one = arith.constant 1 : i32
  "test.cond_br"(%c)[^bb1, ^bb2] : (i1) -> ()
^bb1:
  %two = arith.constant 2 : i32
  return %two : i32
^bb2:
  return %one : i32
}
