// Each verifier error of the vector dialect's op definitions.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{'vector.shuffle' op requires attribute 'mask'}}
  %s = "vector.shuffle"(%a, %a) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  return %s : vector<8xf32>
}

// -----

func.func @f(%a: vector<8xf32>) -> f32 {
  // expected-error @+1 {{'vector.reduction' op requires attribute 'kind'}}
  %s = "vector.reduction"(%a) : (vector<8xf32>) -> f32
  return %s : f32
}

// -----

func.func @f(%a: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{'vector.fma' op}}
  %s = "vector.fma"(%a, %a) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
  return %s : vector<8xf32>
}
