// onnx-resolve-sequences: a sequence whose contents are known at compile time
// becomes the tensors it holds. SequenceInsert/Erase/At/Length fold to the
// tensors and a constant, ConcatFromSequence becomes a Concat, SplitToSequence
// Slices, SequenceMap its body once per element, a Loop that carries a
// sequence unrolls. The function's sequence results flatten to one result per
// element (`out[0]`, `out[1]`), an empty sequence to one empty tensor
// (`empty[]`) and an optional with a value to that value.
// RUN: npu-opt %s --onnx-resolve-sequences | FileCheck %s

// CHECK-LABEL: func.func @resolved
// CHECK-SAME: -> (tensor<2xf32> {onnx.name = "out[0]"}, tensor<2xf32> {onnx.name = "out[1]"}, tensor<i64> {onnx.name = "n"}, tensor<3xf32> {onnx.name = "at"}, tensor<7xf32> {onnx.name = "cat"}, tensor<2xf32> {onnx.name = "none"}, tensor<0xf32> {onnx.name = "empty[]"})
// CHECK-NOT: onnx.Sequence
// CHECK-DAG: %[[N:.*]] = "onnx.Constant"() <{value = dense<3> : tensor<i64>}>
// CHECK-DAG: %[[CAT:.*]] = "onnx.Concat"(%arg0, %arg1, %arg0) <{axis = 0 : i64}> : (tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<7xf32>
// CHECK-DAG: %[[EMPTY:.*]] = "onnx.Constant"() <{value = dense<> : tensor<0xf32>}>
// CHECK: return %arg0, %arg0, %[[N]], %arg1, %[[CAT]], %arg0, %[[EMPTY]]
func.func @resolved(%arg0: tensor<2xf32> {onnx.name = "x"}, %arg1: tensor<3xf32> {onnx.name = "y"}) -> (!onnx.Seq<tensor<2xf32>> {onnx.name = "out"}, tensor<i64> {onnx.name = "n"}, tensor<3xf32> {onnx.name = "at"}, tensor<7xf32> {onnx.name = "cat"}, !onnx.Opt<tensor<2xf32>> {onnx.name = "none"}, !onnx.Seq<tensor<2xf32>> {onnx.name = "empty"}) attributes {onnx.opset = 17 : i64} {
  %0 = "onnx.SequenceConstruct"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
  %1 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
  %2 = "onnx.SequenceInsert"(%0, %arg1, %1) : (!onnx.Seq<tensor<2xf32>>, tensor<3xf32>, tensor<i64>) -> !onnx.Seq<tensor<?xf32>>
  %3 = "onnx.SequenceLength"(%2) : (!onnx.Seq<tensor<?xf32>>) -> tensor<i64>
  %4 = "onnx.SequenceAt"(%2, %1) : (!onnx.Seq<tensor<?xf32>>, tensor<i64>) -> tensor<3xf32>
  %5 = "onnx.Constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %6 = "onnx.SequenceErase"(%2, %1) : (!onnx.Seq<tensor<?xf32>>, tensor<i64>) -> !onnx.Seq<tensor<?xf32>>
  %7 = "onnx.ConcatFromSequence"(%2) <{axis = 0 : i64}> : (!onnx.Seq<tensor<?xf32>>) -> tensor<7xf32>
  %8 = "onnx.Identity"(%6) : (!onnx.Seq<tensor<?xf32>>) -> !onnx.Seq<tensor<2xf32>>
  %9 = "onnx.SequenceErase"(%0, %5) : (!onnx.Seq<tensor<2xf32>>, tensor<i64>) -> !onnx.Seq<tensor<2xf32>>
  %10 = "onnx.SequenceErase"(%9, %5) : (!onnx.Seq<tensor<2xf32>>, tensor<i64>) -> !onnx.Seq<tensor<2xf32>>
  %11 = "onnx.Optional"(%arg0) : (tensor<2xf32>) -> !onnx.Opt<tensor<2xf32>>
  return %8, %3, %4, %7, %11, %10 : !onnx.Seq<tensor<2xf32>>, tensor<i64>, tensor<3xf32>, tensor<7xf32>, !onnx.Opt<tensor<2xf32>>, !onnx.Seq<tensor<2xf32>>
}

// CHECK-LABEL: func.func @unrolled
// CHECK-SAME: -> (tensor<2x2xf32> {onnx.name = "parts[0]"}, tensor<2x1xf32> {onnx.name = "parts[1]"}, tensor<2x3xf32> {onnx.name = "squares[0]"}, tensor<2x3xf32> {onnx.name = "squares[1]"}, tensor<f32> {onnx.name = "grown[0]"}, tensor<f32> {onnx.name = "grown[1]"})
// CHECK-NOT: onnx.Sequence
// CHECK-NOT: onnx.Loop
// CHECK-DAG: %[[ONE:.*]] = "onnx.Constant"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-DAG: %[[ZERO:.*]] = "onnx.Constant"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK-DAG: %[[P0:.*]] = "onnx.Slice"(%arg0, {{.*}}) : ({{.*}}) -> tensor<2x2xf32>
// CHECK-DAG: %[[P1:.*]] = "onnx.Slice"(%arg0, {{.*}}) : ({{.*}}) -> tensor<2x1xf32>
// CHECK-DAG: %[[S0:.*]] = "onnx.Mul"(%arg0, %arg0)
// CHECK-DAG: %[[S1:.*]] = "onnx.Mul"(%arg0, %arg0)
// CHECK: return %[[P0]], %[[P1]], %[[S0]], %[[S1]], %[[ZERO]], %[[ONE]]
func.func @unrolled(%arg0: tensor<2x3xf32> {onnx.name = "x"}) -> (!onnx.Seq<tensor<2x1xf32>> {onnx.name = "parts"}, !onnx.Seq<tensor<2x3xf32>> {onnx.name = "squares"}, !onnx.Seq<tensor<f32>> {onnx.name = "grown"}) attributes {onnx.opset = 17 : i64} {
  %0 = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  %1 = "onnx.SplitToSequence"(%arg0, %0) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<i64>) -> !onnx.Seq<tensor<*xf32>>
  %2 = "onnx.SequenceMap"(%1) ({
  ^bb0(%arg1: tensor<2x1xf32>):
    "onnx.Yield"(%arg1) : (tensor<2x1xf32>) -> ()
  }) : (!onnx.Seq<tensor<*xf32>>) -> !onnx.Seq<tensor<2x1xf32>>
  %3 = "onnx.SequenceConstruct"(%arg0, %arg0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> !onnx.Seq<tensor<2x3xf32>>
  %4 = "onnx.SequenceMap"(%3) ({
  ^bb0(%arg2: tensor<2x3xf32>):
    %5 = "onnx.Mul"(%arg2, %arg2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "onnx.Yield"(%5) : (tensor<2x3xf32>) -> ()
  }) : (!onnx.Seq<tensor<2x3xf32>>) -> !onnx.Seq<tensor<2x3xf32>>
  %6 = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<*xf32>>
  %7 = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  %8 = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %9 = "onnx.Loop"(%7, %8, %6) ({
  ^bb0(%arg3: tensor<i64>, %arg4: tensor<i1>, %arg5: !onnx.Seq<tensor<*xf32>>):
    %10 = "onnx.Cast"(%arg3) <{to = 1 : i64}> : (tensor<i64>) -> tensor<f32>
    %11 = "onnx.SequenceInsert"(%arg5, %10) : (!onnx.Seq<tensor<*xf32>>, tensor<f32>) -> !onnx.Seq<tensor<*xf32>>
    "onnx.Yield"(%arg4, %11) : (tensor<i1>, !onnx.Seq<tensor<*xf32>>) -> ()
  }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<*xf32>>) -> !onnx.Seq<tensor<f32>>
  return %2, %4, %9 : !onnx.Seq<tensor<2x1xf32>>, !onnx.Seq<tensor<2x3xf32>>, !onnx.Seq<tensor<f32>>
}

// A Loop whose body's shapes change with the iteration (a Slice from the
// iteration number) unrolls too: each copy has static shapes (its Slice of
// the constant folds to the iteration's element), and the scan output is its
// rows stacked.
// CHECK-LABEL: func.func @sliding
// CHECK-DAG: %[[E1:.*]] = "onnx.Constant"() <{value = dense<1.000000e+00> : tensor<1xf32>}>
// CHECK-DAG: %[[E2:.*]] = "onnx.Constant"() <{value = dense<2.000000e+00> : tensor<1xf32>}>
// CHECK-DAG: %[[E3:.*]] = "onnx.Constant"() <{value = dense<3.000000e+00> : tensor<1xf32>}>
// CHECK: %[[S1:.*]] = "onnx.Add"(%arg0, %[[E1]])
// CHECK: %[[S2:.*]] = "onnx.Add"(%[[S1]], %[[E2]])
// CHECK: "onnx.Add"(%[[S2]], %[[E3]])
// CHECK-COUNT-3: "onnx.Unsqueeze"({{.*}}) -> tensor<1x1xf32>
// CHECK: "onnx.Concat"({{.*}}) <{axis = 0 : i64}> : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<3x1xf32>
func.func @sliding(%arg0: tensor<1xf32> {onnx.name = "y"}) -> (tensor<1xf32> {onnx.name = "res_y"}, tensor<3x1xf32> {onnx.name = "res_scan"}) attributes {onnx.opset = 17 : i64} {
  %0 = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %1 = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %2:2 = "onnx.Loop"(%0, %1, %arg0) ({
  ^bb0(%arg1: tensor<i64>, %arg2: tensor<i1>, %arg3: tensor<1xf32>):
    %3 = "onnx.Constant"() <{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<5xf32>}> : () -> tensor<5xf32>
    %4 = "onnx.Constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %5 = "onnx.Add"(%arg1, %4) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %6 = "onnx.Constant"() <{value = dense<0> : tensor<1xi64>}> : () -> tensor<1xi64>
    %7 = "onnx.Unsqueeze"(%arg1, %6) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
    %8 = "onnx.Unsqueeze"(%5, %6) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
    %9 = "onnx.Slice"(%3, %7, %8) : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
    %10 = "onnx.Add"(%arg3, %9) : (tensor<1xf32>, tensor<?xf32>) -> tensor<1xf32>
    "onnx.Yield"(%arg2, %10, %10) : (tensor<i1>, tensor<1xf32>, tensor<1xf32>) -> ()
  }) : (tensor<i64>, tensor<i1>, tensor<1xf32>) -> (tensor<1xf32>, tensor<3x1xf32>)
  return %2#0, %2#1 : tensor<1xf32>, tensor<3x1xf32>
}
