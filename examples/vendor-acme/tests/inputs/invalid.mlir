func.func @bad(%a: tensor<4x8xf32>, %b: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{[4, 8] x [3, 2] cannot give [4, 2]}}
  %0 = "acme.matmul"(%a, %b) : (tensor<4x8xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @vectors(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{operands and result must be matrices}}
  %0 = "acme.matmul"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
