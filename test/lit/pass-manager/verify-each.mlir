// The verifier runs after every pass (a pass that breaks the IR is caught and
// named); --verify-each=false turns that off.
// RUN: not npu-opt %s --pass-pipeline='builtin.module(func.func(test-break-ir))' 2>&1 | FileCheck %s
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(test-break-ir))' --verify-each=false --mlir-print-op-generic | FileCheck %s --check-prefix=OFF

// CHECK: error: 'func.return' op operand #0 does not dominate this use
// CHECK: note: the IR failed to verify after pass 'test-break-ir'

// OFF: "func.return"
// OFF: "arith.addi"

func.func @f(%x: i32) -> i32 {
  %0 = arith.addi %x, %x : i32
  return %0 : i32
}
