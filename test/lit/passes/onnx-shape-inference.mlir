// onnx-shape-inference: result types from operand types (and constant
// operands), then the function signature from what it returns.
// RUN: npu-opt %s --allow-unregistered-dialect --onnx-shape-inference | FileCheck %s

// CHECK-LABEL: func.func @cnn(%arg0: tensor<1x3x32x32xf32>, %arg1: tensor<8x3x3x3xf32>, %arg2: tensor<8xf32>) -> tensor<1x4096xf32>
func.func @cnn(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %b: tensor<8xf32>) -> tensor<*xf32> {
  // CHECK: "onnx.Conv"{{.*}} -> tensor<1x8x16x16xf32>
  %0 = "onnx.Conv"(%x, %w, %b) <{pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}> : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Relu"{{.*}} -> tensor<1x8x16x16xf32>
  %1 = "onnx.Relu"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: "onnx.MaxPool"{{.*}} -> tensor<1x8x8x8xf32>
  %2 = "onnx.MaxPool"(%1) <{kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<*xf32>) -> tensor<*xf32>
  %shape = "onnx.Constant"() <{value = dense<[1, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // CHECK: "onnx.Reshape"{{.*}} -> tensor<1x512xf32>
  %3 = "onnx.Reshape"(%2, %shape) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  // CHECK: "onnx.Concat"{{.*}} -> tensor<1x4096xf32>
  %4 = "onnx.Concat"(%3, %3, %3, %3, %3, %3, %3, %3) <{axis = 1 : i64}> : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  // CHECK: return %{{.*}} : tensor<1x4096xf32>
  return %4 : tensor<*xf32>
}

// Shape of a now-static tensor folds on the spot, its constant hoisted to the
// entry, and so does its Cast to float.
// CHECK-LABEL: func.func @misc
// CHECK-NEXT: %[[FSHAPE:.*]] = "onnx.Constant"() <{value = dense<[6.000000e+00, 1.000000e+00, 3.000000e+00]> : tensor<3xf32>}>
// CHECK-NEXT: "onnx.Constant"() <{value = dense<[6, 1, 3]> : tensor<3xi64>}>
// CHECK-NOT: "onnx.Shape"
// CHECK-NOT: "onnx.Cast"
func.func @misc(%a: tensor<4x1x5xf32>, %b: tensor<3x5xf32>, %m: tensor<5x6xf32>) {
  // CHECK: "onnx.Add"{{.*}} -> tensor<4x3x5xf32>
  %0 = "onnx.Add"(%a, %b) : (tensor<4x1x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Less"{{.*}} -> tensor<4x3x5xi1>
  %1 = "onnx.Less"(%a, %b) : (tensor<4x1x5xf32>, tensor<3x5xf32>) -> tensor<*xi1>
  // CHECK: "onnx.MatMul"{{.*}} -> tensor<4x3x6xf32>
  %2 = "onnx.MatMul"(%0, %m) : (tensor<*xf32>, tensor<5x6xf32>) -> tensor<*xf32>
  // CHECK: "onnx.Transpose"{{.*}} -> tensor<6x4x3xf32>
  %3 = "onnx.Transpose"(%2) <{perm = array<i64: 2, 0, 1>}> : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: "onnx.ReduceSum"{{.*}} -> tensor<6x1x3xf32>
  %axes = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %4 = "onnx.ReduceSum"(%3, %axes) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %5 = "onnx.Shape"(%4) : (tensor<*xf32>) -> tensor<*xi64>
  %6 = "onnx.Cast"(%5) <{to = 1 : i64}> : (tensor<*xi64>) -> tensor<*xf32>
  // CHECK: "onnx.Gemm"{{.*}} -> tensor<5x5xf32>
  %7 = "onnx.Gemm"(%b, %b) <{transA = 1 : i64}> : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
  // CHECK: "test.use"(%{{.*}}, %[[FSHAPE]], %{{.*}})
  "test.use"(%1, %6, %7) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> ()
  return
}

// The exporter's shape chain resolves in one run of the pass: every link folds
// as soon as its operand types are known, and the Reshape ends static.
// CHECK-LABEL: func.func @shape_chain
// CHECK-NOT: "onnx.Shape"
// CHECK-NOT: "onnx.Gather"
// CHECK-NOT: "onnx.Concat"
// CHECK: "onnx.Reshape"{{.*}} -> tensor<2x12xf32>
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %i = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %g = "onnx.Gather"(%s, %i) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %ax = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%g, %ax) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %m = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %c = "onnx.Concat"(%u, %m) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %c) : (tensor<2x3x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// Sequences take the most precise type all their elements share.
// CHECK-LABEL: func.func @sequences
// CHECK: "onnx.SequenceConstruct"{{.*}} -> !onnx.Seq<tensor<2x?xf32>>
// CHECK: "onnx.SequenceAt"{{.*}} -> tensor<2x?xf32>
// CHECK: "onnx.SequenceLength"{{.*}} -> tensor<i64>
func.func @sequences(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %i: tensor<i64>) {
  %s = "onnx.SequenceConstruct"(%a, %b) : (tensor<2x3xf32>, tensor<2x5xf32>) -> none
  %e = "onnx.SequenceAt"(%s, %i) : (none, tensor<i64>) -> none
  %n = "onnx.SequenceLength"(%s) : (none) -> none
  "test.use"(%e, %n) : (none, none) -> ()
  return
}

// Flatten's axis counts from the rank when negative (-1 of a rank-4 tensor is 3).
// CHECK-LABEL: func.func @flatten_negative
// CHECK: "onnx.Flatten"{{.*}} -> tensor<24x5xf32>
// CHECK: "onnx.Flatten"{{.*}} -> tensor<120x1xf32>
func.func @flatten_negative(%x: tensor<2x3x4x5xf32>) {
  %0 = "onnx.Flatten"(%x) <{axis = -1 : i64}> : (tensor<2x3x4x5xf32>) -> tensor<*xf32>
  %1 = "onnx.Flatten"(%x) <{axis = 4 : i64}> : (tensor<2x3x4x5xf32>) -> tensor<*xf32>
  "test.use"(%0, %1) : (tensor<*xf32>, tensor<*xf32>) -> ()
  return
}

// A Loop body's arguments take the iteration, condition and carried types; its
// carried result merges the initial value with what the body yields.
// CHECK-LABEL: func.func @loop_body
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<i1>, %{{.*}}: tensor<2x3xf32>):
// CHECK: "onnx.Relu"{{.*}} -> tensor<2x3xf32>
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @loop_body(%n: tensor<i64>, %c: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<*xf32> {
  %r = "onnx.Loop"(%n, %c, %x) ({
  ^bb0(%i: none, %cond: none, %v: none):
    %y = "onnx.Relu"(%v) : (none) -> none
    "onnx.Yield"(%cond, %y) : (none, none) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<2x3xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// A Loop known to run exactly n times (constant trip count, a condition that
// starts true and passes through) stacks n rows of scan output; a body that
// computes its condition leaves the count unknown. An empty sequence carried
// in takes the type the body gives it.
// CHECK-LABEL: func.func @loop_trip_count
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<3xf32>)
// CHECK: }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (tensor<f32>, tensor<?xf32>)
// CHECK: }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<*xf32>>) -> !onnx.Seq<tensor<2xf32>>
func.func @loop_trip_count(%x: tensor<2xf32>) {
  %n = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %z = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %r:2 = "onnx.Loop"(%n, %t, %z) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    %w = "onnx.Neg"(%v) : (tensor<f32>) -> tensor<f32>
    "onnx.Yield"(%c, %w, %v) : (tensor<i1>, tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (none, none)
  %s:2 = "onnx.Loop"(%n, %t, %z) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<f32>):
    %k = "onnx.Less"(%v, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%k, %v, %v) : (tensor<i1>, tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<f32>) -> (none, none)
  %e = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<*xf32>>
  %q = "onnx.Loop"(%n, %t, %e) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: !onnx.Seq<tensor<2xf32>>):
    %ins = "onnx.SequenceInsert"(%v, %x) : (!onnx.Seq<tensor<2xf32>>, tensor<2xf32>) -> none
    "onnx.Yield"(%c, %ins) : (tensor<i1>, none) -> ()
  }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<*xf32>>) -> none
  "test.use"(%r#1, %s#1, %q) : (none, none, none) -> ()
  return
}

// Scan in its opset-8 form: batched states and scan inputs after sequence_lens.
// CHECK-LABEL: func.func @scan_opset8
// CHECK: ^bb0(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>):
// CHECK: }) : (none, tensor<1x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>)
func.func @scan_opset8(%init: tensor<1x2xf32>, %x: tensor<1x3x2xf32>) attributes {onnx.opset = 8 : i64} {
  %none = "onnx.NoValue"() : () -> none
  %r:2 = "onnx.Scan"(%none, %init, %x) <{num_scan_inputs = 1 : i64}> ({
  ^bb0(%s: none, %e: none):
    %a = "onnx.Add"(%s, %e) : (none, none) -> none
    "onnx.Yield"(%a, %a) : (none, none) -> ()
  }) : (none, tensor<1x2xf32>, tensor<1x3x2xf32>) -> (none, none)
  "test.use"(%r#0, %r#1) : (none, none) -> ()
  return
}

// Einsum with an ellipsis (broadcast batch dims, a diagonal, implicit output),
// Col2Im with constant image and block shapes, an If merging optional
// sequences, and the string ops (data-dependent sizes stay `?`).
// CHECK-LABEL: func.func @more_rules
// CHECK: "onnx.Einsum"{{.*}} -> tensor<3x5xf64>
// CHECK: "onnx.Einsum"{{.*}} -> tensor<2x7x4x6xf32>
// CHECK: "onnx.Einsum"{{.*}} -> tensor<2x7x6x4xf32>
// CHECK: "onnx.Col2Im"{{.*}} -> tensor<1x2x5x5xf32>
// CHECK: }) : (tensor<i1>) -> !onnx.Opt<!onnx.Seq<tensor<5xf32>>>
// CHECK: "onnx.StringNormalizer"{{.*}} -> tensor<1x4x!onnx.String>
// CHECK: "onnx.StringNormalizer"{{.*}} -> tensor<1x?x!onnx.String>
// CHECK: "onnx.StringSplit"{{.*}} -> (tensor<1x4x?x!onnx.String>, tensor<1x4xi64>)
func.func @more_rules(%d: tensor<3x5x5xf64>, %a: tensor<2x1x4x5xf32>, %b: tensor<7x5x6xf32>, %cols: tensor<1x18x9xf32>, %c: tensor<i1>, %v: tensor<5xf32>, %s: tensor<1x4x!onnx.String>) {
  %0 = "onnx.Einsum"(%d) <{equation = "...ii ->...i"}> : (tensor<3x5x5xf64>) -> tensor<*xf64>
  %1 = "onnx.Einsum"(%a, %b) <{equation = "...ij,...jk->...ik"}> : (tensor<2x1x4x5xf32>, tensor<7x5x6xf32>) -> tensor<*xf32>
  %2 = "onnx.Einsum"(%a, %b) <{equation = "...kj,...ji"}> : (tensor<2x1x4x5xf32>, tensor<7x5x6xf32>) -> tensor<*xf32>
  %image = "onnx.Constant"() <{value = dense<[5, 5]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %block = "onnx.Constant"() <{value = dense<[3, 3]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %3 = "onnx.Col2Im"(%cols, %image, %block) : (tensor<1x18x9xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  %4 = "onnx.If"(%c) ({
    %o = "onnx.Optional"() <{type = !onnx.Seq<tensor<5xf32>>}> : () -> none
    "onnx.Yield"(%o) : (none) -> ()
  }, {
    %q = "onnx.SequenceConstruct"(%v) : (tensor<5xf32>) -> none
    %o = "onnx.Optional"(%q) : (none) -> none
    "onnx.Yield"(%o) : (none) -> ()
  }) : (tensor<i1>) -> none
  %5 = "onnx.StringNormalizer"(%s) <{case_change_action = "LOWER"}> : (tensor<1x4x!onnx.String>) -> tensor<*x!onnx.String>
  %6 = "onnx.StringNormalizer"(%s) <{stopwords = ["a"]}> : (tensor<1x4x!onnx.String>) -> tensor<*x!onnx.String>
  %7:2 = "onnx.StringSplit"(%s) : (tensor<1x4x!onnx.String>) -> (none, none)
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7#0, %7#1) : (tensor<*xf64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, none, tensor<*x!onnx.String>, tensor<*x!onnx.String>, none, none) -> ()
  return
}

// Named dims of the arguments are carried to the results: `batch` through
// MatMul, Relu, Transpose (where it moves) and a broadcast Add; a dim computed
// from it (Concat along it: 2·batch) or folded into another (Reshape to
// [-1, 2]) is `?` with no name.
// CHECK-LABEL: func.func @named_dims
// CHECK-SAME: -> (tensor<?x8xf32> {onnx.dims = ["batch", ""], onnx.name = "y"}, tensor<8x?xf32> {onnx.dims = ["", "batch"]}, tensor<?x8xf32>, tensor<?x2xf32>, tensor<?x?x8xf32> {onnx.dims = ["batch", "seq", ""]})
func.func @named_dims(%x: tensor<?x4xf32> {onnx.dims = ["batch", ""], onnx.name = "x"}, %w: tensor<4x8xf32>, %s: tensor<?x?x8xf32> {onnx.dims = ["batch", "seq", ""]}) -> (tensor<*xf32> {onnx.name = "y"}, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %m = "onnx.MatMul"(%x, %w) : (tensor<?x4xf32>, tensor<4x8xf32>) -> tensor<*xf32>
  %r = "onnx.Relu"(%m) : (tensor<*xf32>) -> tensor<*xf32>
  %t = "onnx.Transpose"(%r) <{perm = array<i64: 1, 0>}> : (tensor<*xf32>) -> tensor<*xf32>
  %c = "onnx.Concat"(%r, %r) <{axis = 0 : i64}> : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %shape = "onnx.Constant"() <{value = dense<[-1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %f = "onnx.Reshape"(%r, %shape) : (tensor<*xf32>, tensor<2xi64>) -> tensor<*xf32>
  %one = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%r, %one) : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %a = "onnx.Add"(%s, %u) : (tensor<?x?x8xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %r, %t, %c, %f, %a : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// A Reshape to a shape ONNX refuses (a dim below -1, two -1s, a -1 that does
// not divide) infers nothing: the result stays as declared (it became
// tensor<3x-2xf32>, a type that does not parse back; found by fuzzing).
// CHECK-LABEL: func.func @bad_reshapes
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
func.func @bad_reshapes(%x: tensor<2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %a = "onnx.Constant"() <{value = dense<[3, -2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %b = "onnx.Constant"() <{value = dense<[-1, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %c = "onnx.Constant"() <{value = dense<[5, -1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %a) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  %1 = "onnx.Reshape"(%x, %b) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  %2 = "onnx.Reshape"(%x, %c) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// PyTorch's reflect padding: a pads table reversed by a Slice of step -1,
// transposed and flattened; the folds (any rank, any step, Transpose of a
// constant) give Pad constant pads, so its result is static.
// CHECK-LABEL: func.func @pads_table
// CHECK-SAME: -> tensor<1x576xf32>
// CHECK: "onnx.Pad"(%arg0, %{{.*}}) <{mode = "reflect"}> : (tensor<1x512xf32>, tensor<4xi64>) -> tensor<1x576xf32>
func.func @pads_table(%x: tensor<1x512xf32>) -> tensor<*xf32> {
  %t = "onnx.Constant"() <{value = dense<[[0, 64], [0, 0]]> : tensor<2x2xi64>}> : () -> tensor<2x2xi64>
  %s = "onnx.Constant"() <{value = dense<-1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %e = "onnx.Constant"() <{value = dense<-9223372036854775807> : tensor<1xi64>}> : () -> tensor<1xi64>
  %a = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
  %r = "onnx.Slice"(%t, %s, %e, %a, %s) : (tensor<2x2xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %p = "onnx.Transpose"(%r) <{perm = array<i64: 1, 0>}> : (tensor<*xi64>) -> tensor<*xi64>
  %f = "onnx.Reshape"(%p, %s) : (tensor<*xi64>, tensor<1xi64>) -> tensor<*xi64>
  %y = "onnx.Pad"(%x, %f) <{mode = "reflect"}> : (tensor<1x512xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// An If whose condition folds (here from a static shape) is replaced by its
// branch in the same run, and what the branch computes is inferred.
// CHECK-LABEL: func.func @if_on_shape
// CHECK-SAME: -> tensor<1x1x128xf32>
// CHECK-NOT: onnx.If
// CHECK: "onnx.Unsqueeze"{{.*}} -> tensor<1x1x128xf32>
func.func @if_on_shape(%x: tensor<1x128xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<1x128xf32>) -> tensor<*xi64>
  %n = "onnx.Size"(%s) : (tensor<*xi64>) -> tensor<*xi64>
  %two = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  %c = "onnx.Equal"(%n, %two) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi1>
  %y = "onnx.If"(%c) ({
    %z = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %u = "onnx.Unsqueeze"(%x, %z) : (tensor<1x128xf32>, tensor<1xi64>) -> tensor<*xf32>
    "onnx.Yield"(%u) : (tensor<*xf32>) -> ()
  }, {
    "onnx.Yield"(%x) : (tensor<1x128xf32>) -> ()
  }) : (tensor<*xi1>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// tf2onnx and paddle2onnx build shape vectors in int32: Slice, Gather and
// Concat of int32 constants fold too, and the Expand they feed is static.
// CHECK-LABEL: func.func @int32_shape_math
// CHECK-SAME: -> tensor<2x3x4xf32>
// CHECK: "onnx.Expand"{{.*}} -> tensor<2x3x4xf32>
func.func @int32_shape_math(%x: tensor<3x1xf32>) -> tensor<*xf32> {
  %t = "onnx.Constant"() <{value = dense<[7, 2, 9, 4]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %s = "onnx.Constant"() <{value = dense<1> : tensor<1xi64>}> : () -> tensor<1xi64>
  %e = "onnx.Constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %a = "onnx.Slice"(%t, %s, %e) : (tensor<4xi32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi32>
  %i = "onnx.Constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %b = "onnx.Gather"(%t, %i) <{axis = 0 : i64}> : (tensor<4xi32>, tensor<1xi32>) -> tensor<*xi32>
  %three = "onnx.Constant"() <{value = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
  %c = "onnx.Concat"(%a, %three, %b) <{axis = 0 : i64}> : (tensor<*xi32>, tensor<1xi32>, tensor<*xi32>) -> tensor<*xi32>
  %d = "onnx.Cast"(%c) <{to = 7 : i64}> : (tensor<*xi32>) -> tensor<*xi64>
  %y = "onnx.Expand"(%x, %d) : (tensor<3x1xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// A declared output shape that is partly unknown and wrong (an exporter's
// rank-2 declaration of a rank-3 result) gives way to the static inferred
// one, as ONNX Runtime runs what it infers; the stale dim names go too.
// CHECK-LABEL: func.func @wrong_declaration
// CHECK-SAME: -> (tensor<2x1x3xf32> {onnx.dims = ["", "", ""]})
func.func @wrong_declaration(%x: tensor<2x3xf32>) -> (tensor<1x?xf32> {onnx.dims = ["", "seqlen"]}) {
  %s = "onnx.Constant"() <{value = dense<[2, 1, 3]> : tensor<3xi64>}> : () -> tensor<3xi64>
  %y = "onnx.Reshape"(%x, %s) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<1x?xf32>
  return %y : tensor<1x?xf32>
}

// A Conv whose pads have three entries for two spatial dims (found by
// opt_robustness): nothing is inferred from them and its declared type stays;
// the lowering names the attribute.
// CHECK-LABEL: func.func @conv_bad_pads
// CHECK: "onnx.Conv"{{.*}} -> tensor<1x8x?x?xf32>
func.func @conv_bad_pads(%x: tensor<1x4x6x6xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x?x?xf32> {
  %0 = "onnx.Conv"(%x, %w) <{kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1>}> : (tensor<1x4x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x?x?xf32>
  return %0 : tensor<1x8x?x?xf32>
}
