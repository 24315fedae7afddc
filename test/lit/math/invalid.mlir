// The math dialect's type constraints.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: i32) {
  // expected-error @+1 {{'math.exp' op operand #0 must be floating-point-like, but got 'i32'}}
  %y = "math.exp"(%x) : (i32) -> i32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{'math.absi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %y = "math.absi"(%x) : (f32) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+1 {{'math.isnan' op result #0 must be bool-like, but got 'f32'}}
  %y = "math.isnan"(%x) : (f32) -> f32
  return
}

// -----

func.func @f(%x: f32) {
  // A missing type is found at the next line's first token.
  // expected-error @+2 {{expected ':'}}
  %y = math.exp %x fastmath<fast>
  return
}

// -----

func.func @f(%x: i32) {
  // Integer ops take no fast-math flags: the keyword is not theirs.
  // expected-error @+1 {{expected ':'}}
  %y = math.absi %x fastmath<fast> : i32
  return
}
