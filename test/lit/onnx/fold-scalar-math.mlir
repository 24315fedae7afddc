// Folding of the small float and narrow-integer scalar math expanded ONNX
// functions use (a window's length cast to float before its Range, a trip
// count computed in float and cast back): the results become constants, so
// the shapes they decide are static. Values are computed by hand below.
// RUN: npu-opt %s --onnx-shape-inference --canonicalize --onnx-shape-inference | FileCheck %s

// A Hann-window-like length: Range(0, float(10), 1) has 10 elements.
// CHECK-LABEL: func.func @window_length
// CHECK-SAME: -> tensor<10xf32>
func.func @window_length() -> tensor<*xf32> {
  %n = "onnx.Constant"() <{value = dense<10> : tensor<i32>}> : () -> tensor<i32>
  %zero = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %one = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %nf = "onnx.Cast"(%n) <{to = 1 : i64}> : (tensor<i32>) -> tensor<f32>
  %r = "onnx.Range"(%zero, %nf, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// ceil((5 - 1) / 1.5) = 3, through Sub, Div, Ceil, Relu and a truncating Cast;
// i32 arithmetic (7 / 2 truncates to 3); CastLike; Floor, Neg, Abs and Round of floats.
// CHECK-LABEL: func.func @scalar_math
// CHECK-DAG: dense<3> : tensor<i64>
// CHECK-DAG: dense<[3, -4]> : tensor<2xi32>
// CHECK-DAG: dense<2.500000e+00> : tensor<f64>
// CHECK-DAG: dense<[2.000000e+00, 2.000000e+00, -2.000000e+00]> : tensor<3xf32>
// CHECK-NOT: onnx.Sub
// CHECK-NOT: onnx.Ceil
// CHECK-NOT: onnx.Cast
func.func @scalar_math() -> (tensor<*xi64>, tensor<*xi32>, tensor<*xf64>, tensor<*xf32>) {
  %five = "onnx.Constant"() <{value = dense<5.0> : tensor<f32>}> : () -> tensor<f32>
  %one = "onnx.Constant"() <{value = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  %step = "onnx.Constant"() <{value = dense<1.5> : tensor<f32>}> : () -> tensor<f32>
  %d = "onnx.Sub"(%five, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %q = "onnx.Div"(%d, %step) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %c = "onnx.Ceil"(%q) : (tensor<f32>) -> tensor<f32>
  %p = "onnx.Relu"(%c) : (tensor<f32>) -> tensor<f32>
  %n = "onnx.Cast"(%p) <{to = 7 : i64}> : (tensor<f32>) -> tensor<*xi64>
  %a = "onnx.Constant"() <{value = dense<[7, -9]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %two = "onnx.Constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
  %h = "onnx.Div"(%a, %two) : (tensor<2xi32>, tensor<i32>) -> tensor<*xi32>
  %like = "onnx.Constant"() <{value = dense<0.0> : tensor<f64>}> : () -> tensor<f64>
  %i = "onnx.Constant"() <{value = dense<5> : tensor<i64>}> : () -> tensor<i64>
  %if = "onnx.CastLike"(%i, %like) : (tensor<i64>, tensor<f64>) -> tensor<f64>
  %half = "onnx.Constant"() <{value = dense<2.0> : tensor<f64>}> : () -> tensor<f64>
  %hf = "onnx.Div"(%if, %half) : (tensor<f64>, tensor<f64>) -> tensor<*xf64>
  %v = "onnx.Constant"() <{value = dense<[2.5, 2.7, -2.5]> : tensor<3xf32>}> : () -> tensor<3xf32>
  %fl = "onnx.Floor"(%v) : (tensor<3xf32>) -> tensor<3xf32>
  %ng = "onnx.Neg"(%fl) : (tensor<3xf32>) -> tensor<3xf32>
  %ab = "onnx.Abs"(%ng) : (tensor<3xf32>) -> tensor<3xf32>
  %rd = "onnx.Round"(%v) : (tensor<3xf32>) -> tensor<3xf32>
  %mn = "onnx.Min"(%ab, %rd) : (tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %n, %h, %hf, %mn : tensor<*xi64>, tensor<*xi32>, tensor<*xf64>, tensor<*xf32>
}

// Not folded: a float out of the integer type's range, a fraction cast to
// bool stays exact (0.5 is true), and float math on more than 65,536 elements.
// CHECK-LABEL: func.func @not_folded
// CHECK-DAG: "onnx.Cast"({{.*}}) <{to = 3 : i64}> : (tensor<f32>) -> tensor<i8>
// CHECK-DAG: dense<true> : tensor<i1>
// CHECK-DAG: "onnx.Add"({{.*}}) : (tensor<65537xf32>, tensor<65537xf32>) -> tensor<65537xf32>
func.func @not_folded() -> (tensor<i8>, tensor<i1>, tensor<65537xf32>) {
  %big = "onnx.Constant"() <{value = dense<300.0> : tensor<f32>}> : () -> tensor<f32>
  %b = "onnx.Cast"(%big) <{to = 3 : i64}> : (tensor<f32>) -> tensor<i8>
  %h = "onnx.Constant"() <{value = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %t = "onnx.Cast"(%h) <{to = 9 : i64}> : (tensor<f32>) -> tensor<i1>
  %many = "onnx.Constant"() <{value = dense<1.0> : tensor<65537xf32>}> : () -> tensor<65537xf32>
  %s = "onnx.Add"(%many, %many) : (tensor<65537xf32>, tensor<65537xf32>) -> tensor<65537xf32>
  return %b, %t, %s : tensor<i8>, tensor<i1>, tensor<65537xf32>
}

// A shape vector taken apart by Split and put back together folds.
// CHECK-LABEL: func.func @split_shape
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NOT: onnx.Split
func.func @split_shape(%x: tensor<6x4xf32>) -> tensor<*xf32> {
  %s = "onnx.Shape"(%x) : (tensor<6x4xf32>) -> tensor<2xi64>
  %p:2 = "onnx.Split"(%s) <{num_outputs = 2 : i64}> : (tensor<2xi64>) -> (tensor<*xi64>, tensor<*xi64>)
  %t = "onnx.Concat"(%p#1, %p#0) <{axis = 0 : i64}> : (tensor<*xi64>, tensor<*xi64>) -> tensor<*xi64>
  %r = "onnx.Reshape"(%x, %t) : (tensor<6x4xf32>, tensor<*xi64>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
