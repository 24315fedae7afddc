// -o writes the result; on failure nothing is written (no partial file), the
// exit code is non-zero; `-` reads standard input.
// RUN: rm -f %t.ok %t.bad
// RUN: npu-opt %s -o %t.ok
// RUN: FileCheck %s < %t.ok
// RUN: not npu-opt %S/Inputs/split-error.mlir -o %t.bad
// RUN: not test -e %t.bad
// RUN: npu-opt - < %s | FileCheck %s
// RUN: not npu-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: func.func private @kept()
func.func private @kept()

// MISSING: error: could not open input file
