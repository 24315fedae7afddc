// Chunks are processed separately; output is joined with the separator; line
// numbers in diagnostics are those of the whole file.
// RUN: npu-opt %s --split-input-file | FileCheck %s
// RUN: not npu-opt %S/Inputs/split-error.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: func.func private @first
// CHECK: // -----
// CHECK: func.func private @second
func.func private @first()

// -----

func.func private @second()

// ERR: split-error.mlir:7:3: error: 'func.return' op has 1 operands, but enclosing function (@b) returns 0
// ERR-NEXT: {{^}}  return %x : i32
// ERR-NEXT: {{^}}  ^
