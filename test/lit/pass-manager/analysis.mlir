// Cached analyses: a pass that preserves analyses lets the next pass reuse the
// cached result; otherwise it is recomputed.
// RUN: npu-opt %s --pass-pipeline='builtin.module(test-analysis{preserve=true},test-analysis)' --verify-diagnostics --split-input-file
// RUN: npu-opt %s --pass-pipeline='builtin.module(test-analysis,test-analysis)' --split-input-file 2>&1 | FileCheck %s

// CHECK: remark: op count 3 (computed)
// CHECK: remark: op count 3 (computed)

// expected-remark @below {{op count 3 (computed)}}
// expected-remark @below {{op count 3 (cached)}}
module {
  func.func private @f()
  func.func private @g()
}
