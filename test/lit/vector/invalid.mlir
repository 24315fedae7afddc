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

// -----

func.func @f(%a: vector<64xi8>) -> vector<8xi32> {
  // expected-error @+1 {{'vector.bitcast' op expects source and result of the same bit width, got 512 and 256 bits}}
  %s = "vector.bitcast"(%a) : (vector<64xi8>) -> vector<8xi32>
  return %s : vector<8xi32>
}

// -----

func.func @f(%a: i32) -> vector<4xi8> {
  // expected-error @+1 {{'vector.bitcast' op expects vector source and result types}}
  %s = "vector.bitcast"(%a) : (i32) -> vector<4xi8>
  return %s : vector<4xi8>
}
