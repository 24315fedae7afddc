// canonicalize options: with test-convergence, a sweep limit too small for the
// fixed point is an error naming the limit; two sweeps are enough here (one
// to rewrite, one to see nothing changes); max-num-rewrites=0 changes nothing;
// bottom-up order reaches the same result.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=1 test-convergence=true}))' --verify-diagnostics
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2 test-convergence=true}))' | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{max-num-rewrites=0}))' | FileCheck %s --check-prefix=NONE
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize{top-down=false}))' | FileCheck %s

// With no rewrites allowed nothing changes.
// NONE-COUNT-2: arith.addi

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %[[C:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    return %[[C]]
// expected-error @+1 {{canonicalizer failed to converge within 1 iterations}}
func.func @f() -> i32 {
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %c1, %c1 : i32
  %1 = arith.addi %0, %0 : i32
  return %1 : i32
}
