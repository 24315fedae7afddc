// IR printing around passes: before/after named passes, all, only on change,
// after failure, and the whole module instead of the anchor op.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-before=canonicalize -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-after=cse -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize))' --mlir-print-ir-before-all --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,cse,canonicalize))' --mlir-print-ir-after-change -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHANGE
// RUN: not npu-opt %s --pass-pipeline='builtin.module(func.func(cse,test-fail))' --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=FAILURE
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse))' --mlir-print-ir-after=cse --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODULE

// BEFORE-NOT: IR Dump Before CSE
// BEFORE: // -----// IR Dump Before Canonicalizer (canonicalize) //----- //
// BEFORE-NEXT: func.func @f(%arg0: i32) -> i32 {
// BEFORE-NOT: IR Dump

// AFTER: // -----// IR Dump After CSE (cse) //----- //
// AFTER-NEXT: func.func @f
// AFTER: %[[A:.*]] = arith.addi %arg0
// AFTER-NEXT: arith.muli %[[A]], %[[A]]
// AFTER-NOT: IR Dump

// ALL: IR Dump Before CSE (cse)
// ALL: IR Dump After CSE (cse)
// ALL: IR Dump Before Canonicalizer (canonicalize)
// ALL: IR Dump After Canonicalizer (canonicalize)

// The second cse finds nothing to do: no dump after it.
// CHANGE: IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump After CSE (cse)
// CHANGE: IR Dump After Canonicalizer (canonicalize)

// FAILURE: IR Dump After Failed test-fail (test-fail)
// FAILURE-NEXT: func.func @f
// FAILURE: error: test-fail: failing on purpose

// MODULE: IR Dump After CSE (cse)
// MODULE-NEXT: module {

func.func @f(%x: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c1 : i32
  %1 = arith.addi %x, %c1 : i32
  %2 = arith.muli %0, %1 : i32
  %3 = arith.addi %2, %c0 : i32
  return %3 : i32
}
