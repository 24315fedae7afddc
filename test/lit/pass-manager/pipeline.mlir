// Pipelines: textual form printed back identically; per-pass flags nest
// anchored passes automatically and mean the same pipeline.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(cse,canonicalize{max-iterations=10}),symbol-dce)' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: npu-opt %s --cse --canonicalize=max-iterations=3 --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAGS
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,cse))' | FileCheck %s
// RUN: npu-opt %s --canonicalize --cse | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='builtin.module(any(canonicalize))' | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='  builtin.module( func.func( canonicalize , cse ) )  ' | FileCheck %s

// DUMP: builtin.module(func.func(cse,canonicalize{max-iterations=10}),symbol-dce)
// FLAGS: builtin.module(cse,canonicalize{max-iterations=3})

// CHECK-LABEL: func.func @f
// CHECK-NEXT:    %[[C:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    return %[[C]]
func.func @f() -> i32 {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %c2 : i32
  return %0 : i32
}
