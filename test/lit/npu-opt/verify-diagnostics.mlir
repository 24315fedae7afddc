// --verify-diagnostics reports both unexpected diagnostics and expected ones
// that were not produced, and fails.
// RUN: not npu-opt %S/Inputs/wrong-expectations.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: wrong-expectations.mlir:3:3: error: unexpected error: 'func.return' op type of return operand 0
// CHECK: wrong-expectations.mlir:2:6: error: expected error "this message is not the one produced" was not produced
// CHECK: wrong-expectations.mlir:9:6: error: expected error "never produced" was not produced
// The regex form with @+1 misses (the error is on the return, two lines down):
// CHECK: wrong-expectations.mlir:17:3: error: unexpected error: 'func.return' op type of return operand 0
// CHECK: wrong-expectations.mlir:15:4: error: expected error "'func.return' op type of return operand {{.*}}" was not produced
