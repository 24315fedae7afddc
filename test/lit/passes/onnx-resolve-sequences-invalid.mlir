// Sequences and optionals the compilers cannot resolve at compile time are
// errors at the node that reads them, saying why; nothing is half-rewritten.
// RUN: npu-opt %s --verify-diagnostics --pass-pipeline='builtin.module(onnx-resolve-sequences{max-unrolled-ops=100})'

func.func @at_out_of_range(%x: tensor<2xf32>) -> tensor<2xf32> {
  %s = "onnx.SequenceConstruct"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
  %p = "onnx.Constant"() <{value = dense<2> : tensor<i64>}> : () -> tensor<i64>
  // expected-error @+1 {{cannot resolve 'onnx.SequenceAt' at compile time: position 2 is out of range for a sequence of 2 tensors}}
  %e = "onnx.SequenceAt"(%s, %p) : (!onnx.Seq<tensor<2xf32>>, tensor<i64>) -> tensor<2xf32>
  return %e : tensor<2xf32>
}

func.func @erase_empty() -> !onnx.Seq<tensor<2xf32>> {
  %s = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<2xf32>>
  // expected-error @+1 {{cannot resolve 'onnx.SequenceErase' at compile time: SequenceErase of an empty sequence}}
  %e = "onnx.SequenceErase"(%s) : (!onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  return %e : !onnx.Seq<tensor<2xf32>>
}

func.func @get_nothing() -> tensor<2xf32> {
  %o = "onnx.Optional"() <{type = tensor<2xf32>}> : () -> !onnx.Opt<tensor<2xf32>>
  // expected-error @+1 {{cannot resolve 'onnx.OptionalGetElement' at compile time: the optional is empty (OptionalGetElement of nothing)}}
  %e = "onnx.OptionalGetElement"(%o) : (!onnx.Opt<tensor<2xf32>>) -> tensor<2xf32>
  return %e : tensor<2xf32>
}

func.func @optional_argument(%o: !onnx.Opt<tensor<2xf32>>) -> tensor<i1> {
  // expected-error @+1 {{cannot resolve 'onnx.OptionalHasElement' at compile time: whether its optional holds a value is not known at compile time}}
  %h = "onnx.OptionalHasElement"(%o) : (!onnx.Opt<tensor<2xf32>>) -> tensor<i1>
  return %h : tensor<i1>
}

func.func @split_mismatch(%x: tensor<4xf32>) -> !onnx.Seq<tensor<*xf32>> {
  %k = "onnx.Constant"() <{value = dense<[1, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
  // expected-error @+1 {{cannot resolve 'onnx.SplitToSequence' at compile time: split [1, 2] does not add up to the axis' 4 elements}}
  %s = "onnx.SplitToSequence"(%x, %k) : (tensor<4xf32>, tensor<2xi64>) -> !onnx.Seq<tensor<*xf32>>
  return %s : !onnx.Seq<tensor<*xf32>>
}

func.func @if_at_run_time(%c: tensor<i1>, %x: tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>> {
  // expected-error @+1 {{cannot resolve 'onnx.If' at compile time: it chooses a sequence or optional value at run time; its condition must be known at compile time}}
  %r = "onnx.If"(%c) ({
    %s = "onnx.SequenceConstruct"(%x) : (tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    "onnx.Yield"(%s) : (!onnx.Seq<tensor<2xf32>>) -> ()
  }, {
    %s = "onnx.SequenceConstruct"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    "onnx.Yield"(%s) : (!onnx.Seq<tensor<2xf32>>) -> ()
  }) : (tensor<i1>) -> !onnx.Seq<tensor<2xf32>>
  return %r : !onnx.Seq<tensor<2xf32>>
}

func.func @never_ends(%x: tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>> {
  %none = "onnx.NoValue"() : () -> none
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %e = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<2xf32>>
  // expected-error @+1 {{cannot resolve 'onnx.Loop' at compile time: it has no trip count and its condition stays true: it would never end}}
  %r = "onnx.Loop"(%none, %t, %e) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: !onnx.Seq<tensor<2xf32>>):
    %a = "onnx.SequenceInsert"(%acc, %x) : (!onnx.Seq<tensor<2xf32>>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    "onnx.Yield"(%c, %a) : (tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> ()
  }) : (none, tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  return %r : !onnx.Seq<tensor<2xf32>>
}

func.func @too_many(%x: tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>> {
  %n = "onnx.Constant"() <{value = dense<1000> : tensor<i64>}> : () -> tensor<i64>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %e = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<2xf32>>
  // expected-error @+1 {{cannot resolve 'onnx.Loop' at compile time: unrolling 1000 copies of a body of 2 ops is more than the 100 ops left to unroll (max-unrolled-ops)}}
  %r = "onnx.Loop"(%n, %t, %e) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: !onnx.Seq<tensor<2xf32>>):
    %a = "onnx.SequenceInsert"(%acc, %x) : (!onnx.Seq<tensor<2xf32>>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    "onnx.Yield"(%c, %a) : (tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> ()
  }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  return %r : !onnx.Seq<tensor<2xf32>>
}

func.func @condition_from_data(%x: tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>> {
  %n = "onnx.Constant"() <{value = dense<3> : tensor<i64>}> : () -> tensor<i64>
  %t = "onnx.Constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %e = "onnx.SequenceEmpty"() <{dtype = 1 : i64}> : () -> !onnx.Seq<tensor<2xf32>>
  // expected-error @+1 {{cannot resolve 'onnx.Loop' at compile time: its body computes the condition; a Loop that carries a sequence needs one known at compile time}}
  %r = "onnx.Loop"(%n, %t, %e) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %acc: !onnx.Seq<tensor<2xf32>>):
    %a = "onnx.SequenceInsert"(%acc, %x) : (!onnx.Seq<tensor<2xf32>>, tensor<2xf32>) -> !onnx.Seq<tensor<2xf32>>
    %m = "onnx.ReduceMax"(%x) <{keepdims = 0 : i64}> : (tensor<2xf32>) -> tensor<f32>
    %z = "onnx.Constant"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
    %go = "onnx.Less"(%m, %z) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "onnx.Yield"(%go, %a) : (tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> ()
  }) : (tensor<i64>, tensor<i1>, !onnx.Seq<tensor<2xf32>>) -> !onnx.Seq<tensor<2xf32>>
  return %r : !onnx.Seq<tensor<2xf32>>
}
