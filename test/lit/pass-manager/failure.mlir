// A failing pass stops the pipeline with its error at the op it ran on, the
// exit code is 1 and no output is written.
// RUN: npu-opt %s --pass-pipeline='builtin.module(func.func(test-fail))' --verify-diagnostics
// RUN: rm -f %t && not npu-opt %s --pass-pipeline='builtin.module(func.func(test-fail))' -o %t && not test -e %t

// expected-error @+1 {{test-fail: failing on purpose}}
func.func @f() {
  return
}
