// --mlir-pass-statistics: counters per pass, under their pipeline, summed over
// every op the pass ran on.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse),symbol-dce)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s

// CHECK: ... Pass statistics report ...
// CHECK: 'func.func' Pipeline
// CHECK-NEXT:   CSE
// CHECK-NEXT:     (S) 2 num-cse'd - Number of operations CSE'd
// CHECK-NEXT:     (S) 1 num-dce'd - Number of operations DCE'd
// CHECK-NEXT: SymbolDCE
// CHECK-NEXT:   (S) 1 num-dce'd - Number of symbols DCE'd

func.func @f(%x: i32) -> (i32, i32) {
  %0 = arith.addi %x, %x : i32
  %1 = arith.addi %x, %x : i32
  %dead = arith.muli %x, %x : i32
  return %0, %1 : i32, i32
}
func.func @g(%x: i32) -> (i32, i32) {
  %0 = arith.subi %x, %x : i32
  %1 = arith.subi %x, %x : i32
  return %0, %1 : i32, i32
}
func.func private @unused()
