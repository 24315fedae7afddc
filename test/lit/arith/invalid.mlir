// Each verifier error of the arith dialect.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: i32, %b: i64) {
  // expected-error @+1 {{'arith.addi' op requires the same type for all operands and results}}
  %0 = "arith.addi"(%a, %b) : (i32, i64) -> i32
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'}}
  %0 = arith.addi %a, %a : f32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addf' op operand #0 must be floating-point-like, but got 'i32'}}
  %0 = arith.addf %a, %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.addi' op requires 2 operands, but found 1}}
  %0 = "arith.addi"(%a) : (i32) -> i32
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'arith.constant' op value type 'i32' must match result type 'i64'}}
  %0 = "arith.constant"() <{value = 1 : i32}> : () -> i64
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'arith.constant' op requires attribute 'value'}}
  %0 = "arith.constant"() : () -> i64
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'arith.constant' op attribute 'value' failed to satisfy constraint: an integer, float or elements attribute}}
  %0 = "arith.constant"() <{value = "str"}> : () -> i64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.extsi' op result type 'i16' must be wider than operand type 'i32'}}
  %0 = arith.extsi %a : i32 to i16
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.trunci' op result type 'i64' must be shorter than operand type 'i32'}}
  %0 = arith.trunci %a : i32 to i64
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.extf' op result type 'f16' must be wider than operand type 'f32'}}
  %0 = arith.extf %a : f32 to f16
  return
}

// -----

func.func @f(%a: f32) {
  // expected-error @+1 {{'arith.truncf' op result type 'f64' must be shorter than operand type 'f32'}}
  %0 = arith.truncf %a : f32 to f64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.index_cast' op exactly one of operand 'i32' and result 'i64' must be index}}
  %0 = arith.index_cast %a : i32 to i64
  return
}

// -----

func.func @f(%a: index) {
  // expected-error @+1 {{'arith.extsi' op operand and result must not be index; use arith.index_cast}}
  %0 = arith.extsi %a : index to i64
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'i32' and result type 'f64' must have the same bit width}}
  %0 = arith.bitcast %a : i32 to f64
  return
}

// -----

func.func @f(%a: tensor<4xi32>) {
  // expected-error @+1 {{'arith.extsi' op requires the same shape for all operands and results}}
  %0 = "arith.extsi"(%a) : (tensor<4xi32>) -> tensor<2xi64>
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{invalid predicate 'less', expected one of: eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge}}
  %0 = arith.cmpi less, %a, %a : i32
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op predicate 42 is out of range (0..9)}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
  return
}

// -----

func.func @f(%a: i32, %b: i64) {
  // expected-error @+1 {{'arith.cmpi' op requires all operands to have the same type}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 0 : i64}> : (i32, i64) -> i1
  return
}

// -----

func.func @f(%a: i32) {
  // expected-error @+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i32'}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> i32
  return
}

// -----

func.func @f(%a: tensor<4xf32>) {
  // expected-error @+1 {{'arith.cmpf' op result type 'i1' must be i1 with the shape of the operands ('tensor<4xf32>')}}
  %0 = "arith.cmpf"(%a, %a) <{predicate = 1 : i64}> : (tensor<4xf32>, tensor<4xf32>) -> i1
  return
}

// -----

func.func @f(%c: i1, %a: i32, %b: i64) {
  // expected-error @+1 {{'arith.select' op requires the true value, false value and result to have the same type ('i32', 'i64', 'i32')}}
  %0 = "arith.select"(%c, %a, %b) : (i1, i32, i64) -> i32
  return
}

// -----

func.func @f(%c: i32, %a: i32) {
  // expected-error @+1 {{'arith.select' op operand #0 must be bool-like, but got 'i32'}}
  %0 = "arith.select"(%c, %a, %a) : (i32, i32, i32) -> i32
  return
}

// -----

func.func @f(%c: vector<2xi1>, %a: vector<4xf32>) {
  // expected-error @+1 {{'arith.select' op expected condition type to have the same shape as the result type}}
  %0 = arith.select %c, %a, %a : vector<2xi1>, vector<4xf32>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{expected an integer, float or elements value for 'arith.constant'}}
  %0 = arith.constant "x"
  return
}
