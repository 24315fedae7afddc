// A scalar two-layer perceptron with a ReLU, written with func and arith:
// the dialects the framework core ships today.
func.func @neuron(%x0: f32, %x1: f32, %w0: f32, %w1: f32, %b: f32) -> f32 {
  %0 = arith.mulf %x0, %w0 : f32
  %1 = arith.mulf %x1, %w1 : f32
  %2 = arith.addf %0, %1 : f32
  %3 = arith.addf %2, %b : f32
  %zero = arith.constant 0.0 : f32
  %4 = arith.maximumf %3, %zero : f32
  return %4 : f32
}

func.func @mlp(%x0: f32, %x1: f32) -> f32 attributes {npu.entry} {
  %w00 = arith.constant 0.5 : f32
  %w01 = arith.constant -1.25 : f32
  %w10 = arith.constant 2.0 : f32
  %w11 = arith.constant 0.75 : f32
  %b = arith.constant 0.1 : f32
  %h0 = call @neuron(%x0, %x1, %w00, %w01, %b) : (f32, f32, f32, f32, f32) -> f32
  %h1 = call @neuron(%x0, %x1, %w10, %w11, %b) : (f32, f32, f32, f32, f32) -> f32
  %y = call @neuron(%h0, %h1, %w00, %w11, %b) : (f32, f32, f32, f32, f32) -> f32
  return %y : f32
}
