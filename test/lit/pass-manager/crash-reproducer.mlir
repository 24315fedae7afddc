// A crashing pass is reported (not a process abort) and, with
// --mlir-pass-pipeline-crash-reproducer, leaves a file holding the input and the
// pipeline; `npu-opt FILE` replays the same crash from it.
// RUN: rm -f %t.repro
// RUN: not npu-opt %s --pass-pipeline='builtin.module(func.func(canonicalize,test-crash))' --mlir-pass-pipeline-crash-reproducer=%t.repro 2>&1 | FileCheck %s --check-prefix=CRASH
// RUN: FileCheck %s --check-prefix=FILE < %t.repro
// RUN: not npu-opt %t.repro 2>&1 | FileCheck %s --check-prefix=REPLAY
// A reproducer of a passing pipeline replays without error.
// RUN: npu-opt %t.repro --pass-pipeline='builtin.module(func.func(canonicalize))' | FileCheck %s --check-prefix=OVERRIDE

// CRASH: error: pass 'test-crash' crashed: test-crash: crashing on purpose
// CRASH: note: a reproducer was written to '{{.*}}.repro'

// The input as it was when the pipeline started, then the pipeline.
// FILE: "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}>
// FILE: "arith.addi"
// FILE: {-#
// FILE-NEXT: external_resources: {
// FILE-NEXT: mlir_reproducer: {
// FILE-NEXT: pipeline: "builtin.module(func.func(canonicalize,test-crash))",
// FILE: #-}

// REPLAY: error: pass 'test-crash' crashed: test-crash: crashing on purpose

// OVERRIDE: func.func @f
// OVERRIDE-NOT: arith.addi %arg0, %c

func.func @f(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %x, %c0 : i32
  return %0 : i32
}
