// A failed conversion names every op it could not legalize, at its location,
// and fails the pass (so the IR is not printed).
// RUN: npu-opt %s --allow-unregistered-dialect --verify-diagnostics --pass-pipeline='builtin.module(test-convert-to-test)'
// RUN: npu-opt %s --allow-unregistered-dialect --verify-diagnostics --pass-pipeline='builtin.module(test-convert-to-test{full=false})'

func.func @fails(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  // expected-error @+1 {{failed to legalize operation 'arith.muli'}}
  %1 = arith.muli %0, %x : i32
  // expected-error @+1 {{failed to legalize operation 'arith.subi'}}
  %2 = arith.subi %1, %x : i32
  return %2 : i32
}
