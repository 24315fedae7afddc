// Each verifier error of the llvm dialect's op definitions.
// RUN: npu-opt %s --split-input-file --verify-diagnostics

func.func @f(%a: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'llvm.call_intrinsic' op requires attribute 'intrin'}}
  %r = "llvm.call_intrinsic"(%a) <{operandSegmentSizes = array<i32: 1, 0>}> : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

// -----

func.func @f(%a: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'llvm.call_intrinsic' op expects 'intrin' to be a string naming an LLVM intrinsic}}
  %r = "llvm.call_intrinsic"(%a) <{intrin = "x86.vpdpbusd", operandSegmentSizes = array<i32: 1, 0>}> : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

// -----

func.func @f(%a: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'llvm.call_intrinsic' op requires attribute 'operandSegmentSizes'}}
  %r = "llvm.call_intrinsic"(%a) <{intrin = "llvm.x86.avx512.vpdpbusd.512"}> : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

// -----

func.func @f(%a: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'llvm.call_intrinsic' op operandSegmentSizes covers 3 operands, the op has 1}}
  %r = "llvm.call_intrinsic"(%a) <{intrin = "llvm.x86.avx512.vpdpbusd.512", operandSegmentSizes = array<i32: 3, 0>}> : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}

// -----

func.func @f(%a: vector<16xi32>) -> vector<16xi32> {
  // expected-error @+1 {{'llvm.call_intrinsic' op expects 'operandSegmentSizes' to be array<i32: arguments, bundle operands>}}
  %r = "llvm.call_intrinsic"(%a) <{intrin = "llvm.x86.avx512.vpdpbusd.512", operandSegmentSizes = array<i32: 1>}> : (vector<16xi32>) -> vector<16xi32>
  return %r : vector<16xi32>
}
